#!/usr/bin/env python3
"""Build, install and test Marginalia.

    python3 build.py            build dist/marginalia.oxt
    python3 build.py install [--shared]
                                build and add it to your LibreOffice (replaces an older one);
                                --shared, as root: for every user of the machine
    python3 build.py uninstall [--shared]
                                remove it from your LibreOffice; --shared, as root: for every user
    python3 build.py admin-config --endpoint URL --model NAME [--lock FIELD ...] [--out PATH]
                                an administrator's settings as a configuration extension
                                (docs/ADMIN.md)
    python3 build.py test [-- pytest args]
                                prepare what the tests need (.venv with pytest over the
                                Python that has LibreOffice's uno, dist/marginalia-tests.oxt
                                with the tests' own job commands) and run the whole suite
    python3 build.py pot        write extension/locale/marginalia.pot, every string a user sees,
                                and bring each language's .po in step with it
    python3 build.py check-corpus [DIR] [-- options]
                                every edit tool in every apply mode over the .odt and .docx
                                of DIR (default ../shared/corpus), checked for harm
    python3 build.py test-in-debian [SUITE] [-- pytest args]
                                as root: run `build.py test` inside a fresh Debian SUITE
                                root (default trixie, today's LibreOffice), via debootstrap

`install` and `test` first install the Debian packages they need when they are missing
(apt-get as root, or through `sudo -n`; otherwise they print the command). Standard
library only; runs on the Python that is on PATH.
"""

import os
import re
import shutil
import subprocess
import sys
import zipfile
from typing import Callable, Iterable, List, NamedTuple, NoReturn, Optional
from xml.etree import ElementTree

ROOT = os.path.dirname(os.path.abspath(__file__))
DIST = os.path.join(ROOT, "dist")
OXT = os.path.join(DIST, "marginalia.oxt")
# The test-only extension: the job commands only tests and bench/ use (tests/extension).
TEST_OXT = os.path.join(DIST, "marginalia-tests.oxt")
TEST_EXTENSION = os.path.join(ROOT, "tests", "extension")
VENV = os.path.join(ROOT, ".venv")
MANIFEST_NS = "{http://openoffice.org/2001/manifest}"
# A fixed date keeps the archive byte-for-byte reproducible.
ZIP_DATE = (2026, 1, 1, 0, 0, 0)


# Debian (and Ubuntu) packages, each with the sign that shows it is there: "command:NAME" on
# PATH, "office:FILE" in LibreOffice's program folder, "python:MODULE" importable by the Python
# that has uno, "file:PATH". Signs test what is there, not what dpkg says, so a LibreOffice
# installed another way counts too.
PACKAGES = (
    ("libreoffice-writer", "office:libswlo.so"),
    ("libreoffice-script-provider-python", "office:pythonscript.py"),
    ("python3-uno", "python:uno"),
    # PDF sources (office/source_reader.py): LibreOffice's PDF import; Debian ships it in
    # libreoffice-core (no libreoffice-pdfimport package there), other builds may leave it out.
    ("libreoffice-core", "office:libpdfimportlo.so"),
    ("libreoffice-gtk3", "office:libvclplug_gtk3lo.so"),
    ("python3-venv", "python:ensurepip"),
    ("xvfb", "command:Xvfb"),
    ("xdotool", "command:xdotool"),
    ("imagemagick", "command:import"),
    ("fonts-dejavu-core", "file:/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    # The office in German, Arabic and Japanese for the language tests (issue 26), and a
    # font with Japanese glyphs for the window's screenshots.
    ("libreoffice-l10n-de", "office:resource/de/LC_MESSAGES/sw.mo"),
    ("libreoffice-l10n-ar", "office:resource/ar/LC_MESSAGES/sw.mo"),
    ("libreoffice-l10n-ja", "office:resource/ja/LC_MESSAGES/sw.mo"),
    ("fonts-ipafont-gothic", "file:/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf"),
    # Chinese and Korean glyphs, so the fit test judges those catalogs' pages too.
    ("fonts-wqy-microhei", "file:/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),
    # pytest from Debian's archive, which the .venv sees (--system-site-packages), so a new
    # machine needs nothing from PyPI; elsewhere the .venv gets it with pip.
    ("python3-pytest", "python:pytest"),
    ("openssl", "command:openssl"),           # the TLS tests make their certificates with it
    # The screen-reader test (tests/gui/test_panel_screen_reader.py): AT-SPI from Python, the
    # accessibility bus, a private session D-Bus, and gdbus to switch accessibility on.
    ("python3-pyatspi", "python:pyatspi"),
    ("at-spi2-core", "file:/usr/libexec/at-spi-bus-launcher"),
    ("dbus-daemon", "command:dbus-daemon"),
    ("libglib2.0-bin", "command:gdbus"),
    ("debootstrap", "command:debootstrap"),   # only for test-in-debian
)
# `install` runs the extension in Writer from the Python that has uno; nothing else.
INSTALL_NEEDS = ("libreoffice-writer", "libreoffice-script-provider-python", "python3-uno")
TEST_NEEDS = tuple(package for package, _sign in PACKAGES if package != "debootstrap")


class AptSteps(NamedTuple):
    """What to do about missing packages: commands to run now, or one to tell the user."""
    run: List[List[str]]
    tell: str


def say(message: str) -> None:
    # Flushed, so our lines come before the output of the programs we start.
    print(message, flush=True)


def fail(message: str) -> NoReturn:
    sys.stdout.flush()
    sys.stderr.write("build.py: %s\n" % message)
    sys.exit(1)


def missing_packages(needed: Iterable[str], present: Callable[[str], bool]) -> List[str]:
    """The packages of ``needed`` whose sign ``present`` does not find, in PACKAGES order."""
    wanted = set(needed)
    return [package for package, sign in PACKAGES if package in wanted and not present(sign)]


def apt_steps(packages: List[str], has_apt: bool, is_root: bool,
              sudo_works: bool) -> AptSteps:
    """How to install ``packages``: as root, through ``sudo -n``, or a command to print.

    Without apt-get (Fedora, macOS, Windows) nothing is planned: the checks that
    follow say what is missing in words (see the README).
    """
    if not packages or not has_apt:
        return AptSteps([], "")
    update = ["apt-get", "update"]
    install = ["apt-get", "install", "-y", "--no-install-recommends"] + list(packages)
    if is_root:
        return AptSteps([update, install], "")
    if sudo_works:
        sudo = ["sudo", "-n", "env", "DEBIAN_FRONTEND=noninteractive"]
        return AptSteps([sudo + update, sudo + install], "")
    return AptSteps([], "sudo %s && sudo %s" % (" ".join(update), " ".join(install)))


def _office_program_dir() -> Optional[str]:
    soffice = shutil.which("soffice")
    if soffice is None and os.path.exists("/usr/lib/libreoffice/program/soffice"):
        soffice = "/usr/lib/libreoffice/program/soffice"
    return os.path.dirname(os.path.realpath(soffice)) if soffice else None


def _present(sign: str) -> bool:
    """Whether the sign of a package (see PACKAGES) is found on this machine."""
    kind, _, what = sign.partition(":")
    if kind == "command":
        return shutil.which(what) is not None
    if kind == "file":
        return os.path.exists(what)
    if kind == "office":
        program = _office_program_dir()
        return program is not None and os.path.exists(os.path.join(program, what))
    python = find_uno_python() or "/usr/bin/python3"
    return os.path.exists(python) and subprocess.call(
        [python, "-c", "import %s" % what], stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL) == 0


def _sudo_works() -> bool:
    if shutil.which("sudo") is None:
        return False
    return subprocess.call(["sudo", "-n", "true"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL) == 0


def ensure_packages(needed: Iterable[str], purpose: str) -> None:
    """Install the Debian packages of ``needed`` that are missing, or say how and exit 1."""
    has_apt = shutil.which("apt-get") is not None
    missing = missing_packages(needed, _present) if has_apt else []
    if not missing:
        return
    is_root = getattr(os, "geteuid", lambda: -1)() == 0
    steps = apt_steps(missing, has_apt, is_root, not is_root and _sudo_works())
    if steps.tell:
        fail("%s needs these Debian packages: %s. Install them with:\n  %s"
             % (purpose, " ".join(missing), steps.tell))
    say("installing the Debian packages %s needs: %s" % (purpose, " ".join(missing)))
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for command in steps.run:
        say("+ " + " ".join(command))
        code = subprocess.call(command, env=env)
        if code:
            fail("`%s` failed (exit code %d)" % (" ".join(command), code))
    still = missing_packages(needed, _present)
    if still:
        fail("still missing after apt-get: %s" % " ".join(still))


def _package_files():
    """(archive name, source path) for everything the .oxt holds."""
    files = [("description.xml", "description.xml"),
             ("META-INF/manifest.xml", "META-INF/manifest.xml"),
             ("LICENSE", "LICENSE"),
             ("marginalia_component.py", "extension/marginalia_component.py")]
    walks = (("extension/registry", "registry"), ("extension/icons", "icons"),
             ("extension/description", "description"), ("dialogs", "dialogs"),
             ("extension/scripts", "scripts"),
             ("pythonpath", "pythonpath"))
    for src_dir, arc_dir in walks:
        for path, rel in _walk(os.path.join(ROOT, src_dir)):
            files.append((arc_dir + "/" + rel, os.path.relpath(path, ROOT)))
    # vendor/ modules sit beside the package so `import deltamerge` works in the office.
    for name in sorted(os.listdir(os.path.join(ROOT, "vendor"))):
        if name.endswith(".py"):
            files.append(("pythonpath/" + name, os.path.join("vendor", name)))
    return files


def _walk(base):
    """(path, archive-style path below ``base``) of each file to package, in a stable order;
    no caches, no hidden files."""
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            if not (name.endswith((".pyc", ".pyo")) or name.startswith(".")):
                path = os.path.join(dirpath, name)
                yield path, os.path.relpath(path, base).replace(os.sep, "/")


def _check(files):
    names = set(arc for arc, _ in files)
    for needed in ("registry/Marginalia.xcs", "icons/extension.png"):
        if needed not in names:
            fail("%s is missing from the package" % needed)
    tree = ElementTree.parse(os.path.join(ROOT, "META-INF", "manifest.xml"))
    listed = set(e.get(MANIFEST_NS + "full-path") for e in tree.getroot())
    for path in sorted(listed - names):
        if path.endswith("/") and any(name.startswith(path) for name in names):
            continue      # a folder entry (the macros' scripts/)
        fail("META-INF/manifest.xml names %s, which is not in the package" % path)
    for path in sorted(names):
        if path.startswith("registry/") and path not in listed:
            fail("%s is not listed in META-INF/manifest.xml" % path)
    version = re.search(r'<version value="([^"]+)"',
                        open(os.path.join(ROOT, "description.xml")).read()).group(1)
    init = open(os.path.join(ROOT, "pythonpath", "marginalia", "__init__.py")).read()
    if '__version__ = "%s"' % version not in init:
        fail("description.xml version %s differs from marginalia.__version__" % version)


def _localized(files):
    """{archive path: bytes}: the files, the catalogs compiled from extension/locale/*.po,
    and the .xcu labels and description.xml in every language they translate
    (marginalia.i18n.package)."""
    sys.path.insert(0, os.path.join(ROOT, "pythonpath"))
    from marginalia.i18n import package, po
    blobs = {}
    for arc, src in files:
        with open(os.path.join(ROOT, src), "rb") as fh:
            blobs[arc] = fh.read()
    try:
        catalogs, lookups = package.compile_catalogs(os.path.join(ROOT, "extension", "locale"))
    except po.PoError as error:
        fail("extension/locale/%s" % error)
    with open(os.path.join(ROOT, "extension", "description", "description-en.txt"),
              encoding="utf-8") as fh:
        blobs = package.localize_files(blobs, fh.read(), lookups)
    blobs.update(catalogs)
    return blobs


def _add(zf, arc, blob):
    info = zipfile.ZipInfo(arc, ZIP_DATE)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    zf.writestr(info, blob)


def build():
    files = _package_files()
    _check(files)
    blobs = _localized(files)
    os.makedirs(DIST, exist_ok=True)
    tmp = OXT + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
        for arc in [arc for arc, _src in files] + sorted(set(blobs) - set(dict(files))):
            _add(zf, arc, blobs[arc])
    os.replace(tmp, OXT)
    say("built %s (%d files, %d bytes)" % (os.path.relpath(OXT, ROOT), len(blobs),
                                            os.path.getsize(OXT)))
    return OXT


def build_tests():
    """dist/marginalia-tests.oxt from tests/extension: installed beside the product's .oxt
    in the tests' profiles only (tests/support/office.py), never by ``install``."""
    os.makedirs(DIST, exist_ok=True)
    tmp = TEST_OXT + ".tmp"
    count = 0
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
        for path, rel in _walk(TEST_EXTENSION):
            with open(path, "rb") as fh:
                _add(zf, rel, fh.read())
            count += 1
    os.replace(tmp, TEST_OXT)
    say("built %s (%d files, %d bytes)" % (os.path.relpath(TEST_OXT, ROOT), count,
                                            os.path.getsize(TEST_OXT)))
    return TEST_OXT


def find_uno_python() -> Optional[str]:
    """A Python that can ``import uno`` (Debian's system python3 with python3-uno), or None."""
    program = _office_program_dir()
    candidates = [os.environ.get("MARGINALIA_UNO_PYTHON"), sys.executable, "/usr/bin/python3",
                  program and os.path.join(program, "python"),
                  "/Applications/LibreOffice.app/Contents/Resources/python"]
    for exe in candidates:
        if exe and os.path.exists(exe) and subprocess.call(
                [exe, "-c", "import uno"], stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL) == 0:
            return exe
    return None


def uno_python() -> str:
    """The Python that has uno, or exit with what to install."""
    found = find_uno_python()
    if found is None:
        fail("no Python with LibreOffice's uno module was found: install LibreOffice and its "
             "Python bridge (on Debian: apt-get install libreoffice-writer python3-uno), or "
             "set MARGINALIA_UNO_PYTHON to LibreOffice's own Python")
    return found


def _for_everyone(command: str, step: Optional[str] = None, *args: str):
    """As root only, a step of marginalia.cli.unopkg (for every user of the machine), its
    refusal said in one sentence; without ``step``, only the check for root."""
    sys.path.insert(0, os.path.join(ROOT, "pythonpath"))
    from marginalia.cli import unopkg
    try:
        unopkg.need_root(command)
        if step:
            found = shutil.which("unopkg")
            getattr(unopkg, step)(found or os.path.join(_office_program_dir() or "", "unopkg"),
                                  *(args + (say,)))
    except unopkg.Refused as refused:
        fail(str(refused))


def install(shared=False):
    if shared:
        _for_everyone("install --shared")   # before building (see unopkg.need_root)
    ensure_packages(INSTALL_NEEDS, "`build.py install`")
    oxt = build()
    if shared:
        return _for_everyone("install --shared", "add", oxt)
    python = uno_python()
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "pythonpath"))
    code = subprocess.call([python, "-m", "marginalia.cli.install", oxt], env=env)
    if code:
        sys.exit(code)
    say("Open Writer and click the Marginalia icon in the sidebar (View > Sidebar).")


def uninstall(shared=False):
    """Per user through a headless office, as `install` adds it (unopkg refuses root)."""
    if shared:
        return _for_everyone("uninstall --shared", "remove", ROOT)
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "pythonpath"))
    sys.exit(subprocess.call([uno_python(), "-m", "marginalia.cli.install", "--remove"],
                             env=env))


def _prepare_venv():
    python = uno_python()
    venv_python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(venv_python):
        say("creating .venv from %s" % python)
        if subprocess.call([python, "-m", "venv", "--system-site-packages", VENV]):
            fail("could not create .venv (on Debian: apt-get install python3-venv)")
    # mcp: the official MCP SDK, the client of tests/core/test_mcp_sdk.py (tests only).
    if subprocess.call([venv_python, "-c", "import pytest, uno, mcp"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
        if subprocess.call([venv_python, "-m", "pip", "install", "-q", "pytest", "mcp"]):
            fail("could not install pytest and mcp (the MCP SDK the tests use) into .venv")
    return venv_python


def _test_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "pythonpath"),
                                         os.path.join(ROOT, "vendor")])
    env["MARGINALIA_OXT"] = OXT
    # Built beside it by the caller; the harness builds its own only when run without this.
    env["MARGINALIA_TEST_OXT"] = TEST_OXT
    return env


# The shared documents written elsewhere, beside the project (see check_corpus).
CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "corpus")


def check_corpus(folder: str, options: List[str]) -> int:
    """The no-harm checks over a folder of real documents (tests/support/corpus_check.py)."""
    if not os.path.isdir(folder):
        fail("the folder %s is not there, so there are no documents to check" % folder)
    ensure_packages(INSTALL_NEEDS + ("python3-venv",), "`build.py check-corpus`")
    build()
    build_tests()
    venv_python = _prepare_venv()
    return subprocess.call([venv_python, "-m", "tests.support.corpus_check", folder] + options,
                           cwd=ROOT, env=_test_env())


def test(pytest_args):
    ensure_packages(TEST_NEEDS, "`build.py test`")
    for tool, hint in (("soffice", "libreoffice-writer libreoffice-gtk3"),
                       ("Xvfb", "xvfb"), ("xdotool", "xdotool")):
        if shutil.which(tool) is None:
            fail("%s is missing; the office and window tests need it (on Debian: "
                 "apt-get install %s)" % (tool, hint))
    build()
    build_tests()
    venv_python = _prepare_venv()
    env = _test_env()
    # Tells tests/conftest.py to count any skipped test as a failure.
    env["MARGINALIA_NO_SKIPS"] = "1"
    args = [venv_python, "-m", "pytest", "-p", "no:cacheprovider", "-ra"]
    if not any(not a.startswith("-") for a in pytest_args):
        args.append("tests")
    args.extend(pytest_args)
    return subprocess.call(args, cwd=ROOT, env=env)

def test_in_debian(suite: str, pytest_args: List[str]) -> int:
    """The whole suite inside a fresh Debian root (tests/support/debian_root.py)."""
    sys.path.insert(0, ROOT)
    from tests.support import debian_root
    return debian_root.run(ROOT, suite, pytest_args, say, fail, ensure_packages)


def main(argv):
    command = argv[1] if len(argv) > 1 else "build"
    rest = argv[2:]
    if rest[:1] == ["--"]:
        rest = rest[1:]
    if command == "build":
        build()
    elif command in ("install", "uninstall"):
        if rest not in ([], ["--shared"]):
            fail("`%s` takes only --shared, not %s" % (command, " ".join(rest)))
        (install if command == "install" else uninstall)(shared=rest == ["--shared"])
    elif command == "admin-config":
        sys.path.insert(0, os.path.join(ROOT, "pythonpath"))
        from marginalia.cli import admin_config
        os.makedirs(DIST, exist_ok=True)
        sys.exit(admin_config.main(rest, os.path.join(ROOT, "extension", "registry",
                                                       "Marginalia.xcs"),
                                   os.path.join(DIST, "marginalia-admin.oxt")))
    elif command == "test":
        sys.exit(test(rest))
    elif command == "pot":
        sys.path.insert(0, os.path.join(ROOT, "pythonpath"))
        from marginalia.i18n import catalogs
        count, problems, done = catalogs.write_all(ROOT)
        say("%d strings in extension/locale/marginalia.pot; translated: %s" % (count, ", ".join(
            "%s %d%%" % (name, 100 * ok // max(1, total)) for name, (ok, total) in done.items())))
        for problem in problems:
            say("not extracted: " + problem)
    elif command == "check-corpus":
        folder = CORPUS
        if rest[:1] and not rest[0].startswith("-"):
            folder, rest = os.path.abspath(rest[0]), rest[1:]
        if rest[:1] == ["--"]:
            rest = rest[1:]
        sys.exit(check_corpus(folder, rest))
    elif command == "test-in-debian":
        suite = "trixie"
        if rest[:1] and not rest[0].startswith("-"):
            suite, rest = rest[0], rest[1:]
        if rest[:1] == ["--"]:
            rest = rest[1:]
        sys.exit(test_in_debian(suite, rest))
    else:
        fail("unknown command %r (build, install, uninstall, admin-config, test, pot, "
             "check-corpus or test-in-debian)" % command)


if __name__ == "__main__":
    main(sys.argv)

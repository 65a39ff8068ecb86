"""Test harness: a real LibreOffice (headless or in an Xvfb window) with the built .oxt.

Each harness owns a private soffice process and a throwaway profile, installs
dist/marginalia.oxt through the ExtensionManager API, with dist/marginalia-tests.oxt beside
it (tests/extension: the job commands only tests use, never in the product's .oxt), and
reaches the extension's code in process through that one's ``org.marginalia.TestJob``
service, which hands the product's own commands to the product's ``org.marginalia.Job``.
"""

import os
import subprocess
import time

ARTIFACTS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "artifacts")

# props is re-exported for the tests.
from marginalia.cli.office_process import JobFailed, Office, OfficeError, props  # noqa: F401


TEST_JOB = "org.marginalia.TestJob"
_built = []


def test_extension():
    """dist/marginalia-tests.oxt, built from tests/extension once per process (a small zip);
    MARGINALIA_TEST_OXT names one built already."""
    if not _built:
        named = os.environ.get("MARGINALIA_TEST_OXT")
        if named:
            _built.append(named)
        else:
            import build
            _built.append(build.build_tests())
    return _built[0]


class JobError(AssertionError):
    """A job command failed inside the office; carries its traceback for the test log."""


def paragraphs(doc):
    """The document body's paragraphs (tables skipped), in order."""
    out = []
    enum = doc.Text.createEnumeration()
    while enum.hasMoreElements():
        para = enum.nextElement()
        if para.supportsService("com.sun.star.text.Paragraph"):
            out.append(para)
    return out


def paragraph_texts(doc):
    return [para.getString() for para in paragraphs(doc)]


class Xvfb(object):
    """A virtual screen on a display number Xvfb picks itself (-displayfd)."""

    def __init__(self, size="1600x1000x24"):
        self.size = size
        self.process = None
        self.display = None

    def start(self):
        read_fd, write_fd = os.pipe()
        self.process = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", self.size, "-nolisten", "tcp"],
            pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write_fd)
        number = b""
        with os.fdopen(read_fd, "rb") as pipe:
            while not number.endswith(b"\n"):
                piece = pipe.read(1)
                if not piece:
                    raise RuntimeError("Xvfb did not start")
                number += piece
        self.display = ":" + number.decode().strip()
        return self

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()


# The harnesses started and not stopped: which office a document belongs to (harness_of).
LIVE = []


def harness_of(doc):
    """The running harness whose office holds ``doc`` (a proxy over its bridge)."""
    if len(LIVE) == 1:
        return LIVE[0]      # the usual case: no look through the office's documents
    for harness in LIVE:
        components = harness.office.desktop.getComponents().createEnumeration()
        while components.hasMoreElements():
            if components.nextElement() == doc:
                return harness
    raise LookupError("no running office of this test session holds that document")


class OfficeHarness(object):
    def __init__(self, oxt, gui=False, env=None, accessibility=False, language=None):
        self.oxt = oxt
        # The office's UI language ("de-DE"): set in the profile before the restart that
        # follows the install (Debian's libreoffice-l10n-XX gives the office's own words).
        self.language = language
        self.gui = gui or accessibility
        self.extra_env = dict(env or {})      # e.g. the gtk3 plugin and a dark GTK theme
        # AT-SPI (tests/support/atspi.py): the gtk3 plugin on a private session D-Bus
        # with the accessibility bus and flag on.
        self.accessibility = accessibility
        self.bus = None
        self.xvfb = None
        self.office = None
        self.plugin = None                    # the VCL plugin, once started

    def start(self):
        env = dict(os.environ)
        if self.gui:
            self.xvfb = Xvfb().start()
            env["DISPLAY"] = self.xvfb.display
            env["SAL_USE_VCLPLUGIN"] = "gen"
            # No session bus: the panel would ask it whether a screen reader listens
            # (office.assistive) and change for one; only the AT-SPI tests want that.
            env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        if self.accessibility:
            from tests.support.atspi import AccessibilityBus
            try:
                self.bus = AccessibilityBus(self.xvfb.display).start()
            except Exception:
                self.stop()
                raise
            env = self.bus.env(env)
            env["SAL_USE_VCLPLUGIN"] = "gtk3"
        env.update(self.extra_env)
        self.plugin = env.get("SAL_USE_VCLPLUGIN") if self.gui else None   # headless: none
        os.makedirs(ARTIFACTS, exist_ok=True)
        self.output_path = os.path.join(ARTIFACTS, "soffice-%s-%d.log"
                                        % ("window" if self.gui else "headless", os.getpid()))
        self.office = Office(headless=not self.gui, env=env, output_path=self.output_path)
        self.office.job_service = TEST_JOB
        try:
            self.office.start()
            if self.language:
                self._set_language(self.language)
            started = time.time()
            self.office.install(test_extension())
            self.office.install_and_restart(self.oxt)
            self.install_seconds = time.time() - started
            self.job("ping")
        except Exception:
            self.stop()
            raise
        LIVE.append(self)
        return self

    def _set_language(self, tag):
        provider = self.office.create("com.sun.star.configuration.ConfigurationProvider")
        for path, name in (("/org.openoffice.Office.Linguistic/General", "UILocale"),
                           ("/org.openoffice.Setup/L10N", "ooLocale")):
            node = provider.createInstanceWithArguments(
                "com.sun.star.configuration.ConfigurationUpdateAccess",
                props(nodepath=path))
            node.setPropertyValue(name, tag)
            node.commitChanges()
        # Written to the profile now: the configuration writes its file later or at a clean
        # quit, and the restart that follows kills an office slow to quit (a loaded
        # machine), which then came back in English (an Arabic window test saw no mirror).
        provider.flush()

    def stop(self):
        if self in LIVE:
            LIVE.remove(self)
        if self.office is not None:
            self.office.terminate()
        if self.bus is not None:
            self.bus.stop()
        if self.xvfb is not None:
            self.xvfb.stop()

    def alive(self):
        """Whether the office still answers a call."""
        return self.office is not None and self.office.answers()

    def output_tail(self, lines=25):
        """The end of what soffice printed (a crash prints its signal and stack), and of
        the extension's own log in the profile."""
        out = []
        for path in (self.output_path,
                     os.path.join(self.profile_dir, "user", "marginalia", "marginalia.log")):
            try:
                with open(path, "rb") as f:
                    text = f.read().decode("utf-8", "replace")
            except OSError:
                continue
            out.append("-- %s\n%s" % (path, "\n".join(text.splitlines()[-lines:])))
        return "\n".join(out)

    def revive(self):
        """Start the office again, with the .oxt installed anew."""
        # kill() removes the office's own throwaway profile, so the new start begins
        # with an empty one and installs the extension again.
        self.office.kill()
        self.office.start()
        self.office.install(test_extension())
        self.office.install_and_restart(self.oxt)
        self.job("ping")

    # -- conveniences for tests ------------------------------------------------
    @property
    def ctx(self):
        return self.office.ctx

    @property
    def smgr(self):
        return self.office.smgr

    @property
    def desktop(self):
        return self.office.desktop

    @property
    def profile_dir(self):
        return self.office.profile_dir

    @property
    def display(self):
        return self.xvfb.display if self.xvfb else None

    def create(self, service):
        return self.office.create(service)

    def new_writer(self, hidden=None):
        hidden = not self.gui if hidden is None else hidden
        if self.plugin == "gtk3":
            # gtk3: loaded from the bridge's thread, a document can hang for good
            # (the jobs' "load" says why); the office's main thread opens it.
            args = {"Hidden": True} if hidden else {}
            uid = self.job("load", url="private:factory/swriter", args=args)
            docs = self.office.desktop.getComponents().createEnumeration()
            while docs.hasMoreElements():
                doc = docs.nextElement()
                if getattr(doc, "RuntimeUID", None) == uid:
                    return doc
            raise AssertionError("the document the office opened (%s) is not among its "
                                 "components" % uid)
        return self.office.new_writer(hidden=hidden)

    def load(self, path, hidden=None, **extra):
        return self.office.load(path, hidden=not self.gui if hidden is None else hidden, **extra)

    def close(self, doc):
        try:
            if self.plugin == "gtk3":
                # As for new_writer: the office's main thread closes it (the job says why).
                self.job("close", doc)
            else:
                doc.close(True)
        except Exception:
            doc.dispose()

    def job(self, command, document=None, **payload):
        """Run a command inside the office; returns its decoded result or raises JobError."""
        try:
            return self.office.job(command, document, **payload)
        except JobFailed as exc:
            raise JobError("%s: %s\n%s" % (command, exc.error, exc.detail))
        except OfficeError as exc:
            raise JobError(str(exc))

def rss_kb(group):
    """Resident memory of a process group (soffice's wrapper and soffice.bin), in KB: the
    benches' memory measure (os.getpgid(harness.office.process.pid))."""
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[2]) != group:
                continue
            with open("/proc/%s/status" % pid) as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except (OSError, IndexError, ValueError):
            continue
    return total

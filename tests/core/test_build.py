"""build.py's set-up decisions: which Debian packages are missing, and how to install them."""

import subprocess
import sys

import pytest

import build

EVERYTHING = set(sign for _package, sign in build.PACKAGES)


def present_except(*absent):
    """A fake probe: every package's sign is found except those of ``absent``."""
    signs = dict(build.PACKAGES)
    gone = set(signs[p] for p in absent)
    return lambda sign: sign in EVERYTHING and sign not in gone


def test_fresh_machine_needs_the_ci_list_for_test_and_three_for_install():
    nothing = lambda sign: False  # noqa: E731
    assert build.missing_packages(build.TEST_NEEDS, nothing) == [
        "libreoffice-writer", "libreoffice-script-provider-python", "python3-uno",
        "libreoffice-core", "libreoffice-gtk3", "python3-venv", "xvfb", "xdotool", "imagemagick",
        "fonts-dejavu-core", "libreoffice-l10n-de", "libreoffice-l10n-ar", "libreoffice-l10n-ja",
        "fonts-ipafont-gothic", "fonts-wqy-microhei", "python3-pytest", "openssl",
        "python3-pyatspi", "at-spi2-core", "dbus-daemon", "libglib2.0-bin"]
    assert build.missing_packages(build.INSTALL_NEEDS, nothing) == [
        "libreoffice-writer", "libreoffice-script-provider-python", "python3-uno"]


def test_only_what_is_missing_and_needed():
    probe = present_except("xdotool", "python3-uno")
    assert build.missing_packages(build.TEST_NEEDS, probe) == ["python3-uno", "xdotool"]
    assert build.missing_packages(build.INSTALL_NEEDS, probe) == ["python3-uno"]
    assert build.missing_packages(build.TEST_NEEDS, present_except()) == []


def test_signs_are_what_each_package_puts_there():
    signs = dict(build.PACKAGES)
    assert signs["xvfb"] == "command:Xvfb" and signs["imagemagick"] == "command:import"
    assert signs["python3-uno"] == "python:uno"
    assert signs["libreoffice-writer"] == "office:libswlo.so"


def test_root_runs_apt_get_update_then_install():
    steps = build.apt_steps(["xvfb", "xdotool"], has_apt=True, is_root=True, sudo_works=False)
    assert steps.run == [["apt-get", "update"],
                         ["apt-get", "install", "-y", "--no-install-recommends", "xvfb",
                          "xdotool"]]
    assert steps.tell == ""


def test_not_root_uses_sudo_n_when_it_works():
    steps = build.apt_steps(["xvfb"], has_apt=True, is_root=False, sudo_works=True)
    sudo = ["sudo", "-n", "env", "DEBIAN_FRONTEND=noninteractive"]
    assert steps.run == [sudo + ["apt-get", "update"],
                         sudo + ["apt-get", "install", "-y", "--no-install-recommends", "xvfb"]]
    assert steps.tell == ""


def test_not_root_without_sudo_tells_the_one_line_command():
    steps = build.apt_steps(["python3-uno", "xvfb"], has_apt=True, is_root=False,
                            sudo_works=False)
    assert steps.run == []
    assert steps.tell == ("sudo apt-get update && sudo apt-get install -y "
                          "--no-install-recommends python3-uno xvfb")
    assert "\n" not in steps.tell


def test_nothing_missing_or_no_apt_plans_nothing():
    assert build.apt_steps([], has_apt=True, is_root=True, sudo_works=True) == ([], "")
    assert build.apt_steps(["xvfb"], has_apt=False, is_root=True, sudo_works=True) == ([], "")


def test_debootstrap_is_only_for_the_debian_root_verb():
    assert "debootstrap" not in build.TEST_NEEDS
    assert build.missing_packages(["debootstrap"], lambda sign: False) == ["debootstrap"]
    assert build.missing_packages(["debootstrap"], present_except()) == []


def _as_another_user(argv):
    """``argv`` run as an ordinary user: as ``nobody`` when the tests run as root."""
    import os
    if os.geteuid() == 0:
        argv = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + argv
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/nonexistent"}
    return subprocess.run(argv, cwd="/", env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=120)


@pytest.mark.parametrize("command", ["install", "uninstall"])
def test_for_every_user_asks_for_root_first_in_one_sentence(command):
    import os
    import shutil
    import tempfile
    # A copy another user can read: a checkout under /root (mode 0700) is not readable
    # by nobody, as a clone on a fresh Debian 13 machine showed.
    folder = tempfile.mkdtemp(prefix="marginalia-build-")
    try:
        script = shutil.copy(build.__file__, os.path.join(folder, "build.py"))
        shutil.copytree(os.path.join(os.path.dirname(build.__file__), "pythonpath"),
                        os.path.join(folder, "pythonpath"))
        for where, _dirs, files in os.walk(folder):
            os.chmod(where, 0o755)
            for name in files:
                os.chmod(os.path.join(where, name), 0o644)
        oxt = os.path.join(folder, "dist", "marginalia.oxt")
        done = _as_another_user([sys.executable, script, command, "--shared"])
    finally:
        shutil.rmtree(folder, True)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip() == (
        "build.py: `%s --shared` changes LibreOffice for every user of this machine: run "
        "it as root (sudo python3 build.py %s --shared)" % (command, command))
    # Asked before building: nothing built, and no package installed or asked for.
    assert done.stdout == ""
    assert not os.path.exists(oxt)

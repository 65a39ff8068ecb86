"""`python3 build.py install` adds the extension to the user's own profile, as root too."""

import os
import signal
import subprocess
import sys
import time

from marginalia.cli.office_process import Office, find_soffice, office_env
from marginalia.cli.profile_lock import profile_in_use

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _install(config_home, command="install"):
    os.makedirs(config_home, exist_ok=True)  # LibreOffice ignores an XDG_CONFIG_HOME not there
    env = dict(os.environ, XDG_CONFIG_HOME=config_home)
    return subprocess.run([sys.executable, os.path.join(ROOT, "build.py"), command],
                          cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=180)


def _deployed(profile):
    office = Office(profile_dir=profile)
    with office:
        em = office.ctx.getValueByName("/singletons/com.sun.star.deployment.ExtensionManager")
        exts = em.getDeployedExtensions("user", em.createAbortChannel(), None)
        found = dict((e.getIdentifier().Value, e.getVersion()) for e in exts)
        job = office.create("org.marginalia.Job")
    return found, job is not None


def test_install_into_the_user_profile_and_replace_it(tmp_path):
    import marginalia
    config_home = str(tmp_path / "config")
    first = _install(config_home)
    assert first.returncode == 0, first.stderr
    # Installing again replaces the extension instead of failing or duplicating it.
    second = _install(config_home)
    assert second.returncode == 0, second.stderr
    profile = os.path.join(config_home, "libreoffice", "4")
    found, has_job = _deployed(profile)
    assert found == {"org.marginalia.writer": marginalia.__version__}
    assert has_job
    # The office we started is gone: the profile is not left locked.
    assert not os.path.exists(os.path.join(profile, ".lock"))


def test_install_refuses_while_the_profile_is_in_use(tmp_path):
    config_home = str(tmp_path / "config")
    profile = os.path.join(config_home, "libreoffice", "4")
    os.makedirs(profile)
    with Office(profile_dir=profile):  # LibreOffice running on the user's profile
        assert os.path.exists(os.path.join(profile, ".lock"))
        done = _install(config_home)
    assert done.returncode == 1
    assert "close it" in done.stderr and "Traceback" not in done.stderr
    assert "installed" not in done.stdout


def test_the_users_own_office_blocks_the_install_and_its_leftover_lock_does_not(tmp_path):
    # The office names its socket after the profile's escaped URL, links resolved: an
    # awkward folder name, reached through a link (a linked ~/.config is common).
    os.makedirs(str(tmp_path / "my config;é"))
    config_home = str(tmp_path / "link")
    os.symlink(str(tmp_path / "my config;é"), config_home)
    profile = os.path.join(config_home, "libreoffice", "4")
    # Started as the user starts it: no UserInstallation given, the default profile.
    users_office = subprocess.Popen(
        [find_soffice(), "--headless", "--norestore", "--nologo", "--nodefault"],
        env=office_env(dict(os.environ, XDG_CONFIG_HOME=config_home)),
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)
    try:
        deadline = time.time() + 90
        while not profile_in_use(profile):
            assert users_office.poll() is None, "the user's office exited at start-up"
            assert time.time() < deadline, "the user's office did not lock its profile"
            time.sleep(0.2)
        refused = _install(config_home)
        assert refused.returncode == 1 and "close it" in refused.stderr
        assert users_office.poll() is None  # the install did not quit the user's office
    finally:
        os.killpg(users_office.pid, signal.SIGKILL)  # as a crash would end it
        users_office.wait(30)
    # A crashed office leaves its .lock; LibreOffice starts over it, and so does the install.
    assert os.path.exists(os.path.join(profile, ".lock"))
    done = _install(config_home)
    assert done.returncode == 0, done.stderr
    assert "installed" in done.stdout
    assert not os.path.exists(os.path.join(profile, ".lock"))


def test_an_office_that_dies_under_the_install_is_started_again_once(tmp_path):
    import build
    profile = str(tmp_path / "profile")
    with Office(profile_dir=profile) as office:
        os.killpg(office.process.pid, signal.SIGKILL)  # a crash, as addExtension once met
        assert os.path.exists(os.path.join(profile, ".lock"))
        office.install(build.build())
        assert office.answers()
        em = office.ctx.getValueByName("/singletons/com.sun.star.deployment.ExtensionManager")
        exts = em.getDeployedExtensions("user", em.createAbortChannel(), None)
        assert "org.marginalia.writer" in [e.getIdentifier().Value for e in exts]
    # The killed office's lock was cleared before the second started; that one removed
    # its own when it quit.
    assert not os.path.exists(os.path.join(profile, ".lock"))


def test_uninstall_takes_it_out_of_the_users_profile_and_keeps_their_data(tmp_path):
    config_home = str(tmp_path / "config")
    assert _install(config_home).returncode == 0
    profile = os.path.join(config_home, "libreoffice", "4")
    kept = os.path.join(profile, "user", "marginalia", "chats")
    os.makedirs(kept, exist_ok=True)
    done = _install(config_home, "uninstall")
    assert done.returncode == 0, done.stderr
    assert "removed Marginalia from %s" % profile in done.stdout
    assert _deployed(profile) == ({}, False)
    assert os.path.isdir(kept)                 # the user's chats are theirs
    again = _install(config_home, "uninstall")
    assert again.returncode == 0 and "nothing to remove" in again.stdout

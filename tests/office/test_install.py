"""`python3 build.py install` adds the extension to the user's own profile, as root too."""

import os
import subprocess
import sys

from marginalia.cli.office_process import Office

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _install(config_home):
    env = dict(os.environ, XDG_CONFIG_HOME=config_home)
    return subprocess.run([sys.executable, os.path.join(ROOT, "build.py"), "install"],
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

"""`build.py test-in-debian`: the whole suite inside a fresh Debian root (debootstrap, chroot).

The root is kept in /var/tmp between runs; the checkout is copied in anew each time, and
``build.py test`` inside installs what the suite needs, as it would on a new machine. Test
infrastructure, so it lives with the tests; build.py only calls ``run``.
"""

import os
import shlex
import shutil
import subprocess
from typing import Callable, List

DEBIAN_MIRROR = "http://deb.debian.org/debian"
# Mounted inside the root for the run, unmounted in reverse order afterwards.
CHROOT_MOUNTS = (("proc", "proc", "proc"), ("sysfs", "sys", "sysfs"),
                 ("/dev", "dev", None), ("/dev/pts", "dev/pts", None),
                 ("tmpfs", "dev/shm", "tmpfs"))
# The host's CA bundle, copied into the root for pip: a machine whose HTTPS goes through a
# proxy with its own certificate authority reaches PyPI inside the root as it does outside.
HOST_CA = "etc/marginalia-host-ca.crt"


def _checkout_files(root: str) -> List[str]:
    """The tracked files of this checkout, as they are in the work tree now."""
    out = subprocess.check_output(["git", "ls-files", "-z"], cwd=root)
    return [name for name in out.decode("utf-8").split("\0")
            if name and os.path.isfile(os.path.join(root, name))]


def _pip_env(debian_root: str) -> dict:
    """PIP_* settings of this machine that make sense inside the root, with its CA bundle."""
    env = dict((k, v) for k, v in os.environ.items() if k.startswith("PIP_") and k not in
               ("PIP_CERT", "PIP_FIND_LINKS"))
    bundle = os.environ.get("PIP_CERT") or "/etc/ssl/certs/ca-certificates.crt"
    if os.path.isfile(bundle):
        shutil.copy2(bundle, os.path.join(debian_root, HOST_CA))
        env["PIP_CERT"] = "/" + HOST_CA
    return env


def run(checkout: str, suite: str, pytest_args: List[str], say: Callable[[str], None],
        fail: Callable[[str], None], ensure_packages: Callable[..., None]) -> int:
    """Run ``build.py test`` inside a fresh Debian ``suite`` root, as root."""
    if os.geteuid() != 0:
        fail("test-in-debian needs root (debootstrap and chroot); run it with sudo")
    root = os.path.join("/var/tmp", "marginalia-%s" % suite)
    if not os.path.exists(os.path.join(root, "usr", "bin", "apt-get")):
        ensure_packages(["debootstrap"], "`build.py test-in-debian`")
        say("creating a Debian %s root in %s (debootstrap, a few minutes)" % (suite, root))
        if subprocess.call(["debootstrap", "--variant=minbase", suite, root, DEBIAN_MIRROR]):
            fail("debootstrap could not create the %s root" % suite)
    work = os.path.join(root, "root", "marginalia")
    shutil.rmtree(work, ignore_errors=True)
    for name in _checkout_files(checkout):
        target = os.path.join(work, name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(os.path.join(checkout, name), target)
    shutil.copy2("/etc/resolv.conf", os.path.join(root, "etc", "resolv.conf"))
    mounted = []
    try:
        for source, where, kind in CHROOT_MOUNTS:
            target = os.path.join(root, where)
            os.makedirs(target, exist_ok=True)
            command = ["mount", "--bind", source, target] if kind is None else \
                ["mount", "-t", kind, source, target]
            if subprocess.call(command):
                fail("could not mount %s in the %s root" % (where, suite))
            mounted.append(target)
        env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
               "HOME": "/root", "LANG": "C.UTF-8", "DEBIAN_FRONTEND": "noninteractive"}
        env.update(_pip_env(root))
        say("running the whole suite inside Debian %s" % suite)
        # The root's own python3 is minbase's; build.py test installs the rest.
        setup = "apt-get update -qq && apt-get install -y -qq python3 >/dev/null"
        return subprocess.call(["chroot", root, "/bin/sh", "-c",
                                "%s && cd /root/marginalia && python3 build.py test %s"
                                % (setup, " ".join(shlex.quote(a) for a in pytest_args))],
                               env=env)
    finally:
        for target in reversed(mounted):
            subprocess.call(["umount", "-l", target])

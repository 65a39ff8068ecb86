"""A throwaway "installed for every user" LibreOffice layer, without root.

``unopkg add --shared`` writes into LibreOffice's own folder
($UNO_SHARED_PACKAGES_CACHE, /usr/lib/libreoffice/share/uno_packages/cache on
Debian). Both unopkg and soffice take that bootstrap variable from an
``-env:`` argument, so a test points it at a temporary folder: the same shared
layer a machine-wide install makes, read by every profile started with the
same argument, and the machine's own LibreOffice untouched.
"""

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile

import uno

from marginalia.cli import admin_config
from marginalia.cli.office_process import Office, find_soffice, office_env
from tests.support.office import ARTIFACTS, TEST_JOB, OfficeHarness, Xvfb, test_extension


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OXT = os.path.join(ROOT, "dist", "marginalia.oxt")


class SharedLayer(object):
    def __init__(self):
        self.folder = tempfile.mkdtemp(prefix="marginalia-shared-")
        self.cache_url = uno.systemPathToFileUrl(os.path.join(self.folder, "cache"))

    def args(self):
        """The soffice/unopkg argument that makes this folder the shared extensions'."""
        return ["-env:UNO_SHARED_PACKAGES_CACHE=" + self.cache_url]

    def add(self, *oxts):
        """``unopkg add --shared`` into this layer (its own throwaway profile)."""
        unopkg = os.path.join(os.path.dirname(os.path.realpath(find_soffice())), "unopkg")
        profile = uno.systemPathToFileUrl(os.path.join(self.folder, "unopkg-profile"))
        command = [unopkg, "add", "--shared", "--suppress-license",
                   "-env:UserInstallation=" + profile] + self.args() + list(oxts)
        for attempt in (1, 2):
            done = subprocess.run(command, env=office_env(os.environ), stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=180)
            if not done.returncode:
                break
            # unopkg failed once in ~20 runs on a loaded machine (its own helper office);
            # a second try is the real test of the layer, and the first failure is shown.
            sys.stderr.write("unopkg add --shared failed (attempt %d):\n%s\n" % (
                attempt, done.stdout.decode("utf-8", "replace")[-2000:]))
            # A failed add can leave part of itself in the layer ("Extension has already
            # been added" on the second try): the second try starts from an empty layer.
            for part in ("cache", "unopkg-profile"):
                shutil.rmtree(os.path.join(self.folder, part), ignore_errors=True)
        if done.returncode:
            raise AssertionError("unopkg add --shared failed:\n%s"
                                 % done.stdout.decode("utf-8", "replace")[-2000:])

    def remove(self):
        shutil.rmtree(self.folder, ignore_errors=True)

    def office(self, oxt, gui=False):
        """A harness on a fresh profile that installs nothing itself: what it has of
        Marginalia comes from this layer. ``gui``: in an Xvfb window, as gui_office."""
        harness = OfficeHarness(oxt, gui=gui)
        os.makedirs(ARTIFACTS, exist_ok=True)
        harness.output_path = os.path.join(ARTIFACTS, "soffice-shared-%d.log" % os.getpid())
        env = dict(os.environ)
        try:
            if gui:
                harness.xvfb = Xvfb().start()
                harness.plugin = "gen"
                env.update(DISPLAY=harness.xvfb.display, SAL_USE_VCLPLUGIN="gen")
                env.pop("DBUS_SESSION_BUS_ADDRESS", None)   # as OfficeHarness.start
            harness.office = Office(headless=not gui, env=env, extra_args=self.args(),
                                    output_path=harness.output_path)
            harness.office.job_service = TEST_JOB
            harness.office.start()
            harness.job("ping")
        except Exception:
            harness.stop()
            raise
        return harness


def with_admin_settings(values, locked):
    """A shared layer holding Marginalia and the configuration extension that
    ``build.py admin-config`` makes of ``values`` with ``locked`` finalized."""
    with open(os.path.join(ROOT, "extension", "registry", "Marginalia.xcs"),
              encoding="utf-8") as fh:
        fields = admin_config.schema_fields(fh.read())
    shared = SharedLayer()
    admin_oxt = os.path.join(shared.folder, "marginalia-admin.oxt")
    with open(admin_oxt, "wb") as fh:
        fh.write(admin_config.admin_extension(admin_config.admin_xcu(fields, values, locked)))
    try:
        shared.add(os.environ.get("MARGINALIA_OXT") or OXT, admin_oxt, test_extension())
    except Exception:
        shared.remove()
        raise
    return shared


@contextlib.contextmanager
def admin_office(values, locked, gui=False):
    """An office on a fresh profile over the shared layer ``with_admin_settings`` makes;
    the office stopped and the layer removed after."""
    layer = with_admin_settings(values, locked)
    try:
        harness = layer.office(OXT, gui=gui)
        try:
            yield harness
        finally:
            harness.stop()
    finally:
        layer.remove()

"""A throwaway "installed for every user" LibreOffice layer, without root.

``unopkg add --shared`` writes into LibreOffice's own folder
($UNO_SHARED_PACKAGES_CACHE, /usr/lib/libreoffice/share/uno_packages/cache on
Debian). Both unopkg and soffice take that bootstrap variable from an
``-env:`` argument, so a test points it at a temporary folder: the same shared
layer a machine-wide install makes, read by every profile started with the
same argument, and the machine's own LibreOffice untouched.
"""

import os
import shutil
import subprocess
import tempfile

import uno

from marginalia.cli.office_process import Office, find_soffice, office_env
from tests.support.office import ARTIFACTS, OfficeHarness


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
        done = subprocess.run(
            [unopkg, "add", "--shared", "--suppress-license",
             "-env:UserInstallation=" + profile] + self.args() + list(oxts),
            env=office_env(os.environ), stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=180)
        if done.returncode:
            raise AssertionError("unopkg add --shared failed:\n%s"
                                 % done.stdout.decode("utf-8", "replace")[-2000:])

    def remove(self):
        shutil.rmtree(self.folder, ignore_errors=True)

    def office(self, oxt):
        """A harness on a fresh profile that installs nothing itself: what it has of
        Marginalia comes from this layer."""
        harness = OfficeHarness(oxt)
        os.makedirs(ARTIFACTS, exist_ok=True)
        harness.output_path = os.path.join(ARTIFACTS, "soffice-shared-%d.log" % os.getpid())
        harness.office = Office(extra_args=self.args(), output_path=harness.output_path)
        try:
            harness.office.start()
            harness.job("ping")
        except Exception:
            harness.stop()
            raise
        return harness

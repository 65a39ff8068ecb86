"""``python -m marginalia.cli.install FILE.oxt``: add the extension to the user's LibreOffice;
``python -m marginalia.cli.install --remove``: take it out of there again.

``unopkg`` refuses to run as root without ``--shared``, so this works through
the ExtensionManager API inside a headless office started on the user's own
profile. That works for root and ordinary users alike and replaces an older
version of the same identifier.
"""

import os
import sys
from typing import List

from marginalia.cli import deployment
from marginalia.cli.office_process import Office, OfficeError
from marginalia.cli.profile_lock import default_profile, free_profile


def _remove(office: Office) -> str:
    """Marginalia removed from the profile; what was done, as a sentence."""
    layers = deployment.deployed(office.ctx, deployment.MARGINALIA)
    if "user" not in layers:
        said = "Marginalia is not installed in %s: nothing to remove." % office.profile_dir
        if layers:
            repository = deployment.first(layers)[0]
            said += " It is installed %s%s." % (deployment.WHERE[repository], (
                ": `python3 build.py uninstall --shared`, as root, removes it"
                if repository == "shared" else ""))
        return said
    em = deployment.manager(office.ctx)
    try:
        em.removeExtension(deployment.MARGINALIA, "", "user", em.createAbortChannel(),
                           deployment.CommandEnv())
    except Exception as exc:
        raise OfficeError("LibreOffice could not remove Marginalia from %s. LibreOffice "
                          "said: %s" % (office.profile_dir, deployment.said(exc)))
    if "user" in deployment.deployed(office.ctx, deployment.MARGINALIA):
        raise OfficeError("LibreOffice did not remove Marginalia from %s."
                          % office.profile_dir)
    return ("removed Marginalia from %s; its chats and prompts stay there (user/marginalia)"
            % office.profile_dir)


def main(argv: List[str]) -> int:
    if len(argv) != 2:
        sys.stderr.write("usage: python -m marginalia.cli.install (FILE.oxt | --remove)\n")
        return 2
    oxt = argv[1]
    remove = oxt == "--remove"
    if not remove and not os.path.isfile(oxt):
        sys.stderr.write("There is no extension file at %s.\n" % oxt)
        return 2
    profile = default_profile()
    # An office started on a profile in use would hand its arguments to the running
    # one, and the install would then talk to (and at the end quit) the user's office.
    if not free_profile(profile):
        sys.stderr.write("LibreOffice seems to be running (its profile is locked): close it "
                         "and run the %s again.\n" % ("uninstall" if remove else "install"))
        return 1
    if remove and not os.path.isdir(profile):
        print("There is no LibreOffice profile at %s: nothing to remove." % profile)
        return 0
    os.makedirs(profile, exist_ok=True)
    try:
        with Office(profile_dir=profile) as office:
            if remove:
                print(_remove(office))
                return 0
            office.install(oxt)
    except OfficeError as exc:
        sys.stderr.write("%s\n" % exc)
        return 1
    print("installed %s into %s" % (os.path.basename(oxt), profile))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

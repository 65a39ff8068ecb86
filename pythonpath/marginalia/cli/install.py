"""``python -m marginalia.cli.install FILE.oxt``: add the extension to the user's LibreOffice.

``unopkg`` refuses to run as root without ``--shared``, so this installs through
the ExtensionManager API inside a headless office started on the user's own
profile. That works for root and ordinary users alike and replaces an older
version of the same identifier.
"""

import os
import sys
from typing import List

from marginalia.cli.office_process import Office, OfficeError
from marginalia.cli.profile_lock import default_profile, free_profile


def main(argv: List[str]) -> int:
    if len(argv) != 2:
        sys.stderr.write("usage: python -m marginalia.cli.install FILE.oxt\n")
        return 2
    oxt = argv[1]
    if not os.path.isfile(oxt):
        sys.stderr.write("There is no extension file at %s.\n" % oxt)
        return 2
    profile = default_profile()
    # An office started on a profile in use would hand its arguments to the running
    # one, and the install would then talk to (and at the end quit) the user's office.
    if not free_profile(profile):
        sys.stderr.write("LibreOffice seems to be running (its profile is locked): close it "
                         "and run the install again.\n")
        return 1
    os.makedirs(profile, exist_ok=True)
    try:
        with Office(profile_dir=profile) as office:
            office.install(oxt)
    except OfficeError as exc:
        sys.stderr.write("%s\n" % exc)
        return 1
    print("installed %s into %s" % (os.path.basename(oxt), profile))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""``build.py install --shared`` and ``uninstall --shared``: Marginalia for every user, through
LibreOffice's ``unopkg`` (standard library only: build.py runs it on any Python).

Each step either works or raises ``Refused`` with the one sentence to print; nothing here
prints a traceback for something an administrator can fix.
"""

import os
import re
import subprocess
from typing import Callable, Dict, List, Mapping, Optional

ADMIN_SETTINGS = "org.marginalia.admin"     # the extension `build.py admin-config` writes


class Refused(Exception):
    """What stopped the step, as one sentence for the administrator."""


def office_env(base: Mapping[str, str]) -> Dict[str, str]:
    """The environment for soffice and unopkg, without the caller's Python settings.

    The office's embedded Python must import the *installed* extension, not a
    checkout on PYTHONPATH. A pyenv Python's bin folder first on PATH made
    addExtension fail with std::bad_alloc, so such folders are dropped too.
    """
    env = dict((k, v) for k, v in base.items()
               if not (k.startswith("PYTHON") or k.startswith("PYENV")
                       or k.startswith("VIRTUAL_ENV")))
    if "PATH" in env:
        env["PATH"] = os.pathsep.join(
            p for p in env["PATH"].split(os.pathsep)
            if ".pyenv" not in p and not os.path.exists(os.path.join(p, "..", "pyvenv.cfg")))
    return env


def need_root(command: str, euid: Optional[int] = None) -> None:
    """Refuse ``command`` to anyone but root.

    Asked first, before anything is built: as another user the build itself died
    on dist/ with a traceback, and unopkg could not have written LibreOffice's
    folder anyway. Windows has no geteuid: there an administrator's prompt is
    what counts, and unopkg says so itself.
    """
    if euid is None:
        euid = getattr(os, "geteuid", lambda: 0)()
    if euid != 0:
        raise Refused("`%s` changes LibreOffice for every user of this machine: run it as "
                      "root (sudo python3 build.py %s)" % (command, command))


def identifier(description_xml: str) -> str:
    """The extension's identifier, from its description.xml."""
    with open(description_xml, encoding="utf-8") as fh:
        return re.search(r'<identifier\s+value="([^"]+)"', fh.read()).group(1)


def shared_ids(unopkg: str) -> List[str]:
    """The identifiers ``unopkg list --shared`` names."""
    listed = subprocess.run([unopkg, "list", "--shared"], env=office_env(os.environ),
                            stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            universal_newlines=True)
    return re.findall(r"^\s*Identifier:\s*(\S+)", listed.stdout, re.M)


def add(unopkg: str, oxt: str, say: Callable[[str], None]) -> None:
    # --suppress-license: the licence (MIT) is accepted here, once, for every user
    # (description.xml says accept-by="admin"); with accept-by="user" each user's first
    # start would stop on it.
    code = subprocess.call([unopkg, "add", "--shared", "--suppress-license", oxt],
                           env=office_env(os.environ))
    if code:
        raise Refused("unopkg could not add %s for every user (exit code %d); close every "
                      "LibreOffice on this machine and try again" % (oxt, code))
    say("installed %s for every user; each user's chats and prompts stay in their own "
        "profile" % os.path.basename(oxt))


def remove(unopkg: str, root: str, say: Callable[[str], None]) -> None:
    """``unopkg remove --shared`` of the checkout ``root``'s extension; a Marginalia not
    installed is said, not an error (a configuration tool runs this whatever the
    machine holds)."""
    extension = identifier(os.path.join(root, "description.xml"))
    if extension not in shared_ids(unopkg):
        say("Marginalia is not installed for every user of this machine: nothing to remove")
        return
    code = subprocess.call([unopkg, "remove", "--shared", extension],
                           env=office_env(os.environ))
    left = shared_ids(unopkg)
    if code or extension in left:
        raise Refused("unopkg could not remove Marginalia for every user (exit code %d); "
                      "close every LibreOffice on this machine and try again" % code)
    say("removed Marginalia for every user; each user's chats and prompts stay in their "
        "own profile")
    if ADMIN_SETTINGS in left:
        # Kept: an administrator replacing Marginalia keeps the policy for the next one.
        say("the administrator's settings stay installed; `unopkg remove --shared %s` "
            "removes them" % ADMIN_SETTINGS)

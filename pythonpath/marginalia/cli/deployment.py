"""What a running LibreOffice has installed, asked over the UNO bridge (the client side).

The extension manager keeps three layers: the user's profile, the extensions
installed for every user (``unopkg add --shared``), and those bundled with
LibreOffice. The runner, ``build.py install`` and ``build.py uninstall`` each
need to know whether Marginalia is already in one of them: after a shared
install, adding a second copy to a profile fails in LibreOffice ("An error
occurred while enabling: marginalia_component.py"), since the shared copy's
Python component is already registered under the same names.
"""

import re
import zipfile
from typing import Any, Dict, Optional, Tuple

import uno
import unohelper
from com.sun.star.task import XInteractionHandler
from com.sun.star.ucb import XCommandEnvironment, XProgressHandler

MARGINALIA = "org.marginalia.writer"       # description.xml's identifier
# Highest first: when a layer above has the same extension, LibreOffice runs that one.
REPOSITORIES = ("user", "shared", "bundled")
WHERE = {"user": "in this LibreOffice profile",
         "shared": "for every user of this machine",
         "bundled": "bundled with LibreOffice (its share/extensions folder)"}


class _Approve(unohelper.Base, XInteractionHandler):
    """Approves the extension manager's questions (licence, replacing a version)."""

    def handle(self, request):
        for cont in request.getContinuations():
            if cont.queryInterface(uno.getTypeByName(
                    "com.sun.star.task.XInteractionApprove")) is not None:
                cont.select()
                return


class _Progress(unohelper.Base, XProgressHandler):
    def push(self, status):
        pass

    def update(self, status):
        pass

    def pop(self):
        pass


class CommandEnv(unohelper.Base, XCommandEnvironment):
    def getInteractionHandler(self):
        return _Approve()

    def getProgressHandler(self):
        return _Progress()


def manager(ctx: Any) -> Any:
    return ctx.getValueByName("/singletons/com.sun.star.deployment.ExtensionManager")


def identity(oxt_path: str) -> Tuple[Optional[str], Optional[str]]:
    """(identifier, version) from the .oxt's description.xml; raises OSError, KeyError
    or zipfile.BadZipFile for a file that is no extension."""
    with zipfile.ZipFile(oxt_path) as zf:
        text = zf.read("description.xml").decode("utf-8", "replace")
    found = [re.search(r'<%s\s+value="([^"]+)"' % tag, text)
             for tag in ("identifier", "version")]
    return tuple(match.group(1) if match else None for match in found)


def deployed(ctx: Any, identifier: str) -> Dict[str, str]:
    """{repository: version} for each layer that has ``identifier`` installed."""
    em = manager(ctx)
    out = {}
    for repository in REPOSITORIES:
        for ext in em.getDeployedExtensions(repository, em.createAbortChannel(), CommandEnv()):
            if ext is not None and ext.getIdentifier().Value == identifier:
                out[repository] = ext.getVersion()
    return out


def first(layers: Dict[str, str]) -> Tuple[str, str]:
    """The (repository, version) LibreOffice runs of those ``deployed`` found."""
    repository = [r for r in REPOSITORIES if r in layers][0]
    return repository, layers[repository]


def said(exc: BaseException) -> str:
    """The first line of what LibreOffice (or Python) said, or the exception's type."""
    text = (getattr(exc, "Message", "") or str(exc)).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def bad_file(exc: BaseException) -> bool:
    """Whether addExtension failed on the file itself (LibreOffice's zip reader:
    "Bad Zip File, ZipException ..."), not on the office or what is installed."""
    return "zip" in said(exc).lower()

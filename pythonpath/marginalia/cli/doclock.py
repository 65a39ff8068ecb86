"""LibreOffice's document lock file: who holds a document open, and whether that is stale.

Opening ``report.odt`` makes LibreOffice write ``.~lock.report.odt#`` beside it,
one CSV entry ``full name,system user,host,date time,profile URL;`` with ``\\``
escaping ``,``, ``;`` and itself. A headless office without an interaction
handler refuses to open a locked document, so the runner looks first. Pure
except ``holder``, which reads the file and removes a stale one.
"""

import os
import socket
from typing import Callable, List, NamedTuple, Optional
from urllib.parse import urlparse
from urllib.request import url2pathname

from marginalia.cli.profile_lock import profile_in_use
from marginalia.i18n.catalog import tr


class LockOwner(NamedTuple):
    """The office that wrote a lock file."""
    name: str  # the profile's full name (often empty)
    user: str  # the system user
    host: str
    since: str  # as LibreOffice wrote it, e.g. "23.11.2026 18:47"
    profile_url: str  # the holder's UserInstallation


def lock_path(document: str) -> str:
    """Where LibreOffice puts the lock file of ``document``."""
    folder, name = os.path.split(os.path.abspath(document))
    return os.path.join(folder, ".~lock.%s#" % name)


def parse_lock(text: str) -> Optional[LockOwner]:
    """The first entry of a lock file's text, or None when it is not one."""
    fields: List[str] = []
    current: List[str] = []
    chars = iter(text)
    for char in chars:
        if char == "\\":
            current.append(next(chars, ""))
        elif char == ",":
            fields.append("".join(current))
            current = []
        elif char == ";":
            fields.append("".join(current))
            break
        else:
            current.append(char)
    else:
        return None  # no terminating ";": cut short or not a lock file
    if len(fields) < 5:
        return None
    return LockOwner(*(f.strip() for f in fields[:5]))


def profile_folder(profile_url: str) -> str:
    """The local folder of a ``file:`` profile URL ("" for anything else)."""
    parsed = urlparse(profile_url)
    if parsed.scheme != "file":
        return ""
    return url2pathname(parsed.path)  # which also undoes the %-escapes


def is_stale(owner: LockOwner, this_host: str, in_use: Callable[[str], bool]) -> bool:
    """True when no running office can hold the lock any more.

    Only a lock from this host can be checked: its office had the profile in
    use while it ran (``profile_lock``). A lock from another host (a shared
    folder) is taken at its word.
    """
    if owner.host.lower() != this_host.lower():
        return False
    folder = profile_folder(owner.profile_url)
    return bool(folder) and not in_use(folder)


def describe(owner: LockOwner, document: str) -> str:
    """One sentence: who holds ``document`` since when, and the way forward."""
    who = owner.user or tr("someone")
    if owner.name and owner.name != owner.user:
        who = "%s (%s)" % (owner.name, owner.user) if owner.user else owner.name
    values = {"file": os.path.basename(document), "who": who,
              "host": owner.host or tr("another computer"), "since": owner.since}
    if owner.since:
        return tr("%(file)s is open in LibreOffice by %(who)s on %(host)s since %(since)s; "
                  "close it there, or add --ignore-lock to work on a copy.") % values
    return tr("%(file)s is open in LibreOffice by %(who)s on %(host)s; close it there, or "
              "add --ignore-lock to work on a copy.") % values


def holder(document: str) -> Optional[LockOwner]:
    """The office holding ``document`` open, or None; a stale lock file is removed."""
    path = lock_path(document)
    try:
        with open(path, "rb") as fh:
            text = fh.read().decode("utf-8", "replace")
    except OSError:
        return None
    owner = parse_lock(text)
    if owner is None or is_stale(owner, socket.gethostname(), profile_in_use):
        try:
            os.remove(path)
        except OSError:
            pass  # the open then fails and says so
        return None
    return owner

"""The user's LibreOffice profile (UserInstallation folder), and whether an office runs on one.

A running office writes ``<profile>/.lock`` and listens on a local socket named
after the profile's file URL, ``OSL_PIPE_<uid>_SingleOfficeIPC_<md5>``: a second
soffice started on the same profile hands its arguments over that socket and
exits. An office that crashed or was killed leaves its ``.lock`` behind, and
LibreOffice itself then treats a lock written by the same user on the same host
as stale, because the socket would have answered. So does this module: taking
every leftover ``.lock`` at its word made ``build.py install`` refuse until the
user deleted it by hand, and made the runner think a dead office still held a
document.

The check is conservative: a lock from another host or user (a shared home
folder), one whose office had no socket, and any lock on a platform where the
socket was not verified, all count as in use.
"""

import errno
import hashlib
import os
import socket
import sys
from typing import Dict
from urllib.parse import quote

# Where sal's osl_createPipe puts its sockets (/tmp, or /var/tmp when /tmp is not writable).
PIPE_FOLDERS = ("/tmp", "/var/tmp")


def default_profile() -> str:
    """The folder LibreOffice uses as UserInstallation when none is given."""
    if sys.platform == "darwin":
        base = os.path.expanduser("~/Library/Application Support")
    elif os.name == "nt":
        base = os.environ.get("APPDATA", os.path.expanduser("~"))
    else:
        # As sal's osl_getConfigDir: an XDG_CONFIG_HOME that does not exist is ignored.
        xdg = os.environ.get("XDG_CONFIG_HOME", "")
        base = xdg if xdg and os.path.exists(xdg) else os.path.expanduser("~/.config")
    name = "LibreOffice" if sys.platform == "darwin" or os.name == "nt" else "libreoffice"
    return os.path.join(base, name, "4")


def file_url(path: str) -> str:
    """The URL LibreOffice makes of a profile folder before it names the socket.

    It resolves symbolic links (a linked ~/.config is common), then escapes as
    osl_getFileURLFromSystemPath does: ``;`` is the one character osl escapes
    that ``quote`` keeps. The core tests hold what ``uno.systemPathToFileUrl``
    gave for awkward paths, and the install test finds a real office running on
    one, reached through a link.
    """
    return "file://" + quote(os.path.realpath(path), safe="/~+(),&=$!@'*:")


def ipc_pipe_name(profile_url: str) -> str:
    """The pipe name of the office on ``profile_url``: the MD5 of its UTF-16 code
    units, each byte in hex without a leading zero, as desktop's CreateMD5FromString."""
    digest = hashlib.md5(profile_url.encode("utf-16-le")).digest()
    return "SingleOfficeIPC_" + "".join("%x" % byte for byte in digest)


def parse_lock(text: str) -> Dict[str, str]:
    """The ``[Lockdata]`` entries of a profile's .lock (User, Host, IPCServer...)."""
    entries: Dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and not key.startswith("["):
            entries[key.strip()] = value.strip()
    return entries


def _user() -> str:
    try:
        import pwd
        return pwd.getpwuid(os.getuid()).pw_name
    except (ImportError, KeyError):
        return ""


def pipe_path(profile: str, folder: str) -> str:
    """Where, in ``folder``, the socket of an office of this user on ``profile`` is."""
    name = "OSL_PIPE_%d_%s" % (os.getuid(), ipc_pipe_name(file_url(profile)))
    return os.path.join(folder, name)


def _socket_answers(path: str) -> bool:
    """Whether something listens on the Unix socket at ``path`` (it is not only a file)."""
    try:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    except OSError:
        return True         # no socket to ask with: count it as running
    try:
        sock.settimeout(2.0)
        sock.connect(path)
        return True         # the office reads end-of-file and waits for the next one
    except (BlockingIOError, socket.timeout):
        return True         # a listener whose queue is full is still a listener
    except OSError as exc:
        if exc.errno in (errno.ECONNREFUSED, errno.ENOENT, errno.ENOTSOCK):
            return False    # a crashed office's leftover socket file, or none at all
        return True         # cannot tell: count it as running
    finally:
        sock.close()


def office_answers(profile: str) -> bool:
    """Whether an office of this user listens on ``profile``'s socket."""
    return any(_socket_answers(pipe_path(profile, folder)) for folder in PIPE_FOLDERS)


def is_stale(lock: Dict[str, str], this_host: str, this_user: str, answers: bool) -> bool:
    """True when the office that wrote ``lock`` cannot be running any more."""
    return (lock.get("Host", "").lower() == this_host.lower()
            and lock.get("User", "") == this_user
            and lock.get("IPCServer", "").lower() == "true"
            and not answers)


def profile_in_use(profile: str) -> bool:
    """Whether an office runs on ``profile``: it has a .lock that is not stale."""
    try:
        with open(os.path.join(profile, ".lock"), "rb") as fh:
            text = fh.read().decode("utf-8", "replace")
    except FileNotFoundError:
        return False
    except OSError:
        return True         # there but unreadable: do not guess
    if not sys.platform.startswith("linux"):
        return True         # the socket's place was verified on Linux only
    return not is_stale(parse_lock(text), socket.gethostname(), _user(),
                        office_answers(profile))


def free_profile(profile: str) -> bool:
    """Whether a new office may start on ``profile``: no office runs there. A stale
    .lock is removed first.

    A desktop office removes a stale lock itself when it starts over one; a
    headless office leaves it and never removes it, so the install would end with
    the lock of a crash still there.
    """
    if profile_in_use(profile):
        return False
    try:
        os.remove(os.path.join(profile, ".lock"))
    except OSError:
        pass                # none, or not ours to remove: the office starts anyway
    return True

"""Whether an office runs on a profile: its socket's name, the .lock, and a stale one."""

import os
import socket

from marginalia.cli import profile_lock
from marginalia.cli.profile_lock import (file_url, ipc_pipe_name, is_stale, parse_lock,
                                         profile_in_use)

# Written by LibreOffice 7.4 on this machine (its profile at /tmp/x/prof1).
REAL_LOCK = ("[Lockdata]\nUser=root\nHost=vm\nStamp=6766A7D67CA25DED8969300FB1BF41DE\n"
             "Time=Wed Nov 25 18:56:06 2026\nIPCServer=true\n\n\n")


def test_the_pipe_name_is_the_one_libreoffice_listens_on():
    # Seen in /tmp while that office ran: bytes without a leading zero ("c0c" gives "cc").
    assert ipc_pipe_name("file:///tmp/x/prof1") == "SingleOfficeIPC_b69df249241cdda24521617e9cc6e69"
    assert ipc_pipe_name("file:///tmp/x/prof1/") != ipc_pipe_name("file:///tmp/x/prof1")


def test_file_url_escapes_as_osl_does():
    # The URLs uno.systemPathToFileUrl gave for these paths.
    assert file_url("/tmp/a b/é/~x/+y/(z),&=$!;@'*:") == \
        "file:///tmp/a%20b/%C3%A9/~x/+y/(z),&=$!%3B@'*:"
    assert file_url("/tmp/x%y#z?q[1]") == "file:///tmp/x%25y%23z%3Fq%5B1%5D"
    # LibreOffice drops a trailing slash of XDG_CONFIG_HOME before it hashes.
    assert file_url("/tmp/cfg//libreoffice/4/") == "file:///tmp/cfg/libreoffice/4"


def test_file_url_resolves_links_as_libreoffice_does(tmp_path):
    # An office started through a linked XDG_CONFIG_HOME listens under the real path.
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert file_url(str(tmp_path / "link" / "libreoffice" / "4")) == \
        file_url(str(tmp_path / "real" / "libreoffice" / "4"))
    assert file_url(str(tmp_path / "link")).endswith("/real")


def test_parse_the_lock_libreoffice_writes():
    lock = parse_lock(REAL_LOCK)
    assert (lock["User"], lock["Host"], lock["IPCServer"]) == ("root", "vm", "true")
    assert "[Lockdata]" not in lock and parse_lock("") == {}


def test_stale_only_for_this_user_on_this_host_with_nobody_listening():
    lock = parse_lock(REAL_LOCK)
    assert is_stale(lock, "VM", "root", answers=False)
    assert not is_stale(lock, "vm", "root", answers=True)
    # A shared home folder: another computer's or another user's office is taken at its word.
    assert not is_stale(lock, "laptop", "root", answers=False)
    assert not is_stale(lock, "vm", "jane", answers=False)
    # An office without the socket cannot be asked.
    assert not is_stale(dict(lock, IPCServer="false"), "vm", "root", answers=False)


def _write_lock(profile, host=None):
    os.makedirs(profile, exist_ok=True)
    text = REAL_LOCK.replace("User=root", "User=%s" % profile_lock._user())
    text = text.replace("Host=vm", "Host=%s" % (host or socket.gethostname()))
    with open(os.path.join(profile, ".lock"), "w") as fh:
        fh.write(text)


def _listen(profile):
    """A real listener on the profile's socket, where a running office has it."""
    path = profile_lock.pipe_path(profile, profile_lock.PIPE_FOLDERS[0])
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(path)
    sock.listen(1)
    return sock, path


def test_profile_in_use_follows_the_lock_and_the_socket(tmp_path):
    profile = str(tmp_path / "libreoffice" / "4")
    assert not profile_in_use(profile)          # no folder at all
    _write_lock(profile)
    assert not profile_in_use(profile)          # a killed office's lock, no socket
    sock, path = _listen(profile)
    try:
        assert profile_in_use(profile)          # the office answers
        sock.close()
        assert os.path.exists(path)
        assert not profile_in_use(profile)      # a crashed office's socket file: refused
    finally:
        sock.close()
        os.remove(path)
    _write_lock(profile, host="another-computer")
    assert profile_in_use(profile)

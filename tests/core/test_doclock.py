"""LibreOffice's document lock file: parsing it, telling a stale one, the sentence."""

import os

from marginalia.cli.doclock import (LockOwner, describe, is_stale, lock_path, parse_lock,
                                   profile_folder)

REAL = ",root,vm,23.11.2026 18:47,file:///tmp/marginalia-profile-deq_ky42;"


def test_parse_the_entry_libreoffice_writes():
    assert parse_lock(REAL) == LockOwner("", "root", "vm", "23.11.2026 18:47",
                                         "file:///tmp/marginalia-profile-deq_ky42")


def test_parse_escaped_separators_and_a_full_name():
    text = "Doe\\, Jane,jane,desk\\;1,01.02.2026 09:05,file:///home/jane/.config/lo\\\\4;"
    owner = parse_lock(text)
    assert owner == LockOwner("Doe, Jane", "jane", "desk;1", "01.02.2026 09:05",
                              "file:///home/jane/.config/lo\\4")


def test_not_a_lock_file():
    assert parse_lock("") is None
    assert parse_lock(",root,vm,23.11.2026 18:47,file:///tmp/cut-short") is None
    assert parse_lock("a,b;") is None


def test_lock_path_sits_beside_the_document(tmp_path):
    doc = str(tmp_path / "report.odt")
    assert lock_path(doc) == os.path.join(str(tmp_path), ".~lock.report.odt#")


def test_stale_only_on_this_host_with_the_profile_no_longer_running():
    owner = parse_lock(REAL)
    in_use = {"/tmp/marginalia-profile-deq_ky42"}
    assert not is_stale(owner, "vm", lambda folder: folder in in_use)
    assert is_stale(owner, "VM", lambda folder: False)
    # Another computer's office (a shared folder) cannot be checked: taken at its word.
    assert not is_stale(owner, "laptop", lambda folder: False)
    remote = owner._replace(profile_url="vnd.sun.star.expand:$HOME/x")
    assert not is_stale(remote, "vm", lambda folder: False)


def test_the_profile_folder_is_unescaped_once():
    assert profile_folder("file:///tmp/a%20b/%C3%A9") == "/tmp/a b/é"
    assert profile_folder("file:///tmp/a%2520b") == "/tmp/a%20b"   # a folder named a%20b
    assert profile_folder("vnd.sun.star.expand:$HOME/x") == ""


def test_the_sentence_names_who_since_when_and_the_way_out():
    owner = parse_lock(REAL)
    sentence = describe(owner, "/data/fox.odt")
    assert sentence == ("fox.odt is open in LibreOffice by root on vm since 23.11.2026 18:47; "
                        "close it there, or add --ignore-lock to work on a copy.")
    named = describe(owner._replace(name="Jane Doe", user="jane"), "/data/fox.odt")
    assert "by Jane Doe (jane) on vm" in named
    assert "\n" not in named

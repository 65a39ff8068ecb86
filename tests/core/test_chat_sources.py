"""A chat's sources read on a worker (office.chat_sources, no office needed: the
reader is replaced by a stand-in that waits where a long read would)."""

import threading

from marginalia.office import chat_sources, source_reader
from marginalia.sources import index
from marginalia.sources.model import Block

BLOCKS = [Block("paragraph", "The otters returned to the weir in March and stayed.")]


def _worker(target):
    out = {}

    def run():
        try:
            out["value"] = target()
        except Exception as exc:      # handed to the test thread
            out["error"] = exc
    thread = threading.Thread(target=run)
    thread.start()
    return thread, out


def test_a_source_read_while_the_chat_changes_never_lands_in_the_new_chat(monkeypatch):
    reading, go_on = threading.Event(), threading.Event()

    def slow_read(ctx, path, run, **kw):
        reading.set()
        assert go_on.wait(10)
        return BLOCKS
    monkeypatch.setattr(source_reader, "read_file", slow_read)
    sources = chat_sources.ChatSources(None)
    thread, out = _worker(lambda: sources.add_file("/tmp/a.pdf", None))
    assert reading.wait(10)
    sources.restore(None)          # New chat while the file is read
    go_on.set()
    thread.join(10)
    assert isinstance(out.get("error"), source_reader.Unreadable)
    assert str(out["error"]) == ("The chat changed while a.pdf was being read: add it "
                                 "again to this chat.")
    assert sources.sources() == [] and sources.state() is None


def test_the_main_thread_never_waits_while_a_source_is_indexed(monkeypatch):
    indexing, go_on = threading.Event(), threading.Event()

    class SlowEntry(index._Entry):
        def __init__(self, source):
            indexing.set()
            assert go_on.wait(10)     # a big source being indexed
            super().__init__(source)
    monkeypatch.setattr(index, "_Entry", SlowEntry)
    monkeypatch.setattr(source_reader, "read_file", lambda ctx, path, run, **kw: BLOCKS)
    monkeypatch.setattr(source_reader, "stamp_of", lambda path: (1, 1.0))
    sources = chat_sources.ChatSources(None)
    adding, _ = _worker(lambda: sources.add_file("/tmp/big.pdf", None))
    try:
        assert indexing.wait(10)
        # The panel's scope line and state, as the main thread asks them meanwhile.
        listing, out = _worker(lambda: (sources.sources(), sources.state()))
        listing.join(5)
        assert not listing.is_alive() and "value" in out
    finally:
        go_on.set()
        adding.join(10)
    assert [s.name for s in sources.sources()] == ["big.pdf"]
    assert len(sources.library.passages("S1")) == 1


def test_two_sources_filled_at_once_are_both_kept(monkeypatch):
    both = threading.Barrier(2, timeout=10)

    class SlowEntry(index._Entry):
        def __init__(self, source):
            both.wait()               # both built at the same moment, then swapped in
            super().__init__(source)
    monkeypatch.setattr(index, "_Entry", SlowEntry)
    monkeypatch.setattr(source_reader, "read_file", lambda ctx, path, run, **kw: BLOCKS)
    sources = chat_sources.ChatSources(None)
    one, out1 = _worker(lambda: sources.add_file("/tmp/one.txt", None))
    two, out2 = _worker(lambda: sources.add_file("/tmp/two.txt", None))
    one.join(10)
    two.join(10)
    assert "value" in out1 and "value" in out2
    assert sorted(s.name for s in sources.sources()) == ["one.txt", "two.txt"]
    assert all(sources.library.passages(s.id) for s in sources.sources())

"""events.merge_entries: a batch's adjacent pieces joined, nothing else moved."""

from marginalia import events as ev


def test_adjacent_pieces_of_one_kind_join_and_nothing_else_does():
    entries = [("user", "hi"), ("event", ev.Event(ev.REASONING, text="a")),
               ("event", ev.Event(ev.REASONING, text="b")), ("event", ev.Event(ev.TEXT, text="c")),
               ("event", ev.Event(ev.TEXT, text="d")), ("user", "again"),
               ("event", ev.Event(ev.TEXT, text="e"))]
    merged = ev.merge_entries(entries)
    assert [(role, getattr(p, "kind", p), getattr(p, "text", None)) for role, p in merged] == [
        ("user", "hi", None), ("event", ev.REASONING, "ab"), ("event", ev.TEXT, "cd"),
        ("user", "again", None), ("event", ev.TEXT, "e")]

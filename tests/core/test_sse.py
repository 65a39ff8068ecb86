"""SSEDecoder: framing, fields, and identical events however the bytes are cut."""

import random

import pytest

from marginalia.chat.sse import SSEDecoder, SSEEvent


def decode(reads):
    decoder = SSEDecoder()
    out = []
    for read in reads:
        out.extend(decoder.feed(read))
    out.extend(decoder.close())
    return out


def every_way(body, seed=7):
    """Events for body fed whole, byte by byte, cut at every single position, and at random."""
    reference = decode([body])
    assert decode([body[i:i + 1] for i in range(len(body))]) == reference
    for cut in range(1, len(body)):
        assert decode([body[:cut], body[cut:]]) == reference, "cut at %d" % cut
    rng = random.Random(seed)
    for _ in range(20):
        cuts = sorted(rng.sample(range(1, len(body)), min(len(body) - 1, rng.randint(1, 12))))
        edges = [0] + cuts + [len(body)]
        assert decode([body[a:b] for a, b in zip(edges, edges[1:])]) == reference
    return reference


def datas(events):
    return [e.data for e in events]


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"])
def test_line_endings(newline):
    body = (b"data: one" + newline + newline + b"data: two" + newline + newline)
    assert datas(every_way(body)) == ["one", "two"]


def test_mixed_line_endings_in_one_body():
    body = b"data: a\r\n\r\ndata: b\n\ndata: c\r\rdata: d\r\n\n"
    assert datas(every_way(body)) == ["a", "b", "c", "d"]


def test_cr_at_end_of_read_then_lf_is_one_break():
    # Two breaks would end the event after "data: a" and split a from b.
    events = decode([b"data: a\r", b"\ndata: b\r", b"\n\r", b"\n"])
    assert datas(events) == ["a\nb"]


def test_multibyte_character_split_across_reads():
    body = u"data: caf\u00e9 \u2014 \U0001F600\n\n".encode("utf-8")
    events = every_way(body)
    assert datas(events) == [u"caf\u00e9 \u2014 \U0001F600"]


def test_invalid_utf8_is_replaced_not_raised():
    assert datas(decode([b"data: a\xff\n\n"])) == [u"a\ufffd"]


def test_multiline_data_joins_with_newline_and_one_space_is_stripped():
    body = b"data: first\ndata:second\ndata:  third\n\n"
    assert datas(every_way(body)) == ["first\nsecond\n third"]


def test_comments_are_ignored():
    body = b": OPENROUTER PROCESSING\n\ndata: x\n: inside\n\n:\n\n"
    assert datas(every_way(body)) == ["x"]


def test_event_id_retry_fields():
    body = b"event: message_delta\nid: 42\nretry: 1500\ndata: {}\n\ndata: next\n\n"
    first, second = every_way(body)
    assert (first.event, first.id, first.retry, first.data) == ("message_delta", "42", 1500, "{}")
    # The last event id persists; event name and retry do not.
    assert (second.event, second.id, second.retry) == ("message", "42", None)


def test_bad_retry_is_ignored():
    (event,) = decode([b"retry: soon\ndata: x\n\n"])
    assert event.retry is None


def test_event_error_passes_through():
    body = b'event: error\ndata: {"error": {"message": "Overloaded"}}\n\n'
    (event,) = every_way(body)
    assert event.event == "error" and "Overloaded" in event.data


def test_event_error_without_data_is_still_dispatched():
    (event,) = decode([b"event: error\n\n"])
    assert event.event == "error" and event.data == ""


def test_bare_error_line_from_old_llama_cpp():
    body = b'data: {"a": 1}\n\nerror: {"code": 500, "message": "boom"}\n\n'
    events = every_way(body)
    assert [(e.event, e.data) for e in events] == [
        ("message", '{"a": 1}'), ("error", '{"code": 500, "message": "boom"}')]


def test_close_flushes_an_unterminated_event():
    assert datas(every_way(b"data: a\n\ndata: last")) == ["a", "last"]
    assert datas(decode([b"data: tail\n"])) == ["tail"]


def test_an_event_the_body_ended_inside_is_marked_incomplete():
    events = every_way(b'data: a\n\nevent: x\ndata: b\n\ndata: {"cut": ')
    assert [(e.data, e.complete) for e in events] == [("a", True), ("b", True),
                                                      ('{"cut": ', False)]
    assert [e.complete for e in decode([b"data: tail\n"])] == [False]


def test_blank_lines_alone_dispatch_nothing():
    assert decode([b"\n\n\r\n\n"]) == []


def test_field_without_colon_and_unknown_fields():
    body = b"data\nfoo: bar\ndata: x\n\n"
    assert datas(every_way(body)) == ["\nx"]


def test_many_events_in_one_read_keep_order_and_state():
    body = b"".join(b"data: %d\n\n" % i for i in range(50)) + b"id: 9\ndata: end\n\n"
    events = every_way(body)
    assert datas(events) == [str(i) for i in range(50)] + ["end"]
    assert events[-1].id == "9" and events[0].id is None


def test_sse_event_equality_and_repr():
    assert SSEEvent(data="x") == SSEEvent("message", "x")
    assert SSEEvent(data="x") != SSEEvent("error", "x")
    assert "error" in repr(SSEEvent("error", "x"))


def test_leading_bom_is_dropped_however_it_is_cut():
    body = b"\xef\xbb\xbfdata: first\n\ndata: second\n\n"
    events = every_way(body)
    assert datas(events) == ["first", "second"]
    assert decode([b"\xef", b"\xbb", b"\xbf", b"data: x\n\n"]) == decode([b"data: x\n\n"])


def test_bom_is_dropped_only_at_the_very_start():
    assert datas(decode([b"\xef\xbb\xbf\xef\xbb\xbfdata: x\n\n"])) == []   # a field name
    assert datas(every_way(b"data: a\n\n\xef\xbb\xbfdata: b\n\n")) == ["a"]
    assert datas(every_way(b"data: \xef\xbb\xbfkept\n\n")) == [u"\ufeffkept"]


def test_bytes_that_only_begin_like_a_bom_are_kept():
    assert datas(every_way(b"\xef\xbbdata: x\n\ndata: y\n\n")) == ["y"]
    assert datas(decode([b"\xef", b"data: x\n\n"])) == []
    assert datas(decode([b"\xef\xbb"])) == []       # a body of two stray bytes
    assert decode([b"\xef\xbb", b""]) == []

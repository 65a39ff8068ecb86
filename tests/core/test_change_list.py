"""The change records and the change card's wording and layout (pure)."""

import time

from marginalia import events as ev
from marginalia.chat import history, rewind
from marginalia.config import Settings
from marginalia.document import change_log as cl
from marginalia.ui import change_list as card


def _change(n, state=cl.MADE, mode=cl.DIRECT, tool="replace_text", **args):
    args = args or {"search": "old words", "replacement": "new words"}
    change = cl.make(n, 7, tool, mode, args)
    change.state = state
    change.paragraphs = [n, n]
    return change


def test_each_tool_has_its_kind_and_before_after():
    table = cl.make(1, 1, "insert_table", cl.DIRECT, {"rows": [["A", "B"], ["1", "2"]],
                                                      "after_paragraph": 2})
    assert (table.kind, table.before, table.after) == ("table", "", "table 2\u00d72: A | B")
    fmt = cl.make(2, 1, "format_text", cl.DIRECT, {"search": "x", "bold": True,
                                                   "italic": False, "color": "red"})
    assert (fmt.kind, fmt.before, fmt.after) == ("format", "x", "bold, not italic, text color red")
    style = cl.make(3, 1, "set_paragraph_style", cl.TRACKED, {"style": "Title"}, "Intro")
    assert (style.kind, style.before, style.after, style.state) == (
        "restyle", "Intro", "style Title", cl.PENDING)
    gone = cl.make(4, 1, "delete_paragraphs", cl.COMMENTS, {"start": 2, "end": 3}, "Old text")
    assert (gone.kind, gone.after, gone.state) == ("delete", "", cl.PROPOSED)
    assert cl.proposal("delete_paragraphs", {}) == "Delete this."
    assert cl.proposal("replace_text", {"replacement": "new"}) == "Replace with: new"
    long = cl.make(5, 1, "replace_text", cl.DIRECT, {"search": "a" * 300, "replacement": "b"})
    assert len(long.before) <= cl.SHORT


def test_change_round_trips_through_its_event_and_the_kept_log():
    change = _change(3)
    event = ev.Event(ev.CHANGE, change=change.to_dict())
    entry = history.entry_from_dict(history.entry_to_dict(("event", event)))
    assert entry[1] == event
    again = cl.Change.from_dict(entry[1].change)
    assert (again.id, again.turn, again.kind, again.before, again.after, again.paragraphs) == \
        (3, 7, "replace", "old words", "new words", [3, 3])
    assert cl.turns_in([("user", "hi"), entry, ("event", ev.Event(ev.TEXT, text="x")),
                        entry]) == [7]


def test_apply_mode_reads_the_old_track_changes_setting():
    assert cl.apply_mode(Settings()) == cl.DIRECT
    assert cl.apply_mode(Settings(track_changes=True)) == cl.TRACKED
    assert cl.apply_mode(Settings(apply_mode="comments", track_changes=True)) == cl.COMMENTS
    assert cl.apply_mode(Settings(**cl.mode_fields(cl.TRACKED))) == cl.TRACKED
    assert cl.mode_fields(cl.DIRECT) == {"apply_mode": "direct", "track_changes": False}


def test_headline_rows_and_buttons():
    changes = [_change(1, cl.PENDING, cl.TRACKED), _change(2, cl.ACCEPTED, cl.TRACKED),
               _change(3, cl.PENDING, cl.TRACKED)]
    assert card.headline(changes) == "3 changes \u00b7 1 accepted \u00b7 2 open"
    assert card.headline([_change(1)]) == "1 change"
    proposed = [_change(1, cl.PROPOSED, cl.COMMENTS), _change(2, cl.PROPOSED, cl.COMMENTS)]
    assert card.headline(proposed) == "2 suggestions"
    # The words first, what the sidebar's width shows (issue 39); a settled change's sign.
    assert card.rows(changes)[1] == ("\u2713 \u201cold words\u201d \u2192 \u201cnew words\u201d "
                                     "\u00b7 \u00b62 replace \u00b7 accepted")
    assert card.rows(changes)[0].startswith("\u201cold words\u201d \u2192")
    rejected = _change(4, cl.REJECTED, cl.TRACKED)
    assert card.rows([rejected])[0].startswith("\u2717 \u201cold words\u201d")
    on = card.enabled(changes, 0, undoable=True, idle=True)
    assert on["accept"] and on["reject"] and not on["apply"] and on["accept_all"]
    on = card.enabled(changes, 1, undoable=False, idle=True)
    assert not on["accept"] and not on["undo_turn"] and on["go_to"]
    assert not card.enabled(changes, 0, undoable=True, idle=False)["accept"]
    assert card.enabled(proposed, 0, True, True)["apply"]


def test_rows_show_no_markdown_marks():
    """A row is read, not rendered: "**Summary**" was shown with its stars (issue 24)."""
    change = _change(1)
    change.before, change.after = "", "## **Summary** of *the* `plan` and 2*3*4"
    assert card.rows([change])[0].startswith("+ \u201cSummary of the plan and 2*3*4\u201d"), \
        card.rows([change])
    assert card.plain("__bold__ ~~gone~~") == "bold gone"


def _overlap(a, b):
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def test_card_layout_fits_narrow_and_wide_panels():
    for width in (180, 200, 240, 260, 420):
        height, boxes = card.layout(width, 10, review_open=True, shown=True, tray_open=True)
        assert all(x >= 0 and x + w <= width and y >= 10 and y + h <= 10 + height
                   for x, y, w, h in boxes.values()), (width, boxes)
        assert "changes" in boxes and "accept_all" in boxes
        names = sorted(boxes)
        assert not [(a, b) for i, a in enumerate(names) for b in names[i + 1:]
                    if _overlap(boxes[a], boxes[b])], width
        # No button so narrow that its label ("Undo turn", "Accept all") is cut short.
        for name, _label, _tip in card.BUTTONS:
            assert boxes[name][2] >= card.THIRD_MIN, (width, name, boxes[name])
    # At the sidebar's usual width, the buttons go two to a row: Accept beside Reject.
    _h, boxes = card.layout(180, 0, review_open=True, shown=True, tray_open=True)
    assert boxes["accept"][1] == boxes["reject"][1] < boxes["accept_all"][1]
    assert boxes["mode"][2] == 180 - 2 * card.MARGIN
    assert card.layout(300, 0, True, shown=False) == (0, {})
    closed, boxes = card.layout(420, 0, review_open=False, shown=True)
    assert "changes" not in boxes and closed < card.layout(420, 0, True, True)[0]


def test_the_headline_keeps_the_room_reviews_own_label_leaves():
    """German at 180 px: the widest button ("Alle ablehnen", ~130 px) set Review's width
    too, leaving "1 Änderung" 40 px, broken inside its word under Prüfen (issue 39)."""
    for open_ in (False, True):
        _h, boxes = card.layout(180, 0, review_open=open_, shown=True, need=130,
                                headline_need=70, review_need=48)
        head, review = boxes["headline"], boxes["review"]
        assert head[2] >= 70 and head[0] + head[2] < review[0], (open_, boxes)
        assert review[2] >= card.THIRD_MIN and review[0] + review[2] == 180 - card.MARGIN
        if open_:          # the list's buttons keep the widest label's room
            assert all(boxes[n][2] >= 130 for n in ("accept", "reject_all"))


def test_closed_the_card_is_one_line_and_the_edit_options_only_show_in_their_tray():
    # Content first (issue 24): the summary and Review share one row at the sidebar's
    # default width; the mode switch, Restore and Keep out take no row until asked for.
    for width in (180, 420):
        height, boxes = card.layout(width, 0, review_open=False, shown=True, need=64,
                                    headline_need=60)
        assert sorted(boxes) == ["headline", "review"]
        assert height == card.ROW + card.MARGIN + card.GAP < 40
        assert boxes["headline"][1] >= 0 and boxes["headline"][0] + boxes["headline"][2] \
            < boxes["review"][0]
        tray, boxes = card.layout(width, 0, review_open=False, shown=False, tray_open=True)
        assert sorted(boxes) == ["keep_out", "mode", "restore"] and tray > 0
    # Before: about 130 px for every chat, also a plain question.
    assert card.layout(180, 0, review_open=False, shown=False) == (0, {})
    # Undo turn sits with the list's buttons, last.
    _h, boxes = card.layout(180, 0, review_open=True, shown=True, need=64)
    assert boxes["undo_turn"][1] > boxes["accept_all"][1]


def test_a_headline_too_long_for_its_place_wraps_rather_than_being_cut():
    _h, one = card.layout(180, 0, review_open=False, shown=True, need=64, headline_need=70)
    high, two = card.layout(180, 0, review_open=False, shown=True, need=64, headline_need=170)
    width = two["headline"][2]
    assert one["headline"][3] == card.HEADLINE_LINE
    assert two["headline"][3] == 2 * card.HEADLINE_LINE and 170 <= 2 * width
    assert high > _h and two["headline"][1] + two["headline"][3] <= high
    assert not _overlap(two["headline"], two["review"])


def test_card_buttons_are_never_narrower_than_the_toolkit_draws_their_labels():
    # gtk3 pads buttons more than gen: the card is told the widest label's own width.
    for width, need in ((180, 80), (180, 90), (260, 80), (420, 130), (420, 60)):
        _h, boxes = card.layout(width, 0, review_open=True, shown=True, need=need,
                                tray_open=True)
        for name, _label, _tip in card.BUTTONS:
            assert boxes[name][2] >= need, (width, need, name, boxes[name])
    # Too narrow for two: one button to a row, Accept above Reject.
    _h, boxes = card.layout(180, 0, review_open=True, shown=True, need=90)
    assert boxes["accept"][0] == boxes["reject"][0] and boxes["accept"][1] < boxes["reject"][1]


def test_restore_cuts_the_chat_at_the_same_user_turn():
    log = [("user", "one"), ("event", ev.Event(ev.TEXT, text="a")), ("user", "two"),
           ("event", ev.Event(ev.TEXT, text="b")), ("user", "three")]
    messages = [{"role": "user", "content": "one"}, {"role": "assistant", "content": "a"},
                {"role": "user", "content": "two"}, {"role": "assistant", "content": "b"},
                {"role": "user", "content": "three"}]
    assert rewind.user_messages(log) == [(0, "one"), (2, "two"), (4, "three")]
    assert rewind.cut_at(messages, log, 2) == (2, 2)
    assert rewind.cut_at(messages, log, 0) == (0, 0)
    assert rewind.cut_at(messages, log, 1) is None
    assert rewind.cut_at(messages[2:], log, 0) is None
    items = card.restore_items(rewind.user_messages(log))
    # No time known: none shown.
    assert items[0] == (4, "3 \u00b7 \u201cthree\u201d (newest)")
    said = card.restored_sentence("two", 2, number=2)
    assert said.startswith("Restored to before message 2 (\u201ctwo\u201d): 2 turns taken")
    yours = card.restored_sentence("two", 1, yours=True, number=2)
    assert "1 turn and your own edits since then taken back" in yours
    assert "no document edits" in card.restored_sentence("two", 0, number=2)


def test_restore_points_that_read_the_same_are_told_apart_newest_first():
    # Reported: two entries read "Before “Please fix the typos…”", with no number or time.
    now = time.mktime((2026, 11, 26, 15, 0, 0, 0, 0, -1))
    log = [("user", history.Said("Please fix the typos in the first section", now - 3600)),
           ("event", ev.Event(ev.TEXT, text="a")),
           ("user", history.Said("Please fix the typos in the first section", now - 60)),
           ("user", history.Said("Shorter", now - 86400 * 2))]
    items = card.restore_items(rewind.user_messages(log), now=now)
    assert [index for index, _label in items] == [3, 2, 0]
    labels = [label for _index, label in items]
    assert labels[1].startswith("2 \u00b7 2:59 PM \u00b7 \u201cPlease fix")
    assert labels[2].startswith("1 \u00b7 2:00 PM \u00b7 \u201cPlease fix")
    assert labels[0] == "3 \u00b7 11/24 3:00 PM \u00b7 \u201cShorter\u201d (newest)"
    # the locale's clock and date order (LibreOffice's, as History's dates)
    from marginalia.i18n import formats
    try:
        formats.install(formats.Formats(date_order="DMY", date_separator=".",
                                        twelve_hour=False))
        labels = [label for _index, label in card.restore_items(rewind.user_messages(log),
                                                                now=now)]
        assert labels[1].startswith("2 \u00b7 14:59 \u00b7 ")
        assert labels[0].startswith("3 \u00b7 24.11. 15:00 \u00b7 ")
    finally:
        formats.install(formats.ENGLISH)
    assert len(set(labels)) == 3
    # The time travels with the kept chat (and an old one without it reads as unknown).
    again = history.entry_from_dict(history.entry_to_dict(log[0]))
    assert again == log[0] and again[1].at == now - 3600
    assert history.entry_from_dict({"type": "user", "text": "old"})[1].at == 0
    for bad in ("soon", float("nan"), float("inf"), 1e300, -5, [1]):
        said = history.entry_from_dict({"type": "user", "text": "x", "at": bad})[1]
        assert said.at == 0 and card.when(said.at) == ""
    assert card.when(float("nan")) == ""


def test_a_change_of_several_places_names_each_one():
    assert cl.spread([3, 2, 2]) == [] and cl.spread([2, 3, 4]) == []   # one run: the span
    assert cl.spread([7, 2]) == [2, 7]
    change = _change(2)
    change.paragraphs, change.places = [2, 7], cl.spread([2, 3, 7])
    assert cl.where(change) == "\u00b62\u20133, 7"
    assert cl.line(change).endswith(" \u00b7 \u00b62\u20133, 7 replace")
    again = cl.Change.from_dict(change.to_dict())
    assert (again.paragraphs, again.places) == ([2, 7], [2, 3, 7])
    change.places = [1, 3, 5, 7, 9, 11]
    assert cl.where(change) == "\u00b61, 3, 5, 7 +2"
    # A record without places reads as before (and its dict has no such key).
    assert "places" not in _change(4).to_dict() and cl.where(_change(4)) == "\u00b64"


def test_rows_keep_the_documents_own_text_and_unpaired_marks():
    """Only the model's text is markdown, and only marks in pairs are marks: the document's
    "__init__ a**b `x`" was shown as "init ab x" (issue 24 review)."""
    change = _change(1)
    change.before = change.after = "__init__ a**b `x`"
    row = card.rows([change])[0]
    assert "\u201c__init__ a**b `x`\u201d" in row, row          # before: verbatim
    assert "\u2192 \u201cinit a**b x\u201d \u00b7" in row, row       # after: pairs only
    assert card.plain("2 ** 3 and a ` tick") == "2 ** 3 and a ` tick"
    assert card.plain("snake__case__x ~~a~~") == "snake__case__x a"


def test_after_a_decision_the_keyboard_goes_to_the_next_row_to_decide():
    # Issue 39: after Apply focus fell on Undo turn, after Reject on Accept all.
    rows = [_change(1, cl.ACCEPTED), _change(2, cl.PENDING), _change(3, cl.REJECTED),
            _change(4, cl.PENDING)]
    assert card.next_row(rows, 0) == 1
    assert card.next_row(rows, 1) == 3
    assert card.next_row(rows, 3) == 1          # none after it: the first still open
    proposals = [_change(1, cl.APPLIED), _change(2, cl.PROPOSED)]
    assert card.next_row(proposals, 0) == 1
    assert card.next_row([_change(1, cl.ACCEPTED), _change(2, cl.UNDONE)], 0) is None


def test_the_buttons_stay_put_while_decisions_lengthen_the_headline():
    # Issue 39: after Accept the headline grew to three lines and every button moved down
    # ~28 px, the pointer on Accept now on Go to.
    def at(headline_need):
        return card.layout(180, 0, True, True, need=60, headline_need=headline_need)[1]
    short, longer = at(40), at(400)            # "2 changes" / "2 changes · 1 accepted · 1 open"
    for name in ("review", "changes", "accept", "reject", "accept_all", "undo_turn"):
        assert short[name] == longer[name], name
    # Opening the list leaves Review where it was under the pointer.
    closed = card.layout(180, 0, False, True, need=60, headline_need=40)[1]
    assert closed["review"] == short["review"]

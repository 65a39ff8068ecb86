"""Suggest as tracked changes: each edit is a real suggestion; Accept gives the direct result.

Each case runs the same call on two copies of one document: directly on one,
tracked on the other; Accept All of the tracked turn must give the direct
result, and Reject All (the card's, for that turn) the original.
"""

import pytest

import uno

from tests.support.docsnap import snapshot
from tests.support.realdocs import (write_chapters_docx, write_end_mark_docx,
                                    write_list_end_docx, write_word_mark_docx)
from tests.support.writer import (annotations, blocks, build, comment_on, find, prop,
                                  select, tracked_changes, turn)

AI = "Marginalia (AI)"
WORDS = [("Standard", "We recieve mail and they recieve it, teh end."),
         ("Standard", "Then a seperate line with colour.")]


def _run(office, items, call, mode):
    doc = build(office, items)
    result = turn(office, doc, call, apply=mode)[0]
    assert result["ok"], result["content"]
    return doc


def _judge(office, doc, action):
    turns = office.job("review.turns", document=doc)["turns"]
    return office.job("review.act", document=doc, action=action, turn=turns[-1]["number"])


def _spans(doc):
    """(type, text) of each tracked change, in document order."""
    return [(red["type"], red["text"]) for red in tracked_changes(doc)]


CALLS = [
    ("replace_text", {"search": "recieve", "replacement": "receive", "all": True}),
    ("replace_text", {"search": "recieve", "replacement": "receive"}),
    ("replace_text", {"search": "recieve mail and they recieve it, teh",
                      "replacement": "receive mail and they receive it, the"}),
    ("replace_text", {"search": "teh end", "replacement": "the ends", "all": True}),
    ("replace_paragraphs", {"start": 2, "end": 2,
                            "markdown": "Then a separate line with color."}),
]


@pytest.mark.parametrize("call", CALLS, ids=lambda c: c[0] + ":" + c[1].get("search", "")[:12])
def test_accept_all_of_a_tracked_turn_gives_the_direct_result(office, call):
    direct = _run(office, WORDS, call, "direct")
    tracked = _run(office, WORDS, call, "tracked")
    try:
        assert _judge(office, tracked, "accept_all")["done"] >= 1
        assert blocks(tracked) == blocks(direct)
        assert tracked.getRedlines().getCount() == 0
    finally:
        office.close(direct)
        office.close(tracked)


def test_a_changed_word_is_one_tracked_replacement_not_letter_marks(office):
    doc = _run(office, WORDS, CALLS[0], "tracked")
    try:
        assert _spans(doc) == [("Delete", "recieve"), ("Insert", "receive"),
                               ("Delete", "recieve"), ("Insert", "receive")]
        assert _judge(office, doc, "reject_all")["done"] == 1
        assert [b["text"] for b in blocks(doc)] == [t for _s, t in WORDS]
    finally:
        office.close(doc)


def test_a_tracked_style_change_is_a_suggestion_that_reject_takes_back(office):
    items = [("Standard", "Title words"), ("Standard", "Body text."), ("Standard", "More.")]
    call = ("set_paragraph_style", {"start": 1, "end": 2, "style": "Heading 1"})
    doc = _run(office, items, call, "tracked")
    other = _run(office, items, call, "tracked")
    try:
        kinds = [kind for kind, _text in _spans(doc)]
        assert kinds and set(kinds) == {"ParagraphFormat"}, kinds
        change = office.job("review.turns", document=doc)["turns"][-1]["changes"][0]
        assert change["state"] == "pending" and change["handle"].get("redlines")
        assert _judge(office, doc, "reject_all")["done"] == 1
        assert [b["style"] for b in blocks(doc)] == ["Standard"] * 3
        assert doc.getRedlines().getCount() == 0
        assert _judge(office, other, "accept_all")["done"] == 1
        assert [b["style"] for b in blocks(other)] == ["Heading 1", "Heading 1", "Standard"]
        # A style whose name in the view differs from its own ("Body Text" in 7.4),
        # applied through the view: the user's selection stays as it was.
        select(other, "Body")
        tracked = turn(office, other, ("set_paragraph_style",
                                       {"start": 3, "end": 3, "style": "Text body"}),
                       apply="tracked")[0]
        assert tracked["ok"], tracked["content"]
        assert other.getCurrentController().getSelection().getByIndex(0).getString() == "Body"
        assert _judge(office, other, "accept_all")["done"] == 1
        assert [b["style"] for b in blocks(other)][2] == "Text body"
    finally:
        office.close(doc)
        office.close(other)


ENDS = [("Standard", "The first paragraph ends here"), ("Standard", "Second one."),
        ("Standard", "Third one.")]
AT_THE_END = ("replace_text", {"search": "here", "replacement": "now"})
NEW_AFTER_FIRST = ("insert_paragraphs", {"markdown": "A new paragraph.", "after_paragraph": 1})


@pytest.mark.parametrize("calls", [
    (AT_THE_END, NEW_AFTER_FIRST),
    (AT_THE_END, NEW_AFTER_FIRST, ("delete_paragraphs", {"start": 2, "end": 2})),
    (NEW_AFTER_FIRST, ("delete_paragraphs", {"start": 2, "end": 2})),
    (AT_THE_END, ("insert_paragraphs", {"markdown": "- one\n- two", "after_paragraph": 1}),
     ("delete_paragraphs", {"start": 3, "end": 3})),
], ids=["insert", "insert-delete", "plain-insert-delete", "list-insert-delete"])
def test_a_turn_that_meets_its_own_insertion_is_taken_back_whole(office, calls):
    """Writer merges two insertions of one author that meet, across a paragraph break
    too: a word changed at a paragraph's end and a paragraph opened at the next one's
    start became one insertion holding the document's own break, and rejecting the turn
    joined the first two paragraphs (a Word document with a footnote at a paragraph's
    end showed it). Deleting a paragraph the turn inserted must take its own break."""
    direct = build(office, ENDS)
    tracked = build(office, ENDS)
    other = build(office, ENDS)
    try:
        for doc, mode in ((direct, "direct"), (tracked, "tracked"), (other, "tracked")):
            results = turn(office, doc, *calls, apply=mode)
            assert all(r["ok"] for r in results), [r["content"] for r in results]
        # (A paragraph inserted and deleted again leaves no change to judge.)
        _judge(office, tracked, "reject_all")
        assert [b["text"] for b in blocks(tracked)] == [t for _s, t in ENDS]
        assert tracked.getRedlines().getCount() == 0
        _judge(office, other, "accept_all")
        assert [b["text"] for b in blocks(other)] == [b["text"] for b in blocks(direct)]
    finally:
        for doc in (direct, tracked, other):
            office.close(doc)


def _save_as_odt(doc, tmp_path):
    """A save as .odt between the turn and the Reject, as by hand or by autosave: Writer
    renames and re-anchors what lies in tracked deletions then."""
    doc.storeToURL(uno.systemPathToFileUrl(str(tmp_path / "saved.odt")),
                   (prop("FilterName", "writer8"),))


def _bookmarks(doc):
    marks = doc.getBookmarks()
    return sorted((n, marks.getByName(n).getAnchor().getString())
                  for n in marks.getElementNames())


def test_a_bookmark_saved_inside_a_tracked_change_keeps_its_name_after_reject(office, tmp_path):
    """Writer renames a bookmark inside a tracked deletion to "… Copy 1" when the document
    is saved as .odt; rejecting the turn then doubled it (the name put back beside the
    renamed one, as a Word document's bookmark over a replaced word showed)."""
    doc = build(office, [("Standard", "Bookmarked words here."), ("Standard", "More.")])
    try:
        mark = doc.createInstance("com.sun.star.text.Bookmark")
        mark.setName("ABCD-1234")
        doc.getText().insertTextContent(find(doc, "Bookmarked"), mark, True)
        result = turn(office, doc, ("replace_text", {"search": "Bookmarked",
                                                     "replacement": "Changed"}),
                      apply="tracked")[0]
        assert result["ok"], result["content"]
        _save_as_odt(doc, tmp_path)
        _judge(office, doc, "reject_all")
        assert _bookmarks(doc) == [("ABCD-1234", "Bookmarked")]
        assert blocks(doc)[0]["text"] == "Bookmarked words here."
    finally:
        office.close(doc)


def test_comments_in_a_deleted_paragraph_saved_then_rejected_are_there_once(office,
                                                                             tmp_path):
    """After a save as .odt, Writer's Reject of a deleted paragraph leaves its comments
    anchored on nothing, and the mark keeper put each back beside its orphan: every
    comment twice (a Word document with comments showed it)."""
    doc = build(office, [("Standard", "First."), ("Standard", "Comment is here. Example."),
                         ("Standard", "Last.")])
    try:
        for word, content in (("here", "Comment Added"), ("is her", "Comment3")):
            comment_on(doc, word, content)
        before = sorted(annotations(doc))
        result = turn(office, doc, ("delete_paragraphs", {"start": 2, "end": 2}),
                      apply="tracked")[0]
        assert result["ok"], result["content"]
        _save_as_odt(doc, tmp_path)
        _judge(office, doc, "reject_all")
        assert sorted(annotations(doc)) == before
        assert [b["text"] for b in blocks(doc)][1] == "Comment is here. Example."
    finally:
        office.close(doc)


def _lists(doc):
    return [(b["text"], b["label"], b["level"], b["style"]) for b in blocks(doc)]


def test_the_paragraph_after_a_deleted_list_item_gets_no_label_from_a_save(office, tmp_path):
    """Writer gives the paragraph after a deleted list item the item's label when the
    document was saved (by hand or by autosave) before the Reject, without Marginalia too;
    the marks of the paragraph after a deletion are noted now, and put back."""
    doc = office.load(write_list_end_docx(str(tmp_path / "lists.docx")))
    try:
        before = _lists(doc)
        assert before[2] == ("", "", 0, "Standard")
        result = turn(office, doc, ("delete_paragraphs", {"start": 2, "end": 2}),
                      apply="tracked")[0]
        assert result["ok"], result["content"]
        _save_as_odt(doc, tmp_path)
        _judge(office, doc, "reject_all")
        assert _lists(doc) == before
    finally:
        office.close(doc)


def test_a_heading_numbered_by_its_style_gets_its_level_back_on_reject(office, tmp_path):
    """A Word heading numbered by its style ("Chapter 1") restyled as heading 2, then the
    turn rejected: the style came back, the level and label of heading 2 stayed."""
    doc = office.load(write_chapters_docx(str(tmp_path / "chapters.docx")))
    try:
        before = _lists(doc)
        assert before[0] == ("Hello", "Chapter 1", 0, "Heading 1")
        result = turn(office, doc, ("set_paragraph_style", {"start": 1, "end": 1,
                                                            "style": "Heading 2"}),
                      apply="tracked")[0]
        assert result["ok"], result["content"]
        _judge(office, doc, "reject_all")
        assert _lists(doc) == before
    finally:
        office.close(doc)


def test_a_style_change_on_an_empty_paragraph_is_never_an_untracked_one(office):
    """Writer records no style change on an empty paragraph: Suggest changed its style
    untracked, and the card's Reject could not take it back (a Word cover page, an
    empty paragraph holding its text boxes, showed it). An empty paragraph keeps its
    style; a call on empty paragraphs only changes nothing and says so."""
    doc = build(office, [("Standard", ""), ("Standard", "Body text."), ("Standard", "")])
    try:
        alone = turn(office, doc, ("set_paragraph_style", {"start": 1, "end": 1,
                                                           "style": "Heading 2"}),
                     apply="tracked")[0]
        assert not alone["ok"] and "empty" in alone["content"]
        assert [b["style"] for b in blocks(doc)] == ["Standard"] * 3
        both = turn(office, doc, ("set_paragraph_style", {"start": 1, "end": 3,
                                                          "style": "Heading 2"}),
                    apply="tracked")[0]
        assert both["ok"], both["content"]
        assert [b["style"] for b in blocks(doc)] == ["Standard", "Heading 2", "Standard"]
        _judge(office, doc, "reject_all")
        assert [b["style"] for b in blocks(doc)] == ["Standard"] * 3
    finally:
        office.close(doc)


@pytest.mark.parametrize("mode", ["direct", "tracked"])
def test_bookmarks_after_a_footnote_number_stay_where_they_are(office, tmp_path, mode):
    """The mark keeper counted places in a paragraph by its text portions only, while the
    paragraph's string holds a footnote's number too: after Undo or Reject it put each
    bookmark "back" a character to the left (Word's _GoBack after a footnote showed it)."""
    doc = office.load(write_end_mark_docx(str(tmp_path / "end.docx")))
    try:
        before = _bookmarks(doc)
        assert [name for name, _text in before] == ["A", "_GoBack"]
        result = turn(office, doc, ("add_comment", {"search": "Video", "comment": "Hm."}),
                      ("replace_text", {"search": "way", "replacement": "path"}),
                      apply=mode)
        assert all(r["ok"] for r in result), result
        if mode == "direct":
            doc.getUndoManager().undo()
        else:
            _judge(office, doc, "reject_all")
        assert _bookmarks(doc) == before
    finally:
        office.close(doc)


@pytest.mark.parametrize("mode", ["direct", "tracked"])
def test_no_paragraph_is_inserted_inside_another_reviewers_deletion(office, mode):
    """A paragraph inserted between two paragraphs another reviewer deleted (tracked)
    split that deletion in two, and neither Undo nor Reject joined it again (a Word
    document with deleted numbered paragraphs showed it)."""
    doc = build(office, [("Standard", "One."), ("Standard", "Two."), ("Standard", "Three."),
                         ("Standard", "Four.")])
    try:
        doc.setPropertyValue("RecordChanges", True)
        span = find(doc, "Two.")
        span.gotoRange(find(doc, "Four.").getStart(), True)
        span.setString("")
        doc.setPropertyValue("RecordChanges", False)
        before = tracked_changes(doc)
        assert len(before) == 1
        inside = turn(office, doc, ("insert_paragraphs", {"markdown": "New.",
                                                          "after_paragraph": 2}),
                      apply=mode)[0]
        assert not inside["ok"] and "tracked change" in inside["content"]
        assert tracked_changes(doc) == before
        outside = turn(office, doc, ("insert_paragraphs", {"markdown": "New.",
                                                           "after_paragraph": 1}),
                       apply=mode)[0]
        assert outside["ok"], outside["content"]
    finally:
        office.close(doc)


@pytest.mark.parametrize("mode", ["direct", "tracked"])
def test_a_point_bookmark_at_a_paragraphs_end_comes_back_there(office, tmp_path, mode):
    """A point bookmark (Word's _GoBack) reads "" wherever it is: after the paragraph's
    words were replaced and the turn taken back, Writer had put it at the paragraph's
    start, and the mark keeper, comparing that text, left it there."""
    doc = office.load(write_word_mark_docx(str(tmp_path / "marks.docx")))
    try:
        before = snapshot(doc)["body"]
        assert before[0]["marks"] == ["Bookmark:Test", "Bookmark:Test", "Bookmark:_GoBack"]
        result = turn(office, doc, ("replace_text", {"search": "Abcdef",
                                                     "replacement": "changed words"}),
                      apply=mode)[0]
        assert result["ok"], result["content"]
        if mode == "direct":
            doc.getUndoManager().undo()
        else:
            _judge(office, doc, "reject_all")
        assert snapshot(doc)["body"] == before
    finally:
        office.close(doc)

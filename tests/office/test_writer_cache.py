"""The read tools' cache: rebuilt on every change, and never reading undo titles."""

from tests.support.writer import one


def _outline(office, doc):
    info = one(office, doc, "get_document_info")["data"]
    return info["outline"]


def test_restyle_without_text_change_shows_at_once(office, writer_doc):
    text = writer_doc.Text
    cursor = text.createTextCursor()
    text.insertString(cursor, "Intro", False)
    text.insertControlCharacter(cursor, 0, False)
    text.insertString(cursor, "Body text", False)
    assert "Intro" not in str(_outline(office, writer_doc))
    # Same text, same tables: only the change counter can tell the cache.
    first = text.createEnumeration().nextElement()
    first.ParaStyleName = "Heading 1"
    assert "Intro" in str(_outline(office, writer_doc))


def test_an_emoji_cut_in_an_undo_title_does_not_kill_the_office(office, writer_doc):
    # Writer 7.4 shortens this typing step's undo title in the middle of the
    # emoji's UTF-16 pair; reading that title over UNO brings the office down.
    text = writer_doc.Text
    cursor = text.createTextCursor()
    text.insertString(cursor, "abcdefg\U0001F600bcdefghijklmnopqrstu\U0001F600vw", False)
    info = one(office, writer_doc, "get_document_info")
    assert info["ok"] is True
    words = one(office, writer_doc, "search_document", query="vw")
    assert words["ok"] is True and "vw" in words["content"]
    assert office.job("ping")

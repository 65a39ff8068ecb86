"""The tools on documents saved as .odt and .docx and loaded again."""

import os

import pytest

from tests.support.writer import (EMOJI_LINE, SAMPLE_READ, blocks, find, one, sample,
                                  save_and_reload, turn)

EXPECTED_READ = SAMPLE_READ


@pytest.mark.parametrize("ext", ["odt", "docx"])
def test_reload_read_edit_save_again(office, ext):
    original = sample(office)
    doc, path = save_and_reload(office, original, ext)
    office.close(original)
    try:
        assert one(office, doc, "read_document", start=1, end=-1)["content"].split("\n") == \
            EXPECTED_READ
        info = one(office, doc, "get_document_info")["data"]
        assert info["title"].startswith("doc") or info["title"]
        assert info["outline"] == ["1: # Annual report", "3: ## Highlights"]
        results = turn(office, doc,
                       ("insert_paragraphs", {"markdown": "- Added point **bold**",
                                              "after_paragraph": 5}),
                       ("replace_text", {"search": "😀", "replacement": "🙂"}),
                       ("format_text", {"search": "South", "underline": True}),
                       ("add_comment", {"search": "Added point", "comment": "New"}),
                       ("insert_table", {"after_paragraph": -1, "rows": [["k", "v"]]}))
        assert all(r["ok"] for r in results), [r["content"] for r in results]
        assert find(doc, "bold").getPropertyValue("CharWeight") == 150.0
        again, path2 = save_and_reload(office, doc, ext)
        try:
            b = blocks(again)
            assert b[5]["text"] == "Added point bold" and b[5]["list"]
            assert b[8]["text"] == EMOJI_LINE.replace("😀", "🙂")
            assert b[-1].get("table") == [["k", "v"]] or b[-2].get("table") == [["k", "v"]]
            assert find(again, "South").getPropertyValue("CharUnderline") == 1
            fields = again.getTextFields().createEnumeration()
            authors = []
            while fields.hasMoreElements():
                f = fields.nextElement()
                if f.supportsService("com.sun.star.text.textfield.Annotation"):
                    authors.append(f.getPropertyValue("Author"))
            assert authors == ["Marginalia (AI)"]
            read = one(office, again, "read_document", start=1, end=-1)["content"]
            assert "6:   - Added point bold" in read or "6: - Added point bold" in read
        finally:
            office.close(again)
            os.remove(path2)
    finally:
        office.close(doc)
        os.remove(path)

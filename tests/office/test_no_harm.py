"""No edit tool, in any apply mode, harms a document with real-world features.

The documents are the project's own (tests/support/realdocs.py): lists that continue
and restart, fields, page references, captions, content controls, another author's
tracked changes, Word's _GoBack bookmark, bodies that start with a table (one with
w:gridBefore) or are only one. The checks are tests/support/noharm.py's, the same the
corpus script runs over ../shared/corpus.
"""

import pytest

from tests.support.docsnap import snapshot
from tests.support.noharm import MODES, check_document
from tests.support.realdocs import DOCX_STARTS, ODT
from tests.support.realodt import OTHER

NAMES = sorted(DOCX_STARTS) + [ODT]
FEATURED = ["features.docx", ODT]
TABLE_FIRST = ["grid_before.docx", "table_start.docx"]


def _lines(problems):
    return "\n".join("%s | %s | %s | %s%s" % (p.document, p.mode, p.tool, p.what,
                                              " (differs from direct)" if p.finding else "")
                     for p in problems)


def _snapshot_of(office, path):
    doc = office.load(path)
    try:
        return snapshot(doc)
    finally:
        office.close(doc)


@pytest.mark.parametrize("name", FEATURED)
def test_the_generated_documents_carry_their_features(office, real_documents, name):
    snap = _snapshot_of(office, real_documents[name])
    paragraphs = [b for b in snap["body"] if "text" in b]
    assert [b["label"] for b in paragraphs if b["label"]] == ["1.", "2.", "3.", "1."]
    assert snap["fields"]["PageNumber"] == 1 and snap["fields"]["DateTime"] == 1
    assert snap["fields"]["GetReference"] == 2 and snap["fields"]["SetExpression"] == 2
    assert snap["bookmarks"] == [["_GoBack", ""], ["region_mark", "region"]]
    assert snap["redlines"] == [["Insert", OTHER, "inserted words "],
                                ["Delete", OTHER, "removed words "]]
    assert snap["comments"] == [[OTHER, "Check these words.", "Commented words here"]]
    assert [n.strip() for n in snap["footnotes"]] == ["The source of the claim."]
    assert any("ContentControl" in b["marks"] for b in paragraphs)
    assert "table" not in snap["body"][0]


@pytest.mark.parametrize("name", TABLE_FIRST)
def test_the_table_first_documents_start_with_their_table(office, real_documents, name):
    snap = _snapshot_of(office, real_documents[name])
    # LibreOffice's import may put an empty paragraph before a leading table.
    first = [b for b in snap["body"] if b.get("text") != ""][0]
    assert "table" in first and "Region" in first["cells"].values()
    assert len(first["cells"]) == (5 if name == "grid_before.docx" else 4)
    assert snap["bookmarks"] == [["_GoBack", ""], ["region_mark", "region"]]
    assert [b["label"] for b in snap["body"] if b.get("label")] == ["1.", "2."]


def test_the_grid_only_document_is_one_table_with_a_grid_offset(office, real_documents):
    doc = office.load(real_documents["grid_only.docx"])
    try:
        body = snapshot(doc)["body"]
    finally:
        office.close(doc)
    tables = [b for b in body if "table" in b]
    assert len(tables) == 1 and all(b.get("text") == "" for b in body if "text" in b)
    # The offset is a cell of its own: the first row has one cell more than the second.
    assert tables[0]["cells"] == {"A1": "", "B1": "Region", "C1": "Sales", "A2": "North",
                                  "B2": "12"}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", NAMES)
def test_no_edit_tool_harms_the_document(office, real_documents, direct_results, name, mode):
    if mode != "direct" and name not in direct_results:
        # Run alone, this mode still has the direct results to compare with.
        check_document(office, real_documents[name], direct_results.setdefault(name, {}),
                       modes=("direct",), read=False)
    direct = direct_results.setdefault(name, {})
    # read_document is tried with the direct mode only: it reads the same in every mode.
    problems = check_document(office, real_documents[name], direct, modes=(mode,),
                              read=mode == "direct")
    assert not problems, "\n" + _lines(problems)

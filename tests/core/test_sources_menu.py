"""The Sources menu's entries and what a chosen entry means."""

from marginalia.ui import sources_menu as sm


def test_the_menu_lists_the_sources_then_adding_then_removing():
    sources = [("S1", "report.pdf"), ("S3", "notes.txt")]
    items = sm.menu_items(sources, ["Draft.odt"])
    labels = [item.label for item in items]
    assert labels == ["report.pdf  (S1)", "notes.txt  (S3)", "", sm.ADD_FILE_LABEL,
                      sm.OPEN_LABEL, sm.REMOVE_LABEL, "", sm.CITE_LABEL]
    assert not items[0].enabled and items[3].enabled
    assert [i.label for i in items[4].submenu] == ["Draft.odt"]
    removals = items[5].submenu
    assert [i.label for i in removals] == ["report.pdf", "notes.txt"]
    ids = [i.item_id for i in items if i.item_id] + [i.item_id for i in removals] + [
        i.item_id for i in items[4].submenu]
    assert len(ids) == len(set(ids))
    assert sm.chosen(removals[1].item_id, sources, ["Draft.odt"]) == ("remove", "S3")
    assert sm.chosen(items[4].submenu[0].item_id, sources, ["Draft.odt"]) == ("document", 0)
    assert sm.chosen(sm.ADD_FILE, sources, []) == ("file", None)
    assert sm.chosen(items[0].item_id, sources, []) is None     # a listed source: a label


def test_an_empty_chat_says_so_and_offers_no_removal():
    items = sm.menu_items([], [])
    assert items[0].label == sm.NONE_YET_LABEL and not items[0].enabled
    assert sm.REMOVE_LABEL not in [i.label for i in items]
    opened = next(i for i in items if i.label == sm.OPEN_LABEL)
    assert [(i.label, i.enabled) for i in opened.submenu] == [(sm.NO_OPEN_LABEL, False)]


def test_the_source_tools_have_words_for_the_user():
    from marginalia.ui.tool_words import running, tool_line
    assert tool_line("search_sources", True, "search_sources") == "Searched the sources"
    assert running("read_source") == "Reading a source passage\u2026"
    from marginalia.chat.tools import ToolRegistry
    from marginalia.sources import tools
    from marginalia.sources.index import Library
    registry = ToolRegistry()
    tools.register(registry, Library())
    result = registry.call("read_source", {})            # no source named
    assert tool_line("read_source", False, result.summary, result.phrase) == (
        "Couldn't read the source: the model's request was incomplete \u2014 nothing changed")


def test_a_change_drawn_from_a_source_says_so_in_the_review_list():
    from marginalia.document import change_log as cl
    change = cl.Change(1, 1, "insert_paragraphs", cl.INSERT, cl.DIRECT, [3, 3], "",
                       "The river was cold.", source="report.pdf, p. 2")
    assert cl.line(change).endswith("\u00b7 from report.pdf, p. 2")
    again = cl.Change.from_dict(change.to_dict())
    assert again.source == "report.pdf, p. 2"
    assert "source" not in cl.Change.from_dict(dict(change.to_dict(), source="")).to_dict()


def test_the_scope_line_counts_the_sources():
    assert sm.scope("Whole document", 0) == "Whole document"
    assert sm.scope("Selection: 3 words", 1) == "Selection: 3 words + 1 source"
    assert sm.scope("Whole document", 2) == "Whole document + 2 sources"


def test_the_citation_style_is_ticked_and_chosen_from_the_menu():
    from marginalia.sources import cite_as
    items = sm.menu_items([], [], "endnotes")
    styles = items[-1].submenu
    assert items[-1].label == sm.CITE_LABEL
    assert [(i.label, i.checked) for i in styles] == [
        ("Footnotes", False), ("Endnotes", True), ("A sources list after the answer", False)]
    assert sm.chosen(styles[2].item_id, [], []) == ("cite as", "list")
    # An unknown stored value reads as footnotes, ticked as such.
    assert [i.checked for i in sm.menu_items([], [], "bogus")[-1].submenu] == [True, False, False]
    assert cite_as.style("bogus") == cite_as.FOOTNOTES


def test_a_sources_list_follows_the_answer_in_key_order():
    from marginalia.sources import cite_as
    out = cite_as.with_list("Rents rose [2], as did wages [1].\n",
                            {2: "report.pdf, p. 3: \u201crents\nrose\u201d", 1: "notes.txt"})
    assert out == ("Rents rose [2], as did wages [1].\n\n**Sources**\n\n[1] notes.txt\n\n"
                   "[2] report.pdf, p. 3: \u201crents rose\u201d\n")
    assert cite_as.with_list("No keys.", {}) == "No keys."

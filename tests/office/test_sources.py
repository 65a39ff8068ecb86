"""A chat's sources in a real office: files read through LibreOffice, searched, read and cited.

The sources are made in the test (an .odt with headings, a table and a page
break; the same saved as .docx and exported to PDF by LibreOffice; a .txt),
read by the extension's own reader through the job service, and used by a
scripted model that calls search_sources and read_source and answers citing
[1], once quoting the source exactly and once inventing a quote.
"""

import json
import os
import time

import pytest
import uno

from tests.support.office import props
from tests.support.sse_server import ScriptedServer, text_response, tool_calls_response

RIVER = ("At dawn the river was cold, four degrees at the northern gauge, and the water "
         "ran clear over the gravel bars below the old mill. ")
HARBOUR = "The harbour froze twice that winter, which nobody in the village remembered. "


def _para(text, cursor, body, style="Text body", page_break=False):
    cursor.ParaStyleName = style
    if page_break:
        from com.sun.star.style.BreakType import PAGE_BEFORE
        cursor.BreakType = PAGE_BEFORE
    body.insertString(cursor, text, False)
    body.insertControlCharacter(cursor, 0, False)        # PARAGRAPH_BREAK
    if page_break:
        from com.sun.star.style.BreakType import NONE
        cursor.BreakType = NONE


@pytest.fixture(scope="module")
def sources(office, tmp_path_factory):
    """The sources, by extension: report .odt/.docx/.pdf and notes .txt."""
    folder = tmp_path_factory.mktemp("sources")
    doc = office.new_writer()
    body = doc.Text
    cursor = body.createTextCursor()
    _para("Methods", cursor, body, "Heading 1")
    _para(RIVER * 3, cursor, body)
    _para("Results", cursor, body, "Heading 1", page_break=True)
    _para(HARBOUR * 3, cursor, body)
    _para("Gauges", cursor, body, "Heading 2")
    table = doc.createInstance("com.sun.star.text.TextTable")
    table.initialize(2, 2)
    body.insertTextContent(cursor, table, False)
    for name, value in (("A1", "Site"), ("B1", "Temperature"), ("A2", "North"), ("B2", "4 C")):
        table.getCellByName(name).setString(value)
    # An appendix long enough that the report does not go into the prompt whole.
    _para("Appendix", cursor, body, "Heading 1")
    for day in range(1, 13):
        _para("Day %d: the survey team logged its equipment, the weather and the names of "
              "the volunteers who helped carry the boats. " % day * 3, cursor, body)
    paths = {}
    for ext, filter_name in (("odt", "writer8"), ("docx", "MS Word 2007 XML"),
                             ("pdf", "writer_pdf_Export")):
        paths[ext] = str(folder / ("report." + ext))
        doc.storeToURL(uno.systemPathToFileUrl(paths[ext]), props(FilterName=filter_name))
    office.close(doc)
    paths["txt"] = str(folder / "notes.txt")
    with open(paths["txt"], "w", encoding="utf-8") as handle:
        handle.write("Field notes\n\nThe otters returned to the weir in March.\n")
    paths["broken"] = str(folder / "broken.pdf")
    with open(paths["broken"], "wb") as handle:
        handle.write(b"%PDF-1.4 this is not a PDF at all")
    return paths


def _open_components(office):
    out = []
    components = office.desktop.getComponents().createEnumeration()
    while components.hasMoreElements():
        out.append(components.nextElement())
    return out


@pytest.mark.parametrize("ext", ["odt", "docx", "pdf", "pdf-filter"])
def test_a_report_is_read_with_its_headings_table_and_pages(office, sources, ext):
    """A PDF is read through LibreOffice's parser (xpdfimport) off the main thread, or,
    "pdf-filter", through its import filter in the office: the same blocks."""
    before = len(_open_components(office))
    read = office.job("sources.read", path=sources[ext.split("-")[0]],
                      via=ext.split("-")[-1])
    blocks = read["blocks"]
    headings = [(b["text"], b["level"]) for b in blocks if b["kind"] == "heading"]
    assert headings == [("Methods", 1), ("Results", 1), ("Gauges", 2), ("Appendix", 1)]
    river = next(b for b in blocks if b["kind"] == "paragraph" and "river" in b["text"])
    assert river["heading"] == "Methods"
    assert "four degrees at the northern gauge" in " ".join(river["text"].split())
    table = next(b for b in blocks if b["kind"] == "table")
    assert table["text"] == "Site | Temperature\nNorth | 4 C"
    assert table["heading"] == "Gauges"
    if ext.startswith("pdf"):
        # The page break put Results on page 2: the PDF import's pages are kept.
        assert river["page"] == 1
        assert [b["page"] for b in blocks if b["text"] == "Results"] == [2]
        assert table["page"] == 2
    else:
        assert all(b["page"] is None for b in blocks)
    # The hidden document was closed after reading.
    assert len(_open_components(office)) == before
    if ext == "pdf":
        # The parser ran as a child process: the main thread was asked only for its folder.
        assert read["longest"] < 0.5


def test_plain_text_and_unreadable_files(office, sources):
    read = office.job("sources.read", path=sources["txt"])
    assert [b["text"] for b in read["blocks"]] == [
        "Field notes", "The otters returned to the weir in March."]
    broken = office.job("sources.read", path=sources["broken"])
    assert broken["sentence"] == "Marginalia could not read broken.pdf: LibreOffice cannot open it."
    missing = office.job("sources.read", path=sources["txt"] + ".gone.txt")
    assert "the file is not there" in missing["sentence"]
    assert "Traceback" not in broken["sentence"] + missing["sentence"]


def _turn(office, doc, server, message, keep=False):
    started = office.job("chat.start", doc, message=message, settings={
        "endpoint": server.url, "model": "test-model", "keep_chats": keep,
        "edit_protocol": "tools"})
    assert started == {"started": True}
    entries = []
    deadline = time.time() + 90
    while time.time() < deadline:
        entries.extend(office.job("chat.poll", doc)["entries"])
        if any(e["type"] == "done" for e in entries):
            return entries
        time.sleep(0.05)
    raise AssertionError("the turn did not finish")


QUOTE = "four degrees at the northern gauge"
INVENTED = "the river boiled over at noon every day"


def test_the_model_searches_reads_and_cites_and_an_invented_quote_is_flagged(office, sources,
                                                                              tmp_path):
    doc = office.new_writer()
    try:
        added = office.job("sources.add", doc, path=sources["pdf"])
        assert added["id"] == "S1" and added["name"] == "report.pdf" and added["passages"] >= 2
        assert office.job("sources.add", doc, path=sources["txt"])["id"] == "S2"
        bad = office.job("sources.add", doc, path=sources["broken"])
        assert bad["sentence"].startswith("Marginalia could not read broken.pdf")
        listed = office.job("sources.list", doc)["sources"]
        assert [s["name"] for s in listed] == ["report.pdf", "notes.txt"]
        answer = ("At the northern gauge the water was \u201c%s\u201d [1]. A later note "
                  "says \u201c%s\u201d [1]. See also [42]." % (QUOTE, INVENTED))
        script = [
            tool_calls_response([("c1", "search_sources", {"query": "how cold was the river"})]),
            tool_calls_response([("c2", "read_source", {"source": "S1", "passage": 0,
                                                        "neighbours": 1})]),
            text_response(answer),
        ]
        with ScriptedServer(script) as server:
            entries = _turn(office, doc, server, "How cold was the river?")
            requests = server.chat_requests
        results = [e for e in entries if e["type"] == "tool_result"]
        assert [(r["name"], r["ok"]) for r in results] == [("search_sources", True),
                                                          ("read_source", True)]
        # The search's best passage is the river's, under key [1], with its place.
        first = requests[1].json["messages"][-1]["content"]
        assert first.startswith("[1] report.pdf, \u00a7 Methods, p. 1 (source S1, passage ")
        assert QUOTE in " ".join(first.split())
        system = requests[0].json["messages"][0]["content"]
        assert "report.pdf (S1)" in system and "notes.txt (S2)" in system and "[1]" in system
        tools = [t["function"]["name"] for t in requests[0].json["tools"]]
        assert "search_sources" in tools and "read_source" in tools
        cited = [e for e in entries if e["type"] == "citations"]
        assert len(cited) == 1
        payload = cited[0]["citations"]
        assert [(c["key"], c["location"]) for c in payload["cited"]] == [
            (1, "report.pdf, \u00a7 Methods, p. 1")]
        quotes = dict((q["quote"], q["found"]) for q in payload["quotes"])
        assert quotes == {QUOTE: True, INVENTED: False}
        # The citations event comes after the answer's text, before the turn's end.
        kinds = [e["type"] for e in entries]
        assert kinds.index("citations") > max(i for i, k in enumerate(kinds) if k == "text")
        # Insert: the answer goes in with its [1] as a real footnote naming the file, the
        # place and the quoted passage; checked in the saved file. The invented quote's [1]
        # and the made-up [42] are left out, and Insert says so (issue 37).
        doc.Text.setString("An older line that cites [1] itself.")
        assert office.job("sources.insert", doc) == {"made": 1, "unbacked": [INVENTED],
                                                     "unknown": [42]}
        saved = str(tmp_path / "with-notes.odt")
        doc.storeToURL(uno.systemPathToFileUrl(saved), props(FilterName="writer8"))
        again = office.load(saved)
        try:
            notes = again.getFootnotes()
            assert notes.getCount() == 1          # not at the quote [1] does not hold
            assert notes.getByIndex(0).getString() == (
                "report.pdf, \u00a7 Methods, p. 1: \u201c%s\u201d" % QUOTE)
            body = again.getText().getString()
            assert "At the northern gauge the water was" in body
            assert ("\u201c%s\u201d. See also." % INVENTED) in body and "[42]" not in body
            # Only the inserted answer's keys became notes: the older "[1]" is text still.
            assert body.count("[1]") == 1 and "An older line that cites [1] itself." in body
        finally:
            office.close(again)
        # The next turn tells the model its quote was not found.
        with ScriptedServer([text_response("Noted.")]) as server:
            _turn(office, doc, server, "Thanks")
            system = server.chat_requests[0].json["messages"][0]["content"]
        assert INVENTED in system and "not in the sources" in system
        # The transcript lists the citation and marks the invented quote.
        markdown = office.job("chat.transcript", doc)["markdown"]
        assert "- [1] report.pdf, \u00a7 Methods, p. 1" in markdown
        assert ("- \u26a0 Unverified quote (not found in the sources): \u201c%s\u201d" % INVENTED
                in markdown)
    finally:
        office.close(doc)


def test_small_sources_go_in_whole_and_a_changed_file_is_read_again(office, sources, tmp_path):
    notes = str(tmp_path / "notes.md")
    with open(notes, "w", encoding="utf-8") as handle:
        handle.write("# Otters\n\nThe otters returned to the weir in March.\n")
    doc = office.new_writer()
    try:
        assert office.job("sources.add", doc, path=notes)["id"] == "S1"
        with ScriptedServer([text_response("They came back in March [1].")]) as server:
            entries = _turn(office, doc, server, "When did the otters come back?", keep=True)
            system = server.chat_requests[0].json["messages"][0]["content"]
        # Small enough: the whole source is in the system message, under its key.
        assert "[1] notes.md, \u00a7 Otters" in system
        assert "The otters returned to the weir in March." in system
        cited = next(e for e in entries if e["type"] == "citations")["citations"]
        assert cited["cited"][0]["location"] == "notes.md, \u00a7 Otters"
        # The chat keeps its sources by path and stamp, not their text.
        state = office.job("chat.history", doc)
        folder = os.path.join(state["folder"], state["doc_id"])
        kept = json.load(open(os.path.join(folder, state["current"] + ".json"),
                              encoding="utf-8"))
        assert [s["path"] for s in kept["sources"]["sources"]] == [notes]
        assert "weir" not in json.dumps(kept["sources"])
        # A new chat starts without sources; reopening this one brings them back, listed
        # and read again before its next turn.
        office.job("chat.new", doc)
        assert office.job("sources.list", doc) == {"sources": []}
        assert office.job("chat.open", doc, id=state["current"]) is True
        listed = office.job("sources.list", doc)["sources"]
        assert [(s["id"], s["name"], s["read"]) for s in listed] == [("S1", "notes.md", False)]
        # The file changes: the next turn reads it again and says so.
        time.sleep(0.05)
        with open(notes, "w", encoding="utf-8") as handle:
            handle.write("# Otters\n\nThe otters left the weir in May.\n")
        with ScriptedServer([text_response("In May.")]) as server:
            entries = _turn(office, doc, server, "And now?")
            system = server.chat_requests[0].json["messages"][0]["content"]
        notices = [e["message"] for e in entries if e["type"] == "notice"]
        assert notices == ["notes.md has changed since it was added to this chat: it was read "
                           "again as it is now."]
        assert "left the weir in May" in system and "returned" not in system
        # Moved away: the turn goes on without it, and says where it was.
        os.rename(notes, notes + ".moved")
        with ScriptedServer([text_response("Without it.")]) as server:
            entries = _turn(office, doc, server, "Again?")
        notices = [e["message"] for e in entries if e["type"] == "notice"]
        assert len(notices) == 1 and "no longer at" in notices[0]
        assert office.job("sources.remove", doc, id="S1") == {"removed": True}
        assert office.job("sources.list", doc) == {"sources": []}
    finally:
        office.close(doc)


def test_the_headless_runner_takes_sources(office, sources, tmp_path):
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(root, "pythonpath"),
                                         os.path.join(root, "vendor")])
    for name in ("MARGINALIA_ENDPOINT", "MARGINALIA_MODEL", "MARGINALIA_API_KEY"):
        env.pop(name, None)
    doc = office.new_writer()
    target = str(tmp_path / "draft.odt")
    doc.storeToURL(uno.systemPathToFileUrl(target), props(FilterName="writer8"))
    office.close(doc)
    script = [tool_calls_response([("c1", "search_sources", {"query": "otters weir"})]),
              text_response("The otters came back in March [1].")]
    with ScriptedServer(script) as server:
        done = subprocess.run(
            [sys.executable, "-m", "marginalia.cli.headless", target, "--message", "Otters?",
             "--output", str(tmp_path / "out.odt"), "--endpoint", server.url, "--model",
             "test-model", "--source", sources["odt"], "--source", sources["txt"]],
            cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            universal_newlines=True, timeout=180)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert [(l["id"], l["name"]) for l in lines if l["type"] == "source"] == [
        ("S1", "report.odt"), ("S2", "notes.txt")]
    result = next(l for l in lines if l["type"] == "tool_result")
    assert result["ok"] and result["result"].startswith("[1] notes.txt")
    cited = next(l for l in lines if l["type"] == "citations")
    assert [c["location"] for c in cited["cited"]] == ["notes.txt"]     # plain text: no headings
    # A source the office cannot read ends the run with its one sentence.
    with ScriptedServer([text_response("unused")]) as server:
        bad = subprocess.run(
            [sys.executable, "-m", "marginalia.cli.headless", target, "--message", "Hi",
             "--output", str(tmp_path / "out2.odt"), "--endpoint", server.url, "--model",
             "test-model", "--source", sources["broken"]],
            cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            universal_newlines=True, timeout=180)
    assert bad.returncode == 1
    assert bad.stderr.strip() == ("Marginalia could not read broken.pdf: LibreOffice cannot "
                                  "open it.")


def test_an_edit_taken_from_a_source_names_it_on_its_change(office, sources):
    doc = office.new_writer()
    try:
        assert office.job("sources.add", doc, path=sources["odt"])["id"] == "S1"
        script = [
            tool_calls_response([
                ("c1", "insert_paragraphs", {
                    "markdown": "At dawn the river was cold, four degrees at the northern "
                                "gauge, and the water ran clear.", "after_paragraph": -1}),
                ("c2", "insert_paragraphs", {"markdown": "A line of my own making here.",
                                             "after_paragraph": -1})]),
            text_response("Added the river's temperature [1]."),
        ]
        with ScriptedServer(script) as server:
            entries = _turn(office, doc, server, "Add the river temperature from the report")
        changes = [e["change"] for e in entries if e["type"] == "change"]
        assert len(changes) == 2
        assert changes[0]["source"] == "report.odt, \u00a7 Methods"
        assert "source" not in changes[1]
    finally:
        office.close(doc)

"""Helpers shared by the Writer tool tests: building documents, running tool turns.

Documents are built through the bridge (small), the tools run in process
through the ``writer.*`` job commands.
"""

import atexit
import json
import os
import shutil
import tempfile
import time

import uno
from com.sun.star.beans import PropertyValue
from com.sun.star.text.ControlCharacter import PARAGRAPH_BREAK

EMOJI_LINE = "Launch 🚀 day: 𝔸lpha and 😀 smiles"


def prop(name, value):
    p = PropertyValue()
    p.Name, p.Value = name, value
    return p


def build(office, items):
    """A new Writer document from items: (style, text), ("table", rows), (list_style, text, level)."""
    doc = office.new_writer()
    text = doc.getText()
    cursor = text.createTextCursor()
    first = True
    after_table = False
    for item in items:
        if item[0] == "table":
            rows = item[1]
            # Writer puts the table before the cursor's paragraph and moves the
            # cursor into the empty paragraph after it: the next item goes there.
            if not first:
                text.insertControlCharacter(cursor, PARAGRAPH_BREAK, False)
            first = False
            after_table = True
            table = doc.createInstance("com.sun.star.text.TextTable")
            table.initialize(len(rows), len(rows[0]))
            text.insertTextContent(cursor, table, False)
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    table.getCellByPosition(c, r).setString(value)
            continue
        if not first and not after_table:
            text.insertControlCharacter(cursor, PARAGRAPH_BREAK, False)
        first = after_table = False
        style, content = item[0], item[1]
        if style in ("List 1", "Numbering 123"):
            cursor.setPropertyValue("ParaStyleName", "Standard")
            cursor.setPropertyValue("NumberingStyleName", style)
            cursor.setPropertyValue("NumberingLevel", item[2] if len(item) > 2 else 0)
        else:
            cursor.setPropertyValue("NumberingStyleName", "")
            cursor.setPropertyValue("ParaStyleName", style)
        text.insertString(cursor, content, False)
    # Start like a freshly opened document. Also, LibreOffice 7.4 shortens its
    # own "Typing: ..." undo titles inside a surrogate pair and then crashes
    # when such a title is read (getAllUndoActionTitles), so none may remain.
    doc.getUndoManager().clear()
    return doc


def sample(office):
    """Headings, formatted text, a nested list, a table, emoji."""
    doc = build(office, [
        ("Heading 1", "Annual report"),
        ("Standard", "Sales grew in every region this year."),
        ("Heading 2", "Highlights"),
        ("List 1", "North doubled", 0),
        ("List 1", "South held", 1),
        ("Numbering 123", "First step", 0),
        ("Numbering 123", "Second step", 0),
        ("Standard", EMOJI_LINE),
        ("table", [["Region", "Sales"], ["North", "12"]]),
        ("Standard", "The end of the report."),
    ])
    # "grew" in bold, so tests can check formatting survives edits.
    found = find(doc, "grew")
    found.setPropertyValue("CharWeight", 150.0)
    doc.getUndoManager().clear()
    return doc


def find(doc, text):
    sd = doc.createSearchDescriptor()
    sd.setSearchString(text)
    sd.setPropertyValue("SearchCaseSensitive", True)
    return doc.findFirst(sd)


def blocks(doc):
    """Top-level blocks as dicts: text, style, list label/level, or table rows."""
    out = []
    enum = doc.getText().createEnumeration()
    while enum.hasMoreElements():
        e = enum.nextElement()
        if e.supportsService("com.sun.star.text.TextTable"):
            out.append({"table": [list(r) for r in e.getDataArray()], "name": e.getName()})
            continue
        out.append({"text": e.getString(), "style": e.getPropertyValue("ParaStyleName"),
                    "label": e.getPropertyValue("ListLabelString"),
                    "list": e.getPropertyValue("ListId") != "" and
                    e.getPropertyValue("OutlineLevel") == 0,
                    "level": e.getPropertyValue("NumberingLevel"),
                    "outline": e.getPropertyValue("OutlineLevel")})
    return out


def tracked_changes(doc):
    """[{type, author, id, text}] of each tracked change, read inside the office.

    Never over the bridge: Writer's object for a tracked change (SwXRedline) listens
    to the document's default page style and is destroyed without the office's lock
    (its destructor takes none, LibreOffice 7.4 to 25.x). A proxy the test lets go is
    destroyed on a bridge thread while Writer may be broadcasting to those listeners:
    it aborted the office once in a full run (SvtBroadcaster::Broadcast, issue 37),
    earlier "pure virtual method called". In the office, on the main thread, each one
    goes at once under the lock (the writer.redlines job).
    """
    from tests.support.office import harness_of
    return harness_of(doc).job("writer.redlines", doc)


def redlines(doc):
    """(type, author) of each tracked change in the document (tracked_changes)."""
    return [(red["type"], red["author"]) for red in tracked_changes(doc)]


def texts(doc):
    return [b.get("text", b.get("table")) for b in blocks(doc)]


def turn(office, doc, *calls, **options):
    """Run one turn of tool calls in process; returns the results (content decoded).

    ``calls`` are (name, arguments) tuples, or {"user_types": text} where the user
    types a line at the top between two calls (no result for it).
    """
    # A dict passes as it is: {"user_types": "..."} types a line between two calls.
    payload = {"title": options.pop("title", "test turn"),
               "calls": [c if isinstance(c, dict) else
                         {"name": c[0], "arguments": c[1] if len(c) > 1 else {}}
                         for c in calls]}
    payload.update(options)
    results = office.job("writer.call_tools", document=doc, **payload)
    for r in results:
        try:
            r["data"] = json.loads(r["content"])
        except ValueError:
            r["data"] = r["content"]
    return results


def chat_turn(office, doc, message, settings=None, timeout=60):
    """A chat turn as the panel starts it (chat.start), polled until it is done; its
    entries."""
    assert office.job("chat.start", doc, message=message, settings=settings) == {
        "started": True}
    entries = []
    deadline = time.time() + timeout
    while not any(e["type"] == "done" for e in entries) and time.time() < deadline:
        entries.extend(office.job("chat.poll", doc)["entries"])
        time.sleep(0.05)
    assert any(e["type"] == "done" for e in entries), entries[-5:]
    return entries


def one(office, doc, name, **arguments):
    """A single-call turn; returns its result dict."""
    return turn(office, doc, (name, arguments))[0]


def accept_all(office, doc):
    """Accept every tracked change, as Edit > Track Changes > Accept All does."""
    helper = office.create("com.sun.star.frame.DispatchHelper")
    helper.executeDispatch(doc.getCurrentController().getFrame(),
                           ".uno:AcceptAllTrackedChanges", "", 0, ())


def select(doc, start_text, end_text=None):
    """Select from the start of one found text to the end of another (or the same)."""
    a = find(doc, start_text)
    cursor = doc.getText().createTextCursorByRange(a.getStart())
    cursor.gotoRange((find(doc, end_text) if end_text else a).getEnd(), True)
    doc.getCurrentController().select(cursor)
    return cursor


def save_and_reload(office, doc, ext):
    """Save as .odt or .docx in a temporary folder and load it again (hidden)."""
    folder = tempfile.mkdtemp(prefix="marginalia-writer-")
    # Callers remove the file at most; the folder goes when the test run ends.
    atexit.register(shutil.rmtree, folder, True)
    path = os.path.join(folder, "doc." + ext)
    url = uno.systemPathToFileUrl(path)
    filters = {"odt": "writer8", "docx": "MS Word 2007 XML"}
    doc.storeToURL(url, (prop("FilterName", filters[ext]),))
    return office.load(path), path


# read_document(1, -1) of sample(), line by line.
SAMPLE_READ = [
    "1: # Annual report",
    "2: Sales grew in every region this year.",
    "3: ## Highlights",
    "4: - North doubled",
    "5:   - South held",
    "6: 1. First step",
    "7: 2. Second step",
    "8: " + EMOJI_LINE,
    "9: | Region | Sales |",
    "   | North | 12 |",
    "10: The end of the report.",
]


def text_fields(doc, service):
    """The document's text fields of one kind ("com.sun.star.text.textfield.Input")."""
    enum = doc.getTextFields().createEnumeration()
    while enum.hasMoreElements():
        field = enum.nextElement()
        if field.supportsService(service):
            yield field


def annotations(doc):
    """(author, content, anchored text) of every comment in the document."""
    return [(field.getPropertyValue("Author"), field.getPropertyValue("Content"),
             field.getAnchor().getString())
            for field in text_fields(doc, "com.sun.star.text.textfield.Annotation")]


def comment_on(doc, text, content, author="Someone"):
    """Anchor a comment by ``author`` on the first ``text`` of the document."""
    note = doc.createInstance("com.sun.star.text.textfield.Annotation")
    note.setPropertyValue("Author", author)
    note.setPropertyValue("Content", content)
    found = find(doc, text)
    found.getText().insertTextContent(found, note, True)

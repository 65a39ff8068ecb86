"""Reading a source file (or an open Writer document) as Blocks, through LibreOffice itself.

Why LibreOffice and not parsers of our own: it already reads every format a
writer keeps material in (.odt .docx .doc .rtf .txt .md .html, and PDF through
its own PDF import, which needs no Draw: the ``writer_pdf_import`` filter puts
each PDF text line in a Writer text shape anchored to its page), and the
shipped code may use the standard library only.

Threads: loading, reading and closing are UNO calls, so each runs on the main
thread through ``run`` (office.mainthread.run_sync from a worker). The walk is
a generator read in slices of about ``SLICE`` seconds, one main-thread call
each, so a long source never freezes Writer for the whole read (the same idea
as writer.mapbuild). A loaded file is hidden, read-only, with macros off and
no interaction (a password or a repair prompt just fails the load), and is
closed after reading, also when reading failed. An open document is read the
same way and left open.

PDF: first through LibreOffice's own parser, xpdfimport, as a child process on
the caller's thread (office.source_xpdf: the import filter would hold the main
thread for seconds on a long PDF); only when the helper is missing, through the
import filter (which runs the same helper), whose text comes as one shape per line.
A PDF the helper reads but finds no text in (a scan) is said so at once. Either way the lines are put back into
paragraphs (office.source_pdf); headings are the lines in a larger font.
"""

import logging
import os
import re
import time
import urllib.parse
from typing import Any, Callable, Iterator, List, Optional, Tuple

from marginalia.errors import MarginaliaError
from marginalia.i18n.catalog import tr
from marginalia.office import source_pdf, source_xpdf
from marginalia.sources.model import Block

log = logging.getLogger("marginalia.sources")

# Seconds of main-thread work per slice of a read: Writer stays responsive between.
SLICE = 0.05
# Elements read between two looks at the clock.
STRIDE = 32

# The filter per extension; "" lets LibreOffice's type detection choose.
FILTERS = {
    ".odt": "", ".ott": "", ".docx": "", ".doc": "", ".rtf": "", ".fodt": "",
    ".txt": "Text (encoded)", ".md": "Text (encoded)", ".markdown": "Text (encoded)",
    ".html": "HTML (StarWriter)", ".htm": "HTML (StarWriter)",
    ".pdf": "writer_pdf_import",
}
SUPPORTED = tuple(sorted(FILTERS))

Run = Callable[[Callable[[], Any]], Any]


class Unreadable(MarginaliaError):
    """A source that cannot be read; str() is the one sentence the user sees."""


def stamp_of(path: str) -> Optional[Tuple[int, float]]:
    """(size, mtime) of a file, or None when it is not there."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_size, info.st_mtime)


def _sentence(name: str, why: str) -> Unreadable:
    """``why``: a clause already in the user's language."""
    return Unreadable(tr("Marginalia could not read %(name)s: %(reason)s.")
                      % {"name": name, "reason": why})


def check_path(path: str) -> str:
    """The file's display name; raises Unreadable when it is missing or of a kind not read."""
    name = os.path.basename(path) or path
    ext = os.path.splitext(path)[1].lower()
    if ext not in FILTERS:
        raise _sentence(name, tr("only %s files can be sources") % ", ".join(SUPPORTED))
    if not os.path.isfile(path):
        raise _sentence(name, tr("the file is not there any more"))
    return name


# ---------------------------------------------------------------- loading (main thread)

def _props(**values):
    from com.sun.star.beans import PropertyValue
    out = []
    for key, value in values.items():
        prop = PropertyValue()
        prop.Name, prop.Value = key, value
        out.append(prop)
    return tuple(out)


def file_url(path: str) -> str:
    """The URL LibreOffice itself gives ``path`` (it leaves "(" as it is, where
    pathname2url writes %28), so an open document's getURL() compares equal."""
    import uno
    return uno.systemPathToFileUrl(os.path.abspath(path))


def same_url(a: str, b: str) -> bool:
    """Two file URLs naming one file, whichever characters each escapes."""
    return bool(a) and urllib.parse.unquote(a) == urllib.parse.unquote(b)


def open_document(ctx: Any, url: str) -> Any:
    """The Writer document already open from ``url``, or None (main thread)."""
    from marginalia.office.writer_docs import writer_documents
    found = writer_documents(ctx, lambda doc: same_url(doc.getURL(), url))
    return found[0] if found else None


def _load(ctx: Any, path: str) -> Any:
    """Load ``path`` hidden, read-only, macros off, no prompts (main thread)."""
    ext = os.path.splitext(path)[1].lower()
    values = dict(Hidden=True, ReadOnly=True, MacroExecutionMode=0, UpdateDocMode=0,
                  Silent=True)
    if FILTERS[ext]:
        values["FilterName"] = FILTERS[ext]
    if FILTERS[ext] == "Text (encoded)":
        values["FilterOptions"] = "UTF8,LF,,,"
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    return desktop.loadComponentFromURL(file_url(path), "_blank", 0, _props(**values))


def program_dir(ctx: Any) -> str:
    """LibreOffice's program folder (main thread)."""
    import uno
    paths = ctx.ServiceManager.createInstanceWithContext(
        "com.sun.star.util.PathSubstitution", ctx)
    return uno.fileUrlToSystemPath(paths.substituteVariables("$(prog)", True))


def _close(doc: Any) -> None:
    try:
        doc.close(True)
    except Exception:
        try:
            doc.dispose()
        except Exception:
            log.exception("could not close a source after reading it")


# ---------------------------------------------------------------- walking (main thread, sliced)

def _table_rows(table: Any) -> List[str]:
    """A text table's rows as "cell | cell" lines (merged cells: by cell name)."""
    try:
        return [" | ".join(str(v).strip() for v in row) for row in table.getDataArray()]
    except Exception:
        pass
    rows = {}
    for name in table.getCellNames():
        match = re.match(r"([A-Za-z]+)(\d+)", name)
        if match is None:
            continue
        row = rows.setdefault(int(match.group(2)), [])
        row.append(table.getCellByName(name).getString().strip())
    return [" | ".join(cells) for _n, cells in sorted(rows.items())]


_MD_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def paragraph_text(paragraph: Any) -> str:
    """What a reader of the page sees in ``paragraph``: its text portions without
    footnote anchors (getString glues their numbers in: "twelve percent1"), without
    text tracked as deleted, and without hidden text."""
    parts = []
    deleted = False
    try:
        portions = paragraph.createEnumeration()
        while portions.hasMoreElements():
            portion = portions.nextElement()
            kind = portion.TextPortionType
            if kind == "Redline":
                if portion.RedlineType == "Delete" and not portion.IsCollapsed:
                    deleted = bool(portion.IsStart)
                continue
            if deleted or kind == "Footnote" or portion.CharHidden:
                continue
            parts.append(portion.getString())
    except Exception:
        log.debug("reading a paragraph by portions failed", exc_info=True)
        return paragraph.getString()
    return "".join(parts)


def walk_writer(doc: Any, markdown: bool = False) -> Iterator[Optional[Block]]:
    """The body's Blocks in order; yields None now and then so a caller can pause.

    Headings come from the outline level (Heading N styles, or any paragraph
    given a level); in Markdown read as text, from the "#" marks.
    """
    heading = ""
    enum = doc.getText().createEnumeration()
    count = 0
    while enum.hasMoreElements():
        element = enum.nextElement()
        count += 1
        if count % STRIDE == 0:
            yield None
        if element.supportsService("com.sun.star.text.TextTable"):
            rows = [row for row in _table_rows(element) if row.strip(" |")]
            if rows:
                yield Block("table", "\n".join(rows), heading, None, 0)
            continue
        if not element.supportsService("com.sun.star.text.Paragraph"):
            continue
        text = paragraph_text(element).strip()
        if not text:
            continue
        level = 0
        try:
            level = int(element.getPropertyValue("OutlineLevel"))
        except Exception:
            level = 0
        if markdown:
            match = _MD_HEADING.match(text)
            if match is not None:
                level, text = len(match.group(1)), match.group(2)
        if level > 0:
            heading = text
            yield Block("heading", text, heading, None, level)
        else:
            yield Block("paragraph", text, heading, None, 0)


def walk_pdf(doc: Any) -> Iterator[Optional[Block]]:
    """The Blocks of a PDF loaded by writer_pdf_import: its text shapes, page by page."""
    page = doc.getDrawPage()
    lines = []
    for index in range(page.getCount()):
        if index and index % STRIDE == 0:
            yield None
        shape = page.getByIndex(index)
        if shape.getShapeType() != "com.sun.star.drawing.TextShape":
            continue
        text = shape.getString()
        if not text.strip():
            continue
        where, size = shape.getPosition(), shape.getSize()
        try:
            height = float(shape.getText().createTextCursor().getPropertyValue("CharHeight"))
        except Exception:
            height = 0.0
        lines.append(source_pdf.Line(int(shape.AnchorPageNo or 1), where.X, where.Y,
                                     size.Width, size.Height, height, text))
    for block in source_pdf.blocks(lines):
        yield block


def _read_sliced(run: Run, walker: Iterator[Optional[Block]], budget: float) -> List[Block]:
    """Run the walk on the main thread, ``budget`` seconds per call."""
    out: List[Block] = []
    done = [False]

    def one_slice():
        end = time.perf_counter() + budget
        for block in walker:
            if block is not None:
                out.append(block)
            elif time.perf_counter() > end:
                return
        done[0] = True

    while not done[0]:
        run(one_slice)
    return out


# ---------------------------------------------------------------- entry points (any thread)

def read_file(ctx: Any, path: str, run: Run, budget: float = SLICE,
              pdf_helper: bool = True, cancel: Any = None) -> List[Block]:
    """A file's Blocks; raises Unreadable with one sentence when it cannot be read,
    errors.Cancelled when ``cancel`` (the turn's CancelToken) is set during a PDF's read.

    A file already open in this office is read from its window, not loaded again.
    ``pdf_helper`` False reads a PDF through the import filter only (its test).
    """
    name = check_path(path)
    ext = os.path.splitext(path)[1].lower()
    url = file_url(path)
    doc = run(lambda: open_document(ctx, url)) if ext != ".pdf" else None
    if doc is not None:
        return read_open(doc, run, budget)
    program = (source_xpdf.helper(run(lambda: program_dir(ctx)))
               if ext == ".pdf" and pdf_helper else None)
    if program:
        return _read_pdf(program, path, name, cancel)
    try:
        doc = run(lambda: _load(ctx, path))
    except Exception:
        log.exception("loading a source failed")
        doc = None
    if doc is None:
        raise _sentence(name, tr("LibreOffice cannot open it"))
    try:
        if ext == ".pdf":
            blocks = _read_sliced(run, walk_pdf(doc), budget)
        else:
            blocks = _read_sliced(run, walk_writer(doc, ext in (".md", ".markdown")), budget)
    except Exception:
        log.exception("reading a source failed")
        raise _sentence(name, tr("LibreOffice opened it but its text could not be read"))
    finally:
        run(lambda: _close(doc))
    if not blocks:
        why = (tr("it holds no text (a scanned PDF has only pictures of pages)")
               if ext == ".pdf" else tr("it holds no text"))
        raise _sentence(name, why)
    return blocks


def _read_pdf(program: str, path: str, name: str, cancel: Any) -> List[Block]:
    # The helper's answer stands: the import filter runs the same helper (then holds
    # the main thread for long seconds), so it would find no more.
    try:
        lines = source_xpdf.read_lines(program, path, cancel)
    except source_xpdf.TooLong:
        raise _sentence(name, tr("it took too long to read"))
    if lines is None:
        raise _sentence(name, tr("LibreOffice cannot open it"))
    blocks = source_pdf.blocks(lines)
    if not blocks:
        raise _sentence(name, tr("it holds no text (a scanned PDF has only pictures of pages)"))
    return blocks


def read_open(doc: Any, run: Run, budget: float = SLICE) -> List[Block]:
    """An open Writer document's Blocks, read in slices; the document stays open."""
    try:
        return _read_sliced(run, walk_writer(doc), budget)
    except Exception:
        log.exception("reading an open document as a source failed")
        raise Unreadable(tr("Marginalia could not read that document: it may have just "
                            "closed."))

"""The no-harm checks: every edit tool, in one apply mode, over one real document.

Shared by the corpus script (tests/support/corpus_check.py) and the office tier
(tests/office/test_no_harm.py). A harm is an internal error in a tool's answer, a
crash, a turn that Undo or Reject does not take back exactly, or an edited
document that does not save and load again. A finding is a mode whose result
differs from the direct one (accepting a tracked turn, applying proposals).
"""

import os
import re
import shutil
import tempfile
import time
from typing import Any, Dict, List, NamedTuple, Optional

import uno

from tests.support.docsnap import difference, snapshot, without_ai_comments
from tests.support.writer import prop, turn

MODES = ("direct", "tracked", "comments")
TOOLS = ("replace_text", "insert_paragraphs", "replace_paragraphs", "delete_paragraphs",
         "replace_selection", "set_paragraph_style", "format_text", "add_comment",
         "insert_table", "edit")
# What an answer must never carry: the text of a Python or UNO exception.
INTERNAL = re.compile(r"Traceback|<traceback object|caught exception|Exception|AttributeError|"
                      r"\buno\b|com\.sun\.star|failed: .*(Error|Exception|\(\)|\.py)")
# A comments-only turn adds comments only; these tools anchor them differently (a found
# text, whole paragraphs, a point after a paragraph), and saving each of them is enough.
SAVE_IN_COMMENTS = ("replace_text", "delete_paragraphs", "insert_paragraphs")
FILTERS = (("odt", "writer8"), ("docx", "MS Word 2007 XML"))
TRACE = bool(os.environ.get("MARGINALIA_NOHARM_TRACE"))
_WORD = re.compile(r"[^\W\d_]{4,}")


class Problem(NamedTuple):
    """One harm (or finding) of one tool in one mode on one document."""
    document: str
    mode: str
    tool: str
    what: str
    finding: bool = False


class Plan(NamedTuple):
    """The arguments each tool gets on one document, chosen from the document itself."""
    arguments: Dict[str, Dict[str, Any]]
    word: Optional[str]


def _candidates(snap: Dict[str, Any]) -> List[tuple]:
    """(number, text) of the body's paragraphs with words, or, in a body of tables only,
    of its tables; numbered as the tools number blocks (a table is one)."""
    paragraphs, tables = [], []
    for number, block in enumerate(snap["body"], 1):
        if "table" in block:
            tables.append((number, " ".join(block["cells"].values())))
        elif _WORD.search(block["text"]):
            paragraphs.append((number, block["text"]))
    return paragraphs or [t for t in tables if _WORD.search(t[1])]


def plan(doc: Any, snap: Dict[str, Any]) -> Plan:
    """Choose every tool's arguments from the document's snapshot: a block in the middle
    of the body, and a word of it that a search finds."""
    found = _candidates(snap)
    number, text = found[len(found) // 2] if found else (1, "")
    word = None
    for candidate in _WORD.findall(text) + [w for _n, t in found for w in _WORD.findall(t)]:
        if _find(doc, candidate) is not None:
            word = candidate
            break
    search = word or "no such words here"
    return Plan({
        "replace_text": {"search": search, "replacement": "changed words"},
        "insert_paragraphs": {"markdown": "A new paragraph.", "after_paragraph": number},
        "replace_paragraphs": {"start": number, "end": number, "markdown": "A replaced one."},
        "delete_paragraphs": {"start": number, "end": number},
        "replace_selection": {"markdown": "selected words"},
        "set_paragraph_style": {"start": number, "end": number, "style": "Heading 2"},
        "format_text": {"search": search, "bold": True, "italic": True},
        "add_comment": {"search": search, "comment": "A note on this."},
        "insert_table": {"after_paragraph": number, "rows": [["A", "B"], ["1", "2"]]},
        # The rewrite protocol's edit: the line with a word changed, a line after it.
        "edit": {"text": "%d: %s\nA new paragraph." % (
            number, text.replace(word, "changed", 1) if word else text + " More.")},
    }, word)


def _find(doc: Any, text: str) -> Any:
    sd = doc.createSearchDescriptor()
    sd.setSearchString(text)
    sd.setPropertyValue("SearchCaseSensitive", True)
    return doc.findFirst(sd)


def internal_error(results: List[Dict[str, Any]]) -> Optional[str]:
    """The first answer (content or summary) that carries an exception's text, or None."""
    for result in results:
        for key in ("content", "summary"):
            value = result.get(key)
            if isinstance(value, str) and INTERNAL.search(value):
                return value
    return None


def saves(office: Any, doc: Any) -> List[str]:
    """What went wrong saving the document as .odt and .docx and loading each again."""
    folder = tempfile.mkdtemp(prefix="marginalia-noharm-")
    wrong = []
    try:
        for ext, name in FILTERS:
            path = os.path.join(folder, "edited." + ext)
            try:
                doc.storeToURL(uno.systemPathToFileUrl(path), (prop("FilterName", name),))
                again = office.load(path)
                office.close(again)
            except Exception as exc:      # a refusal of LibreOffice's, said as the finding
                wrong.append("saving or loading as .%s failed: %s"
                             % (ext, getattr(exc, "Message", "") or type(exc).__name__))
    finally:
        shutil.rmtree(folder, True)
    return wrong


class Checker:
    """Runs the checks of one mode on one loaded document; reloads it when needed."""

    def __init__(self, office: Any, path: str, mode: str, plan_: Plan,
                 direct: Dict[str, Any], save: bool = True) -> None:
        self.office, self.path, self.mode, self.plan = office, path, mode, plan_
        self.direct = direct              # tool -> the snapshot its direct turn left
        self.save = save
        self.name = os.path.basename(path)
        self.problems = []                # type: List[Problem]
        self.doc = None
        self.original = None
        self.recording = False

    def _say(self, tool: str, what: str, finding: bool = False) -> None:
        self.problems.append(Problem(self.name, self.mode, tool, what, finding))

    def load(self) -> None:
        if self.doc is not None:
            self.office.close(self.doc)
        self.doc = self.office.load(self.path)
        self.original = snapshot(self.doc)
        self.recording = bool(self.doc.getPropertyValue("RecordChanges"))

    def close(self) -> None:
        if self.doc is not None and self.office.alive():
            self.office.close(self.doc)
        self.doc = None

    def _turn(self, tool: str) -> List[Dict[str, Any]]:
        self.doc.getUndoManager().clear()
        if tool == "replace_selection" and self.plan.word:
            self.doc.getCurrentController().select(_find(self.doc, self.plan.word))
        if tool == "edit":
            # The rewrite protocol: the model reads the line first (a long document is
            # not shown whole), then gives its new version.
            number = int(self.plan.arguments[tool]["text"].split(":", 1)[0])
            return turn(self.office, self.doc, ("read_document", {"start": number,
                                                                  "end": number}),
                        (tool, self.plan.arguments[tool]), apply=self.mode, protocol="rewrite",
                        title="no harm: " + tool)[1:]
        return turn(self.office, self.doc, (tool, self.plan.arguments[tool]),
                    apply=self.mode, title="no harm: " + tool)

    def _latest(self) -> Dict[str, Any]:
        turns = self.office.job("review.turns", document=self.doc)["turns"]
        return turns[-1] if turns else {"number": 0, "changes": []}

    def _act(self, tool: str, **payload: Any) -> None:
        said = self.office.job("review.act", document=self.doc, **payload)
        if "refused" in said:
            # A refusal changes nothing; what it leaves undone the snapshots show.
            self._say(tool, "review.act %s refused: %s" % (payload["action"], said["refused"]),
                      finding=True)

    def _undo_all(self) -> None:
        um = self.doc.getUndoManager()
        while um.isUndoPossible():
            um.undo()

    def run(self, tool: str) -> bool:
        """Check one tool; False when the office died (the caller revives it)."""
        started = time.time()
        try:
            clean = self._read() if tool == "read_document" else \
                getattr(self, "_" + self.mode)(tool)
        except Exception as exc:
            if not self.office.alive():
                self._say(tool, "LibreOffice died (%s)" % type(exc).__name__)
                self.doc = None
                return False
            self._say(tool, "an error: %s"
                      % (str(exc).strip().splitlines() or [type(exc).__name__])[0][:300])
            clean = False
        if not clean:
            try:
                self.load()
            except Exception as exc:
                if self.office.alive():
                    raise
                self._say(tool, "LibreOffice died closing the edited document or loading it "
                                "again (%s)" % type(exc).__name__)
                self.doc = None
                return False
        if TRACE:
            print("  %s %s %s %.2f s" % (self.name, self.mode, tool, time.time() - started),
                  flush=True)
        return True

    def _read(self) -> bool:
        results = turn(self.office, self.doc, ("read_document", {"start": 1, "end": -1}))
        bad = internal_error(results)
        if bad is not None:
            self._say("read_document", "internal error in the answer: %s" % bad.strip()[:400])
        return True

    def _common(self, tool: str, results: List[Dict[str, Any]]) -> Dict[str, Any]:
        bad = internal_error(results)
        if bad is not None:
            self._say(tool, "internal error in the answer: %s" % bad.strip()[:400])
        after = snapshot(self.doc)
        changed = bool(results) and results[0].get("ok")
        if self.save and changed and (self.mode != "comments" or tool in SAVE_IN_COMMENTS):
            for wrong in saves(self.office, self.doc):
                self._say(tool, wrong)
        return after

    def _direct(self, tool: str) -> bool:
        results = self._turn(tool)
        after = self._common(tool, results)
        if results and results[0].get("ok"):
            self.direct[tool] = after
        um = self.doc.getUndoManager()
        if um.isUndoPossible():
            um.undo()
        more = um.isUndoPossible()
        if more:
            self._say(tool, "the turn left more than one undo step")
        back = snapshot(self.doc)
        if back != self.original:
            self._say(tool, "one Undo did not give back the original: %s"
                      % difference(self.original, back))
            return False
        return not more

    def _tracked(self, tool: str) -> bool:
        results = self._turn(tool)
        self._common(tool, results)
        latest = self._latest()
        if latest["changes"]:
            self._act(tool, action="reject_all", turn=latest["number"])
        back = snapshot(self.doc)
        if back != self.original:
            own = " (the document's own tracked changes too)" \
                if back["redlines"] != self.original["redlines"] else ""
            self._say(tool, "rejecting the turn did not give back the original%s: %s"
                      % (own, difference(self.original, back)))
            return False
        if not self._comparable(tool):
            return True
        # Accepting the same turn must leave what the direct mode left. Undoing an
        # accept is no part of the check, so a fresh copy follows (False).
        self._turn(tool)
        latest = self._latest()
        if latest["changes"]:
            self._act(tool, action="accept_all", turn=latest["number"])
        accepted = snapshot(self.doc)
        if accepted != self.direct[tool]:
            self._say(tool, "accepting differs from the direct result: %s"
                      % difference(self.direct[tool], accepted), finding=True)
        return False

    def _comments(self, tool: str) -> bool:
        results = self._turn(tool)
        after = self._common(tool, results)
        clean = True
        if without_ai_comments(after) != self.original:
            self._say(tool, "a comments-only turn changed more than its comments: %s"
                      % difference(self.original, without_ai_comments(after)))
            clean = False
        if not self._comparable(tool):
            return clean and self._undone()
        for change in self._latest()["changes"]:
            if change.get("state") == "proposed":
                self._act(tool, action="apply", change=change["id"])
        applied = without_ai_comments(snapshot(self.doc))
        want = without_ai_comments(self.direct[tool])
        if applied != want:
            self._say(tool, "applying the proposals differs from the direct result: %s"
                      % difference(want, applied), finding=True)
        return False

    def _comparable(self, tool: str) -> bool:
        """Whether this mode's result can be held against the direct one: not when the
        document records changes itself (its direct turn is tracked too)."""
        return tool in self.direct and not self.recording

    def _undone(self) -> bool:
        """Undo what the turn left (comments only) and say whether the original is back."""
        self._undo_all()
        return snapshot(self.doc) == self.original


def check_document(office: Any, path: str, direct: Optional[Dict[str, Any]] = None,
                   modes=MODES, tools=TOOLS, save: bool = True,
                   read: bool = True) -> List[Problem]:
    """Every tool in every mode on one document (direct first: the others compare with it);
    with read, read_document is tried once first."""
    direct = {} if direct is None else direct
    problems = []
    the_plan = None
    # A private copy: the office writes its lock file beside the document, and a
    # crash would leave it in the caller's folder.
    folder = tempfile.mkdtemp(prefix="marginalia-noharm-doc-")
    copy = os.path.join(folder, os.path.basename(path))
    shutil.copyfile(path, copy)
    try:
        for mode in modes:
            the_plan = _check_mode(office, copy, mode, the_plan, direct, tools, save, read,
                                   problems)
    finally:
        shutil.rmtree(folder, True)
    return problems


def _check_mode(office, path, mode, the_plan, direct, tools, save, read, problems):
    checker = None
    try:
        checker = Checker(office, path, mode, the_plan or Plan({}, None), direct, save)
        checker.load()
        if the_plan is None:
            the_plan = checker.plan = plan(checker.doc, checker.original)
            # The reading tool the model calls first, once per document.
            if read and not checker.run("read_document"):
                office.revive()
                checker.load()
        for tool in tools:
            if not checker.run(tool):
                break
    except Exception as exc:
        if office.alive():
            raise
        problems.append(Problem(os.path.basename(path), mode, "(loading)",
                                "LibreOffice died (%s)" % type(exc).__name__))
    finally:
        if checker is not None:
            problems.extend(checker.problems)
            checker.close()
    if not office.alive():
        office.revive()
    return the_plan

"""One declaration per document tool: everything about it that is not Writer code (pure).

A ToolSpec says a tool's name, description and JSON schema; what a call of it
targets (text found by a search, numbered paragraphs, the selection, a point
after a paragraph, or nothing: a reading tool); which reading map it needs;
its change kind; how its new text and its Comment-only proposal read; and its
words for the user (while it runs, when done, and the action a refusal names).
Everything else is derived from it: the toolbox's registrations and flags,
the change records, the keep-out plan, the panel's tool lines. The Writer side
binds one function per declaration (writer.binding), so adding a tool touches
this file and the module holding its function.
"""

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple

from marginalia.document import docview, edit_words as words
from marginalia.i18n.catalog import N_

Schema = Dict[str, Any]
Arguments = Dict[str, Any]

# What a call targets (ToolSpec.target): the plan (writer.plan) finds it once per call.
# LINES: the model's new version of numbered lines (document.revision), which the toolbox
# turns into calls of the block tools, each planned as its own call.
NOTHING, FOUND, BLOCKS, SELECTION, AFTER, LINES = (
    "nothing", "found", "blocks", "selection", "after", "lines")
# The edit protocols (config.Settings.edit_protocol): which tools the model is offered.
TOOLS, REWRITE = "tools", "rewrite"
# Which reading map a tool needs before it runs (ToolSpec.reads); BY_DOCUMENT: its
# binding decides per document (writer.binding.map_need).
NO_MAP, NUMBERS, ATTRIBUTES, BY_DOCUMENT = "none", "numbers", "attributes", "by document"

# The change kinds (document.change_log records them).
REPLACE, INSERT, DELETE, RESTYLE, FORMAT, COMMENT, TABLE = (
    "replace", "insert", "delete", "restyle", "format", "comment", "table")
KINDS = (REPLACE, INSERT, DELETE, RESTYLE, FORMAT, COMMENT, TABLE)


@dataclass(frozen=True)
class Words:
    """A tool's words for the user: the status while it runs, the line when done, and
    the action a refusal names ("Couldn't <action>")."""

    running: str
    done: str
    action: str


def _nothing(_arguments: Arguments) -> str:
    return ""


@dataclass(frozen=True)
class Lean:
    """A tool as the rewrite protocol offers it: a shorter description and schema (every
    token of them is read before a local model's first word), and the values of the
    parameters it leaves out."""

    description: str
    parameters: Schema
    defaults: Dict[str, Any] = field(default_factory=dict)
    # Parameters this form refuses empty, with the refusal (small models "delete" a
    # paragraph by replacing its first words with nothing)...
    nonempty: Dict[str, str] = field(default_factory=dict)
    # ...and holding a line break (they "add a line" by replacing a heading with itself
    # and a new line: the line break lands inside the heading).
    one_line: Dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    parameters: Schema
    words: Words
    target: str = NOTHING
    reads: str = NO_MAP
    sized: bool = False             # takes ``budget``: the characters its answer may hold
    names_kept_out: bool = False    # its answer names the kept-out paragraphs
    kind: Optional[str] = None      # the change kind of an edit
    after: Callable[[Arguments], str] = field(default=_nothing, compare=False)
    proposal: Callable[[Arguments], str] = field(default=_nothing, compare=False)
    proposes: bool = True           # Comment only turns a call into a proposal
    # The protocols that offer it to the model; () for a step of another tool's edit.
    protocols: Tuple[str, ...] = (TOOLS,)
    lean: Optional[Lean] = None     # its form in the rewrite protocol, when it differs
    # The model writes its call as text (a fenced block, chat.textcalls), taught by the
    # system prompt; it is not offered as a function, though a call of it still runs.
    written: bool = False

    @property
    def edits(self) -> bool:
        return self.target != NOTHING

    def offered(self, protocol: str) -> Tuple[str, Schema]:
        """(description, parameters) as ``protocol`` offers the tool."""
        if protocol == REWRITE and self.lean is not None:
            return self.lean.description, self.lean.parameters
        return self.description, self.parameters

    def defaults(self, protocol: str) -> Dict[str, Any]:
        """Arguments the protocol's form leaves out, with the values they take."""
        return dict(self.lean.defaults) if protocol == REWRITE and self.lean else {}

    def refusal(self, protocol: str, arguments: Arguments) -> Optional[str]:
        """Why the protocol's form refuses these arguments (an empty one it needs)."""
        if protocol != REWRITE or self.lean is None:
            return None
        for name, sentence in self.lean.nonempty.items():
            value = arguments.get(name)
            if isinstance(value, str) and not value.strip():
                return sentence
        for name, sentence in self.lean.one_line.items():
            value = arguments.get(name)
            if isinstance(value, str) and "\n" in value.strip():
                return sentence
        return None

    @property
    def numbered(self) -> bool:
        """It addresses paragraphs by number: stale numbers must not reach it."""
        return self.target in (BLOCKS, AFTER)

    def keeps_paragraphs(self, arguments: Arguments) -> bool:
        """True for an edit that leaves every paragraph where it was: a text edit that
        makes no paragraph break (a cursor at a paragraph's start stays there)."""
        return self.target == FOUND and "\n" not in str(arguments.get("replacement", ""))


# ---------------------------------------------------------------- schema pieces

INT = {"type": "integer"}
STR = {"type": "string"}
BOOL = {"type": "boolean"}


def schema(properties: Schema, required: Tuple[str, ...] = ()) -> Schema:
    return {"type": "object", "properties": properties, "required": list(required),
            "additionalProperties": False}


def described(base: Schema, description: str) -> Schema:
    out = dict(base)
    out["description"] = description
    return out


MARKDOWN = described(STR, "Markdown: '# ' headings, paragraphs separated by blank lines, "
                          "'- ' bullet and '1. ' numbered items (indent two spaces to nest), "
                          "**bold**, *italic*, `code`, [links](https://...), pipe tables. It "
                          "becomes real Writer structure (styles, list numbering, tables).")
PARA_START = described(INT, "First paragraph number (1-based, as shown by read_document).")
PARA_END = described(INT, "Last paragraph number, inclusive; -1 means the last paragraph.")
EXPECT = described(STR, "The first few words of paragraph start, copied as you read them "
                        "(not the new text, not a style name). If that "
                        "paragraph no longer begins so (numbers moved), nothing is changed "
                        "and the result says where the text is now. Give it whenever you can.")
AFTER_PARA = described(INT, "Insert after this paragraph number; 0 inserts at the start of "
                            "the document, -1 at the end.")
# How numbers move, said the same way in every numbered tool.
NUMBERS_NOTE = (" The result says how the numbers of later paragraphs changed. With changes "
                "being recorded, deleted paragraphs stay in the numbering (as read_document "
                "shows them) until the change is accepted.")


# ---------------------------------------------------------------- the tools

SPECS: List[ToolSpec] = [
    ToolSpec(
        "get_document_info",
        "Title, paragraph/word/page counts, the outline of headings with their paragraph "
        "numbers, whether text is selected and whether changes are being recorded.",
        schema({}),
        Words(N_("Looking at the document\u2026"), N_("Looked at the document"),
              N_("look at the document")),
        reads=BY_DOCUMENT, names_kept_out=True),
    ToolSpec(
        "read_document",
        "Read numbered paragraphs start..end in a compact form. " + docview.LEGEND +
        " Long ranges are cut to a size limit with a note saying where to continue.",
        schema({"start": PARA_START, "end": PARA_END}),
        Words(N_("Reading the document\u2026"), N_("Read the document"), N_("read the document")),
        reads=ATTRIBUTES, sized=True, names_kept_out=True, protocols=(TOOLS, REWRITE),
        lean=Lean("Show the document's lines start..end, numbered as edit takes them.",
                  schema({"start": described(INT, "First line number."),
                          "end": described(INT, "Last line number; -1 for the end.")}))),
    ToolSpec(
        "search_document",
        "Find text in the document; returns each match's paragraph number and context.",
        schema({"query": described(STR, "Text to find, or an ICU regular expression if regex."),
                "regex": described(BOOL, "Treat query as a regular expression (default false)."),
                "match_case": described(BOOL, "Match upper/lower case exactly (default "
                                              "false).")},
               ("query",)),
        Words(N_("Searching the document\u2026"), N_("Searched the document"),
              N_("search the document")),
        reads=BY_DOCUMENT, sized=True, names_kept_out=True, protocols=(TOOLS, REWRITE),
        lean=Lean("Find text in the document: the numbered lines that hold it.",
                  schema({"query": described(STR, "The words to find.")}, ("query",)))),
    ToolSpec(
        "get_selection",
        "The text the user has selected and its paragraph numbers (offsets count characters).",
        schema({}),
        Words(N_("Reading the selection\u2026"), N_("Read the selection"),
              N_("read the selection")),
        reads=NUMBERS),
    ToolSpec(
        "replace_text",
        "Replace text everywhere or at its first occurrence. Only the words that differ are "
        "replaced, so unchanged words keep their formatting; new words take their neighbours'. "
        "Returns how many were replaced.",
        schema({"search": described(STR, "Exact text to replace (or a regular expression if "
                                         "regex)."),
                "replacement": described(STR, "New text, plain: no markdown (format_text "
                                              "makes words bold or italic). With regex, $1 "
                                              "inserts a group."),
                "all": described(BOOL, "Replace every occurrence (default false: only the "
                                       "first)."),
                "match_case": described(BOOL, "Match case exactly (default true)."),
                "regex": described(BOOL, "Treat search as a regular expression (default "
                                         "false).")},
               ("search", "replacement")),
        Words(N_("Changing the text\u2026"), N_("Changed the text"), N_("change the text")),
        target=FOUND, kind=REPLACE, after=words.argument("replacement"),
        proposal=words.replace_with(words.argument("replacement")),
        protocols=(TOOLS, REWRITE),
        lean=Lean("Replace a word or phrase everywhere in the document.",
                  schema({"search": described(STR, "The exact text."),
                          "replacement": described(STR, "The new text.")},
                         ("search", "replacement")),
                  {"all": True, "edit_block": True},
                  {"replacement": "replace_text does not delete, so nothing was changed. To "
                                  "delete a line, write it struck through in an edit block:\n"
                                  "```edit\n3: ~~The line to delete.~~\n```"},
                  {"replacement": "replace_text changes words within lines and adds none, "
                                  "so nothing was changed. To add a line, write it in an "
                                  "edit block after the line it follows, that line first with "
                                  "its number."})),
    ToolSpec(
        "insert_paragraphs",
        "Insert new paragraphs written in markdown after a paragraph." + NUMBERS_NOTE,
        schema({"markdown": MARKDOWN, "after_paragraph": AFTER_PARA},
               ("markdown", "after_paragraph")),
        Words(N_("Adding paragraphs\u2026"), N_("Added paragraphs"), N_("add the paragraphs")),
        target=AFTER, kind=INSERT, after=words.markdown_text,
        proposal=words.insert_after(words.new_text)),
    ToolSpec(
        "replace_paragraphs",
        "Replace paragraphs start..end (whole paragraphs or tables) with new markdown content. "
        "One paragraph replaced by plain text of the same kind changes only the words that "
        "differ, keeping the formatting of the rest." + NUMBERS_NOTE,
        schema({"start": PARA_START, "end": PARA_END, "markdown": MARKDOWN, "expect": EXPECT},
               ("start", "end", "markdown")),
        Words(N_("Rewriting paragraphs\u2026"), N_("Rewrote paragraphs"),
              N_("rewrite the paragraphs")),
        target=BLOCKS, kind=REPLACE, after=words.markdown_text,
        proposal=words.replace_with(words.new_text)),
    ToolSpec(
        "delete_paragraphs",
        "Delete paragraphs start..end (a table counts as one paragraph)." + NUMBERS_NOTE,
        schema({"start": PARA_START, "end": PARA_END, "expect": EXPECT}, ("start", "end")),
        Words(N_("Deleting paragraphs\u2026"), N_("Deleted paragraphs"),
              N_("delete the paragraphs")),
        target=BLOCKS, kind=DELETE, proposal=words.delete),
    ToolSpec(
        "replace_selection",
        "Replace the text the user selected with markdown content. With plain text only the "
        "words that differ are replaced, so the rest keeps its formatting.",
        schema({"markdown": MARKDOWN}, ("markdown",)),
        Words(N_("Replacing the selection\u2026"), N_("Replaced the selection"),
              N_("replace the selection")),
        target=SELECTION, reads=NUMBERS, kind=REPLACE, after=words.markdown_text,
        proposal=words.replace_with(words.new_text)),
    ToolSpec(
        "set_paragraph_style",
        "Apply a paragraph style of the document (e.g. \"Heading 1\", \"Heading 2\", "
        "\"Title\", \"Text body\", \"Quotations\") to paragraphs start..end.",
        schema({"start": PARA_START, "end": PARA_END,
                "style": described(STR, "Paragraph style name."), "expect": EXPECT},
               ("start", "end", "style")),
        Words(N_("Setting a paragraph style\u2026"), N_("Set a paragraph style"),
              N_("set the paragraph style")),
        target=BLOCKS, kind=RESTYLE, after=words.style,
        proposal=words.restyle),
    ToolSpec(
        "format_text",
        "Set character formatting on text found in the document (first occurrence, or all). "
        "Give only the attributes to change; false removes bold/italic/underline/"
        "strikethrough.",
        schema({"search": described(STR, "Exact text to format."),
                "bold": BOOL, "italic": BOOL, "underline": BOOL, "strikethrough": BOOL,
                "color": described(STR, "Font colour: \"#RRGGBB\" or a name (red, blue, ...)."),
                "highlight": described(STR, "Background colour: \"#RRGGBB\", a name (yellow, "
                                            "...) or \"none\" to remove it."),
                "all": described(BOOL, "Format every occurrence (default false: only the "
                                       "first).")},
               ("search",)),
        Words(N_("Formatting text\u2026"), N_("Formatted text"), N_("format the text")),
        target=FOUND, kind=FORMAT, after=words.flags,
        proposal=words.reformat),
    ToolSpec(
        "add_comment",
        "Add a Writer comment (shown in the margin) anchored on the first occurrence of a text.",
        schema({"search": described(STR, "Exact text the comment refers to."),
                "comment": described(STR, "The comment.")}, ("search", "comment")),
        Words(N_("Adding a comment\u2026"), N_("Added a comment"), N_("add the comment")),
        target=FOUND, reads=NUMBERS, kind=COMMENT, after=words.argument("comment"),
        proposal=words.argument("comment"), proposes=False, protocols=(TOOLS, REWRITE),
        lean=Lean("Add a comment in the margin on a text, without changing the text.",
                  schema({"search": described(STR, "The exact text it is about."),
                          "comment": STR}, ("search", "comment")))),
    ToolSpec(
        "insert_table",
        "Insert a real Writer table after a paragraph; it counts as one paragraph. Cells may "
        "use inline markdown." + NUMBERS_NOTE,
        schema({"after_paragraph": described(INT, "Insert after this paragraph; 0 = start, "
                                                  "-1 = end."),
                "rows": {"type": "array", "description": "Rows, each a list of cell strings.",
                         "items": {"type": "array", "items": STR}},
                "header": described(BOOL, "The first row is a header row (default true).")},
               ("after_paragraph", "rows")),
        Words(N_("Inserting a table\u2026"), N_("Inserted a table"), N_("insert the table")),
        target=AFTER, kind=TABLE, after=words.table, proposal=words.insert_after(words.table)),
]

# ---------------------------------------------------------------- the rewrite protocol

# The examples the prompt and the refusals give: a line that is one of them copied is
# refused (document.revision), never made (small models copy what they are shown).
EXAMPLES = ("The corrected sentence.", "# Now a heading", "~~The line.~~",
            "~~The line to delete.~~", "<!-- your note -->")
EDIT_RULES = ("Write each changed line with its number, e.g. '2: The corrected sentence.' or "
              "'1: # Now a heading'. To delete a line, strike it through: '4: ~~The line.~~'. "
              "A line without a number is added after the line above it. To comment on a "
              "line, end it with <!-- your note -->.")

# First: the tool a model reaches for first is its main one.
SPECS[:0] = [
    ToolSpec(
        "edit",
        "Change the document: give the new version of the lines that change. " + EDIT_RULES,
        schema({"text": described(STR, "The changed lines.")}, ("text",)),
        Words(N_("Changing the text\u2026"), N_("Changed the text"), N_("change the text")),
        target=LINES, reads=ATTRIBUTES, kind=REPLACE, after=words.argument("text"),
        protocols=(REWRITE,), written=True),
    # A comment an edit puts on a line ("3: ... <!-- a note -->"), on the whole paragraph.
    ToolSpec(
        "comment_paragraph",
        "Add a comment on paragraphs start..end.",
        schema({"start": PARA_START, "end": PARA_END, "comment": STR},
               ("start", "end", "comment")),
        Words(N_("Adding a comment\u2026"), N_("Added a comment"), N_("add the comment")),
        target=BLOCKS, kind=COMMENT, after=words.argument("comment"),
        proposal=words.argument("comment"),
        proposes=False, protocols=()),
    # One paragraph of an edit made in place: its words, bold and italic and heading
    # level (writer.revise). The model never calls it; Apply does, for a proposal.
    ToolSpec(
        "revise_paragraph",
        "Revise paragraph start in place to read as markdown (one block in the view's form).",
        schema({"start": PARA_START, "end": PARA_END, "markdown": MARKDOWN, "expect": EXPECT,
                "was": described(STR, "The line before.")}, ("start", "end", "markdown")),
        Words(N_("Changing the text\u2026"), N_("Changed the text"), N_("change the text")),
        target=BLOCKS, kind=REPLACE, after=words.markdown_text,
        proposal=words.revision, protocols=()),
]

BY_NAME: Dict[str, ToolSpec] = {spec.name: spec for spec in SPECS}


def offered(protocol: str) -> List[ToolSpec]:
    """The tools ``protocol`` offers the model, in declaration order."""
    return [s for s in SPECS if protocol in s.protocols]


def spec(name: str) -> Optional[ToolSpec]:
    """The declaration of tool ``name``; None for a name no tool has."""
    return BY_NAME.get(name)

"""What the model is told before the conversation: the system message (pure).

The chat's own prompt (with tools, or without when the model cannot call
them), the user's standing instructions from the options, and, in the tools
protocol, the document's context for this turn (writer.context.described: a
short description, or the whole text of a short document). The rewrite
protocol's system message holds nothing that changes during a chat (the
document, its sources and the selection go with the user's message, chat.attach),
so a server's prompt cache keeps it and the tools after it.
"""

from typing import List, Optional, Sequence, Tuple

from marginalia.config import Settings
from marginalia.document.tool_specs import EDIT_RULES
from marginalia.i18n.languages import english_name

SYSTEM_PROMPT = (
    "You are Marginalia, a writing partner working inside LibreOffice Writer. You help the "
    "user draft, revise, shorten, check and discuss the document they have open.\n"
    "- The document changes only through the document tools: when the user asks for a "
    "change (fix, add, insert, delete, rename, format, rewrite, translate), call the tool "
    "that makes it. Text you write in the chat never goes into the document.\n"
    "- Pick the tool by the job: words, replace_text; bold, italic or colour, format_text; "
    "a paragraph's kind (heading, title, body text), set_paragraph_style; new paragraphs, "
    "insert_paragraphs; rewriting, shortening, merging or reordering paragraphs, "
    "replace_paragraphs (turning them into a table: a markdown table); removing them, "
    "delete_paragraphs; a new table, insert_table; a remark in the margin, add_comment.\n"
    "- Read the part of the text you need before you comment on it or change it, unless "
    "the whole document is shown below. Do not paste the document back into the chat.\n"
    "- Change only what was asked, keep the author's voice and formatting, and say in a "
    "sentence or two what you changed.\n"
    "- When the user wants advice or an answer rather than an edit, reply in the chat and "
    "leave the document alone.\n"
    "- Paragraph numbers move: your own inserts and deletes shift the paragraphs after "
    "them (each result says how), and the user may edit while you work. When you edit by "
    "paragraph number, pass expect with the first words of that paragraph as you read it, "
    "so an edit never lands on the wrong paragraph; if it is refused, read again.\n"
    "- A tool that reports an error changed nothing: call again with the fix it names, or "
    "explain the problem; never say a change was made when it was refused.\n"
    "- Answer in the language of the user's message. Keep chat replies short.")

# The rewrite protocol (tools.REWRITE): the model writes the new lines, Marginalia the edit.
# Short: a local model reads every token of it before its first word (issue 36).
_REWRITE_HEAD = (
    "You are Marginalia, a writing partner in LibreOffice Writer. The user's message comes "
    "with their document as numbered lines ('# ' heading 1, '## ' heading 2, '- ' list "
    "item, **bold**, *italic*).\n")
_REWRITE_TAIL = (
    "- Change only what was asked; then say in one sentence what you changed.\n"
    "- For a question or advice, just answer; do not edit.\n"
    "- A tool that reports an error changed nothing: fix the call or explain.\n"
    "- Answer in the language of the user's message.")
# The edit is written as text, whether the server takes tools or not: asked to call a
# tool with the lines, Qwen2.5-Coder 1.5B copied the document unchanged into it; asked to
# write them, it wrote the changed lines (the eval's transcripts, issue 36).
FENCE = "edit"
REWRITE_PROMPT = _REWRITE_HEAD + (
    "- To change the document, write the changed lines in a block:\n```%s\n2: The "
    "corrected sentence.\n```\n%s Writing outside such a block changes nothing.\n"
    % (FENCE, EDIT_RULES)) + _REWRITE_TAIL

NO_TOOLS_PROMPT = (
    "You are Marginalia, a writing partner working inside LibreOffice Writer. Help the user "
    "draft, revise and discuss their document. You cannot edit the document in this session: "
    "give suggestions the user can apply. Answer in the language of the user's message and "
    "keep replies short.")

SOURCES_PROMPT = (
    "The user gave this chat sources to draw on: %s. Find what you need in them with "
    "search_sources and read on with read_source. When you use a source, cite the passage by "
    "the key its result shows, like [1], right after the claim; quote only words that are in "
    "the passage, exactly, in quotation marks; never invent a citation. Text you take from a "
    "source into the document goes in through the document tools, as any edit.")
WHOLE_SOURCES = "The sources are short, so here they are whole, each passage under its key:\n"

# The chat prompts' language rule, and what the answer-language setting puts in its place.
USERS_LANGUAGE = "Answer in the language of the user's message."
DOCUMENTS_LANGUAGE = ("Answer in the document's language (%s), whatever language the user "
                      "writes in.")
FIXED_LANGUAGE = "Answer in %s, whatever language the user writes in."


def language_rule(setting: str, document_language: Optional[str] = None) -> str:
    """The sentence telling the model which language to answer in: the user's message's
    (""), the document's ("document"; the user's when the document's is not known: the
    office side passes it, or resolves the setting to the document's tag before the turn),
    or a fixed one (a tag, or a name the user typed)."""
    setting = (setting or "").strip()
    if setting == "document":
        name = english_name(document_language or "")
        return DOCUMENTS_LANGUAGE % name if name else USERS_LANGUAGE
    if not setting:
        return USERS_LANGUAGE
    return FIXED_LANGUAGE % (english_name(setting) or setting)


def sources_section(names: Sequence[Tuple[str, str]], whole: str = "",
                    told: Optional[str] = None) -> str:
    """What the system message says about the chat's sources: (id, name) of each, the
    whole text when it fits, and ``told``: what the last answer quoted wrongly."""
    parts = [SOURCES_PROMPT % ", ".join("%s (%s)" % (name, ident) for ident, name in names)]
    if whole.strip():
        parts.append(WHOLE_SOURCES + whole.strip())
    if told:
        parts.append("About your last answer: " + told)
    return "\n\n".join(parts)


def system_prompt(settings: Settings, context: Optional[str] = None,
                  has_tools: bool = True, base: Optional[str] = None,
                  sources: Optional[str] = None, rewrite: bool = False) -> str:
    """The system message text: the base prompt, the user's instructions, the chat's
    sources (sources_section), the document context.

    ``base`` replaces the chat's own prompt (a quick action says what it needs itself, and
    keeps the language of the text it works on, whatever the answer-language setting says).
    ``rewrite``: the rewrite protocol's prompt (its edit written as a fenced block, tools
    or not); its context and sources go with the user's message instead.
    """
    if base:
        first = base
    else:
        if rewrite:
            chosen = REWRITE_PROMPT
        else:
            chosen = SYSTEM_PROMPT if has_tools else NO_TOOLS_PROMPT
        first = chosen.replace(
            USERS_LANGUAGE.rstrip("."),
            language_rule(settings.answer_language).rstrip("."))
    parts: List[str] = [first]
    extra = (settings.extra_instructions or "").strip()
    if extra:
        parts.append("Instructions from the user, to follow in every answer:\n" + extra)
    if sources and has_tools:
        parts.append(sources)
    if context and context.strip():
        parts.append("The document right now:\n" + context.strip())
    return "\n\n".join(parts)

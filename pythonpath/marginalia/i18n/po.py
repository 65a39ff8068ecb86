"""gettext .po files read, and .mo files written (pure; build.py and the tests use it).

Only what gettext's catalogs hold: msgctxt, msgid, msgid_plural, msgstr and msgstr[N],
strings continued over several lines, C escapes. An entry marked fuzzy, or not yet
translated, is left out of the .mo, so the user sees the English text rather than a guess.
"""

import ast
import struct
from typing import Dict, List, NamedTuple, Optional, Tuple

CONTEXT_GLUE = "\x04"       # gettext's key for a text with a context: context EOT msgid


class Entry(NamedTuple):
    msgid: str
    context: Optional[str] = None
    plural: Optional[str] = None
    strings: Tuple[str, ...] = ()       # msgstr, or msgstr[0], msgstr[1]...
    fuzzy: bool = False
    where: Tuple[str, ...] = ()         # "#: file:line" references

    @property
    def key(self) -> Tuple[Optional[str], str]:
        return self.context, self.msgid

    @property
    def translated(self) -> bool:
        return bool(self.strings) and all(self.strings) and not self.fuzzy


class PoError(ValueError):
    """A line of a .po file that cannot be read; says the file's line."""


def _unquote(text: str, line_no: int) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise PoError("line %d: a quoted string was expected" % line_no)
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        raise PoError("line %d: the string cannot be read" % line_no) from None


def parse(text: str) -> List[Entry]:
    """The entries of a .po file's text, the header (msgid "") included."""
    entries = []
    fields: Dict[str, str] = {}
    flags: List[str] = []
    where: List[str] = []
    current = None

    def finish():
        if "msgid" in fields:
            plural = fields.get("msgid_plural")
            if plural is None:
                strings = (fields.get("msgstr", ""),)
            else:
                count = 1 + max([int(k[7:-1]) for k in fields if k.startswith("msgstr[")] or [0])
                strings = tuple(fields.get("msgstr[%d]" % i, "") for i in range(count))
            entries.append(Entry(fields["msgid"], fields.get("msgctxt"), plural, strings,
                                 "fuzzy" in flags, tuple(where)))
        fields.clear()
        del flags[:], where[:]

    for line_no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if current is not None and "msgid" in fields:
                finish()
                current = None
            if line.startswith("#,"):
                flags.extend(f.strip() for f in line[2:].split(","))
            elif line.startswith("#:"):
                where.extend(line[2:].split())
            continue
        if line.startswith('"'):
            if current is None:
                raise PoError("line %d: a continued string with nothing before it" % line_no)
            fields[current] += _unquote(line, line_no)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword not in ("msgctxt", "msgid", "msgid_plural", "msgstr") \
                and not (keyword.startswith("msgstr[") and keyword.endswith("]")):
            raise PoError("line %d: unknown keyword %r" % (line_no, keyword))
        if keyword in ("msgctxt", "msgid") and ("msgstr" in fields or any(
                k.startswith("msgstr[") for k in fields)):
            finish()
        if keyword == "msgid" and "msgid" in fields:
            raise PoError("line %d: msgid twice in one entry" % line_no)
        fields[keyword] = _unquote(rest, line_no)
        current = keyword
    finish()
    return entries


def header_field(entries: List[Entry], name: str) -> Optional[str]:
    """A field of the header entry ("Plural-Forms", "Language"), or None."""
    for entry in entries:
        if entry.msgid == "" and entry.context is None and entry.strings:
            for line in entry.strings[0].split("\n"):
                key, _, value = line.partition(":")
                if key.strip().lower() == name.lower():
                    return value.strip()
    return None


def to_mo(entries: List[Entry]) -> bytes:
    """A GNU .mo file of the translated entries (and the header), as gettext reads it."""
    pairs = []
    for entry in entries:
        if entry.msgid == "" and entry.context is None:
            pairs.append(("", entry.strings[0] if entry.strings else ""))
            continue
        if not entry.translated:
            continue
        key = entry.msgid if entry.plural is None else entry.msgid + "\0" + entry.plural
        if entry.context is not None:
            key = entry.context + CONTEXT_GLUE + key
        pairs.append((key, "\0".join(entry.strings)))
    pairs.sort(key=lambda pair: pair[0].encode("utf-8"))
    keys = [k.encode("utf-8") for k, _ in pairs]
    values = [v.encode("utf-8") for _, v in pairs]
    count = len(pairs)
    keys_start = 7 * 4
    values_start = keys_start + count * 8
    data_start = values_start + count * 8
    table, data = [], b""
    for blob in keys + values:
        table.append((len(blob), data_start + len(data)))
        data += blob + b"\0"
    head = struct.pack("<7I", 0x950412DE, 0, count, keys_start, values_start, 0, 0)
    return head + b"".join(struct.pack("<2I", n, at) for n, at in table) + data


def quote(text: str) -> str:
    """A string as a .po file writes it: escaped, a long text with line breaks continued
    over several lines."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    if "\n" not in escaped:
        return '"%s"' % escaped
    lines = escaped.split("\n")
    parts = ['""'] + ['"%s\\n"' % line for line in lines[:-1]]
    if lines[-1]:
        parts.append('"%s"' % lines[-1])
    return "\n".join(parts)


def dump(entries: List[Entry]) -> str:
    """The text of a .po file (or template) holding ``entries``, the header first."""
    out = []
    for entry in entries:
        out.extend("#: " + where for where in entry.where)
        if entry.fuzzy:
            out.append("#, fuzzy")
        if entry.context is not None:
            out.append("msgctxt " + quote(entry.context))
        out.append("msgid " + quote(entry.msgid))
        strings = entry.strings or ("",)
        if entry.plural is not None:
            out.append("msgid_plural " + quote(entry.plural))
            out.extend("msgstr[%d] %s" % (i, quote(text)) for i, text in enumerate(strings))
        else:
            out.append("msgstr " + quote(strings[0]))
        out.append("")
    return "\n".join(out)

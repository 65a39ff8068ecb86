"""The package's own files in every language (pure; build.py calls it).

Menus, the sidebar's deck and the Options tree are named in the .xcu files; LibreOffice
picks the value whose xml:lang matches its UI language, so each English value gets its
translations beside it at build time. description.xml gets a name and a description file
per language for the Extension Manager. The dialogs (.xdl) are translated when the page
opens (office.dialog_words), since an Options page has one file for every language.
"""

import re
from typing import Callable, Dict, List, Optional, Tuple
from xml.sax.saxutils import escape, unescape

# A lookup per language: the translation of an English text, or None.
Lookup = Callable[[str], Optional[str]]

_XCU_VALUE = re.compile(r'(?P<indent>[ \t]*)(?P<head>.*?)<value xml:lang="en-US">'
                        r'(?P<text>[^<]*)</value>(?P<tail>.*)')
_NAME = re.compile(r'(?P<indent>[ \t]*)<name lang="en">(?P<text>[^<]*)</name>')
_SRC = re.compile(r'(?P<indent>[ \t]*)<src lang="en" xlink:href="description/'
                  r'description-en.txt"/>')


def lang_attribute(catalog_name: str) -> str:
    """A catalog's name as an xml:lang value: pt_BR -> pt-BR, sr@latn -> sr-Latn."""
    name, _, script = catalog_name.partition("@")
    tag = name.replace("_", "-")
    if script:
        language, _, region = tag.partition("-")
        tag = language + "-" + script.title() + ("-" + region if region else "")
    return tag


def xcu_texts(text: str) -> List[Tuple[str, int]]:
    """(English text, line) of every value a user sees in an .xcu file."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        match = _XCU_VALUE.match(line)
        if match:
            out.append((unescape(match.group("text")), number))
    return out


def localize_xcu(text: str, lookups: Dict[str, Lookup]) -> str:
    """``text`` with each English value followed by its translations (same place in the
    tree: a value on a line of its own gets lines of its own, a one-line prop gets a
    value each inside it)."""
    out = []
    for line in text.splitlines():
        match = _XCU_VALUE.match(line)
        if not match:
            out.append(line)
            continue
        english = unescape(match.group("text"))
        extra = "".join('<value xml:lang="%s">%s</value>' % (lang_attribute(name),
                                                             escape(found))
                        for name, lookup in sorted(lookups.items())
                        for found in [lookup(english)] if found)
        head, tail = match.group("indent") + match.group("head"), match.group("tail")
        out.append('%s<value xml:lang="en-US">%s</value>%s%s'
                   % (head, match.group("text"), extra, tail))
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def description_text(raw: str) -> str:
    """The Extension Manager's description as one paragraph: the catalog's text (the
    English file is wrapped for the repository, a translation need not be)."""
    return " ".join(raw.split())


def localize_description(text: str, description: str,
                         lookups: Dict[str, Lookup]) -> Tuple[str, Dict[str, str]]:
    """description.xml with the extension's name and description in every language a
    catalog translates them to: (the new text, {archive path: description}) for the
    description files it names."""
    files = {}
    out = []
    in_display_name = False
    for line in text.splitlines():
        out.append(line)
        if "<display-name>" in line:
            in_display_name = True
        elif "</display-name>" in line:
            in_display_name = False
        name, src = _NAME.match(line), _SRC.match(line)
        if name and in_display_name:
            english = unescape(name.group("text"))
            for catalog, lookup in sorted(lookups.items()):
                found = lookup(english)
                if found:
                    out.append('%s<name lang="%s">%s</name>' % (
                        name.group("indent"), lang_attribute(catalog), escape(found)))
        elif src:
            for catalog, lookup in sorted(lookups.items()):
                found = lookup(description_text(description))
                if found:
                    tag = lang_attribute(catalog)
                    path = "description/description-%s.txt" % tag
                    files[path] = found + "\n"
                    out.append('%s<src lang="%s" xlink:href="%s"/>'
                               % (src.group("indent"), tag, path))
    return "\n".join(out) + ("\n" if text.endswith("\n") else ""), files


def display_name(text: str) -> Optional[str]:
    """The extension's English name in description.xml."""
    match = re.search(r'<display-name>\s*<name lang="en">([^<]*)</name>', text)
    return unescape(match.group(1)) if match else None


_XDL_ATTRIBUTE = re.compile(r'dlg:(?:value|help-text|title)="([^"]*)"')


def xdl_texts(text: str) -> List[Tuple[str, int]]:
    """(English text, line) of every label, tooltip and title in a dialog (.xdl)."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        for match in _XDL_ATTRIBUTE.finditer(line):
            value = unescape(match.group(1), {"&quot;": '"', "&apos;": "'"})
            if value.strip():
                out.append((value, number))
    return out


def compile_catalogs(folder: str) -> Tuple[List[Tuple[str, bytes]], Dict[str, Lookup]]:
    """Each ``folder``/*.po compiled: ([(archive path of its .mo, bytes)], {catalog name:
    lookup of its translated texts without a context}). A file that cannot be read raises
    po.PoError naming its line."""
    import os
    from marginalia.i18n import po
    blobs, lookups = [], {}
    names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    for name in names:
        if not name.endswith(".po"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as fh:
            try:
                entries = po.parse(fh.read())
            except po.PoError as error:
                raise po.PoError("%s: %s" % (name, error)) from None
        blobs.append(("locale/%s.mo" % name[:-3], po.to_mo(entries)))
        table = {e.msgid: e.strings[0] for e in entries
                 if e.msgid and e.context is None and e.plural is None and e.translated}
        lookups[name[:-3]] = table.get
    return blobs, lookups


def localize_files(files: Dict[str, bytes], description: str,
                   lookups: Dict[str, Lookup]) -> Dict[str, bytes]:
    """The archive's files (path -> bytes) with .xcu values and description.xml in every
    language, plus the description files that names."""
    out = dict(files)
    for path, data in files.items():
        if path.endswith(".xcu"):
            out[path] = localize_xcu(data.decode("utf-8"), lookups).encode("utf-8")
        elif path == "description.xml":
            text, extra = localize_description(data.decode("utf-8"), description, lookups)
            out[path] = text.encode("utf-8")
            out.update((name, body.encode("utf-8")) for name, body in extra.items())
    return out

"""Every user-visible string, found in the source (pure; build.py `pot` and the tests).

A string is user-visible when it is the literal argument of tr(), trn(), trc() or N_(),
or the text of a phrase() or phrase_n() (i18n.phrase, a sentence kept as data):
the extraction reads the code with ast, so a string built at run time cannot be in a
catalog, and the check that every string is translated names its file and line.
"""

import ast
import os
from typing import Dict, Iterable, List, Optional, Tuple

from marginalia.i18n import po
from marginalia.i18n.po import Entry

# function name: (index of the context, of the text, of the plural) among its arguments
MARKERS = {"tr": (None, 0, None), "N_": (None, 0, None), "trn": (None, 0, 1),
           "trc": (0, 1, None), "phrase": (None, 0, None), "phrase_n": (None, 0, 1)}


def _literal(node) -> Optional[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):     # "a" "b" + "c"
        left, right = _literal(node.left), _literal(node.right)
        if left is not None and right is not None:
            return left + right
    return None


def _name(func) -> Optional[str]:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def from_source(source: str, where: str) -> Tuple[List[Entry], List[str]]:
    """(entries, problems) of one file: a marker called without a literal is a problem."""
    entries, problems = [], []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        if name not in MARKERS:
            continue
        context_at, text_at, plural_at = MARKERS[name]
        args = node.args
        needed = max(i for i in (context_at, text_at, plural_at) if i is not None)
        values = [_literal(a) for a in args[:needed + 1]]
        line = "%s:%d" % (where, node.lineno)
        if len(values) <= needed or any(v is None for v in values):
            if name in ("tr", "trn") and len(args) > needed and all(
                    isinstance(a, (ast.Name, ast.Attribute, ast.Subscript))
                    for a in args[:needed + 1]):
                continue      # tr(a constant, a table's N_-marked label, a phrase's text)
            problems.append("%s: %s() needs literal strings to be found" % (line, name))
            continue
        entries.append(Entry(values[text_at],
                             values[context_at] if context_at is not None else None,
                             values[plural_at] if plural_at is not None else None,
                             where=(line,)))
    return entries, problems


def python_files(root: str) -> Iterable[str]:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            if name.endswith(".py"):
                yield os.path.join(dirpath, name)


def collect(paths: Iterable[str], base: str) -> Tuple[List[Entry], List[str]]:
    """Entries of all ``paths`` merged by (context, text), each with all its places."""
    found: List[Entry] = []
    problems: List[str] = []
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            entries, trouble = from_source(fh.read(), os.path.relpath(path, base))
        problems.extend(trouble)
        found.extend(entries)
    return merge(found), problems


def _place(entry: Entry):
    path, _, line = entry.where[0].rpartition(":")
    return path, int(line), entry.msgid


def package_entries(root: str) -> List[Entry]:
    """The strings of the package's own files: .xcu values, .xdl labels, the extension's
    name and description (i18n.package puts their translations in at build time)."""
    from marginalia.i18n import package
    found = []
    folders = (("extension/registry", ".xcu", package.xcu_texts),
               ("dialogs", ".xdl", package.xdl_texts))
    for folder, suffix, read in folders:
        for name in sorted(os.listdir(os.path.join(root, folder))):
            if name.endswith(suffix):
                with open(os.path.join(root, folder, name), encoding="utf-8") as fh:
                    for text, line in read(fh.read()):
                        found.append(Entry(text, where=("%s/%s:%d" % (folder, name, line),)))
    with open(os.path.join(root, "description.xml"), encoding="utf-8") as fh:
        name = package.display_name(fh.read())
    if name:
        found.append(Entry(name, where=("description.xml:1",)))
    with open(os.path.join(root, "extension", "description", "description-en.txt"),
              encoding="utf-8") as fh:
        found.append(Entry(package.description_text(fh.read()),
                           where=("extension/description/description-en.txt:1",)))
    return found


def template(root: str) -> Tuple[List[Entry], List[str]]:
    """Every user-visible string of the extension (code and package files), merged."""
    code_root = os.path.join(root, "pythonpath")
    entries, problems = collect(python_files(code_root), root)
    entries.extend(package_entries(root))
    return merge(entries), problems


def merge(entries: List[Entry]) -> List[Entry]:
    merged: Dict[Tuple[Optional[str], str], Entry] = {}
    for entry in entries:
        old = merged.get(entry.key)
        merged[entry.key] = entry if old is None else old._replace(
            where=old.where + entry.where, plural=old.plural or entry.plural)
    return sorted(merged.values(), key=_place)


def to_pot(entries: List[Entry]) -> str:
    """The template every catalog is made from (no dates: the file is reproducible)."""
    return po.dump([Entry("", strings=("Content-Type: text/plain; charset=UTF-8\n",))] +
                   [e._replace(strings=("", "") if e.plural is not None else ("",))
                    for e in entries])

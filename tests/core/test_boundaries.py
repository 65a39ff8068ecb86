"""The package's boundaries, read from the source (no module is imported).

Pure modules (the shared vocabulary, chat/, document/, ui/) never import `uno`,
`unohelper`, `com.sun.star` or a module of office/, writer/ or cli/, directly or
through another module: they must import on any Python, LibreOffice or not. The
document tools (writer/) never reach office/, ui/ or cli/: the layers above them.
And no two modules import each other, directly or round a loop: a cycle makes
the import order matter and hides which module owns what.

Every import statement counts, also those inside functions (they run sooner or
later), relative or absolute; `from package import name` counts as importing
the module `package.name` when there is one. Importing `a.b.c` also runs the
packages `a` and `a.b`. Imports through a constant string
(`importlib.import_module("x")`) count too; computed names cannot be seen.
"""

import ast
import os
from typing import Dict, Iterator, List, Optional, Set, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Folders whose .py files are importable by dotted path from the folder itself.
SOURCE_ROOTS = (os.path.join(ROOT, "pythonpath"), os.path.join(ROOT, "vendor"))

# "name" is that module, "name.*" every module below it.
PURE = ("marginalia", "marginalia.events", "marginalia.errors", "marginalia.config",
        "marginalia.threads", "marginalia.policy", "marginalia.prompt_library",
        "marginalia.chat", "marginalia.chat.*", "marginalia.document", "marginalia.document.*",
        "marginalia.ui", "marginalia.ui.*", "marginalia.eval", "marginalia.eval.*",
        "marginalia.mcp", "marginalia.mcp.*", "marginalia.sources", "marginalia.sources.*",
        "marginalia.i18n", "marginalia.i18n.*")
UNO_SIDE = ("uno", "unohelper", "com.sun.star", "com.sun.star.*",
            "marginalia.office", "marginalia.office.*", "marginalia.writer",
            "marginalia.writer.*", "marginalia.cli", "marginalia.cli.*")
# The document tools (writer/) sit under what drives them: the office glue (the panel,
# the pages, the agents' host, the jobs), the panel's words and layout (ui/) and the
# runners outside the office never come into them, directly or through another module.
WRITER = ("marginalia.writer", "marginalia.writer.*")
ABOVE_WRITER = ("marginalia.office", "marginalia.office.*", "marginalia.ui", "marginalia.ui.*",
                "marginalia.cli", "marginalia.cli.*")


class Graph:
    """Modules found under the source roots and what each imports (internal or not)."""

    def __init__(self) -> None:
        self.packages: Set[str] = set()
        self.edges: Dict[str, Set[str]] = {}      # module -> modules it imports

    @property
    def modules(self) -> Set[str]:
        return set(self.edges)


def _modules_under(roots) -> Iterator[Tuple[str, str, bool]]:
    """(dotted name, path, is_package) for every .py under the roots."""
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in sorted(filenames):
                if not name.endswith(".py"):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, name), root)[:-3]
                parts = rel.split(os.sep)
                is_package = parts[-1] == "__init__"
                if is_package:
                    parts = parts[:-1]
                yield ".".join(parts), os.path.join(dirpath, name), is_package


def _named_imports(tree: ast.AST, module: str, is_package: bool) -> Iterator[Tuple[str, str]]:
    """(imported module, name within it or "") for every import anywhere in the tree."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, ""
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".") if package else []
                parts = parts[:len(parts) - (node.level - 1)]
                base = ".".join(parts + ([base] if base else []))
            for alias in node.names:
                yield base, alias.name
        elif isinstance(node, ast.Call) and _string_import(node):
            yield _string_import(node), ""


def _string_import(call: ast.Call) -> Optional[str]:
    func = call.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    if name in ("__import__", "import_module") and call.args:
        first = call.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value
    return None


def _with_parents(name: str) -> List[str]:
    parts = name.split(".")
    return [".".join(parts[:n]) for n in range(1, len(parts) + 1)]


def build_graph(roots=SOURCE_ROOTS) -> Graph:
    graph = Graph()
    found = list(_modules_under(roots))
    for module, _, is_package in found:
        graph.edges[module] = set()
        if is_package:
            graph.packages.add(module)
    for module, path, is_package in found:
        with open(path, "rb") as handle:
            tree = ast.parse(handle.read(), filename=path)
        # A module's own parent packages have run before it: not imports it makes.
        own_parents = set(_with_parents(module)[:-1])
        for base, name in _named_imports(tree, module, is_package):
            target = base + "." + name if name and base + "." + name in graph.edges else base
            if target not in graph.edges:
                graph.edges[module].add(target)     # outside the roots: kept by its full name
                continue
            for step in _with_parents(target):
                if step != module and step not in own_parents:
                    graph.edges[module].add(step)
    return graph


def _matches(module: str, patterns) -> bool:
    return any(module.startswith(p[:-1]) if p.endswith(".*") else module == p for p in patterns)


def forbidden_paths(graph: Graph, pure=PURE, forbidden=UNO_SIDE) -> List[str]:
    """For each pure module reaching a forbidden one, a shortest chain "a -> b -> uno"."""
    found = []
    for start in sorted(m for m in graph.modules if _matches(m, pure)):
        came_from: Dict[str, Optional[str]] = {start: None}
        queue = [start]
        hit = None
        while queue and hit is None:
            module = queue.pop(0)
            # Longest names first, so a chain names "x.office.panel" rather than "x.office".
            for target in sorted(graph.edges.get(module, ()), reverse=True):
                if target in came_from:
                    continue
                came_from[target] = module
                if _matches(target, forbidden):
                    hit = target
                    break
                queue.append(target)
        if hit is not None:
            chain = [hit]
            while came_from[chain[-1]] is not None:
                chain.append(came_from[chain[-1]])
            found.append(" -> ".join(reversed(chain)))
    return found


def cycles(graph: Graph) -> List[List[str]]:
    """Groups of internal modules that import each other round a loop (Tarjan's SCCs)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    groups: List[List[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph.edges[module]):
            if target not in graph.edges:
                continue
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for module in sorted(graph.edges):
        if module not in index:
            visit(module)
    return groups


# ---------------------------------------------------------------- the package


def test_the_graph_sees_the_package_and_its_imports():
    graph = build_graph()
    for module in ("marginalia", "marginalia.chat.loop", "marginalia.document.docview",
                   "marginalia.writer.toolbox", "deltamerge"):
        assert module in graph.modules
    assert "marginalia.chat" in graph.packages

    def imported_by(prefix):
        return set().union(*(graph.edges[m] for m in graph.modules if m.startswith(prefix)))
    assert {"uno", "unohelper"} <= imported_by("marginalia.office.")
    # Parent packages of an import run too; a module's own parents are not its imports.
    assert {"marginalia.document", "marginalia.document.markdown"} <= imported_by(
        "marginalia.writer.")
    assert "marginalia.document" not in graph.edges["marginalia.document.markdown"]


def test_pure_modules_never_reach_uno_or_the_office_side():
    paths = forbidden_paths(build_graph())
    assert paths == [], "pure modules reaching the office side:\n  " + "\n  ".join(paths)


def test_the_document_tools_never_reach_the_office_glue_the_ui_or_the_runners():
    paths = forbidden_paths(build_graph(), WRITER, ABOVE_WRITER)
    assert paths == [], "writer/ reaching what is above it:\n  " + "\n  ".join(paths)


def test_no_import_cycles():
    found = cycles(build_graph())
    assert found == [], "modules importing each other:\n  " + "\n  ".join(
        " <-> ".join(group) for group in found)


# ---------------------------------------------------------------- the checker itself


def _tree(tmp_path, files: Dict[str, str]):
    for rel, source in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    return build_graph([str(tmp_path)])


PACKAGES = {"marginalia/__init__.py": "", "marginalia/chat/__init__.py": "",
            "marginalia/office/__init__.py": "", "marginalia/document/__init__.py": ""}


def test_checker_catches_uno_reached_through_another_module(tmp_path):
    graph = _tree(tmp_path, dict(PACKAGES, **{
        "marginalia/chat/loop.py": "from marginalia.chat import helper\n",
        "marginalia/chat/helper.py": "from .. import config\n",
        "marginalia/config.py": "def load():\n    import uno\n",
    }))
    assert forbidden_paths(graph) == [
        "marginalia.chat.helper -> marginalia.config -> uno",
        "marginalia.chat.loop -> marginalia.chat.helper -> marginalia.config -> uno",
        "marginalia.config -> uno"]


def test_checker_catches_a_pure_module_importing_the_office_side(tmp_path):
    graph = _tree(tmp_path, dict(PACKAGES, **{
        "marginalia/document/view.py": "import marginalia.office.panel as p\n",
        "marginalia/office/panel.py": "",
        "marginalia/ui.py": "from com.sun.star.awt import Rectangle\n",
        "marginalia/events.py": "import importlib\nimportlib.import_module('unohelper')\n",
    }))
    assert forbidden_paths(graph) == [
        "marginalia.document.view -> marginalia.office.panel",
        "marginalia.events -> unohelper",
        "marginalia.ui -> com.sun.star.awt"]


def test_checker_catches_a_cycle_through_a_function_level_import(tmp_path):
    graph = _tree(tmp_path, dict(PACKAGES, **{
        "marginalia/office/a.py": "from marginalia.office import b\n",
        "marginalia/office/b.py": "from . import c\n",
        "marginalia/office/c.py": "def later():\n    from .a import thing\n",
        "marginalia/office/d.py": "from marginalia.office import a\n",
    }))
    assert cycles(graph) == [["marginalia.office.a", "marginalia.office.b",
                              "marginalia.office.c"]]


def test_checker_passes_a_clean_tree(tmp_path):
    graph = _tree(tmp_path, dict(PACKAGES, **{
        "marginalia/chat/loop.py": "import json\nfrom marginalia.chat.sse import parse\n",
        "marginalia/chat/sse.py": "from ..document import view\n",
        "marginalia/document/view.py": "import re\n",
        "marginalia/office/panel.py": "import uno\nfrom marginalia.chat import loop\n",
    }))
    assert forbidden_paths(graph) == []
    assert cycles(graph) == []
    assert graph.edges["marginalia.chat.sse"] == {"marginalia.document",
                                                  "marginalia.document.view"}

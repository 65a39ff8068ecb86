"""The Writer function of each declared tool (document.tool_specs): one per declaration.

A tool module marks its function with ``@binds(name)``; the toolbox imports the
tool modules, so by the time it registers tools every declaration has its
function (``check`` says which has none). Edit functions take the document,
the call's arguments and ``plan=`` (writer.plan: the target found before the
call; None when they run outside a turn, as Apply does). Main thread.
"""

from typing import Any, Callable, Dict, Optional

from marginalia.document import tool_specs
from marginalia.document.tool_specs import ATTRIBUTES, BY_DOCUMENT, NUMBERS, ToolSpec

_FUNCTIONS: Dict[str, Callable[..., Any]] = {}
# BY_DOCUMENT tools: which map they need for a document (True attributes, False
# numbering only, None none).
_MAP_NEEDS: Dict[str, Callable[[Any], Optional[bool]]] = {}


def binds(name: str, map_need: Optional[Callable[[Any], Optional[bool]]] = None):
    """Decorator: ``fn`` is the Writer function of the declared tool ``name``."""
    declared = tool_specs.spec(name)
    if declared is None:
        raise ValueError("no tool %r is declared in document.tool_specs" % name)
    if (declared.reads == BY_DOCUMENT) != (map_need is not None):
        raise ValueError("tool %r: map_need goes with reads=BY_DOCUMENT" % name)

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        if name in _FUNCTIONS:
            raise ValueError("tool %r bound twice" % name)
        _FUNCTIONS[name] = fn
        if map_need is not None:
            _MAP_NEEDS[name] = map_need
        return fn
    return register


def function(name: str) -> Callable[..., Any]:
    """The function bound to tool ``name`` (KeyError when none is)."""
    return _FUNCTIONS[name]


def check() -> None:
    """Raise when a declared tool has no function: a tool half added."""
    # A LINES tool (edit) is the toolbox's own: it makes its edit by the block tools.
    missing = [s.name for s in tool_specs.SPECS
               if s.name not in _FUNCTIONS and s.target != tool_specs.LINES]
    if missing:
        raise RuntimeError("declared tools without a Writer function: %s" % ", ".join(missing))


def map_need(declared: ToolSpec, doc: Any) -> Optional[bool]:
    """The reading map a call needs: True with attributes, False numbering only, None none."""
    if declared.reads == ATTRIBUTES:
        return True
    if declared.reads == NUMBERS:
        return False
    if declared.reads == BY_DOCUMENT:
        return _MAP_NEEDS[declared.name](doc)
    return None

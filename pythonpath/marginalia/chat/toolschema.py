"""Tool schemas a provider refuses, and the servers known to refuse them.

Gemini (and gateways in front of it) accept only part of JSON Schema in a
tool's parameters: it answers 400 ``Invalid JSON payload received. Unknown
name "additionalProperties"`` (also for ``$schema``, ``default`` and
``title``) to schemas that OpenAI, Mistral, Ollama and llama.cpp take. The
transport then resends once with those keywords stripped, and remembers the
server for the rest of the process so later requests send the stripped form
first. Pure: no I/O; the memory is a set guarded by a lock.
"""

import threading
from typing import Any, Dict, List, Optional, Set, Tuple

REFUSED_KEYWORDS = frozenset(("additionalProperties", "$schema", "default", "title"))
# Keywords whose value maps names to schemas: a property may well be called "title".
_NAME_MAPS = frozenset(("properties", "patternProperties", "$defs", "definitions",
                        "dependentSchemas"))
# Keywords whose value is data, not a schema: kept exactly as written.
_DATA = frozenset(("enum", "const", "examples"))

# (scheme, host, port, base path): one server, as the transport addresses it.
ServerKey = Tuple[str, str, int, str]

_refusing: Set[ServerKey] = set()
_lock = threading.Lock()


def strip_schema(schema: Any) -> Any:
    """A copy of ``schema`` without the refused keywords, at every depth."""
    return _without(schema, REFUSED_KEYWORDS)


def _without(schema: Any, keywords: Any) -> Any:
    """A copy of ``schema`` without ``keywords`` at every depth (property names and data kept)."""
    if isinstance(schema, list):
        return [_without(item, keywords) for item in schema]
    if not isinstance(schema, dict):
        return schema
    stripped = {}
    for key, value in schema.items():
        if key in keywords:
            continue
        if key in _DATA:
            stripped[key] = value
        elif key in _NAME_MAPS and isinstance(value, dict):
            stripped[key] = {name: _without(sub, keywords) for name, sub in value.items()}
        else:
            stripped[key] = _without(value, keywords)
    return stripped


def strip_tools(body: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """The request body with every tool's parameters stripped; None when nothing changes."""
    tools = body.get("tools")
    if not isinstance(tools, list):
        return None
    changed = []
    for tool in tools:
        function = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(function, dict) and "parameters" in function:
            function = dict(function, parameters=strip_schema(function["parameters"]))
            tool = dict(tool, function=function)
        changed.append(tool)
    return None if changed == tools else dict(body, tools=changed)


def remember_refusal(server: ServerKey) -> None:
    """Note that ``server`` refuses the keywords, for every later request in this process."""
    with _lock:
        _refusing.add(server)


def refuses_keywords(server: ServerKey) -> bool:
    """True when ``server`` refused the keywords earlier in this process."""
    with _lock:
        return server in _refusing


def _first_sentence(text: str) -> str:
    text = " ".join((text or "").split())
    end = text.find(". ")
    return text[:end + 1] if 0 <= end < 160 else text[:160]


def compact_tools(tools: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """The tools with one-sentence descriptions and none on their parameters.

    For a small context window: the full schemas take about 2,000 tokens,
    half of the 4,096 Ollama loads a model with by default.
    """
    out = []
    for tool in tools:
        function = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(function, dict):
            function = dict(function, description=_first_sentence(function.get("description")),
                            parameters=_without(function.get("parameters") or {},
                                                ("description",)))
            tool = dict(tool, function=function)
        out.append(tool)
    return out

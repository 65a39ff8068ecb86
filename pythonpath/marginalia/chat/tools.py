"""Tool registry: plain functions with declared JSON schemas, called by name.

The turn loop only knows ``schemas()`` and ``call()``. Whatever goes wrong
inside a call becomes an error *result* for the model, never an exception;
only cancellation escapes, so Stop ends the turn. Who is to blame decides the
wording: an unknown tool, arguments that are not JSON, or arguments that do
not fit the function's signature (checked with ``inspect.Signature.bind``
*before* the call) are the model's mistakes and say so; a ToolError is the
tool refusing; any other exception, a ``TypeError`` included, is a bug in the
tool: logged with its traceback and reported to the model as a failure in one
plain sentence (never the exception's own text).

A tool's signature is read from ``Tool.fn``, so a wrapper must expose the
real one (``functools.partial``, or ``functools.wraps`` minus what it adds).
"""

import inspect
import json
import logging
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Union

from marginalia.document import tool_lines
from marginalia.errors import Cancelled, ToolError
from marginalia.i18n.phrase import Phrase

log = logging.getLogger("marginalia.chat.tools")

Schema = Dict[str, Any]

FAULT = ("Error: %s failed because of a fault inside Marginalia, not in the arguments; "
         "nothing more can be said here.")


@dataclass
class ToolOutput:
    """What a tool returns when it wants a panel line besides its result; ``record`` holds
    facts for the edit's change record (where it landed, how numbers moved), not sent to
    the model."""

    result: Any
    summary: Union[None, str, Phrase] = None     # a Phrase reads in the user's language
    record: Dict[str, Any] = field(default_factory=dict)


@dataclass
class ToolResult:
    """The outcome of one call: ``content`` goes to the model, ``summary`` (English) to
    the log and the runner, ``phrase`` (when the tool wrote one) to the panel."""

    ok: bool
    content: str
    summary: str = field(repr=False)
    phrase: Optional[Phrase] = field(default=None, repr=False)


@dataclass
class Tool:
    """One registered tool; ``edits`` marks the ones that change the document."""

    name: str
    description: str
    parameters: Schema
    fn: Callable[..., Any]
    edits: bool = False
    sized: bool = False      # takes ``budget``: the characters its answer may hold
    action: str = tool_lines.DO_THAT    # what it does, as "Couldn't …" finishes it (a msgid)


Invoke = Callable[[Tool, Dict[str, Any]], Any]


def parse_arguments(arguments: Union[None, str, Mapping[str, Any]]) -> Dict[str, Any]:
    """Decode a tool call's arguments; ``""``, ``"null"`` and None mean ``{}``."""
    if arguments is None:
        return {}
    if isinstance(arguments, Mapping):
        return dict(arguments)
    text = arguments.strip()
    if text in ("", "null"):
        return {}
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise ToolError("The arguments are not valid JSON (%s)." % exc.args[0].split(":")[0],
                        tool_lines.did_not_fit_request())
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ToolError("The arguments must be a JSON object.", tool_lines.did_not_fit_request())
    return value


def argument_problem(tool: Tool, kwargs: Mapping[str, Any]) -> Optional[str]:
    """Why ``kwargs`` do not fit the tool's signature, in words for the model (not
    Python's: "got an unexpected keyword argument" is no sentence to act on), or None."""
    try:
        signature = inspect.signature(tool.fn)
    except (TypeError, ValueError):
        return None      # a callable without a readable signature: nothing to check
    params = signature.parameters
    named = [n for n, p in params.items()
             if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and n != "budget"]
    if not any(p.kind == p.VAR_KEYWORD for p in params.values()):
        unknown = [key for key in kwargs if key not in params or key == "budget"]
        if unknown:
            return "it has no argument %s (its arguments: %s)" % (
                ", ".join("\u201c%s\u201d" % key for key in unknown), ", ".join(named) or "none")
    missing = [n for n in named if params[n].default is params[n].empty and n not in kwargs]
    if missing:
        return "it needs %s" % ", ".join(missing)
    try:
        signature.bind(**kwargs)
    except TypeError:
        return "they do not fit it (its arguments: %s)" % ", ".join(named)
    return None


def _content_of(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _call_directly(tool: Tool, kwargs: Dict[str, Any]) -> Any:
    return tool.fn(**kwargs)


class ToolRegistry:
    """Named tools; ``invoke`` wraps every call (the Writer glue runs it on the main thread)."""

    def __init__(self, invoke: Optional[Invoke] = None) -> None:
        self._tools: Dict[str, Tool] = {}
        self._invoke = invoke or _call_directly

    def register(self, name: str, description: str, parameters: Schema,
                 fn: Callable[..., Any], edits: bool = False, sized: bool = False,
                 action: str = tool_lines.DO_THAT) -> None:
        """Add a tool. ``parameters`` is a JSON schema object; ``edits`` marks document writers;
        ``sized`` ones get ``budget=`` the characters left in the context window (see call);
        ``action`` (a msgid) is what it does, for the user's line when it cannot."""
        if name in self._tools:
            raise ValueError("tool %r registered twice" % name)
        self._tools[name] = Tool(name, description, parameters, fn, edits, sized, action)

    def said(self, name: str, found: Optional[Phrase]) -> Optional[Phrase]:
        """A call's phrase with the tool's own words where it says "do that"
        (document.tool_lines: a refusal raised deep in a tool does not know its tool)."""
        tool = self._tools.get(name)
        if found is None or tool is None or \
                found.params.get(tool_lines.ACTION) != Phrase(tool_lines.DO_THAT):
            return found
        params = dict(found.params, **{tool_lines.ACTION: Phrase(tool.action)})
        return Phrase(found.text, params, found.plural, found.count)

    def has(self, name: str) -> bool:
        """Whether a tool of that name is registered."""
        return name in self._tools

    def edits(self, name: str) -> bool:
        """Whether tool ``name`` changes the document."""
        tool = self._tools.get(name)
        return tool is not None and tool.edits

    def hide(self, names: Iterable[str]) -> None:
        """Leave these tools out of schemas() (a call of one still runs): what a turn does
        not need is not offered, and costs no tokens."""
        self._hidden = set(names)

    def schemas(self) -> List[Schema]:
        """The tools in OpenAI ``tools`` request format, in registration order."""
        hidden = getattr(self, "_hidden", ())
        return [{"type": "function",
                 "function": {"name": t.name, "description": t.description,
                              "parameters": t.parameters}}
                for t in self._tools.values() if t.name not in hidden]

    def call(self, name: str, arguments: Union[None, str, Mapping[str, Any]],
             limit: Optional[int] = None) -> ToolResult:
        """Run one call; returns a ToolResult, raising only Cancelled.

        ``limit``: the characters a sized tool's answer may hold, so it still fits
        the model's context window (chat.budget); the tool words the cut itself.
        """
        tool = self._tools.get(name)
        if tool is None:
            known = ", ".join(self._tools) or "none"
            return ToolResult(False, "Error: there is no tool named %r. Available tools: %s."
                              % (name, known), "Unknown tool %s" % name,
                              tool_lines.unknown_tool())
        try:
            kwargs = parse_arguments(arguments)
        except ToolError as exc:
            return ToolResult(False, "Error: %s" % exc, "%s failed: %s" % (name, exc),
                              self.said(name, exc.phrase))
        problem = argument_problem(tool, kwargs)
        if problem is not None:
            # The model's mistake, told to it plainly so it can fix the call.
            log.info("tool %s bad arguments: %s", name, problem)
            return ToolResult(False, "Error: bad arguments for %s: %s." % (name, problem),
                              "%s failed: bad arguments" % name,
                              self.said(name, tool_lines.incomplete_request()))
        if tool.sized and limit:
            kwargs["budget"] = int(limit)
        try:
            value = self._invoke(tool, kwargs)
        except Cancelled:
            raise
        except ToolError as exc:
            return ToolResult(False, "Error: %s" % exc, "%s failed: %s" % (name, exc),
                              self.said(name, exc.phrase))
        except Exception:  # a bug in the tool (a TypeError too) must not end the turn
            # The exception's text stays in the log: it means nothing to the model or
            # the user, and may be a Python or UNO message nobody should read there.
            log.exception("tool %s raised", name)
            return ToolResult(False, FAULT % name, "%s failed" % name,
                              self.said(name, tool_lines.failed()))
        if isinstance(value, ToolOutput):
            said = value.summary if isinstance(value.summary, Phrase) else None
            return ToolResult(True, _content_of(value.result),
                              str(value.summary or name), said)
        return ToolResult(True, _content_of(value), name)

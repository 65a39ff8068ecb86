"""Tool registry: plain functions with declared JSON schemas, called by name.

The turn loop only knows ``schemas()`` and ``call()``. Whatever goes wrong
inside a call (unknown tool, invalid JSON, bad arguments, a ToolError or any
other exception) becomes an error *result* for the model, never an exception.
Only cancellation is allowed to escape, so Stop ends the turn.
"""

import json
import logging

from marginalia.errors import Cancelled, ToolError

log = logging.getLogger("marginalia.chat.tools")


class ToolOutput(object):
    """What a tool returns when it wants a panel line besides its result."""

    __slots__ = ("result", "summary")

    def __init__(self, result, summary=None):
        self.result = result
        self.summary = summary


class ToolResult(object):
    """The outcome of one call: ``content`` goes to the model, ``summary`` to the panel."""

    __slots__ = ("ok", "content", "summary")

    def __init__(self, ok, content, summary):
        self.ok = ok
        self.content = content
        self.summary = summary

    def __repr__(self):
        return "ToolResult(ok=%r, content=%r)" % (self.ok, self.content)


def parse_arguments(arguments):
    """Decode a tool call's arguments; ``""``, ``"null"`` and None mean ``{}``."""
    if arguments is None:
        return {}
    if isinstance(arguments, dict):
        return arguments
    text = arguments.strip()
    if text in ("", "null"):
        return {}
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise ToolError("The arguments are not valid JSON (%s)." % exc.args[0].split(":")[0])
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ToolError("The arguments must be a JSON object.")
    return value


def _content_of(value):
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


class Tool(object):
    __slots__ = ("name", "description", "parameters", "fn", "edits")

    def __init__(self, name, description, parameters, fn, edits):
        self.name = name
        self.description = description
        self.parameters = parameters
        self.fn = fn
        self.edits = edits


class ToolRegistry(object):
    """Named tools; ``invoke`` wraps every call (the Writer glue runs it on the main thread)."""

    def __init__(self, invoke=None):
        self._tools = {}
        self._order = []
        self._invoke = invoke or (lambda tool, kwargs: tool.fn(**kwargs))

    def register(self, name, description, parameters, fn, edits=False):
        """Add a tool. ``parameters`` is a JSON schema object; ``edits`` marks document writers."""
        if name in self._tools:
            raise ValueError("tool %r registered twice" % name)
        self._tools[name] = Tool(name, description, parameters, fn, edits)
        self._order.append(name)

    def names(self):
        return list(self._order)

    def get(self, name):
        return self._tools.get(name)

    def schemas(self):
        """The tools in OpenAI ``tools`` request format, in registration order."""
        return [{"type": "function",
                 "function": {"name": t.name, "description": t.description,
                              "parameters": t.parameters}}
                for t in (self._tools[n] for n in self._order)]

    def call(self, name, arguments):
        """Run one call; returns a ToolResult, raising only Cancelled."""
        tool = self._tools.get(name)
        if tool is None:
            known = ", ".join(self._order) or "none"
            return ToolResult(False, "Error: there is no tool named %r. Available tools: %s."
                              % (name, known), "Unknown tool %s" % name)
        try:
            kwargs = parse_arguments(arguments)
            value = self._invoke(tool, kwargs)
        except Cancelled:
            raise
        except ToolError as exc:
            return ToolResult(False, "Error: %s" % exc, "%s failed: %s" % (name, exc))
        except TypeError as exc:
            # Wrong or missing keyword arguments from the model.
            log.info("tool %s bad arguments: %s", name, exc)
            return ToolResult(False, "Error: bad arguments for %s: %s" % (name, exc),
                              "%s failed: bad arguments" % name)
        except Exception as exc:  # a tool bug must not end the turn
            log.exception("tool %s raised", name)
            return ToolResult(False, "Error: %s failed: %s" % (name, exc),
                              "%s failed" % name)
        if isinstance(value, ToolOutput):
            return ToolResult(True, _content_of(value.result), value.summary or name)
        return ToolResult(True, _content_of(value), name)

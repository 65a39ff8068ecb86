"""Test connection: the server answers, takes the key, offers the model, and the model can edit.

Four steps, each only if the one before worked: the model list (reachable,
key accepted, model listed), then one tiny streamed request offering one
trivial tool, read as the turn loop reads a stream: did it stream, did the
model call the tool (as structured tool calls, or written as text), did it
think aloud. The context window comes from chat.window. The wording of the
report belongs to ui.check_report.
"""

from dataclasses import dataclass, field
from typing import List, Optional

from marginalia.chat import window
from marginalia.chat.budget import Window
from marginalia.chat.endpoint import build_body
from marginalia.chat.sse import SSEDecoder
from marginalia.chat.stream import StreamAccumulator
from marginalia.chat.transport import CancelToken, ChatClient
from marginalia.config import Settings
from marginalia.errors import MarginaliaError

STRUCTURED = "structured"
AS_TEXT = "text"
NOT_CALLED = "none"          # the model answered without calling the tool
REFUSED = "refused"          # the server said the model cannot call tools

# The model's words (English, never translated); the user's are ui.check_report's and the
# error sentences (chat.server_errors), translated where they are made.
PROMPT = ("This is a connection test. Call the tool get_secret_word once, then say the word. "
          "Do not answer before calling the tool.")
TOOL = {"type": "function", "function": {
    "name": "get_secret_word", "description": "Returns the secret word of this test.",
    "parameters": {"type": "object", "properties": {}, "required": []}}}


@dataclass
class CheckReport:
    """What the test found; ``error`` is the sentence of the step that failed."""

    reached: bool = False
    models: List[str] = field(default_factory=list)
    model_listed: Optional[bool] = None     # None: the server lists no models
    streamed: bool = False
    tools: Optional[str] = None             # STRUCTURED, AS_TEXT, NOT_CALLED or REFUSED
    thinking: bool = False
    window: Optional[Window] = None
    error: Optional[str] = None


def check(settings: Settings, cancel: Optional[CancelToken] = None) -> CheckReport:
    """Run the test against ``settings``' server (worker thread); never raises."""
    report = CheckReport()
    cancel = cancel or CancelToken()
    try:
        client = ChatClient(settings, retries=0)
        report.models = client.list_models(cancel)
        report.reached = True
        model = (settings.model or "").strip()
        if report.models:
            report.model_listed = model in report.models
        report.window = window.probe(settings, cancel)
        if model and report.model_listed is not False:
            _ask(client, settings, report, cancel)
    except MarginaliaError as exc:
        report.error = str(exc)
    return report


def _ask(client, settings, report, cancel):
    body = build_body(settings, [{"role": "user", "content": PROMPT}], [TOOL])
    try:
        stream = client.open_stream(body, cancel)
    except MarginaliaError as exc:
        if getattr(exc, "no_tools", False):
            report.tools = REFUSED
            return
        raise
    decoder = SSEDecoder()
    accumulator = StreamAccumulator(tools=[TOOL])
    with stream:
        for data in stream:
            for event in decoder.feed(data):
                accumulator.feed_sse(event)
    for event in decoder.close():
        accumulator.feed_sse(event)
    accumulator.finish()
    result = accumulator.result()
    if result.error:
        raise MarginaliaError(result.error)
    report.streamed = stream.streamed
    report.thinking = bool(result.reasoning)
    if not result.tool_calls:
        report.tools = NOT_CALLED
    else:
        report.tools = STRUCTURED if accumulator.structured_calls else AS_TEXT

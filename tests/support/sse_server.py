"""A scripted OpenAI-compatible SSE server on 127.0.0.1, for tests and real runs.

In process::

    with ScriptedServer([text_response("Hello")]) as srv:
        settings = Settings(endpoint=srv.url, model="test-model")
        ...
        assert srv.chat_requests[0].json["stream"] is True

Standalone, for a LibreOffice process to connect to::

    python3 tests/support/sse_server.py --script script.json --port-file F [--record R]

``script.json`` is a list of responses or ``{"responses": [...], "models": [...],
"repeat_last": false, "api_key": null, "routes": {"/api/ps": {...}}}`` (``routes``:
a path answered with its JSON, or a response, to GET and POST, before the script).
The port is written to F (atomically) once the server listens; with ``--record`` every request is appended to R as a
JSON line (method, path, headers as sent, including Authorization: use test
keys only, and JSON body). The process runs until SIGTERM or SIGINT.

A response is a dict (all keys optional)::

    status        200
    headers       {"Content-Type": ...}; text/event-stream by default
    body          list of pieces: str, bytes, {"data": str, "delay": s},
                  {"b64": str}, {"sleep": s} (stall there), {"cut": true}
                  (close the connection there, mid-stream)
    delay         seconds to wait before every data piece
    split         int or list of ints: re-cut the data between markers into
                  pieces of these sizes (cycling), e.g. [1, 3, 7]
    chunked       send Transfer-Encoding: chunked, one chunk per piece
    content_length send Content-Length of the whole body (a cut then leaves it short)
    head_delay    seconds to wait before the status line

Chat requests (anything but ``GET .../models``) take the script's responses in
order, one per request. When the script is exhausted the server answers 500
with a JSON error naming the request, so an unexpected extra request fails
the test loudly; ``repeat_last=True`` repeats the last response instead.
"""

import argparse
import base64
import json
import os
import signal
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# ---------------------------------------------------------------- body helpers


def chunk(delta=None, finish_reason=None, usage=None, no_choices=False, **extra):
    """One chat.completion.chunk dict; ``no_choices`` gives ``choices: []`` (usage chunks)."""
    data = {"id": "chatcmpl-test", "object": "chat.completion.chunk",
            "created": 1700000000, "model": "test-model"}
    if no_choices:
        data["choices"] = []
    else:
        data["choices"] = [{"index": 0, "delta": delta if delta is not None else {},
                            "finish_reason": finish_reason}]
    if usage is not None:
        data["usage"] = usage
    data.update(extra)
    return data


def text_delta(text, role=False):
    return chunk({"role": "assistant", "content": text} if role else {"content": text})


def reasoning_delta(text, field="reasoning_content"):
    """A reasoning piece; ``field`` is reasoning_content (DeepSeek) or reasoning (OpenRouter)."""
    return chunk({field: text})


def tool_call_delta(index, id=None, name=None, arguments=None, **extra):
    """One tool call fragment; OpenAI sends id and name only in the first one."""
    call = {"index": index}
    if id is not None:
        call["id"] = id
        call["type"] = "function"
    function = {}
    if name is not None:
        function["name"] = name
    if arguments is not None:
        function["arguments"] = arguments
    if function:
        call["function"] = function
    call.update(extra)
    return chunk({"tool_calls": [call]})


def finish(reason="stop"):
    return chunk({}, finish_reason=reason)


def usage(prompt=10, completion=5, **extra):
    data = {"prompt_tokens": prompt, "completion_tokens": completion,
            "total_tokens": prompt + completion}
    data.update(extra)
    return data


def usage_chunk(prompt=10, completion=5):
    return chunk(no_choices=True, usage=usage(prompt, completion))


def sse_event(data, event=None):
    """One SSE event as text; dicts are JSON-encoded."""
    if not isinstance(data, str):
        data = json.dumps(data, ensure_ascii=False)
    head = "event: %s\n" % event if event else ""
    return head + "".join("data: %s\n" % line for line in data.split("\n")) + "\n"


def sse_body(chunks, done=True):
    """A list of body pieces, one SSE event per chunk, plus ``data: [DONE]``."""
    pieces = [sse_event(c) for c in chunks]
    if done:
        pieces.append("data: [DONE]\n\n")
    return pieces


def stream_response(chunks, done=True, **options):
    """A 200 event-stream response; ``options`` are response keys (split, chunked...)."""
    response = {"status": 200, "headers": {"Content-Type": "text/event-stream"},
                "body": sse_body(chunks, done)}
    response.update(options)
    return response


def text_response(text, pieces=3, reasoning=None, finish_reason="stop", usage=None,
                  **options):
    """An answer streamed as ``pieces`` text deltas, optionally after a reasoning delta."""
    chunks = [chunk({"role": "assistant", "content": ""})]
    if reasoning:
        chunks.append(reasoning_delta(reasoning))
    step = max(1, -(-len(text) // pieces)) if text else 1
    chunks += [text_delta(text[i:i + step]) for i in range(0, len(text), step)]
    chunks.append(finish(finish_reason))
    if usage is not None:
        chunks.append(chunk(no_choices=True, usage=usage))
    return stream_response(chunks, **options)


def tool_calls_response(calls, content=None, usage=None, reasoning=None, **options):
    """Tool calls as OpenAI streams them: calls are (id, name, arguments) tuples.

    ``arguments`` (a dict or a JSON string) arrive split in two fragments.
    """
    chunks = [chunk({"role": "assistant"})]
    if reasoning:
        chunks.append(reasoning_delta(reasoning))
    if content:
        chunks.append(text_delta(content))
    for index, (call_id, name, arguments) in enumerate(calls):
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments)
        half = len(arguments) // 2
        chunks.append(tool_call_delta(index, id=call_id, name=name, arguments=arguments[:half]))
        chunks.append(tool_call_delta(index, arguments=arguments[half:]))
    chunks.append(finish("tool_calls"))
    if usage is not None:
        chunks.append(chunk(no_choices=True, usage=usage))
    return stream_response(chunks, **options)


def json_response(data, status=200):
    """A JSON answer (a server's metadata endpoint: Ollama /api/ps, llama.cpp /props...)."""
    return {"status": status, "headers": {"Content-Type": "application/json"},
            "body": [json.dumps(data)]}


def error_response(status, message, code=None, headers=None):
    """A JSON error body the way OpenAI shapes it."""
    error = {"message": message, "type": "invalid_request_error", "code": code}
    return {"status": status, "headers": dict({"Content-Type": "application/json"},
                                              **(headers or {})),
            "body": [json.dumps({"error": error})]}


def html_response(status=502):
    page = ("<!DOCTYPE html><html><head><title>%d Bad Gateway</title></head>"
            "<body><h1>Bad Gateway</h1><hr><center>nginx</center></body></html>" % status)
    return {"status": status, "headers": {"Content-Type": "text/html"}, "body": [page]}


# ---------------------------------------------------------------- the server


class Recorded(object):
    """One request as the server saw it; header names are lower case."""

    __slots__ = ("method", "path", "headers", "body", "json", "at")

    def __init__(self, method, path, headers, body):
        self.at = time.time()            # when it arrived (the first-words test times from it)
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        try:
            self.json = json.loads(body.decode("utf-8")) if body else None
        except ValueError:
            self.json = None

    def to_dict(self):
        return {"method": self.method, "path": self.path, "headers": self.headers,
                "json": self.json}


def _ops(response):
    """The body as a list of ("data", bytes, delay) / ("sleep", s) / ("cut",) ops."""
    default_delay = float(response.get("delay", 0) or 0)
    ops = []
    for piece in response.get("body", []):
        if isinstance(piece, bytes):
            ops.append(("data", piece, default_delay))
        elif isinstance(piece, str):
            ops.append(("data", piece.encode("utf-8"), default_delay))
        elif "sleep" in piece:
            ops.append(("sleep", float(piece["sleep"])))
        elif piece.get("cut"):
            ops.append(("cut",))
        elif "b64" in piece:
            ops.append(("data", base64.b64decode(piece["b64"]),
                        float(piece.get("delay", default_delay))))
        else:
            ops.append(("data", piece["data"].encode("utf-8"),
                        float(piece.get("delay", default_delay))))
    split = response.get("split")
    if not split:
        return ops
    sizes = [split] if isinstance(split, int) else list(split)
    out, pending, turn = [], b"", 0
    for op in ops + [("end",)]:
        if op[0] == "data":
            pending += op[1]
            continue
        while pending:
            size = max(1, sizes[turn % len(sizes)])
            turn += 1
            out.append(("data", pending[:size], default_delay))
            pending = pending[size:]
        if op[0] != "end":
            out.append(op)
    return out


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "ScriptedSSE/1"

    def setup(self):
        BaseHTTPRequestHandler.setup(self)
        # Each piece must leave as its own segment for the client to see odd splits.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, fmt, *args):
        if self.server.owner.verbose:
            sys.stderr.write("sse_server: %s\n" % (fmt % args))

    def do_GET(self):
        self._handle()

    def do_POST(self):
        self._handle()

    def _handle(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        headers = dict((k.lower(), v) for k, v in self.headers.items())
        owner = self.server.owner
        response = owner._respond_to(Recorded(self.command, self.path, headers, body))
        self.close_connection = True
        try:
            self._send(response)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            pass  # the client hung up (cancel): nothing left to do

    def _wait(self, seconds):
        if seconds > 0:
            self.server.owner._stopping.wait(seconds)

    def _send(self, response):
        ops = _ops(response)
        chunked = bool(response.get("chunked"))
        self._wait(float(response.get("head_delay", 0) or 0))
        self.send_response(int(response.get("status", 200)))
        headers = dict(response.get("headers") or {"Content-Type": "text/event-stream"})
        for name, value in headers.items():
            self.send_header(name, value)
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        elif response.get("content_length"):
            self.send_header("Content-Length",
                             str(sum(len(op[1]) for op in ops if op[0] == "data")))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.flush()
        for op in ops:
            if op[0] == "sleep":
                self._wait(op[1])
            elif op[0] == "cut":
                self.connection.shutdown(socket.SHUT_RDWR)
                return
            else:
                self._wait(op[2])
                data = op[1]
                if chunked:
                    data = b"%x\r\n%s\r\n" % (len(data), data)
                self.wfile.write(data)
                self.wfile.flush()
        if chunked:
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False


class ScriptedServer(object):
    """Serves ``script`` in order on 127.0.0.1 (port 0 unless given); records requests."""

    def __init__(self, script=(), models=("test-model",), repeat_last=False, api_key=None,
                 host="127.0.0.1", port=0, record_file=None, verbose=False, routes=None):
        self.script = list(script)
        # path -> a response or plain JSON data, answered to GET and POST alike
        # before the script (metadata endpoints: /api/ps, /props, ...).
        self.routes = dict(routes or {})
        self.models = models
        self.repeat_last = repeat_last
        self.api_key = api_key
        self.record_file = record_file
        self.verbose = verbose
        self.requests = []
        self._served = 0
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd = _Server((host, port), _Handler)
        self._httpd.owner = self
        self._thread = None

    @property
    def port(self):
        return self._httpd.server_address[1]

    @property
    def root(self):
        return "http://%s:%d" % self._httpd.server_address[:2]

    @property
    def url(self):
        """The base URL to put in Settings.endpoint."""
        return self.root + "/v1"

    def url_with_host(self, host, path="/v1"):
        return "http://%s:%d%s" % (host, self.port, path)

    @property
    def chat_requests(self):
        return [r for r in self.requests if r.method != "GET"
                and r.path.split("?")[0] not in self.routes]

    def add(self, *responses):
        with self._lock:
            self.script.extend(responses)

    def start(self):
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,),
                                        name="sse-server", daemon=True)
        self._thread.start()
        return self

    def stop(self):
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def _respond_to(self, request):
        with self._lock:
            self.requests.append(request)
            if self.record_file:
                with open(self.record_file, "a") as out:
                    out.write(json.dumps(request.to_dict()) + "\n")
            if self.api_key is not None and \
                    request.headers.get("authorization") != "Bearer " + self.api_key:
                return error_response(401, "Incorrect API key provided.", "invalid_api_key")
            route = self.routes.get(request.path.split("?")[0])
            if route is not None:
                return route if isinstance(route, dict) and "body" in route \
                    else json_response(route)
            if request.method == "GET" and request.path.split("?")[0].endswith("/models"):
                if isinstance(self.models, dict):
                    return self.models
                data = [{"id": m, "object": "model", "owned_by": "test"} for m in self.models]
                return {"headers": {"Content-Type": "application/json"},
                        "body": [json.dumps({"object": "list", "data": data})]}
            if request.method == "GET":
                # Like a real server, a path it does not serve is a 404 (the window's
                # signature requests must not take the script's chat responses).
                return error_response(404, "scripted server: nothing at %s" % request.path)
            index = self._served
            self._served += 1
            if index < len(self.script):
                return self.script[index]
            if self.repeat_last and self.script:
                return self.script[-1]
            return error_response(500, "scripted server: no response left for request %d "
                                  "(script has %d)" % (index + 1, len(self.script)))


def _load_script(path):
    with open(path) as source:
        data = json.load(source)
    if isinstance(data, list):
        data = {"responses": data}
    return data


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--script", required=True, help="JSON list of responses, or an object")
    parser.add_argument("--port-file", help="write the port here once listening")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--record", help="append each request as a JSON line to this file")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    config = _load_script(args.script)
    server = ScriptedServer(config.get("responses", []),
                            models=config.get("models", ("test-model",)),
                            repeat_last=bool(config.get("repeat_last")),
                            api_key=config.get("api_key"), host=args.host, port=args.port,
                            record_file=args.record, verbose=args.verbose,
                            routes=config.get("routes"))
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    server.start()
    if args.port_file:
        temp = args.port_file + ".tmp"
        with open(temp, "w") as out:
            out.write("%d\n" % server.port)
        os.replace(temp, args.port_file)
    sys.stdout.write("listening on %s\n" % server.url_with_host(args.host))
    sys.stdout.flush()
    while not stop.wait(0.2):
        pass
    server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark the MCP server's tools/call against the floor of merely parsing and writing the JSON.

A trivial backend (one tool that answers with a short text) isolates the server's own cost.
Measured in one run:

(a) the dispatch alone (protocol.handle_post of a tools/call body, no socket) against a bare
    ``json.loads`` of the body plus ``json.dumps`` of the answer: the ratio must be at most 4.0;
(b) tools/call over real HTTP on loopback, one kept-alive connection, then two clients at
    once: calls per second (the issue's load is 100 calls/s; the target is 5x that from one
    client, with room for a loaded machine), and the ratio of one call's time to the JSON
    floor. Client and server share this process and its GIL, so the figures are a floor.

(a) is the best of several interleaved repeats in process CPU time (time.process_time), as the
other benches; (b) is wall-clock, since a request's time is mostly the kernel's and the other
thread's. Prints the figures; exits non-zero if a target is missed.

    PYTHONPATH=pythonpath:vendor python3 bench/bench_mcp.py
"""

import http.client
import json
import os
import sys
import threading
import time

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _sub in ("pythonpath", "vendor"):
    if os.path.join(_ROOT, _sub) not in sys.path:
        sys.path.insert(0, os.path.join(_ROOT, _sub))

from marginalia.mcp.backend import Backend, text_result  # noqa: E402
from marginalia.mcp.protocol import Protocol  # noqa: E402
from marginalia.mcp.server import McpServer  # noqa: E402

REPEATS = 9
DISPATCHES = 2000
HTTP_CALLS = 2000
MAX_DISPATCH_RATIO = 4.0
MIN_CALLS_PER_SECOND = 500.0
TOKEN = "bench-token"


class TrivialBackend(Backend):
    TOOLS = [{"name": "replace_text", "description": "Replace text.",
              "inputSchema": {"type": "object", "properties": {"search": {"type": "string"},
                                                               "replace": {"type": "string"}}}}]

    def tools(self):
        return self.TOOLS

    def call_tool(self, client, name, arguments):
        return text_result("Replaced 1 occurrence.")


def call_body(request_id):
    # A realistic small edit: a sentence to find, a sentence to put in its place.
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                       "params": {"name": "replace_text", "arguments": {
                           "document": "doc-1", "search": "The quick brown fox " * 5,
                           "replace": "The slow grey wolf " * 5}}}).encode("utf-8")


ANSWER = {"jsonrpc": "2.0", "id": 1, "result": {
    "content": [{"type": "text", "text": "Replaced 1 occurrence."}], "isError": False}}


def json_floor(body):
    for _ in range(DISPATCHES):
        json.loads(body.decode("utf-8"))
        json.dumps(ANSWER, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def dispatch(state):
    protocol, session_id, body = state
    for _ in range(DISPATCHES):
        outcome = protocol.handle_post(body, session_id, "2025-11-25")
        json.dumps(outcome.body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def best_of(jobs):
    """Best CPU time of each (fn, arg) job over REPEATS interleaved rounds."""
    times = [[] for _ in jobs]
    for _ in range(REPEATS):
        for slot, (fn, arg) in zip(times, jobs):
            start = time.process_time()
            fn(arg)
            slot.append(time.process_time() - start)
    return [min(slot) for slot in times]


def open_session(port):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Authorization": "Bearer " + TOKEN, "Content-Type": "application/json",
               "Accept": "application/json, text/event-stream"}
    conn.request("POST", "/mcp", body=json.dumps({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "clientInfo": {"name": "bench"}}}),
        headers=headers)
    response = conn.getresponse()
    response.read()
    headers["Mcp-Session-Id"] = response.getheader("Mcp-Session-Id")
    headers["MCP-Protocol-Version"] = "2025-11-25"
    return conn, headers


def http_calls(port, count, failures):
    conn, headers = open_session(port)
    body = call_body(1)
    for _ in range(count):
        conn.request("POST", "/mcp", body=body, headers=headers)
        response = conn.getresponse()
        answer = json.loads(response.read())
        if response.status != 200 or answer["result"]["isError"]:
            failures.append(answer)
    conn.close()


def calls_per_second(port, clients):
    failures = []
    workers = [threading.Thread(target=http_calls, args=(port, HTTP_CALLS // clients, failures))
               for _ in range(clients)]
    start = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    elapsed = time.perf_counter() - start
    return (HTTP_CALLS // clients) * clients / elapsed, failures


def main():
    protocol = Protocol(TrivialBackend())
    opened = protocol.handle_post(json.dumps({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "clientInfo": {"name": "bench"}}}).encode())
    body = call_body(1)
    check = protocol.handle_post(body, opened.session_id, "2025-11-25")
    answer = check.body.get("result", {}).get("content", [{}])[0].get("text")
    if check.status != 200 or answer != "Replaced 1 occurrence.":
        print("bench mcp: the dispatch did not answer correctly: %r" % check)
        return 2
    t_json, t_dispatch = best_of([(json_floor, body),
                                  (dispatch, (protocol, opened.session_id, body))])
    ratio = t_dispatch / t_json
    floor_per_call = t_json / DISPATCHES

    server = McpServer(TrivialBackend(), TOKEN, port=0)
    port = server.start()
    try:
        http_calls(port, 50, [])                          # warm up
        one, failed_one = calls_per_second(port, 1)
        two, failed_two = calls_per_second(port, 2)
    finally:
        server.stop()
    print("body %d bytes; json.loads+dumps floor %.1f us per call; dispatch %.1f us per call"
          % (len(body), floor_per_call * 1e6, t_dispatch / DISPATCHES * 1e6))
    print("(a) dispatch / json floor: %.2fx (target <= %.1fx)" % (ratio, MAX_DISPATCH_RATIO))
    print("(b) HTTP tools/call, one client: %.0f calls/s (%.0f us per call, %.0fx the json "
          "floor; target >= %.0f calls/s)" % (one, 1e6 / one, (1.0 / one) / floor_per_call,
                                              MIN_CALLS_PER_SECOND))
    print("    two clients at once: %.0f calls/s in all; failed calls: %d"
          % (two, len(failed_one) + len(failed_two)))
    failed = ratio > MAX_DISPATCH_RATIO or one < MIN_CALLS_PER_SECOND \
        or failed_one or failed_two
    if failed:
        print("FAILED: a target was missed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Load on the MCP server inside Writer (issue 27): two agents, two documents, 100 calls/s.

Starts a private headless LibreOffice with the built .oxt, fills two documents
(writer.generate), starts the MCP server (mcp.start) and runs, for DURATION
seconds, two clients at RATE/2 calls a second each, each on its own document:
mostly reads (read_document of a few paragraphs; 1 in 4 a search_document of a word
in 6 paragraphs) and every
EDIT_EVERY-th call an edit (add_comment; the outside agents' default mode makes
edits suggestions). Each client is one MCP session; its calls are sent on
schedule from a pool of threads (keep-alive connections), so a slow answer does
not lower the rate. Meanwhile a probe posts an empty call to Writer's main
thread every 50 ms (mcp.probe) and records how long it waited: the longest wait
is Writer's longest unresponsive stretch under the load.

Reported: calls sent, answered, lost (no answer, an HTTP error or an error
result: must be 0), the tools/call latency (median, p95, max) under load, the
longest main-thread stretch, and, with no load, the latency of the same call
(read_document of 5 paragraphs) over MCP against the job service's
(writer.call_tools over the UNO socket): the ratio of the medians.

    .venv/bin/python bench/bench_mcp_load.py [--seconds 30] [--rate 100]
"""

import argparse
import http.client
import json
import os
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _sub in ("pythonpath", ""):
    path = os.path.join(_ROOT, _sub) if _sub else _ROOT
    if path not in sys.path:
        sys.path.insert(0, path)

import build  # noqa: E402
from tests.support.office import OfficeHarness  # noqa: E402

EDIT_EVERY = 20
PROBE_EVERY = 0.05
VERSION = "2025-11-25"


class Client:
    """One MCP session over keep-alive connections (one per worker thread)."""

    def __init__(self, port, token, name):
        self.port, self.token, self.name = port, token, name
        self.session = None
        self._local = threading.local()
        self._ids = iter(range(1, 10 ** 9))
        self._ids_lock = threading.Lock()
        answer, headers = self.post({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                                     "params": {"protocolVersion": VERSION, "capabilities": {},
                                                "clientInfo": {"name": name, "version": "1"}}})
        self.session = headers.get("mcp-session-id")
        self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _conn(self):
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = http.client.HTTPConnection("127.0.0.1", self.port,
                                                                 timeout=30)
        return conn

    def post(self, message):
        headers = {"Authorization": "Bearer " + self.token, "Content-Type": "application/json",
                   "Accept": "application/json, text/event-stream"}
        if self.session:
            headers["Mcp-Session-Id"] = self.session
            headers["MCP-Protocol-Version"] = VERSION
        body = json.dumps(message).encode("utf-8")
        for attempt in (0, 1):
            conn = self._conn()
            try:
                conn.request("POST", "/mcp", body, headers)
                response = conn.getresponse()
                data = response.read()
                break
            except (http.client.HTTPException, OSError):
                # A kept-alive connection the server closed: one new one, then give up.
                conn.close()
                self._local.conn = None
                if attempt:
                    raise
        got = {k.lower(): v for k, v in response.getheaders()}
        if response.status == 202 or not data:
            return None, got
        if response.status != 200:
            raise RuntimeError("HTTP %d: %s" % (response.status, data[:200]))
        return json.loads(data.decode("utf-8")), got

    def call(self, name, arguments):
        with self._ids_lock:
            rid = next(self._ids)
        answer, _headers = self.post({"jsonrpc": "2.0", "id": rid, "method": "tools/call",
                                      "params": {"name": name, "arguments": arguments}})
        result = (answer or {}).get("result")
        if result is None or result.get("isError"):
            raise RuntimeError(json.dumps(answer)[:300])
        return result


def _calls(doc_id, paragraphs, n):
    """The n-th call of a client: a read mostly, an edit every EDIT_EVERY."""
    if n % EDIT_EVERY == EDIT_EVERY - 1:
        return "add_comment", {"document": doc_id, "search": "marker word",
                               "comment": "bench note %d" % n}
    if n % 4 == 1:
        return "search_document", {"document": doc_id, "query": "zephyr"}
    start = 1 + (n * 7) % max(1, paragraphs - 6)
    return "read_document", {"document": doc_id, "start": start, "end": start + 4}


def load(clients, seconds, rate):
    """Run the clients at ``rate`` calls/s in all; (sent, answered, failures, latencies)."""
    per_client = rate / float(len(clients))
    pool = ThreadPoolExecutor(max_workers=16 * len(clients))
    lock = threading.Lock()
    latencies, failures = [], []
    by_tool = {}
    sent = [0]

    def one(client, name, arguments):
        started = time.perf_counter()
        try:
            client.call(name, arguments)
        except Exception as exc:
            with lock:
                failures.append("%s: %s" % (name, exc))
            return
        with lock:
            latencies.append(time.perf_counter() - started)
            by_tool.setdefault(name, []).append(time.perf_counter() - started)
    started = time.perf_counter()
    futures = []
    n = 0
    while True:
        due = started + n / per_client
        now = time.perf_counter()
        if due - started >= seconds:
            break
        if due > now:
            time.sleep(due - now)
        for client, doc_id, paragraphs in clients:
            name, arguments = _calls(doc_id, paragraphs, n)
            futures.append(pool.submit(one, client, name, arguments))
            sent[0] += 1
        n += 1
    for future in futures:
        future.result()
    pool.shutdown()
    for name, seconds in sorted(by_tool.items()):
        print("  %s: %d calls, median %s, max %s" % (name, len(seconds),
                                                   _ms(statistics.median(seconds)),
                                                   _ms(max(seconds))))
    return sent[0], len(latencies), failures, latencies


def probe(harness, stop, delays):
    while not stop.is_set():
        delays.append(harness.job("mcp.probe"))
        time.sleep(PROBE_EVERY)


def compare(harness, client, doc, doc_id, rounds=60):
    """Median seconds of read_document (5 paragraphs) over MCP and over the job service."""
    arguments = {"start": 3, "end": 7}
    mcp, job = [], []
    for _i in range(rounds):
        started = time.perf_counter()
        client.call("read_document", dict(arguments, document=doc_id))
        mcp.append(time.perf_counter() - started)
        started = time.perf_counter()
        harness.job("writer.call_tools", document=doc, title="bench",
                    calls=[{"name": "read_document", "arguments": arguments}])
        job.append(time.perf_counter() - started)
    return statistics.median(mcp), statistics.median(job)


def _ms(seconds):
    return "%.1f ms" % (seconds * 1000)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--rate", type=float, default=100.0)
    args = parser.parse_args()
    harness = OfficeHarness(build.build()).start()
    try:
        docs = []
        for _i in range(2):
            doc = harness.new_writer()
            harness.job("writer.generate", document=doc, chapters=4, sections=3, paragraphs=4,
                        rare=6)
            info = harness.job("writer.call_tools", document=doc, title="info",
                               calls=[{"name": "get_document_info"}])[0]
            docs.append((doc, str(doc.RuntimeUID), json.loads(info["content"])["paragraphs"]))
        started = harness.job("mcp.start", port=0, fresh=True)
        port, token = started["port"], started["token"]
        print("two documents of %s paragraphs; MCP server on port %d"
              % (" and ".join(str(d[2]) for d in docs), port))
        agents = [Client(port, token, name) for name in ("Agent A", "Agent B")]
        quiet_mcp, quiet_job = compare(harness, agents[0], docs[0][0], docs[0][1])
        harness.job("mcp.settle")
        print("no load, read_document of 5 paragraphs: tools/call %s, job service %s: "
              "ratio %.2f" % (_ms(quiet_mcp), _ms(quiet_job), quiet_mcp / quiet_job))
        harness.job("mcp.longest")
        stop, delays = threading.Event(), []
        prober = threading.Thread(target=probe, args=(harness, stop, delays), daemon=True)
        prober.start()
        sent, answered, failures, latencies = load(
            [(agents[i], docs[i][1], docs[i][2]) for i in range(2)], args.seconds, args.rate)
        stop.set()
        prober.join(10)
        harness.job("mcp.settle")
        latencies.sort()
        print("load: %d calls in %.0f s (%.0f/s asked) from 2 clients on 2 documents, "
              "1 in %d an edit" % (sent, args.seconds, args.rate, EDIT_EVERY))
        print("answered %d, lost %d" % (answered, sent - answered))
        for failure in failures[:5]:
            print("  lost: %s" % failure)
        if latencies:
            print("tools/call latency under load: median %s, p95 %s, max %s" % (
                _ms(statistics.median(latencies)),
                _ms(latencies[int(len(latencies) * 0.95) - 1]), _ms(latencies[-1])))
        print("longest single main-thread call (mainthread.run_sync): %s"
              % _ms(harness.job("mcp.longest")))
        if delays:
            print("main thread: %d probes every %d ms, longest wait %s, median %s" % (
                len(delays), PROBE_EVERY * 1000, _ms(max(delays)),
                _ms(statistics.median(delays))))
        for doc, doc_id, _p in docs:
            titles = doc.getUndoManager().getAllUndoActionTitles()
            print("document %s: %d undo steps (%s)" % (doc_id[:8], len(titles),
                                                       ", ".join(sorted(set(titles)))))
        return 0 if sent == answered else 1
    finally:
        try:
            harness.job("mcp.stop")
        finally:
            harness.stop()


if __name__ == "__main__":
    sys.exit(main())

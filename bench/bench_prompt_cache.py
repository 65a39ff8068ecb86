"""What a chat costs a local server, measured with its own counts (issue 36).

Against a real llama.cpp server (../shared/tools/realmodel/, or any server whose usage
reports ``prompt_tokens_details.cached_tokens``), one private office with the built
.oxt, the same four-paragraph document and three messages in each protocol:

1. 'Replace the word "recieve" with "receive" everywhere.'   (an edit both protocols'
   model makes, so the next message comes after an edit in both)
2. "How many paragraphs does the document have?"   (the message after an edit)
3. "Which words did you change?"                    (a question after a question)

For each protocol it prints the prompt tokens of the first request, and for the first
request of messages 2 and 3 the tokens the server read again (prompt tokens minus the
ones its prefix cache held). The rewrite protocol's targets: a first request of at most
800 tokens; after an edit, at most the new view's tokens (counted by the server's
/tokenize) + 100; a question after a question as cheap as before.

    PYTHONPATH=pythonpath:vendor /usr/bin/python3 bench/bench_prompt_cache.py \\
        --endpoint http://127.0.0.1:8094/v1 --model qwen2.5-coder-1.5b
"""

import argparse
import io
import json
import os
import shutil
import sys
import tempfile
import urllib.request

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _sub in ("pythonpath", "vendor", ""):
    path = os.path.join(_ROOT, _sub) if _sub else _ROOT
    if path not in sys.path:
        sys.path.insert(0, path)

from marginalia.cli import headless  # noqa: E402
from marginalia.eval import odf  # noqa: E402
from marginalia.eval.tasks_edit import SPELLING  # noqa: E402

MESSAGES = ['Replace the word "recieve" with "receive" everywhere.',
            "How many paragraphs does the document have?",
            "Which words did you change?"]
PROTOCOLS = (("tools", "before (tools protocol)"), ("rewrite", "after (rewrite protocol)"))


def requests_of(lines):
    """(prompt tokens, cached tokens) of each request of a turn, from its usage events
    (each is the turn's running sum, chat.loop)."""
    out, last = [], (0, 0)
    for event in lines:
        if event.get("type") != "usage":
            continue
        prompt = int(event.get("prompt_tokens") or 0)
        cached = int((event.get("prompt_tokens_details") or {}).get("cached_tokens") or 0)
        out.append((prompt - last[0], cached - last[1]))
        last = (prompt, cached)
    return out


def tokens(endpoint, text):
    """The server's own count of ``text`` (llama.cpp's /tokenize)."""
    base = endpoint.rstrip("/")
    base = base[:-3] if base.endswith("/v1") else base
    request = urllib.request.Request(base + "/tokenize", json.dumps({"content": text}).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return len(json.loads(answer.read())["tokens"])


def run_protocol(office, folder, protocol, settings):
    path = os.path.join(folder, protocol + ".odt")
    odf.write_odt(path, SPELLING)
    doc = office.load(path, hidden=True)
    try:
        turns = []
        views = []
        for message in MESSAGES:
            views.append(office.job("writer.context", doc, protocol="rewrite",
                                    inline=6000).get("document", ""))
            buffer = io.StringIO()
            headless.run_turn(office, doc, message, dict(settings, edit_protocol=protocol),
                              buffer, 300)
            turns.append([json.loads(line) for line in buffer.getvalue().splitlines() if line])
        return turns, views
    finally:
        office.close(doc)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--endpoint", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--oxt", default=headless.DEFAULT_OXT)
    args = parser.parse_args()
    from marginalia.cli.office_process import Office
    settings = {"model": args.model, "endpoint": args.endpoint, "keep_chats": False,
                "temperature": 0.0}
    folder = tempfile.mkdtemp(prefix="marginalia-cache-bench-")
    office = Office()
    try:
        office.start()
        office.install_and_restart(args.oxt)
        for protocol, title in PROTOCOLS:
            turns, views = run_protocol(office, folder, protocol, settings)
            first = [requests_of(t) for t in turns]
            edited = any(e.get("type") == "change" for e in turns[0])
            print("%s:" % title)
            if first[0]:
                print("  first request of a turn: %d prompt tokens" % first[0][0][0])
            for label, number in (("message after the edit", 1),
                                  ("question after a question", 2)):
                if first[number]:
                    prompt, cached = first[number][0]
                    print("  %s: %d prompt tokens, %d read again" % (label, prompt,
                                                                      prompt - cached))
            print("  the edit %s made" % ("was" if edited else "was NOT"))
            if protocol == "rewrite":
                print("  the view after the edit: %d tokens" % tokens(args.endpoint, views[1]))
    finally:
        office.terminate()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()

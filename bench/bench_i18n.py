"""What translation costs on the panel's hot path (issue 26), measured in one run.

A streamed answer reaches the panel as batches of entries; per batch the panel renders
them (ui.transcript) and asks the presenter what to show (ui.status), which is where
tr() runs: the status line, its tooltip, Send's label, a role line. This replays a turn
of 2,000 text pieces (a status event between every 50) through the renderer and the
presenter, one batch per piece, with English (no catalog), the German catalog (compiled
here from extension/locale/de.po) and the pseudo-locale, and reports the cost per update
against the floor of one json.loads of the piece's SSE line (what the stream core pays
anyway). The ratio German / English is the catalog's own cost.

    PYTHONPATH=pythonpath:vendor python3 bench/bench_i18n.py
"""

import gettext
import io
import json
import os
import sys
import time

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _sub in ("pythonpath", "vendor"):
    if os.path.join(_ROOT, _sub) not in sys.path:
        sys.path.insert(0, os.path.join(_ROOT, _sub))

from marginalia import events as ev  # noqa: E402
from marginalia.i18n import catalog, po  # noqa: E402
from marginalia.i18n.pseudo import PseudoTranslations  # noqa: E402
from marginalia.ui.status import PanelPresenter  # noqa: E402
from marginalia.ui.transcript import TranscriptRenderer  # noqa: E402

PIECES = 2000
REPEATS = 5


def _batches():
    out = [[ev.Entry.user("Tell me about the report")]]
    for i in range(PIECES):
        batch = [ev.Entry("event", ev.Event(ev.TEXT, text="word %d " % i))]
        if i % 50 == 0:
            state = ev.WRITING if i % 100 else ev.THINKING
            batch.insert(0, ev.Entry("event", ev.Event(ev.STATUS, text=state)))
        out.append(batch)
    out.append([ev.Entry("event", ev.Event(ev.DONE, finish_reason="stop"))])
    return out


def _turn(batches):
    renderer, presenter = TranscriptRenderer(), PanelPresenter()
    started = time.process_time()
    for batch in batches:
        renderer.render(batch)
        presenter.see(batch, busy=True)
        presenter.shown()
    return (time.process_time() - started) / len(batches)


def _floor():
    lines = [json.dumps({"choices": [{"delta": {"content": "word %d " % i}}]})
             for i in range(PIECES)]
    started = time.process_time()
    for line in lines:
        json.loads(line)
    return (time.process_time() - started) / PIECES


def main():
    with open(os.path.join(_ROOT, "extension", "locale", "de.po"), encoding="utf-8") as fh:
        german = gettext.GNUTranslations(io.BytesIO(po.to_mo(po.parse(fh.read()))))
    languages = (("English", gettext.NullTranslations()), ("German", german),
                 ("pseudo", PseudoTranslations()))
    batches = _batches()
    best = {name: float("inf") for name, _t in languages}
    floor = float("inf")
    for _ in range(REPEATS):
        floor = min(floor, _floor())
        for name, translations in languages:
            catalog._active = translations
            best[name] = min(best[name], _turn(batches))
    catalog._active = gettext.NullTranslations()
    print("per streamed update (renderer + presenter), best of %d:" % REPEATS)
    print("  json.loads of the piece's line (floor): %6.2f us" % (floor * 1e6))
    for name, _t in languages:
        print("  %-8s %6.2f us  (%.1fx the floor)" % (name, best[name] * 1e6, best[name] / floor))
    print("German / English: %.3f (the catalog's own cost per update)"
          % (best["German"] / best["English"]))


if __name__ == "__main__":
    main()

"""The log holds no document text, prompt or answer after a real turn, unless the user
turned on the debug log (marginalia.debuglog), in an office of its own: the debug log
lasts until that LibreOffice closes."""

import os

import pytest

from tests.support.office import OfficeHarness
from tests.support.shared_install import OXT
from tests.support.sse_server import ScriptedServer, text_response, tool_calls_response
from tests.support.writer import build, chat_turn

SENTENCE = "The saffron ledger was sealed in the vault on Tuesday."
PROMPT = "Summarise the cinnamon clause for me"


@pytest.fixture(scope="module")
def own_office():
    harness = OfficeHarness(os.environ.get("MARGINALIA_OXT") or OXT).start()
    yield harness
    harness.stop()


def _turn(office, answer):
    """A turn that reads the document (the sentence goes to the model in a tool result)
    and answers ``answer``; the log file's text after it."""
    doc = build(office, [("Standard", SENTENCE)])
    script = [tool_calls_response([("c1", "read_document", {"start": 1, "end": -1}),
                                   ("c2", "replace_text", {"search": "nowhere to be found",
                                                           "replacement": "x"})]),
              text_response(answer)]
    try:
        with ScriptedServer(script) as srv:
            entries = chat_turn(office, doc, PROMPT, {"endpoint": srv.url,
                                                      "model": "test-model"})
            assert "".join(e.get("text", "") for e in entries if e["type"] == "text") == answer
            # The document's sentence reached the model: there was something to leak.
            assert any(SENTENCE in str(r.json) for r in srv.chat_requests)
    finally:
        office.close(doc)
    paths = office.job("log")
    with open(paths["path"], encoding="utf-8") as fh:
        kept = fh.read()
    debug = ""
    if os.path.exists(paths["debug_path"]):
        with open(paths["debug_path"], encoding="utf-8") as fh:
            debug = fh.read()
    return kept, debug


def test_the_log_has_no_document_text_until_the_debug_log_is_on(own_office):
    quiet_answer = "Cobalt herons nest beneath the old viaduct."
    logged, debug = _turn(own_office, quiet_answer)
    assert "/v1/chat/completions -> 200" in logged       # the turn was logged...
    for text in (SENTENCE, "saffron", PROMPT, "cinnamon", quiet_answer, "herons",
                 "nowhere to be found"):
        assert text not in logged                          # ...but none of its words
    assert debug == ""

    own_office.job("log", on=True)
    debug_answer = "Violet kites circle the granite harbour."
    logged, debug = _turn(own_office, debug_answer)
    assert "debug log on until LibreOffice closes" in logged
    # The text goes to the debug file only, which the next start deletes (core tier:
    # test_debuglog): the kept log, which rotates, never holds it.
    after = debug.split("debug log on until LibreOffice closes", 1)[1]
    assert SENTENCE in after and PROMPT in after and "Violet kites" in after
    for text in (SENTENCE, PROMPT, "Violet kites"):
        assert text not in logged
    assert quiet_answer not in debug                       # the earlier turn stays out

"""An agent's edit the user is asked about (issue 41, item 4), against the real office.

A kept-out passage, or a large deletion applied directly, is not refused outright: the
user is asked. Agents are the official MCP SDK: a handshake-era session (its call waits for
the panel's answer, here given with the mcp.answer job as Allow once / Refuse give it) and
the SDK's modern client (2026-07-28) with an elicitation callback, which answers the
revision's input_required form itself. What must hold: nothing changes until the user says
yes; yes lets that one call through; no leaves the document as it was, and the same call
is not asked again; each question is listed, with its place, for the panel; the call log
says "asked the user".
"""

import threading
import time

import pytest

from tests.support.mcp_client import agent
from tests.support.writer import build, redlines, select, texts

try:
    import anyio
    from mcp import Client, MCPError
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client
    from mcp.types import ElicitResult, Implementation
except ImportError as exc:          # the harness must fail loudly, not skip
    raise AssertionError("The MCP tests need the official MCP Python SDK in .venv "
                         "(python3 build.py test installs it): %s" % exc)

CLAUDE = "Claude via Marginalia"
WAIT = 2.0              # how long a call waits on the panel here (mcp.ask_wait)
LONG = " ".join("word%d" % i for i in range(90))    # 90 words a paragraph


@pytest.fixture
def server(office):
    started = office.job("mcp.start", port=0, fresh=True)
    old = office.job("mcp.ask_wait", seconds=WAIT)
    yield "http://127.0.0.1:%d/mcp" % started["port"], started["token"]
    office.job("mcp.ask_wait", seconds=old)
    for question in office.job("mcp.questions"):
        office.job("mcp.answer", id=question["id"], allow=False)
    office.job("mcp.settle")
    office.job("mcp.stop")


@pytest.fixture
def doc(office):
    made = []

    def make(lines, keep=None, apply="direct"):
        office.job("settings.save", mcp_apply_mode=apply)
        document = build(office, [("Standard", line) for line in lines])
        if keep:
            select(document, keep)
            assert office.job("review.keepout", document=document, action="toggle")["sentence"]
        made.append(document)
        return document
    yield make
    office.job("settings.save", mcp_apply_mode="tracked")
    for document in made:
        try:
            office.close(document)
        except Exception:
            pass


def modern(url, token, steps, answer):
    """Run ``steps(client)`` with the SDK's modern client (2026-07-28, no fallback), whose
    elicitation callback records each form and answers ``answer(message)``: an ElicitResult."""
    forms = []

    async def elicit(context, params):
        forms.append(params.message)
        return answer(params.message)

    async def main():
        http = create_mcp_http_client(headers={"Authorization": "Bearer " + token})
        async with http:
            transport = streamable_http_client(url, http_client=http)
            info = Implementation(name="Claude", version="1.0")
            async with Client(transport, client_info=info, mode="2026-07-28",
                              elicitation_callback=elicit) as client:
                assert client.protocol_version == "2026-07-28"
                return await steps(client)
    return anyio.run(main), forms


def _text(result):
    return bool(result.is_error), "".join(getattr(c, "text", "") for c in result.content)


def test_a_kept_out_passage_is_asked_about_and_allowed_once_by_the_panel(office, server, doc):
    document = doc(["Golf alpha", "Hotel secret words", "India gamma"], keep="Hotel")
    uid = document.RuntimeUID
    url, token = server

    async def first(a):
        return await a.call("replace_text", document=uid, search="secret",
                            replacement="public")
    error, text = agent(url, token, "Claude", first)
    # No answer within the wait: nothing changed, and the agent is told what to do.
    assert error and "Nothing was changed yet" in text and "paragraph 2" in text, text
    assert texts(document)[1] == "Hotel secret words" and redlines(document) == []
    asked = office.job("mcp.questions")
    assert [(q["kind"], q["agent"], q["document"], q["where"]) for q in asked] == [
        ("kept_out", "Claude", uid, "paragraph 2")]
    # The same call made again while the question is open does not ask twice.
    assert agent(url, token, "Claude", first)[0]
    assert len(office.job("mcp.questions")) == 1
    # The user allows it (the panel's Allow once); the agent's next identical call goes through.
    assert office.job("mcp.answer", id=asked[0]["id"], allow=True)
    error, text = agent(url, token, "Claude", first)
    assert not error, text
    office.job("mcp.settle")
    assert texts(document)[1] == "Hotel public words" and redlines(document) == []
    assert CLAUDE in document.getUndoManager().getAllUndoActionTitles()
    # Once: the passage is still kept out, and the next edit there asks again.
    marks = office.job("review.keepout", document=document, action="marks")["marks"]
    assert len(marks) == 1

    async def again(a):
        return await a.call("replace_text", document=uid, search="words",
                            replacement="lines")
    error, text = agent(url, token, "Claude", again)
    assert error and "Nothing was changed yet" in text
    assert texts(document)[1] == "Hotel public words"


def test_an_answer_given_while_the_call_waits_lets_it_finish(office, server, doc):
    document = doc(["Juliet open", "Kilo guarded text", "Lima open"], keep="Kilo")
    uid = document.RuntimeUID
    url, token = server
    office.job("mcp.ask_wait", seconds=30)
    found = {}

    def answer_when_asked():
        deadline = time.time() + 20
        while time.time() < deadline:
            asked = office.job("mcp.questions")
            if asked:
                found["asked"] = asked
                office.job("mcp.answer", id=asked[0]["id"], allow=True)
                return
            time.sleep(0.1)
    helper = threading.Thread(target=answer_when_asked)
    helper.start()

    async def steps(a):
        began = time.monotonic()
        result = await a.call("replace_text", document=uid, search="guarded",
                              replacement="shared")
        return result, time.monotonic() - began
    (error, text), took = agent(url, token, "Claude", steps)
    helper.join()
    assert found["asked"][0]["kind"] == "kept_out"
    assert not error, text
    assert took < 25        # it went on at the answer, not at the end of the wait
    office.job("mcp.settle")
    assert texts(document)[1] == "Kilo shared text"


def test_a_refusal_leaves_the_text_and_the_same_call_is_not_asked_again(office, server, doc):
    document = doc(["Mike open", "November private", "Oscar open"], keep="November")
    uid = document.RuntimeUID
    url, token = server

    async def steps(a):
        return await a.call("replace_text", document=uid, search="private",
                            replacement="public")
    assert agent(url, token, "Claude", steps)[0]
    asked = office.job("mcp.questions")
    assert office.job("mcp.answer", id=asked[0]["id"], allow=False)
    error, text = agent(url, token, "Claude", steps)
    assert error and "The user refused this" in text, text
    assert office.job("mcp.questions") == []          # not asked again
    office.job("mcp.settle")
    assert texts(document)[1] == "November private" and redlines(document) == []


def test_a_modern_client_asks_its_user_with_the_revisions_form(office, server, doc):
    document = doc(["Papa open", "Quebec sealed words", "Romeo open"], keep="Quebec")
    uid = document.RuntimeUID
    url, token = server

    async def steps(client):
        allowed = _text(await client.call_tool("replace_paragraphs", {
            "document": uid, "start": 2, "end": 2, "markdown": "Quebec opened words"}))
        declined = _text(await client.call_tool("replace_text", {
            "document": uid, "search": "words", "replacement": "lines"}))
        return allowed, declined
    answers = iter([ElicitResult(action="accept", content={"allow": True}),
                    ElicitResult(action="decline")])
    (allowed, declined), forms = modern(url, token, steps, lambda message: next(answers))
    assert not allowed[0], allowed
    assert declined[0] and "The user refused this" in declined[1], declined
    assert len(forms) == 2 and all("kept out of Marginalia" in f for f in forms), forms
    assert "paragraph 2" in forms[0] and document.getTitle() in forms[0]
    office.job("mcp.settle")
    assert texts(document)[1] == "Quebec opened words"
    # Answered in the agent's client: nothing is left waiting in the panel.
    assert office.job("mcp.questions") == []
    # Allowed once, the passage stays kept out: the mark is still on its paragraph.
    marks = office.job("review.keepout", document=document, action="marks")["marks"]
    assert len(marks) == 1 and "Quebec" in marks[0]["text"], marks


def test_a_made_up_request_state_is_refused_and_changes_nothing(office, server, doc):
    document = doc(["Sierra open", "Tango locked words", "Uniform open"], keep="Tango")
    uid = document.RuntimeUID
    url, token = server

    async def steps(client):
        try:
            await client.call_tool("replace_text", {
                "document": uid, "search": "locked", "replacement": "free"},
                request_state="made-up", input_responses={"marginalia_confirm": {
                    "action": "accept", "content": {"allow": True}}})
        except MCPError as exc:
            return exc.error.code, exc.error.message
        return None
    refused, forms = modern(url, token, steps, lambda message: None)
    assert refused is not None and refused[0] == -32602, refused
    assert "requestState" in refused[1] and forms == []
    office.job("mcp.settle")
    assert texts(document)[1] == "Tango locked words"


def test_a_large_deletion_applied_directly_is_asked_and_a_small_one_is_not(office, server,
                                                                           doc):
    document = doc(["Sierra " + LONG, "Tango " + LONG, "Uniform short line", "Victor end"],
                   apply="direct")
    uid = document.RuntimeUID
    url, token = server

    async def steps(client):
        small = _text(await client.call_tool("delete_paragraphs", {
            "document": uid, "start": 3, "end": 3}))
        large = _text(await client.call_tool("delete_paragraphs", {
            "document": uid, "start": 1, "end": 2}))
        return small, large
    (small, large), forms = modern(url, token, steps,
                                   lambda message: ElicitResult(action="accept",
                                                                content={"allow": True}))
    assert not small[0] and not large[0], (small, large)
    assert forms == ["Claude asks to delete 182 words (paragraphs 1\u20132) of \u201c%s\u201d "
                     "at once. Allow this deletion once?" % document.getTitle()]
    office.job("mcp.settle")
    assert texts(document) == ["Victor end"]
    assert redlines(document) == []


def test_a_large_deletion_suggested_is_not_asked_and_the_log_says_asked(office, server, doc):
    tracked = doc(["Whiskey " + LONG, "Xray " + LONG, "Yankee end"], apply="tracked")
    url, token = server

    async def steps(a):
        return await a.call("delete_paragraphs", document=tracked.RuntimeUID, start=1, end=2)
    error, text = agent(url, token, "Claude", steps)
    assert not error, text                  # a suggestion the user reviews: not asked
    assert office.job("mcp.questions") == []
    direct = doc(["Zulu " + LONG, "Alpha " + LONG, "Bravo end"], apply="direct")

    async def direct_steps(a):
        return await a.call("delete_paragraphs", document=direct.RuntimeUID, start=1, end=2)
    error, text = agent(url, token, "Claude", direct_steps)
    assert error and "182 words" in text and "Nothing was changed yet" in text, text
    assert len(texts(direct)) == 3
    lines = office.job("mcp.calls")
    assert any(line.endswith("delete_paragraphs \u00b7 %s \u00b7 asked the user"
                             % direct.getTitle()) for line in lines), lines

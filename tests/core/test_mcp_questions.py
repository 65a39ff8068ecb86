"""Asking the user before an agent's edit (mcp.questions): the rules, the registry across
threads, the revision's input_required result as the official SDK's types read it, and the
protocol passing it through (2026-07-28 only) with the call log saying "asked"."""

import json
import threading

import pytest

from marginalia.document import tool_lines
from marginalia.mcp import call_log, questions as q
from marginalia.mcp.backend import Client, text_result
from marginalia.mcp.protocol import Protocol
from marginalia.ui import agent_banner as ab
from tests.support.mcp_fake import FakeBackend, modern_headers, modern_rpc, rpc


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def kept(mark="MarginaliaKeepOut1_1", first=3):
    place = tool_lines.place(first)
    return q.Ask(q.KEPT_OUT, place.english(), place, mark=mark)


def large(words=212):
    place = tool_lines.place(3, 9)
    return q.Ask(q.LARGE, place.english(), place, words=words)


# -- the rules --------------------------------------------------------------------

@pytest.mark.parametrize("removed, total, expected", [
    (q.LARGE_WORDS, 100000, True),          # many words: large whatever the document
    (q.LARGE_WORDS - 1, 100000, False),
    (30, 50, True),                         # more than half of a short document
    (19, 30, False),                        # a few words: never asked about
    (30, 61, False),
    (25, q.SMALL_DOC - 1, False),           # a very short document: only the count counts
])
def test_a_large_deletion_is_many_words_or_most_of_a_document(removed, total, expected):
    assert q.is_large(removed, lambda: total) is expected


def test_the_document_is_read_only_when_the_count_alone_does_not_decide():
    def unread():
        raise AssertionError("the whole document was read")
    assert q.is_large(q.LARGE_WORDS, unread) is True
    assert q.is_large(q.SMALL_DOC // 2 - 1, unread) is False


def test_a_call_key_is_the_token_the_tool_and_the_arguments():
    key = q.call_key("g1", "delete_paragraphs", {"start": 2, "end": 9, "document": "d"})
    assert key == q.call_key("g1", "delete_paragraphs", {"document": "d", "end": 9, "start": 2})
    assert key != q.call_key("g2", "delete_paragraphs", {"start": 2, "end": 9, "document": "d"})
    assert key != q.call_key("g1", "delete_paragraphs", {"start": 2, "end": 8, "document": "d"})
    assert key != q.call_key("g1", "replace_paragraphs", {"start": 2, "end": 9, "document": "d"})


def test_an_allowance_adds_what_each_answer_let_through():
    allowed = q.NOTHING.plus(kept("M1")).plus(large()).plus(kept("M2"))
    assert allowed.marks == ("M1", "M2") and allowed.large
    assert q.NOTHING.marks == () and not q.NOTHING.large


def test_the_agent_reads_what_was_asked_in_plain_words():
    assert kept().reason() == "paragraph 3 is kept out of Marginalia by the user"
    assert large().reason() == "it would delete 212 words (paragraphs 3\u20139)"
    pending = q.PENDING % large().reason()
    assert "Nothing was changed yet" in pending and "same arguments" in pending


# -- the registry -----------------------------------------------------------------

def test_a_question_is_found_by_its_call_and_reused_while_open():
    clock = Clock()
    reg = q.Questions(clock)
    one = reg.ask("k1", kept(), "Claude", "doc", "Report")
    assert reg.ask("k1", kept(), "Claude", "doc", "Report") is one
    assert reg.find("k1") is one and reg.find("k2") is None
    # A state names its question only for its own call: another call's is not a way in,
    # nor is one made up.
    assert reg.issued(one.id, "k1") is one
    assert reg.issued(one.id, "k2") is None and reg.issued("made-up", "k1") is None
    assert reg.issued(None, "k1") is None and reg.issued({"id": one.id}, "k1") is None
    other = reg.ask("k1", large(), "Claude", "doc", "Report")
    assert other is not one and reg.find("k1") is other and reg.issued(one.id, "k1") is one
    assert [s["id"] for s in reg.open()] == [one.id, other.id]


def test_an_answer_counts_once_and_the_first_answer_wins():
    reg = q.Questions(Clock())
    question = reg.ask("k", kept(), "Claude", "doc", "Report")
    assert reg.answer(question.id, True, "panel")
    assert not reg.answer(question.id, False, "agent's client")
    assert question.answer is True and question.by == "panel"
    assert reg.open() == []
    assert not reg.answer("no-such-question", True, "panel")


def test_a_used_question_is_gone_and_an_old_one_expires():
    clock = Clock()
    reg = q.Questions(clock)
    used = reg.ask("k", kept(), "Claude", "doc", "Report")
    reg.use(used)
    assert reg.find("k") is None
    old = reg.ask("k", kept(), "Claude", "doc", "Report")
    assert old is not used
    clock.now += q.LIFE + 1
    assert reg.find("k") is None and reg.open() == []


def test_a_waiting_call_hears_the_answer_given_on_another_thread():
    reg = q.Questions()
    question = reg.ask("k", large(), "Claude", "doc", "Report")
    threading.Timer(0.2, reg.answer, (question.id, True, "panel")).start()
    assert reg.wait(question, 10) is True
    unanswered = reg.ask("k2", large(), "Claude", "doc", "Report")
    assert reg.wait(unanswered, 0.1) is None


def test_listeners_hear_each_change_and_a_failing_one_costs_nothing():
    reg = q.Questions(Clock())
    heard = []
    reg.add_listener(lambda shown: 1 / 0)
    reg.add_listener(lambda shown: heard.append([s["kind"] for s in shown]))
    question = reg.ask("k", kept(), "Claude", "doc", "Report")
    reg.answer(question.id, False, "panel")
    assert heard == [[q.KEPT_OUT], []]


# -- the revision's way ------------------------------------------------------------

@pytest.mark.parametrize("capabilities, shows", [
    ({"elicitation": {}}, True), ({"elicitation": {"form": {}}}, True),
    ({"elicitation": {"url": {}}}, False), ({}, False), (None, False),
    ({"elicitation": True}, False), ({"sampling": {}}, False)])
def test_a_client_shows_forms_when_its_capabilities_say_so(capabilities, shows):
    assert q.can_show_forms(capabilities) is shows


def test_the_input_required_result_is_what_the_sdk_reads():
    mcp_types = _sdk_types()
    question = q.Questions(Clock()).ask("k", large(), "Claude", "doc", "Report.odt")
    result = q.input_required(question)
    parsed = mcp_types.InputRequiredResult.model_validate(result)
    assert parsed.result_type == "input_required" and parsed.request_state == question.id
    form = parsed.input_requests[q.FORM_KEY]
    assert form.method == "elicitation/create"
    assert form.params.message == ("Claude asks to delete 212 words (paragraphs 3\u20139) of "
                                   "\u201cReport.odt\u201d at once. Allow this deletion once?")
    schema = form.params.requested_schema
    schema = schema if isinstance(schema, dict) else schema.model_dump(by_alias=True)
    assert schema["required"] == [q.ALLOW_FIELD]
    assert schema["properties"][q.ALLOW_FIELD]["type"] == "boolean"
    kept_form = q.input_required(q.Questions(Clock()).ask("k", kept(), "Claude", "d", "R"))
    assert "kept out of Marginalia" in kept_form["inputRequests"][q.FORM_KEY]["params"][
        "message"]


def _sdk_types():
    try:
        import mcp_types
    except ImportError as exc:          # never a skip: the SDK is part of the test setup
        pytest.fail("The official MCP SDK's types are missing (%s): `python3 build.py test` "
                    "installs them." % exc, pytrace=False)
    return mcp_types


@pytest.mark.parametrize("responses, answer", [
    ({q.FORM_KEY: {"action": "accept", "content": {"allow": True}}}, True),
    ({q.FORM_KEY: {"action": "accept", "content": {"allow": False}}}, False),
    ({q.FORM_KEY: {"action": "accept", "content": {"allow": "yes"}}}, False),
    ({q.FORM_KEY: {"action": "accept"}}, False),
    ({q.FORM_KEY: {"action": "decline"}}, False),
    ({q.FORM_KEY: {"action": "cancel"}}, False),
    ({q.FORM_KEY: {"action": "maybe"}}, None),
    ({"other": {"action": "accept", "content": {"allow": True}}}, None),
    (None, None), ("accept", None)])
def test_only_an_accepted_form_with_allow_true_allows(responses, answer):
    assert q.answer_of(responses) is answer


class AskingBackend(FakeBackend):
    """Answers every tools/call of a client that shows forms with a question first."""

    def note_call(self, client, tool, arguments, outcome):
        self.calls.append((client.label, tool, outcome))

    def call_tool(self, client, name, arguments):
        self.seen = (client.forms, client.reply)
        state, responses = client.reply
        if client.forms and state is None:
            question = q.Questions(Clock()).ask("k", large(), client.label, "d", "Report")
            return q.input_required(question)
        return text_result("done: %s" % json.dumps(q.answer_of(responses)))


def _modern_call(proto, arguments, capabilities, **params):
    message = modern_rpc("tools/call", dict({"name": "echo", "arguments": arguments},
                                            **params), capabilities=capabilities)
    headers = modern_headers(message)
    return proto.handle_post(json.dumps(message).encode(), None, headers["MCP_Protocol_Version"],
                             headers["Mcp_Method"], headers["Mcp_Name"])


def test_the_protocol_passes_a_question_through_to_a_modern_client_that_shows_forms():
    backend = AskingBackend()
    proto = Protocol(backend)
    asked = _modern_call(proto, {"text": "x"}, {"elicitation": {}})
    assert asked.status == 200
    result = asked.body["result"]
    assert result["resultType"] == "input_required" and result["requestState"]
    assert "isError" not in result and backend.seen == (True, (None, None))
    assert backend.calls[-1][-1] == call_log.ASKED
    answer = {q.FORM_KEY: {"action": "accept", "content": {"allow": True}}}
    done = _modern_call(proto, {"text": "x"}, {"elicitation": {}},
                        requestState=result["requestState"], inputResponses=answer)
    assert done.body["result"]["resultType"] == "complete"
    assert done.body["result"]["content"][0]["text"] == "done: true"
    assert backend.seen == (True, (result["requestState"], answer))
    # A client without forms is never sent one.
    plain = _modern_call(proto, {"text": "x"}, {})
    assert plain.body["result"]["resultType"] == "complete" and backend.seen[0] is False


class StateCheckingBackend(FakeBackend):
    """Refuses any requestState it did not issue, as the office's backend does."""

    def call_tool(self, client, name, arguments):
        from marginalia.mcp.backend import BadRequestState
        if client.reply[0] is not None:
            raise BadRequestState(q.BAD_STATE)
        return text_result("fresh")


def test_a_state_the_server_did_not_issue_is_refused_with_invalid_params():
    proto = Protocol(StateCheckingBackend())
    answer = _modern_call(proto, {"text": "x"}, {"elicitation": {}}, requestState="forged",
                          inputResponses={q.FORM_KEY: {"action": "accept",
                                                       "content": {"allow": True}}})
    assert answer.status == 400
    assert answer.body["error"]["code"] == -32602
    assert answer.body["error"]["message"] == q.BAD_STATE
    assert _modern_call(proto, {"text": "x"}, {}).body["result"]["content"][0]["text"] == \
        "fresh"


def test_a_handshake_client_never_gets_an_input_required_result():
    class Pushy(FakeBackend):
        def call_tool(self, client, name, arguments):
            return q.input_required(q.Questions(Clock()).ask("k", large(), "A", "d", "R"))
    proto = Protocol(Pushy())
    opened = proto.handle_post(json.dumps(rpc("initialize", {
        "protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "old", "version": "1"}})).encode())
    session = opened.session_id
    answer = proto.handle_post(json.dumps(rpc("tools/call", {"name": "echo", "arguments": {
        "text": "x"}}, 2)).encode(), session_id=session)
    assert answer.body["result"]["isError"] is True
    assert "input_required" not in json.dumps(answer.body)


def test_a_client_is_copied_with_the_reply_of_its_retried_call():
    client = Client("", "agent", forms=True)
    acting = client.acting(client.grant, ("state", {"a": 1}))
    assert acting.forms and acting.reply == ("state", {"a": 1})
    assert client.reply == (None, None)


# -- the panel's row ---------------------------------------------------------------

def _open(ask, document="doc-1", agent="Claude"):
    question = q.Questions(Clock()).ask("k", ask, agent, document, "Report")
    return question.state()


def test_the_row_asks_about_a_kept_out_passage_with_allow_once_and_refuse():
    shown = ab.banner([], "doc-1", asked=[_open(kept())])
    assert shown.text == ("Claude asks to change paragraph 3, which you keep Marginalia out "
                          "of. Allow it this once?")
    assert shown.question and not shown.stop
    assert shown.allow_name == "Allow Claude this one change"
    assert shown.refuse_name == "Refuse Claude this change"
    assert ab.banner([], "doc-2", asked=[_open(kept())]) == ab.HIDDEN


def test_the_row_asks_about_a_large_deletion_and_a_question_comes_before_editing():
    turns = [{"agent": "Claude", "session": "s", "document": "doc-1", "since": 1.0}]
    shown = ab.banner(turns, "doc-1", asked=[_open(large(1))])
    assert shown.text == ("Claude asks to delete 1 word at once (paragraphs 3\u20139). "
                          "Allow it this once?")
    assert shown.question
    assert ab.banner(turns, "doc-1").stop == ("Claude",)


def test_the_answers_sit_side_by_side_at_the_default_width_and_stack_when_wide():
    shown = ab.banner([], "doc-1", asked=[_open(kept())])
    height, boxes = ab.layout(192, 0, shown, 0, (70, 60))
    assert set(boxes) == {"text", "allow", "refuse"}
    ax, ay, aw, _ = boxes["allow"]
    rx, ry, _, _ = boxes["refuse"]
    assert ay == ry and rx >= ax + aw and rx + 60 <= 192 - ab.MARGIN
    assert ay >= boxes["text"][1] + boxes["text"][3] and height >= ay + ab.ROW
    # German's longer labels: one above the other, each whole.
    tall, stacked = ab.layout(192, 0, shown, 0, (120, 100))
    assert stacked["refuse"][1] > stacked["allow"][1] and tall > height
    assert stacked["allow"][2] == 120 and stacked["refuse"][2] == 100

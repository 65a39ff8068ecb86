"""The rewrite protocol's requests: what changes rides on the user's message, after what
does not (chat.attach), the fenced edit (chat.textcalls) and the loop's use of both."""

from marginalia.chat import attach, rounds
from marginalia.chat.loop import Conversation, run_turn
from marginalia.chat.tools import ToolRegistry
from marginalia.chat.transport import CancelToken
from marginalia.config import Settings
from marginalia.errors import EndpointError
from marginalia.events import TEXT, TOOL_RESULT
from tests.core.test_loop import FakeClient, Recorder, pieces
from tests.support.sse_server import text_response, tool_calls_response

VIEW = "The document \u201cVisit\u201d: 2 paragraphs.\n1: # Visit\n2: We will recieve them."
EDITED = "The document \u201cVisit\u201d: 2 paragraphs.\n1: # Visit\n2: We will receive them."


def test_the_view_goes_with_a_message_only_when_it_changed():
    messages = []
    first = attach.user_message("Fix it.", attach.Attachments(VIEW, "", ""), messages)
    assert first == {"role": "user", "content": "Fix it.", "document": VIEW}
    messages += [first, {"role": "assistant", "content": "Done."}]
    again = attach.user_message("And now?", attach.Attachments(VIEW, "", "Sel."), messages)
    assert again == {"role": "user", "content": "And now?", "note": "Sel."}
    changed = attach.user_message("Next.", attach.Attachments(EDITED, "", ""), messages)
    assert changed["document"] == EDITED
    # No attachments (the tools protocol, a quick action): the message as it is.
    assert attach.user_message("Hi", None, messages) == {"role": "user", "content": "Hi"}


def test_rendering_folds_the_keys_into_the_text_and_puts_a_dropped_view_back():
    sent = attach.render([{"role": "user", "content": "Fix it.", "document": VIEW,
                           "note": "Sel."}], None)
    assert sent == [{"role": "user", "content": VIEW + "\n\nSel.\n\nMy request: Fix it."}]
    # The budget dropped the message that held the view: the newest message gets it.
    kept = [{"role": "user", "content": "And now?"}]
    assert attach.render(kept, attach.Attachments(VIEW))[0]["content"].startswith(VIEW)
    # Still there: nothing is added.
    both = [{"role": "user", "content": "Fix.", "document": VIEW},
            {"role": "assistant", "content": "Done."}, {"role": "user", "content": "More?"}]
    assert attach.render(both, attach.Attachments(VIEW))[2] == {"role": "user",
                                                                "content": "More?"}


def _edit_registry(calls):
    registry = ToolRegistry()

    def edit(text):
        calls.append(text)
        return "Done: paragraph 2 revised."
    registry.register("edit", "Change the document.", {
        "type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
        edit, edits=True)
    return registry


def _run(client, conversation, registry, text, attachments):
    recorder = Recorder()
    result = run_turn(client, conversation, text, registry, Settings(model="m"), recorder,
                      CancelToken(), attachments=attachments)
    return result, recorder


def test_the_system_message_and_tools_stay_byte_identical_across_turns():
    calls = []
    client = FakeClient(
        pieces(tool_calls_response([("c1", "edit", {"text": "2: We will receive them."})])),
        pieces(text_response("Two paragraphs.")), pieces(text_response("Yes.")))
    conversation = Conversation()
    registry = _edit_registry(calls)
    _run(client, conversation, registry, "Fix it.", attach.Attachments(VIEW))
    _run(client, conversation, registry, "How long is it?", attach.Attachments(EDITED))
    _run(client, conversation, registry, "Sure?", attach.Attachments(EDITED))
    bodies = client.bodies
    # The edit made, the turn ended there: no round for a summary.
    assert calls == ["2: We will receive them."] and len(bodies) == 3
    system = bodies[0]["messages"][0]
    assert all(b["messages"][0] == system and b["tools"] == bodies[0]["tools"] for b in bodies)
    assert "recieve" not in system["content"] and "Visit" not in system["content"]
    # The edit is remembered as the block the model wrote; the next message brings the
    # edited view, and the question after it only the question.
    assert bodies[1]["messages"][2] == {"role": "assistant",
                                        "content": "```edit\n2: We will receive them.\n```"}
    assert bodies[1]["messages"][-1]["content"].startswith(EDITED)
    assert bodies[2]["messages"][:len(bodies[1]["messages"])] == bodies[1]["messages"]
    assert bodies[2]["messages"][-1]["content"] == "Sure?"
    # No attachment key reaches the server.
    assert not any(k in m for b in bodies for m in b["messages"] for k in attach.KEYS)


def test_a_fenced_edit_is_a_call_and_never_shown():
    calls = []
    answer = "I fixed it.\n```edit\n2: We will receive them.\n```\nAnything else?"
    client = FakeClient(pieces(text_response(answer)), pieces(text_response("Done.")))
    conversation = Conversation()
    result, recorder = _run(client, conversation, _edit_registry(calls), "Fix it.",
                            attach.Attachments(VIEW))
    assert calls == ["2: We will receive them."]
    shown = "".join(e.text for e in recorder.kinds(TEXT))
    assert "```" not in shown and "I fixed it." in shown and "Anything else?" in shown
    assert [e.ok for e in recorder.kinds(TOOL_RESULT)] == [True]
    assert len(client.bodies) == 1          # the edit ended the turn


def test_without_tools_the_fenced_exchange_stays_text():
    """Ollama refuses tools for a model without them: the prompt teaches the fence either
    way, and the exchange stays text (no tool calls or tool messages go to that server)."""
    calls = []
    refused = EndpointError("model does not support tools", status=400)
    refused.no_tools = True
    client = FakeClient(refused,
                        pieces(text_response("Here:\n```edit\n2: We will receive them.\n```")),
                        pieces(text_response("You're welcome.")))
    conversation = Conversation()
    result, recorder = _run(client, conversation, _edit_registry(calls), "Fix it.",
                            attach.Attachments(VIEW))
    assert calls == ["2: We will receive them."] and result.error is None
    second = client.bodies[1]
    assert "tools" not in second and "```edit" in second["messages"][0]["content"]
    assert conversation.messages[1:] == [{"role": "assistant", "content":
                                          "Here:\n\n```edit\n2: We will receive them.\n```"}]
    _run(client, conversation, _edit_registry(calls), "Thanks.", attach.Attachments(EDITED))
    third = client.bodies[2]
    assert not any(m.get("tool_calls") or m["role"] == "tool" for m in third["messages"])
    # A failed edit is told to the model as text too (a user message), and it goes on.
    messages = [{"role": "user", "content": "Fix."},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "c", "type": "function",
                     "function": {"name": "edit", "arguments": '{"text": "9: x"}'}}]},
                {"role": "tool", "tool_call_id": "c", "content": "Error: No line 9."}]
    ended = rounds.settle(messages, 2, [{"id": "c", "name": "edit",
                                            "arguments": '{"text": "9: x"}'}],
                             [(("edit", False), "edit failed")], _edit_registry([]), "edit",
                             attach.Attachments(VIEW), [])
    assert not ended and messages[1:] == [
        {"role": "assistant", "content": "```edit\n9: x\n```"},
        {"role": "user", "content": "[The result of your edit] Error: No line 9."}]

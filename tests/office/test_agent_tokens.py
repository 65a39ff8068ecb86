"""Tokens with a scope against the real office (issue 41): what each token lets an agent do.

The server runs in the headless office with the profile's tokens (office.mcp_token);
the agent is a raw HTTP client (tests/support/mcp_fake.Http) sending exactly what it
wants, rights included, so only the token can decide. A read-only token must not change
a document by any tool, resource or prompt; a comment-only token's edits become
comments; suggest makes tracked changes even when the user lets agents edit directly;
the tokens and their scopes survive an office restart.
"""

import pytest

from marginalia.document import tool_specs
from marginalia.mcp import scopes
from tests.support.mcp_fake import Http, rpc
from tests.support.writer import annotations, build, redlines, texts

LINES = ("Alpha river runs north", "Bravo hill stands tall", "Charlie field grows wide")


def _every_call(uid):
    """One call of each tool agents are offered, with arguments it would accept. A tool
    missing here fails the test: a new tool must be tried too."""
    calls = {
        "get_document_info": {}, "read_document": {}, "get_selection": {},
        "search_document": {"query": "hill"},
        "replace_text": {"search": "river", "replacement": "creek"},
        "insert_paragraphs": {"after_paragraph": 1, "markdown": "A new line."},
        "replace_paragraphs": {"start": 2, "end": 2, "markdown": "Bravo hill, rewritten."},
        "delete_paragraphs": {"start": 3, "end": 3},
        "replace_selection": {"markdown": "Typed over."},
        "set_paragraph_style": {"start": 1, "end": 1, "style": "Heading 1"},
        "format_text": {"search": "field", "bold": True},
        "add_comment": {"search": "hill", "comment": "Is it tall?"},
        "insert_table": {"after_paragraph": 1, "rows": [["a", "b"], ["1", "2"]]},
    }
    offered = [spec.name for spec in tool_specs.offered(tool_specs.TOOLS)]
    assert sorted(calls) == sorted(offered), "try every tool: %s" % sorted(offered)
    return [(name, dict(arguments, document=uid)) for name, arguments in calls.items()]


@pytest.fixture
def served(office):
    started = office.job("mcp.start", port=0, fresh=True)
    made = []

    def token(name, scope):
        added = office.job("mcp.add_token", name=name, scope=scope)
        made.append(added["id"])
        return added["secret"]
    yield started["port"], token
    office.job("mcp.settle")
    for token_id in made:
        office.job("mcp.revoke", id=token_id)
    office.job("mcp.stop")


@pytest.fixture
def document(office):
    made = []

    def make():
        doc = build(office, [("Standard", line) for line in LINES])
        doc.setModified(False)
        made.append(doc)
        return doc
    yield make
    for doc in made:
        office.close(doc)


def _call(http, name, arguments):
    status, _headers, body = http.post(rpc("tools/call", {"name": name,
                                                          "arguments": arguments}))
    assert status == 200, body
    return body["result"]


def test_a_read_only_token_changes_nothing_by_any_tool_resource_or_prompt(office, served,
                                                                          document):
    port, token = served
    doc = document()
    uid = doc.RuntimeUID
    reader = Http(port, token("Research agent", scopes.READ))
    reader.initialize(name="Researcher")
    status, _h, body = reader.post(rpc("tools/list"))
    listed = sorted(t["name"] for t in body["result"]["tools"])
    reading = sorted(["list_documents"] + [s.name for s in tool_specs.offered(tool_specs.TOOLS)
                                           if not s.edits])
    assert listed == reading
    refused = []
    for name, arguments in _every_call(uid):
        result = _call(reader, name, arguments)
        if tool_specs.spec(name).edits:
            assert result["isError"] is True, (name, result)
            assert result["content"][0]["text"] == scopes.READ_ONLY
            refused.append(name)
        else:
            assert result["isError"] is False, (name, result)
    assert len(refused) == 9
    # The resource and every prompt: read, and nothing changes either.
    status, _h, body = reader.post(rpc("resources/read",
                                       {"uri": "marginalia://document/%s" % uid}))
    assert "Bravo hill stands tall" in body["result"]["contents"][0]["text"]
    status, _h, body = reader.post(rpc("prompts/list"))
    for prompt in body["result"]["prompts"]:
        status, _h, got = reader.post(rpc("prompts/get", {"name": prompt["name"],
                                                          "arguments": {"argument": "German"}}))
        assert "result" in got, got
    office.job("mcp.settle")
    assert texts(doc) == list(LINES)
    assert doc.isModified() is False
    assert list(doc.getUndoManager().getAllUndoActionTitles()) == []
    assert redlines(doc) == [] and annotations(doc) == []


def _replace_as(office, port, secret, agent, doc):
    """The agent with this token replaces "river" in ``doc``; its turn is closed after."""
    http = Http(port, secret)
    http.initialize(name=agent)
    result = _call(http, "replace_text", {"document": doc.RuntimeUID, "search": "river",
                                          "replacement": "creek"})
    assert result["isError"] is False, result
    office.job("mcp.settle")


def test_comment_and_suggest_tokens_are_held_to_their_scope_whatever_the_user_s_mode(
        office, served, document):
    port, token = served
    office.job("settings.save", mcp_apply_mode="direct")
    try:
        doc = document()
        _replace_as(office, port, token("Reviewer", scopes.COMMENT), "Reviewer", doc)
        assert texts(doc) == list(LINES)                   # the text is as it was...
        notes = annotations(doc)
        assert len(notes) == 1 and "creek" in notes[0][1]  # ...with the edit proposed
        assert redlines(doc) == []

        doc = document()
        _replace_as(office, port, token("Drafter", scopes.SUGGEST), "Drafter", doc)
        assert redlines(doc) and set(a for _t, a in redlines(doc)) == {
            "Drafter via Marginalia"}

        doc = document()
        _replace_as(office, port, token("Coder", scopes.EDIT), "Coder", doc)
        assert texts(doc)[0] == "Alpha creek runs north" and redlines(doc) == []
    finally:
        office.job("settings.save", mcp_apply_mode="tracked")


def test_a_revoked_token_is_refused_at_once(office, served):
    port, token = served
    secret = token("Short-lived", scopes.EDIT)
    agent = Http(port, secret)
    agent.initialize()
    ident = [t["id"] for t in office.job("mcp.tokens") if t["name"] == "Short-lived"]
    office.job("mcp.revoke", id=ident[0])
    status, _h, _body = agent.post(rpc("tools/list"))
    assert status == 401
    assert "Short-lived" not in [t["name"] for t in office.job("mcp.tokens")]


def test_tokens_and_their_scopes_survive_an_office_restart(office):
    office.job("mcp.start", port=0, fresh=True)
    made = {}
    for name, scope in (("Lecteur \u00e9tudiant", scopes.READ),
                        ("\u0645\u0631\u0627\u062c\u0639", scopes.COMMENT)):
        made[name] = office.job("mcp.add_token", name=name, scope=scope)
    office.job("mcp.stop")
    try:
        office.office.restart()
        office.job("ping")
        listed = office.job("mcp.tokens")
        kept = dict((t["name"], (t["id"], t["scope"])) for t in listed)
        assert len(kept) >= 3, listed
        assert kept["Lecteur \u00e9tudiant"] == (made["Lecteur \u00e9tudiant"]["id"], scopes.READ)
        assert kept["\u0645\u0631\u0627\u062c\u0639"][1] == scopes.COMMENT
        # And the server started afresh acts on them: the reader still only reads.
        started = office.job("mcp.start", port=0, fresh=True)
        reader = Http(started["port"], made["Lecteur \u00e9tudiant"]["secret"])
        reader.initialize()
        status, _h, body = reader.post(rpc("tools/list"))
        assert "replace_text" not in [t["name"] for t in body["result"]["tools"]]
        assert "read_document" in [t["name"] for t in body["result"]["tools"]]
    finally:
        for added in made.values():
            office.job("mcp.revoke", id=added["id"])
        office.job("mcp.stop")


def test_the_administrator_s_cap_holds_every_token_to_it(office, document):
    from tests.office.test_mcp import _set_policy
    _set_policy(office, agents_scope="comment")
    made = None
    try:
        started = office.job("mcp.start", port=0, fresh=True)
        made = office.job("mcp.add_token", name="Full rights", scope=scopes.EDIT)
        doc = document()
        _replace_as(office, started["port"], made["secret"], "Coder", doc)
        assert texts(doc) == list(LINES) and len(annotations(doc)) == 1
        office.job("mcp.stop")
        # "off": no server at all, whatever the setting and the tokens say.
        _set_policy(office, agents_scope="off")
        with pytest.raises(Exception) as refused:
            office.job("mcp.start", port=0)
        assert "does not allow outside agents" in str(refused.value)
    finally:
        _set_policy(office, agents_scope="")
        if made is not None:
            office.job("mcp.revoke", id=made["id"])
        office.job("mcp.stop")

"""Outside agents in Writer over MCP (issue 27): the official MCP SDK against the real office.

The server runs inside the headless office (mcp.start: a free port, the profile's
token); the agent is the SDK's ClientSession over Streamable HTTP
(tests/support/mcp_client.py). What must hold: the document tools with a document
argument, edits as tracked changes by "<agent> via Marginalia", one undo step per
agent turn (calls within office.mcp_turns.IDLE), keep-out marks kept unless the user
allows the one edit, documents addressed by id, a closed document a plain error, Stop
refusing an agent's calls.
"""

import json
import os
import threading
import time

import pytest

from tests.support.mcp_client import agent, sleep
from tests.support.sse_server import ScriptedServer, text_response, tool_calls_response
from tests.support.writer import annotations, build, redlines, select, texts

# office.mcp_turns.IDLE, with room for a busy machine.
IDLE = 3.0
AFTER_IDLE = IDLE + 2.0
CLAUDE = "Claude via Marginalia"


@pytest.fixture
def server(office):
    started = office.job("mcp.start", port=0, fresh=True)
    assert started["port"] > 0 and len(started["token"]) >= 32
    yield "http://127.0.0.1:%d/mcp" % started["port"], started["token"]
    office.job("mcp.settle")
    office.job("mcp.stop")


@pytest.fixture
def docs(office):
    made = []

    def make(*lines):
        doc = build(office, [("Standard", line) for line in lines])
        made.append(doc)
        return doc
    yield make
    for doc in made:
        try:
            office.close(doc)
        except Exception:
            pass            # the test closed it itself


def _titles(doc):
    return list(doc.getUndoManager().getAllUndoActionTitles())


def test_an_agent_reads_and_its_turn_is_one_undo_step_of_tracked_suggestions(office, server,
                                                                             docs):
    doc = docs("Alpha river runs", "Bravo hill stands", "Charlie field grows")
    uid = doc.RuntimeUID

    async def steps(a):
        tools = await a.tools()
        assert {"list_documents", "read_document", "replace_text"} <= set(tools)
        assert "document" in tools["replace_text"].input_schema["properties"]
        listed = await a.documents()
        assert {"id": uid, "title": doc.getTitle()} in listed
        error, text = await a.call("read_document", document=uid)
        assert not error and "Bravo hill stands" in text
        first = await a.call("replace_text", document=uid, search="river", replacement="creek")
        second = await a.call("replace_text", document=uid, search="hill", replacement="tower")
        during = office.job("mcp.state")["active"]
        return first, second, during
    url, token = server
    first, second, during = agent(url, token, "Claude", steps)
    assert not first[0] and not second[0], (first, second)
    # While the turn is open the state names the agent and the document.
    assert [(s["agent"], s["document"], s["author"]) for s in during] == [
        ("Claude", uid, CLAUDE)]
    # The turn closes when the agent's session ends (the SDK's DELETE) or its window passes
    # (the next test shows the window alone splitting two turns).
    deadline = time.time() + AFTER_IDLE + 5
    while office.job("mcp.state")["active"] and time.time() < deadline:
        time.sleep(0.2)
    assert office.job("mcp.state")["active"] == []
    assert _titles(doc) == [CLAUDE]
    authors = set(author for _type, author in redlines(doc))
    assert authors == {CLAUDE}, redlines(doc)
    # Recording is the user's again: the turn switched it on and back off.
    assert doc.getPropertyValue("RecordChanges") is False
    # The turn's change records reach the document's chat log, which the change card reads.
    deadline = time.time() + 5
    changes = []
    while len(changes) < 2 and time.time() < deadline:
        changes = [e["change"] for e in office.job("chat.state", doc)["log"]
                   if e["type"] == "change"]
        time.sleep(0.1)
    assert [(c["tool"], c["state"]) for c in changes] == [("replace_text", "pending")] * 2
    assert len(set(c["turn"] for c in changes)) == 1


def test_each_agent_turn_is_its_own_step_and_another_agent_ends_a_turn(office, server, docs):
    doc = docs("Delta one", "Echo two", "Foxtrot three")
    uid = doc.RuntimeUID
    url, token = server

    async def twice(a):
        assert not (await a.call("replace_text", document=uid, search="one",
                                 replacement="uno"))[0]
        await sleep(AFTER_IDLE)         # quiet past the window: the next call is a new turn
        assert not (await a.call("replace_text", document=uid, search="two",
                                 replacement="dos"))[0]
    agent(url, token, "Claude", twice)

    async def other(a):
        return await a.call("replace_text", document=uid, search="three", replacement="tres")
    assert not agent(url, token, "Codex", other)[0]
    office.job("mcp.settle")
    assert _titles(doc) == ["Codex via Marginalia", CLAUDE, CLAUDE]
    assert sorted(set(a for _t, a in redlines(doc))) == [CLAUDE, "Codex via Marginalia"]
    # Suggestions, not edits: each replacement is a deletion and an insertion to review.
    assert len(redlines(doc)) >= 3


def test_the_panel_starting_a_turn_ends_the_agents_turn_on_that_document(office, server, docs):
    doc = docs("Papa before the panel")
    uid = doc.RuntimeUID

    async def steps(a):
        assert not (await a.call("replace_text", document=uid, search="before",
                                 replacement="ahead of"))[0]
        assert [s["agent"] for s in office.job("mcp.state")["active"]] == ["Claude"]
        with ScriptedServer([text_response("Hello.")]) as srv:
            started = time.time()
            assert office.job("chat.start", doc, message="hi", settings={
                "endpoint": srv.url, "model": "test-model", "edit_protocol": "tools"}) == {"started": True}
            # Well before the idle window ends it: the panel's turn closed the agent's.
            while office.job("mcp.state")["active"] and time.time() - started < IDLE - 0.5:
                await sleep(0.05)
            ended = office.job("mcp.state")["active"]
            while office.job("chat.poll", doc)["busy"]:
                await sleep(0.05)
        return ended
    assert agent(*server, "Claude", steps) == []
    assert _titles(doc) == [CLAUDE]


def test_an_agent_is_refused_while_the_panel_edits_and_every_panel_edit_stays_tracked(
        office, server, docs):
    # The panel (a real chat turn, Suggest edits) and an agent on one document at once:
    # the agent's turn used to switch recording off under the panel's, leaving the
    # panel's later edit untracked, and the agent's own edit landed amid the panel's.
    doc = docs("Alpha one", "Bravo two", "Charlie three", "Delta four")
    uid = doc.RuntimeUID
    script = [
        tool_calls_response([("c1", "replace_text", {"search": "Alpha", "replacement": "ALPHA"})],
                            head_delay=1.5),
        tool_calls_response([("c2", "replace_text", {"search": "Delta", "replacement": "DELTA"})],
                            head_delay=AFTER_IDLE),
        text_response("Done."),
    ]
    with ScriptedServer(script) as srv:
        assert office.job("chat.start", doc, message="edit", settings={
            "endpoint": srv.url, "model": "test-model", "apply_mode": "tracked",
            "edit_protocol": "tools",
            "track_changes": True}) == {"started": True}

        async def steps(a):
            await sleep(0.3)
            during = await a.call("replace_text", document=uid, search="Bravo",
                                  replacement="BRAVO")
            await sleep(2.0)        # the panel's first edit happens meanwhile
            return during
        refused = agent(*server, "Claude", steps)
        deadline = time.time() + 30
        while office.job("chat.poll", doc)["busy"] and time.time() < deadline:
            time.sleep(0.1)
    assert refused[0] and "user's chat" in refused[1] and "nothing was changed" in refused[1]
    assert "Traceback" not in refused[1]
    office.job("mcp.settle")
    assert "BRAVO" not in " ".join(texts(doc))
    # Both panel edits are suggestions (a deletion and an insertion each), the agent made none.
    assert sorted(author for _t, author in redlines(doc)) == ["Marginalia (AI)"] * 4
    assert doc.getPropertyValue("RecordChanges") is False

    async def after(a):
        return await a.call("replace_text", document=uid, search="Bravo", replacement="BRAVO")
    assert not agent(*server, "Claude", after)[0]      # served again once the panel is done
    office.job("mcp.settle")
    assert len([r for r in redlines(doc) if r[1] == CLAUDE]) == 2


def test_an_agent_turn_ending_mid_panel_turn_leaves_recording_on_for_the_panel(
        office, server, docs):
    # Recording is counted per document: the agent's turn idling out while a tracked
    # toolbox turn (writer.call_tools, as the panel's) still edits must not switch it off.
    doc = docs("Alpha one", "Bravo two", "Charlie three", "Delta four")
    uid = doc.RuntimeUID

    ended = []

    async def steps(a):
        out = await a.call("replace_text", document=uid, search="Bravo", replacement="BRAVO")
        await sleep(0.3)        # its session ends then, and its turn with it
        return out

    def run_agent():
        ended.append(agent(*server, "Claude", steps))
        ended.append(time.time())
    thread = threading.Thread(target=run_agent)
    thread.start()
    deadline = time.time() + 10
    while not doc.getPropertyValue("RecordChanges") and time.time() < deadline:
        time.sleep(0.02)
    # A toolbox turn (writer.call_tools, as the panel's) whose first edit comes while the
    # agent's turn is open and whose last edit comes after it closed.
    calls = [{"name": "replace_text", "arguments": {"search": "Alpha", "replacement": "ALPHA"}}]
    calls += [{"name": "read_document", "arguments": {}}] * 1500
    calls += [{"name": "replace_text", "arguments": {"search": "Delta", "replacement": "DELTA"}}]
    office.job("writer.call_tools", doc, apply="tracked", title="panel", calls=calls)
    finished = time.time()
    thread.join()
    assert not ended[0][0], ended
    assert finished > ended[1] + 0.5, "the toolbox turn must outlast the agent's"
    office.job("mcp.settle")
    ai = [r for r in redlines(doc) if r[1] == "Marginalia (AI)"]
    assert len(ai) == 4, redlines(doc)
    assert len([r for r in redlines(doc) if r[1] == CLAUDE]) == 2
    assert doc.getPropertyValue("RecordChanges") is False


def test_the_outside_agents_apply_mode_setting_holds_for_their_turns(office, server, docs):
    doc = docs("Quebec keeps its words")
    uid = doc.RuntimeUID
    office.job("settings.save", mcp_apply_mode="comments")
    try:
        async def steps(a):
            return await a.call("replace_text", document=uid, search="keeps",
                                replacement="changes")
        error, text = agent(*server, "Claude", steps)
        office.job("mcp.settle")
    finally:
        office.job("settings.save", mcp_apply_mode="tracked")
    assert not error, text
    # Comment only: the text stays, a comment proposes the change; no tracked change.
    assert texts(doc) == ["Quebec keeps its words"] and redlines(doc) == []
    assert [c for _a, c, _t in annotations(doc) if "changes" in c], annotations(doc)


def test_a_kept_out_passage_is_left_as_it_is_until_the_user_allows_it(office, server, docs):
    doc = docs("Golf alpha", "Hotel secret words", "India gamma")
    select(doc, "Hotel")
    assert office.job("review.keepout", document=doc, action="toggle")["sentence"]
    uid = doc.RuntimeUID

    async def steps(a):
        return await a.call("replace_text", document=uid, search="secret",
                            replacement="public")
    # The user is asked (tests/office/test_agent_questions.py); unanswered, nothing changes.
    old = office.job("mcp.ask_wait", seconds=1.0)
    try:
        error, text = agent(*server, "Claude", steps)
    finally:
        office.job("mcp.ask_wait", seconds=old)
        for question in office.job("mcp.questions"):
            office.job("mcp.answer", id=question["id"], allow=False)
    assert error and "kept out of Marginalia" in text and "Nothing was changed" in text, text
    office.job("mcp.settle")
    assert texts(doc)[1] == "Hotel secret words" and redlines(doc) == []
    assert CLAUDE not in _titles(doc)


def test_two_documents_are_addressed_by_id_and_a_missing_id_is_asked_for(office, server,
                                                                         docs):
    one = docs("Juliet first document")
    two = docs("Kilo second document")

    async def steps(a):
        ids = [d["id"] for d in await a.documents()]
        assert one.RuntimeUID in ids and two.RuntimeUID in ids
        unnamed = await a.call("read_document")
        a_read = await a.call("read_document", document=two.RuntimeUID)
        edit = await a.call("replace_text", document=one.RuntimeUID, search="first",
                            replacement="opening")
        wrong = await a.call("read_document", document="no-such-document")
        uris = [str(r.uri) for r in await a.resources()]
        resource = await a.read("marginalia://document/" + two.RuntimeUID)
        return unnamed, a_read, edit, wrong, uris, resource
    unnamed, a_read, edit, wrong, uris, resource = agent(*server, "Claude", steps)
    assert unnamed[0] and "list_documents" in unnamed[1], unnamed
    assert not a_read[0] and "Kilo second" in a_read[1] and "Juliet" not in a_read[1]
    assert not edit[0], edit
    assert wrong[0] and "list_documents" in wrong[1], wrong
    assert "marginalia://document/" + one.RuntimeUID in uris
    assert "Kilo second" in resource
    office.job("mcp.settle")
    assert [a for _t, a in redlines(one)] and redlines(two) == []
    assert _titles(two) == []


def test_a_document_closed_mid_turn_gives_a_plain_error_and_nothing_else_changes(
        office, server, docs):
    gone = docs("Lima to close")
    stays = docs("Mike stays open")
    gone_id, stays_id = gone.RuntimeUID, stays.RuntimeUID

    async def steps(a):
        assert not (await a.call("replace_text", document=gone_id, search="close",
                                 replacement="shut"))[0]
        office.close(gone)
        after = await a.call("replace_text", document=gone_id, search="Lima",
                             replacement="Oscar")
        other = await a.call("read_document", document=stays_id)
        return after, other
    after, other = agent(*server, "Claude", steps)
    assert after[0] and "closed" in after[1] and "Traceback" not in after[1], after
    assert not other[0] and "Mike stays open" in other[1]
    office.job("mcp.settle")
    assert office.job("mcp.state")["active"] == []
    # The closed document's lock went with it; the open one's stays.
    locked = office.job("mcp.locked_documents")
    assert gone_id not in locked and stays_id in locked
    assert texts(stays) == ["Mike stays open"] and _titles(stays) == []


def test_stop_refuses_the_agents_further_calls_and_no_one_elses(office, server, docs):
    doc = docs("November plain text")
    uid = doc.RuntimeUID

    async def steps(a):
        before = await a.call("read_document", document=uid)
        closed = office.job("mcp.stop_agent", name="Claude")
        after = await a.call("replace_text", document=uid, search="plain",
                             replacement="fancy")
        listed = await a.call("list_documents")
        return before, closed, after, listed
    before, closed, after, listed = agent(*server, "Claude", steps)
    assert not before[0] and closed == 1
    assert after[0] and "stopped" in after[1], after
    assert listed[0] and "stopped" in listed[1], listed
    assert office.job("mcp.state")["stopped"] == ["Claude"]

    async def other(a):
        return await a.call("read_document", document=uid)
    assert not agent(*server, "Codex", other)[0]
    office.job("mcp.settle")
    assert texts(doc) == ["November plain text"] and redlines(doc) == []


def test_a_stopped_agent_is_refused_under_its_name_in_another_case_or_spacing(office, server,
                                                                            docs):
    # The name is the client's own say: "claude" used to be served after Stop on "Claude".
    doc = docs("Oscar plain text")
    uid = doc.RuntimeUID

    async def first(a):
        assert not (await a.call("read_document", document=uid))[0]
        office.job("mcp.stop_agent", name="Claude")
    agent(*server, "Claude", first)

    async def edit(a):
        return await a.call("replace_text", document=uid, search="plain", replacement="fancy")
    for name in ("claude", " CLAUDE ", "Claude"):
        refused = agent(*server, name, edit)
        assert refused[0] and "stopped" in refused[1], (name, refused)
    assert office.job("mcp.state")["stopped"] == ["Claude"]
    office.job("mcp.settle")
    assert texts(doc) == ["Oscar plain text"] and redlines(doc) == []
    # Another agent is served; a resume under another spelling takes the Stop back.
    assert not agent(*server, "Codex", lambda a: a.call("read_document", document=uid))[0]
    office.job("mcp.resume_agent", name="claude")
    assert office.job("mcp.state")["stopped"] == []
    assert not agent(*server, "Claude", edit)[0]


def _card_changes(office, doc, count):
    deadline = time.time() + 10
    changes = []
    while len(changes) < count and time.time() < deadline:
        changes = [e["change"] for e in office.job("chat.state", doc)["log"]
                   if e["type"] == "change"]
        time.sleep(0.1)
    return changes


def test_a_closing_agent_turn_hands_its_changes_on_without_touching_the_profile_name(
        office, server, docs):
    # The hand-off made the document's chat session off the main thread, and a new one
    # ran the crash recovery of the profile name: amid another agent's edit (its name
    # swapped in, the rescue file written) that gave the user's name back mid-edit.
    from tests.office.test_writer_safety import _set_profile_name, profile_name
    rescue = os.path.join(office.profile_dir, "user", "marginalia", "author-rescue.json")
    user = profile_name(office)
    _set_profile_name(office, ("Ada", "Lovelace"))
    try:
        doc, other = docs("Romeo one", "Romeo two"), docs("Sierra one", "Sierra two")
        uid, other_uid = doc.RuntimeUID, other.RuntimeUID

        async def edits(a, key):
            for n in ("one", "two"):
                assert not (await a.call("replace_text", document=key, search=n,
                                         replacement=n.upper()))[0]
                await sleep(0.1)
        # Two agents interleaving their edits on two documents.
        codex = threading.Thread(target=lambda: agent(
            *server, "Codex", lambda a: edits(a, other_uid)))
        codex.start()
        agent(*server, "Claude", lambda a: edits(a, uid))
        codex.join()
        office.job("mcp.settle")
        assert profile_name(office) == ("Ada", "Lovelace")
        assert set(a for _t, a in redlines(doc)) == {CLAUDE}
        assert set(a for _t, a in redlines(other)) == {"Codex via Marginalia"}
        assert len(_card_changes(office, doc, 2)) == 2
        assert len(_card_changes(office, other, 2)) == 2

        # Another agent mid-edit: its name in the profile, the rescue file written.
        third = docs("Tango one")

        async def one(a):
            out = await a.call("replace_text", document=third.RuntimeUID, search="one",
                               replacement="ONE")
            with open(rescue, "w") as fh:
                json.dump(["Ada", "Lovelace"], fh)
            _set_profile_name(office, ("Codex via Marginalia", ""))
            office.job("mcp.settle")      # Claude's turn closes: its change reaches the card
            return out
        assert not agent(*server, "Claude", one)[0]
        assert profile_name(office) == ("Codex via Marginalia", "")
        assert os.path.exists(rescue)
    finally:
        if os.path.exists(rescue):
            os.remove(rescue)
        _set_profile_name(office, user)
    assert [c["tool"] for c in _card_changes(office, third, 1)] == ["replace_text"]


def test_a_resource_read_neither_opens_a_turn_nor_ends_another_agents(office, server, docs):
    # resources/read went through a tool call: Claude's read closed Codex's open turn, so
    # Codex's next edit became a second undo step.
    doc = docs("Uniform one", "Uniform two")
    uid = doc.RuntimeUID
    read = []

    async def claude(a):
        return await a.read("marginalia://document/" + uid)

    async def codex(a):
        assert not (await a.call("replace_text", document=uid, search="one",
                                 replacement="ONE"))[0]
        reader = threading.Thread(target=lambda: read.append(agent(*server, "Claude", claude)))
        reader.start()
        reader.join()
        during = [s["agent"] for s in office.job("mcp.state")["active"]]
        assert not (await a.call("replace_text", document=uid, search="two",
                                 replacement="TWO"))[0]
        return during
    assert agent(*server, "Codex", codex) == ["Codex"]
    assert "Uniform" in read[0]
    office.job("mcp.settle")
    assert _titles(doc) == ["Codex via Marginalia"]      # one turn, one undo step


def test_the_prompt_library_is_offered_as_prompts(office, server):
    async def steps(a):
        prompts = {p.name: p for p in await a.prompts()}
        got = await a.session.get_prompt("translate", {"argument": "German"})
        return prompts, got
    prompts, got = agent(*server, "Claude", steps)
    assert {"improve", "translate"} <= set(prompts)
    assert "German" in json.dumps(got.model_dump(mode="json"))


def _free_port():
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _state_until(office, running, seconds=10):
    deadline = time.time() + seconds
    state = office.job("mcp.state")
    while state["running"] is not running and time.time() < deadline:
        time.sleep(0.1)
        state = office.job("mcp.state")
    return state


def test_the_setting_starts_and_stops_the_server_with_a_token_kept_per_profile(office, docs):
    office.job("mcp.stop")
    docs("Oscar opens a view")      # the first view starts watching the setting (ViewJob)
    port = _free_port()
    try:
        # Saving the setting is enough: the office's settings listener starts the server.
        office.job("settings.save", mcp_enabled=True, mcp_port=port)
        state = _state_until(office, True)
        assert state["running"] and state["port"] == port, state
        token = office.job("mcp.start", port=0)["token"]     # the running one: same port
        assert office.job("mcp.state")["port"] == port

        async def steps(a):
            return await a.documents()
        assert isinstance(agent("http://127.0.0.1:%d/mcp" % port, token, "Claude", steps),
                          list)
        office.job("settings.save", mcp_enabled=False)
        assert _state_until(office, False)["running"] is False
        # The token outlives the server: the agents' configs stay valid.
        assert office.job("mcp.start", port=0)["token"] == token
        office.job("mcp.stop")
        # mcp.apply does what the listener does (the Options page's OK, the runners).
        office.job("settings.save", mcp_enabled=True, mcp_port=port)
        assert office.job("mcp.apply")["port"] == port
    finally:
        office.job("settings.save", mcp_enabled=False, mcp_port=8765)
        office.job("mcp.apply")
        office.job("mcp.stop")


def _set_policy(office, **values):
    """The administrator's policy, written in the profile (an administrator's layer
    finalizes it; policy decides the same either way)."""
    from tests.support.writer import prop
    provider = office.create("com.sun.star.configuration.ConfigurationProvider")
    access = provider.createInstanceWithArguments(
        "com.sun.star.configuration.ConfigurationUpdateAccess",
        (prop("nodepath", "/org.marginalia.Settings/Policy"),))
    import uno
    for name, value in values.items():
        if isinstance(value, tuple):        # a string list must say so to the bridge
            uno.invoke(access, "replaceByName", (name, uno.Any("[]string", value)))
        else:
            access.replaceByName(name, value)
    access.commitChanges()


def test_a_policy_limiting_the_model_servers_keeps_outside_agents_off_unless_it_allows_them(
        office, docs):
    from marginalia import policy
    office.job("mcp.stop")
    docs("Victor opens a view")
    port = _free_port()
    try:
        _set_policy(office, local_only=True)
        office.job("settings.save", mcp_enabled=True, mcp_port=port)
        state = office.job("mcp.apply")
        assert not state["running"] and state["problem"] == policy.OUTSIDE_AGENTS_OFF
        assert _state_until(office, True, seconds=2)["running"] is False
        with pytest.raises(Exception):
            office.job("mcp.start", port=0)
        assert office.job("mcp.state")["running"] is False
        # The administrator allows them explicitly: served again.
        _set_policy(office, allow_outside_agents=True)
        assert office.job("mcp.apply")["port"] == port
        office.job("settings.save", mcp_enabled=False)
        assert _state_until(office, False)["running"] is False
        _set_policy(office, local_only=False, allow_outside_agents=False,
                    allowed_endpoints=("https://llm.example.org/v1",))
        assert office.job("mcp.apply")["problem"] == policy.OUTSIDE_AGENTS_OFF
    finally:
        _set_policy(office, local_only=False, allow_outside_agents=False, allowed_endpoints=())
        office.job("settings.save", mcp_enabled=False, mcp_port=8765)
        office.job("mcp.apply")
        office.job("mcp.stop")


def test_under_selection_only_agents_are_not_told_the_document_titles(office, docs):
    doc = docs("Whiskey confidential merger plans")
    _set_policy(office, selection_only=True)
    try:
        started = office.job("mcp.start", port=0, fresh=True)

        async def steps(a):
            return await a.documents(), [(r.name, r.title) for r in await a.resources()]
        listed, resources = agent("http://127.0.0.1:%d/mcp" % started["port"],
                                  started["token"], "Claude", steps)
    finally:
        office.job("mcp.stop")
        _set_policy(office, selection_only=False)
    titles = [d["title"] for d in listed]
    assert doc.getTitle() not in titles and "Document 1" in titles, listed
    assert doc.RuntimeUID in [d["id"] for d in listed]
    assert all(name.startswith("Document ") for name, _t in resources), resources


def test_a_stopped_agent_is_refused_the_prompts_and_lists_too(office, server):
    from mcp.shared.exceptions import MCPError

    async def steps(a):
        before = [p.name for p in await a.prompts()]
        office.job("mcp.stop_agent", name="Claude")
        refused = []
        for ask in (a.prompts, lambda: a.session.get_prompt("translate", {"argument": "German"}),
                    a.tools, a.resources):
            try:
                await ask()
                refused.append(None)
            except MCPError as exc:
                refused.append(exc.error.message)
        return before, refused
    before, refused = agent(*server, "Claude", steps)
    assert "translate" in before
    assert len(refused) == 4 and all(r and "stopped" in r for r in refused), refused


def test_a_turn_that_lasts_past_max_turn_ends_at_the_next_call(office, server, docs):
    doc = docs("Romeo one two three four")
    uid = doc.RuntimeUID
    old = office.job("mcp.max_turn", seconds=2.0)
    try:
        assert old == 120.0

        async def busy(a):
            started = time.monotonic()
            edits = [await a.call("replace_text", document=uid, search="one",
                                  replacement="1")]
            began = time.monotonic()        # the turn began before this, during the call
            await sleep(0.5)
            edits.append(await a.call("replace_text", document=uid, search="two",
                                      replacement="2"))
            # Past MAX_TURN since the turn began, and well inside IDLE since the last call.
            await sleep(max(0.0, began + 2.4 - time.monotonic()))
            edits.append(await a.call("replace_text", document=uid, search="three",
                                      replacement="3"))
            edits.append(await a.call("replace_text", document=uid, search="four",
                                      replacement="4"))
            return edits, time.monotonic() - started
        edits, took = agent(*server, "Claude", busy)
    finally:
        office.job("mcp.max_turn", seconds=old)
    assert all(not error for error, _text in edits), edits
    office.job("mcp.settle")
    # Never quiet for IDLE, yet two turns: two undo steps, two turns on the change card.
    assert _titles(doc) == [CLAUDE, CLAUDE], took
    deadline = time.time() + 5
    changes = []
    while len(changes) < 4 and time.time() < deadline:
        changes = [e["change"] for e in office.job("chat.state", doc)["log"]
                   if e["type"] == "change"]
        time.sleep(0.1)
    turns = [c["turn"] for c in changes]
    assert len(turns) == 4 and turns[0] == turns[1] != turns[2] == turns[3], changes

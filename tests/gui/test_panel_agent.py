"""An outside agent editing a document shows in that document's panel, with Stop (issue 27).

Two Writer windows, each with its panel at the sidebar's default width; the agent is
the official MCP SDK (tests/support/mcp_client.py) against the server the mcp.start
job runs. The row is found by its accessible name (office.agent_banner), as a
screen reader finds it; a hidden control is not among the panel's children.
"""

from tests.support.mcp_client import agent, sleep
from tests.support.panel_driver import PanelDriver, screenshot, set_paragraphs, wait_for

ROW = "Outside agent: "
IDLE = 3.0                  # office.mcp_turns.IDLE
NOTE = 6.0                  # office.agent_banner.NOTE_SECONDS
SLOW = "slow"


def _row(panel):
    """The agent row's words in this panel now, or None while it is hidden."""
    rows = [n[len(ROW):] for n in panel.names() if n.startswith(ROW)]
    assert len(rows) <= 1, rows
    return rows[0] if rows else None


def test_the_editing_agent_shows_in_its_documents_panel_and_stop_refuses_it(gui_office,
                                                                            chat_server):
    office = gui_office
    doc_a = office.new_writer()
    doc_b = office.new_writer()
    started = office.job("mcp.start", port=0, fresh=True)
    url, token = "http://127.0.0.1:%d/mcp" % started["port"], started["token"]
    try:
        doc_a.Text.setString("Alpha river runs")
        doc_b.Text.setString("Bravo hill stands")
        panel_a = PanelDriver(office, doc_a, x=0, width=800)
        panel_b = PanelDriver(office, doc_b, x=800, width=800)
        assert _row(panel_a) is None and _row(panel_b) is None

        async def claude(a):
            first = await a.call("replace_text", document=doc_a.RuntimeUID, search="river",
                                 replacement="creek")
            shown = wait_for(lambda: _row(panel_a), what="the agent's row in its panel")
            other = _row(panel_b)
            stop = panel_a.control_now(("Stop Claude",))
            width = stop.getSize().Width
            screenshot(office, "panel_agent_editing.png")
            assert stop.doAccessibleAction(0)
            wait_for(lambda: office.job("mcp.state")["stopped"] == ["Claude"],
                     what="the Stop")
            after = await a.call("replace_text", document=doc_a.RuntimeUID, search="runs",
                                 replacement="flows")
            note = wait_for(lambda: "stopped" in (_row(panel_a) or "") and _row(panel_a),
                            what="the stopped note")
            screenshot(office, "panel_agent_stopped.png")
            return first, shown, other, width, after, note
        first, shown, other, width, after, note = agent(url, token, "Claude", claude)
        assert not first[0], first
        assert shown == "Claude is editing this document."
        assert other is None            # the other document's panel says nothing
        assert width > 20
        assert after[0] and "stopped" in after[1], after       # refused: nothing changed
        assert note == "Claude was stopped: its calls are refused until LibreOffice restarts."
        assert "Stop Claude" not in panel_a.names()
        # The note goes after a few seconds.
        wait_for(lambda: _row(panel_a) is None, timeout=NOTE + 5, what="the note to go")

        async def codex(a):
            edit = await a.call("replace_text", document=doc_b.RuntimeUID, search="hill",
                                replacement="tower")
            shown = wait_for(lambda: _row(panel_b), what="the second agent's row")
            other = _row(panel_a)
            # A panel the sidebar rebuilds shows the turn open now, at once (a read
            # first: the idle window starts again, and the rebuild takes a moment).
            assert not (await a.call("read_document", document=doc_b.RuntimeUID))[0]
            panel_b.rebuild()
            rebuilt = _row(panel_b)
            if rebuilt is None and not office.job("mcp.state")["active"]:
                rebuilt = SLOW          # the turn ended during the rebuild: nothing to show
            # Quiet past the idle window: the turn ends, and the row with it.
            wait_for(lambda: _row(panel_b) is None, timeout=IDLE + 8,
                     what="the row to go when the turn ends")
            ended = office.job("mcp.state")["active"]
            await sleep(0)
            return edit, shown, other, rebuilt, ended
        edit, shown, other, rebuilt, ended = agent(url, token, "Codex", codex)
        assert not edit[0], edit
        assert shown == "Codex is editing this document." and rebuilt in (shown, SLOW)
        assert other is None
        assert ended == []
        office.job("mcp.settle")
        # Claude's stopped call changed nothing.
        assert "runs" in doc_a.Text.getString()
    finally:
        office.job("mcp.resume_agent", name="Claude")
        office.job("mcp.settle")
        office.job("mcp.stop")
        office.close(doc_a)
        office.close(doc_b)


def test_an_agents_question_shows_in_its_panel_and_allow_once_lets_the_call_through(
        gui_office, chat_server):
    """Issue 41, item 4: a kept-out passage an agent asks to change is asked in the row of
    that document's panel, at the sidebar's default width: the question, Allow once and
    Refuse, each whole and named for a screen reader; Allow once lets the waiting call on."""
    import threading
    from tests.support.writer import select
    office = gui_office
    doc = office.new_writer()
    started = office.job("mcp.start", port=0, fresh=True)
    url, token = "http://127.0.0.1:%d/mcp" % started["port"], started["token"]
    old_wait = office.job("mcp.ask_wait", seconds=60)
    office.job("settings.save", mcp_apply_mode="direct")
    done = {}
    try:
        set_paragraphs(doc, "Golf alpha", "Hotel secret words", "India gamma")
        select(doc, "Hotel")
        assert office.job("review.keepout", document=doc, action="toggle")["sentence"]
        panel = PanelDriver(office, doc)

        async def claude(a):
            return await a.call("replace_text", document=doc.RuntimeUID, search="secret",
                                replacement="public")

        def run():
            done["result"] = agent(url, token, "Claude", claude)
        caller = threading.Thread(target=run)
        caller.start()
        asked = wait_for(lambda: "asks" in (_row(panel) or "") and _row(panel),
                         what="the question in the agent's row")
        assert asked == ("Claude asks to change paragraph 2, which you keep Marginalia out "
                         "of. Allow it this once?")
        allow = panel.control_now(("Allow Claude this one change",))
        refuse = panel.control_now(("Refuse Claude this change",))
        row = panel.control_now((ROW + asked,))
        for button in (allow, refuse):
            place, size = button.getLocation(), button.getSize()
            assert size.Width >= 40 and size.Height >= 20
            # Whole inside the panel, and below the question it answers.
            assert place.Y >= row.getLocation().Y + row.getSize().Height - 2
        screenshot(office, "panel_agent_question.png")
        assert "Hotel secret words" in doc.Text.getString()
        assert allow.doAccessibleAction(0)
        caller.join(30)
        assert not caller.is_alive()
        error, text = done["result"]
        assert not error, text
        wait_for(lambda: "asks" not in (_row(panel) or ""), what="the question to go")
        office.job("mcp.settle")
        assert "Hotel public words" in doc.Text.getString()
    finally:
        office.job("mcp.ask_wait", seconds=old_wait)
        office.job("settings.save", mcp_apply_mode="tracked")
        for question in office.job("mcp.questions"):
            office.job("mcp.answer", id=question["id"], allow=False)
        office.job("mcp.settle")
        office.job("mcp.stop")
        office.close(doc)

"""Tools > Options > Marginalia > Other agents and Agents' calls in a real window: on, port,
mode, tokens, the agents editing now with Stop, the calls.

The page is made from the installed .xdl with its registered handler, as the Options
dialog does (tests/gui/test_quick_prompts_page.py); buttons are pressed through
accessibility. The agent is the official MCP SDK (tests/support/mcp_client.py).
"""

import socket

# com.sun.star.accessibility.AccessibleRole
COMBO_BOX, LIST, PASSWORD_TEXT, TEXT = 7, 32, 42, 60

from tests.gui.test_panel_options import _press, on_main
from tests.gui.test_quick_prompts_page import open_page
from tests.support.mcp_client import agent
from tests.support.panel_driver import screenshot, wait_for


def _open(office):
    return open_page(office, "AgentsPage.xdl", "org.marginalia.AgentsHandler")


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _text(window, name):
    return window.getControl(name).getText()


def _items(window):
    return list(window.getControl("ActiveList").getItems())


def _open_calls(office):
    return open_page(office, "AgentCallsPage.xdl", "org.marginalia.AgentCallsHandler")


def test_the_page_turns_the_server_on_shows_the_agent_and_stops_it(gui_office, gui_doc):
    office = gui_office
    office.job("mcp.stop")
    office.job("settings.save", mcp_enabled=False, mcp_port=8765, mcp_apply_mode="tracked")
    window, handler, parent = _open(office)
    calls, _calls_handler, calls_parent = _open_calls(office)
    port = _free_port()
    try:
        assert window.getControl("EnabledCheck").getState() == 0
        assert _text(window, "PortField") == "8765"
        assert window.getControl("ApplyModeList").getSelectedItemPos() == 1     # Suggest
        assert "Off" in _text(window, "AgentsStatus")

        _press(window, "Copy")          # makes the profile's token when there is none
        token = wait_for(lambda: _text(window, "TokenField"), what="the token")
        assert len(token) >= 32
        # A secret like the API key: masked on screen, Copy is how it leaves the page.
        assert window.getControl("TokenField").getModel().EchoChar == ord("*")

        def turn_on():
            window.getControl("EnabledCheck").setState(1)
            window.getControl("PortField").setText(str(port))
            handler.callHandlerMethod(window, "ok", "external_event")
        on_main(office, turn_on)
        saved = office.job("settings.load")
        assert (saved["mcp_enabled"], saved["mcp_port"]) == (True, port)
        wait_for(lambda: office.job("mcp.state")["port"] == port, what="the server")
        assert "Serving agents" in _text(window, "AgentsStatus")
        url = "http://127.0.0.1:%d/mcp" % port
        uid = gui_doc.RuntimeUID

        async def steps(a):
            first = await a.call("get_document_info", document=uid)
            # The calls page's list follows the agents' turns (office.mcp_turns listeners).
            wait_for(lambda: any("Claude" in i for i in _items(calls)), what="the agent")
            screenshot(office, "agents_editing_now.png")
            _press(calls, "Stop agent")
            wait_for(lambda: office.job("mcp.state")["stopped"] == ["Claude"],
                     what="the Stop")
            after = await a.call("get_document_info", document=uid)
            return first, after
        first, after = agent(url, token, "Claude", steps)
        assert not first[0] and after[0] and "stopped" in after[1], (first, after)
        wait_for(lambda: "Claude is stopped" in calls.getControl("CallsStatus").getText(),
                 what="the Stop's note")

        _press(window, "New token")
        wait_for(lambda: _text(window, "TokenField") not in ("", token), what="a new token")
        assert office.job("mcp.start", port=0)["token"] == _text(window, "TokenField")
    finally:
        office.job("mcp.resume_agent", name="Claude")
        office.job("settings.save", mcp_enabled=False, mcp_port=8765)
        office.job("mcp.apply")
        office.job("mcp.stop")
        on_main(office, lambda: (window.dispose(), parent.dispose(), calls.dispose(),
                                 calls_parent.dispose()))


def test_ok_on_the_agents_page_keeps_the_api_key(gui_office):
    """The page never loads the API key: saving all settings from it once removed the key
    the user had stored (found in review)."""
    office = gui_office
    office.job("mcp.stop")
    office.job("settings.save", api_key="sk-agents-page-test")
    assert office.job("settings.load")["api_key"] is True
    window, handler, parent = _open(office)
    try:
        # The user only looks at the page and presses OK, then ticks the box and OKs again.
        on_main(office, lambda: handler.callHandlerMethod(window, "ok", "external_event"))
        kept = office.job("settings.load")["api_key"]

        def turn_on():
            window.getControl("EnabledCheck").setState(1)
            handler.callHandlerMethod(window, "ok", "external_event")
        on_main(office, turn_on)
        saved = office.job("settings.load")
    finally:
        office.job("settings.save", api_key="", mcp_enabled=False)
        office.job("mcp.apply")
        office.job("mcp.stop")
        on_main(office, lambda: (window.dispose(), parent.dispose()))
    assert kept is True
    assert saved["api_key"] is True and saved["mcp_enabled"] is True


def test_tokens_are_named_scoped_copied_and_revoked_and_the_calls_are_listed(gui_office,
                                                                             gui_doc):
    from tests.support.mcp_fake import Http, rpc
    office = gui_office
    office.job("mcp.stop")
    started = office.job("mcp.start", port=0, fresh=True)
    window, handler, parent = _open(office)
    calls = None
    try:
        first = window.getControl("TokenList").getItems()
        assert len(first) >= 1
        # A new token: its name, then what it may do (Read only first: the safe default).
        scope_items = list(window.getControl("ScopeList").getItems())
        assert scope_items == ["Read only", "Comment only", "Suggest (tracked changes)", "Edit"]
        assert window.getControl("ScopeList").getSelectedItemPos() == 0
        # A press through accessibility is handled on the main thread's next turn: wait.
        _press(window, "Add token")
        wait_for(lambda: "name first" in _text(window, "AgentsStatus"),
                 what="the note asking for a name")              # no name: nothing made
        assert len(window.getControl("TokenList").getItems()) == len(first)

        def name_it():
            window.getControl("NameField").setText("Reviewer")
            window.getControl("ScopeList").selectItemPos(1, True)
        on_main(office, name_it)
        _press(window, "Add token")
        wait_for(lambda: "Reviewer \u00b7 Comment only" in window.getControl(
            "TokenList").getItems(), what="the new token's row")
        chosen = window.getControl("TokenList").getSelectedItem()
        assert chosen == "Reviewer \u00b7 Comment only"      # the new token is the chosen one
        secret = _text(window, "TokenField")
        assert len(secret) >= 32 and secret not in first

        # The token works, with its scope: it lists the editing tools (its edits become
        # comments), and the calls go to the log the other page shows.
        reviewer = Http(started["port"], secret)
        reviewer.initialize(name="Claude")
        status, _h, body = reviewer.post(rpc("tools/list"))
        names = [t["name"] for t in body["result"]["tools"]]
        assert "replace_text" in names
        uid = gui_doc.RuntimeUID
        status, _h, body = reviewer.post(rpc("tools/call", {
            "name": "get_document_info", "arguments": {"document": uid}}))
        assert body["result"]["isError"] is False, body
        office.job("mcp.settle")
        screenshot(office, "agents_page_tokens.png")

        calls, _calls_handler, calls_parent = _open_calls(office)
        lines = wait_for(lambda: [line for line in calls.getControl("CallsList").getItems()
                                  if "Claude (Reviewer)" in line], what="the call's line")
        assert "get_document_info" in lines[0] and lines[0].endswith("done"), lines
        assert gui_doc.getTitle() in lines[0]
        screenshot(office, "agent_calls_page.png")
        _press(calls, "Clear")
        wait_for(lambda: list(calls.getControl("CallsList").getItems()) == [],
                 what="the cleared list")
        assert "cleared" in calls.getControl("CallsStatus").getText()

        # Revoke: the token goes from the list, and its agent is refused at once.
        _press(window, "Revoke")
        wait_for(lambda: "revoked" in _text(window, "AgentsStatus"), what="the revoke")
        rows = list(window.getControl("TokenList").getItems())
        assert not any(row.startswith("Reviewer") for row in rows), rows
        assert "Reviewer" in _text(window, "AgentsStatus")
        status, _h, _body = reviewer.post(rpc("tools/list"))
        assert status == 401
    finally:
        for token in office.job("mcp.tokens"):
            if token["name"] == "Reviewer":
                office.job("mcp.revoke", id=token["id"])
        office.job("mcp.settle")
        office.job("mcp.stop")
        on_main(office, lambda: (window.dispose(), parent.dispose()))
        if calls is not None:
            on_main(office, lambda: (calls.dispose(), calls_parent.dispose()))


def test_a_screen_reader_names_each_list_and_field_after_its_own_label(gui_office):
    """VCL names a field after the label just before it: the scope list once took the
    name field's "Name:", and the calls list the long note above it."""
    from tests.support.panel_driver import accessible_tree
    office = gui_office
    named = {}
    pages = (_open(office), _open_calls(office))
    try:
        for window, _handler, _parent in pages:
            for node, _above in accessible_tree(window.getAccessibleContext(), depth=3):
                if node.getAccessibleRole() in (COMBO_BOX, LIST, PASSWORD_TEXT, TEXT):
                    named.setdefault(node.getAccessibleRole(), []).append(
                        node.getAccessibleName())
    finally:
        on_main(office, lambda: [(w.dispose(), p.dispose()) for w, _h, p in pages])
    assert "Access:" in named[COMBO_BOX] and "Name:" in named[TEXT]
    assert named[COMBO_BOX].count("Name:") == 0, named
    assert "Tokens" in named[LIST] and "Tokens" in named[PASSWORD_TEXT]
    assert {"Agents editing now", "Recent calls of outside agents"} <= set(named[LIST]), named

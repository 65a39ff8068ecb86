"""Tools > Options > Marginalia > Other agents in a real window: on, port, mode, token, Stop.

The page is made from the installed .xdl with its registered handler, as the Options
dialog does (tests/gui/test_quick_prompts_page.py); buttons are pressed through
accessibility. The agent is the official MCP SDK (tests/support/mcp_client.py).
"""

import socket

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


def test_the_page_turns_the_server_on_shows_the_agent_and_stops_it(gui_office, gui_doc):
    office = gui_office
    office.job("mcp.stop")
    office.job("settings.save", mcp_enabled=False, mcp_port=8765, mcp_apply_mode="tracked")
    window, handler, parent = _open(office)
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
        url = "http://127.0.0.1:%d/mcp" % port
        uid = gui_doc.RuntimeUID

        async def steps(a):
            first = await a.call("get_document_info", document=uid)
            # The page's list follows the agents' turns (office.mcp_turns listeners).
            wait_for(lambda: any("Claude" in i for i in _items(window)), what="the agent")
            screenshot(office, "agents_page.png")
            _press(window, "Stop agent")
            wait_for(lambda: office.job("mcp.state")["stopped"] == ["Claude"],
                     what="the Stop")
            after = await a.call("get_document_info", document=uid)
            return first, after
        first, after = agent(url, token, "Claude", steps)
        assert not first[0] and after[0] and "stopped" in after[1], (first, after)
        assert "Claude is stopped" in _text(window, "AgentsStatus")

        _press(window, "New token")
        wait_for(lambda: _text(window, "TokenField") not in ("", token), what="a new token")
        assert office.job("mcp.start", port=0)["token"] == _text(window, "TokenField")
    finally:
        office.job("mcp.resume_agent", name="Claude")
        office.job("settings.save", mcp_enabled=False, mcp_port=8765)
        office.job("mcp.apply")
        office.job("mcp.stop")
        on_main(office, lambda: (window.dispose(), parent.dispose()))


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

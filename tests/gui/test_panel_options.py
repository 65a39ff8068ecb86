"""The Options page (Tools > Options > Marginalia) in a real window, driven like LibreOffice does.

The page is created from the installed .xdl with the registered handler, and
the handler's "initialize" / "ok" calls run on the office's main thread (a
call made from inside an AsyncCallback keeps that thread across the bridge),
which is where the Options dialog makes them.
"""

import threading
import time

import unohelper
from com.sun.star.awt import XCallback

from tests.support.panel_driver import (PanelDriver, accessible_tree, options_dialog,
                                        screenshot, wait_for)
from tests.support.sse_server import text_response, tool_calls_response

PUSH_BUTTON = 44


class _OnMain(unohelper.Base, XCallback):
    def __init__(self, fn):
        self.fn = fn
        self.done = threading.Event()
        self.error = None

    def notify(self, _data):
        try:
            self.fn()
        except Exception as exc:  # handed back to the test thread
            self.error = exc
        finally:
            self.done.set()


def on_main(office, fn):
    call = _OnMain(fn)
    office.create("com.sun.star.awt.AsyncCallback").addCallback(call, None)
    assert call.done.wait(30), "the office's main thread did not run our call"
    if call.error is not None:
        raise call.error


def _open_page(office, doc):
    provider = office.ctx.getValueByName(
        "/singletons/com.sun.star.deployment.PackageInformationProvider")
    url = provider.getPackageLocation("org.marginalia.writer") + "/dialogs/OptionsPage.xdl"
    handler = office.create("org.marginalia.OptionsHandler")
    parent = doc.CurrentController.Frame.ContainerWindow
    box = {}

    def create():
        windows = office.create("com.sun.star.awt.ContainerWindowProvider")
        box["window"] = windows.createContainerWindow(url, "", parent, handler)
        box["window"].setVisible(True)
        assert handler.callHandlerMethod(box["window"], "initialize", "external_event")
    on_main(office, create)
    return box["window"], handler


def _press(window, label):
    ctx = window.getAccessibleContext()
    for i in range(ctx.getAccessibleChildCount()):
        child = ctx.getAccessibleChild(i).getAccessibleContext()
        if child.getAccessibleRole() == PUSH_BUTTON and child.getAccessibleName() == label:
            assert child.doAccessibleAction(0)
            return
    raise AssertionError("no %r button on the page" % label)


def _result(window):
    return window.getControl("TestResult").getModel().Label


def _problem(window):
    return window.getControl("FieldProblem").getModel().Label


def _note(window):
    return window.getControl("ModelNote").getModel().Label


def test_options_page_shows_saves_and_tests_the_connection(gui_office, gui_doc, chat_server):
    gui_office.job("settings.save", endpoint=chat_server.url, model="test-model",
                   api_key="sk-page-1", temperature=0.5, max_tokens=None, max_rounds=7)
    window, handler = _open_page(gui_office, gui_doc)
    try:
        assert window.getControl("EndpointField").getText() == chat_server.url
        key_field = window.getControl("ApiKeyField")
        assert key_field.getText() == "sk-page-1"
        assert key_field.getModel().EchoChar == ord("*")          # masked
        assert window.getControl("TemperatureField").getText() == "0.5"
        assert window.getControl("MaxTokensField").getText() == ""  # empty: not sent
        assert window.getControl("RoundsField").getText() == "7"
        assert window.getControl("ProviderList").getSelectedItem() == "Custom"
        # The model list arrives from the server in the background.
        combo = window.getControl("ModelCombo")
        wait_for(lambda: combo.getItemCount() == 1, what="the model list from the server")
        assert combo.getItem(0) == "test-model" and combo.getText() == "test-model"

        # Test connection also asks the model to call a trivial tool (chat.check).
        chat_server.add(tool_calls_response([("call_t", "get_secret_word", {})],
                                             reasoning="I should call the tool."))
        _press(window, "Test connection")
        wait_for(lambda: "tool calls" in _result(window), what="the connection test")
        assert _result(window) == ("Connected: streaming \u2714 \u00b7 tool calls \u2714 "
                                   "\u00b7 thinking shown.")
        assert window.getControl("ContextNote").getModel().Label == \
            "Context window: not reported"
        assert window.getControl("ContextField").getText() == ""
        screenshot(gui_office, "options_page.png")

        # A wrong model name is named in one sentence; List models says so beside the field.
        combo.setText("no-such-model")
        _press(window, "Test connection")
        wait_for(lambda: "no model named" in _result(window), what="the wrong-model sentence")
        assert _note(window) == ""
        _press(window, "List models")
        wait_for(lambda: "does not offer" in _note(window), what="the note beside Model")
        assert "no-such-model" in _note(window)
        # An empty Model box and a server with one model: List models puts it there.
        combo.setText("")
        _press(window, "List models")
        wait_for(lambda: combo.getText() == "test-model", what="the one model chosen")
        assert _note(window) == ""

        # OK saves: a new key, max tokens, and a bad temperature keeps the saved one.
        combo.setText("test-model")
        key_field.setText("sk-page-2")
        window.getControl("MaxTokensField").setText("256")
        before = _result(window)
        window.getControl("TemperatureField").setText("hot")
        # The page says at once what is wrong with a field, on its own line, and clears it
        # once fixed; the Test result line keeps what the last test said.
        wait_for(lambda: _problem(window).startswith("Temperature must be a number"),
                 what="the temperature sentence")
        assert _problem(window).endswith("OK keeps the saved value.")
        assert _result(window) == before
        window.getControl("TemperatureField").setText("0.7")
        wait_for(lambda: _problem(window) == "", what="the sentence to clear")
        window.getControl("RoundsField").setText("0")
        wait_for(lambda: _problem(window).startswith("Most tool steps per answer"),
                 what="the tool steps sentence")
        window.getControl("RoundsField").setText("7")
        wait_for(lambda: _problem(window) == "", what="the sentence to clear again")
        window.getControl("TemperatureField").setText("hot")
        wait_for(lambda: _problem(window).startswith("Temperature"), what="the sentence again")
        on_main(gui_office, lambda: handler.callHandlerMethod(window, "ok", "external_event"))
        saved = gui_office.job("settings.load")
        assert saved["max_tokens"] == 256 and saved["temperature"] == 0.5
        assert saved["api_key"] is True and saved["model"] == "test-model"

        # A server that is not there: one plain sentence, no traceback, well under a second.
        window.getControl("EndpointField").setText("http://127.0.0.1:9/v1")
        window.getControl("TestResult").getModel().Label = ""
        started = time.monotonic()
        _press(window, "Test connection")
        wait_for(lambda: _result(window) and not _result(window).startswith("Testing"), timeout=40,
                 interval=0.01, what="the failed connection test")
        assert time.monotonic() - started < 1.0
        shown = _result(window)
        assert not shown.startswith("Connected") and "Traceback" not in shown
        assert shown.endswith((".", "?")) and "\n" not in shown
    finally:
        on_main(gui_office, window.dispose)
        gui_office.job("settings.save", api_key="", max_tokens=None, temperature=None,
                       max_rounds=12)


def test_options_page_sections_provider_list_and_stale_result(gui_office, gui_doc, chat_server):
    window, _handler = _open_page(gui_office, gui_doc)
    try:
        ctx = window.getAccessibleContext()
        names = [ctx.getAccessibleChild(i).getAccessibleContext().getAccessibleName()
                 for i in range(ctx.getAccessibleChildCount())]
        for heading in ("Server", "Model and answers", "Panel, editing and chats"):
            assert heading in names
        # Keeping chats is a tick box, on by default, that says where they are kept.
        assert "Keep chats (this computer only)" in names
        assert window.getControl("KeepChatsCheck").getModel().State == 1
        # The two tick boxes share a row: neither label is cut off.
        for name in ("ShowThinkingCheck", "KeepChatsCheck"):
            control = window.getControl(name)
            assert control.getPreferredSize().Width <= control.getPosSize().Width, name
        assert "Most tool steps per answer:" in names and "Tool round limit:" not in names
        assert "Context window:" in names
        provider = window.getControl("ProviderList")
        chat_server.add(text_response("The word is banana."))
        assert provider.getItemCount() == 11
        assert provider.getModel().LineCount >= provider.getItemCount()    # no scrolling
        _press(window, "Test connection")
        wait_for(lambda: _result(window).startswith("Connected"), what="the connection test")
        assert _result(window) == ("Connected: streaming \u2714 \u00b7 tool calls: none "
                                   "\u00b7 no thinking.")
        screenshot(gui_office, "options_page_sections.png")
        # Another provider: what the test said was about the previous server.
        provider.selectItemPos(0, True)
        wait_for(lambda: _result(window) == "", what="the stale result to clear")
    finally:
        on_main(gui_office, window.dispose)


def _panel_mode(panel):
    """What the panel's "How edits are applied" switch shows (its drop-down's text), in
    the tray its Editing options button opens."""
    panel.edit_options()
    return panel.dropdown_text("How edits are applied")


def _boxes_overlap(a, b):
    a, b = a.getPosSize(), b.getPosSize()
    return (a.X < b.X + b.Width and b.X < a.X + a.Width and
            a.Y < b.Y + b.Height and b.Y < a.Y + a.Height)


def test_options_page_apply_mode_reads_old_profiles_saves_and_agrees_with_the_panel(
        gui_office, gui_doc, chat_server):
    # A profile from before the modes: only the old tick box's track_changes was saved.
    gui_office.job("settings.save", apply_mode="direct", track_changes=True)
    chat_server.add(text_response("Hello back."))
    panel = PanelDriver(gui_office, gui_doc)
    panel.type("Hello")
    panel.key("Return")
    panel.wait_transcript("Hello back.")
    panel.wait_idle()
    panel.refresh()
    assert _panel_mode(panel) == "Suggest changes"
    window, handler = _open_page(gui_office, gui_doc)
    try:
        modes = window.getControl("ApplyModeList")
        assert [modes.getItem(i) for i in range(modes.getItemCount())] == [
            "Edit directly", "Suggest as tracked changes", "Comment only"]
        assert modes.getSelectedItem() == "Suggest as tracked changes"
        assert window.getControl("ApplyModeLabel").getModel().Label == "AI edits:"
        # The old tick box is gone; the list and the two tick boxes below it neither
        # overlap nor cut their text short.
        assert window.getControl("TrackChangesCheck") is None
        rows = [window.getControl(n) for n in ("ApplyModeList", "ShowThinkingCheck",
                                               "KeepChatsCheck", "ApplyModeLabel")]
        assert not [(a.getModel().Name, b.getModel().Name) for i, a in enumerate(rows)
                    for b in rows[i + 1:] if _boxes_overlap(a, b)]
        assert modes.getPreferredSize().Width <= modes.getPosSize().Width
        page = window.getPosSize()
        assert all(c.getPosSize().Y + c.getPosSize().Height <= page.Height for c in rows)

        modes.selectItem("Comment only", True)
        screenshot(gui_office, "options_page_apply_mode.png")
        on_main(gui_office, lambda: handler.callHandlerMethod(window, "ok", "external_event"))
        saved = gui_office.job("settings.load")
        # track_changes follows, so a reader of the old setting agrees.
        assert (saved["apply_mode"], saved["track_changes"]) == ("comments", False)
        # The open panel's switch follows the page.
        wait_for(lambda: _panel_mode(panel) == "Comment only", what="the panel's switch")
        assert not panel.status().startswith("New turns")   # showing it saved nothing

        # Reset ("back") shows what is saved; the panel's switch, once changed, is what the
        # page shows next time.
        modes.selectItem("Edit directly", True)
        on_main(gui_office, lambda: handler.callHandlerMethod(window, "back", "external_event"))
        assert modes.getSelectedItem() == "Comment only"
    finally:
        on_main(gui_office, window.dispose)
    box = panel.control_now(("How edits are applied",))
    where, size = box.getLocationOnScreen(), box.getSize()
    panel._xdotool("mousemove", str(where.X + size.Width // 2),
                   str(where.Y + size.Height // 2), "click", "1")
    time.sleep(0.3)
    panel.key("Up", "Up", "Return")             # "Edit directly", at the top of the list
    wait_for(lambda: gui_office.job("settings.load")["apply_mode"] == "direct",
             what="the panel's switch to save")
    wait_for(lambda: panel.status() == "New turns: Edit directly.", what="the switch's sentence")
    window, _handler = _open_page(gui_office, gui_doc)
    try:
        assert window.getControl("ApplyModeList").getSelectedItem() == "Edit directly"
    finally:
        on_main(gui_office, window.dispose)
        gui_office.job("settings.save", apply_mode="direct", track_changes=False)


def test_the_panels_settings_button_opens_tools_options_on_the_whole_page(gui_office, gui_doc,
                                                                         chat_server):
    """The panel's settings button opens Tools > Options on Marginalia's page, and its
    last row (the AI edits list and the two tick boxes) shows whole above the buttons."""
    panel = PanelDriver(gui_office, gui_doc)
    button = panel.control("Marginalia settings")
    # The dialog is modal: the button's action returns when it closes.
    opener = threading.Thread(target=button.doAccessibleAction, args=(0,), daemon=True)
    opener.start()
    toolkit = gui_office.create("com.sun.star.awt.Toolkit")

    def dialog():
        return options_dialog(toolkit)

    def named(*names):
        found = {}
        for node, _above in accessible_tree(wait_for(dialog, what="the Options dialog")):
            name = node.getAccessibleName()
            if name in names and name not in found:
                found[name] = node
        return found if len(found) == len(names) else None

    wanted = ("AI edits:", "Keep chats (this computer only)", "Show the model's thinking",
              "Extra instructions:", "OK", "Cancel")
    try:
        found = wait_for(lambda: named(*wanted), timeout=30,
                         what="Marginalia's page in Tools > Options")
        time.sleep(0.5)
        screenshot(gui_office, "options_dialog_page.png")
        buttons_top = min(found[b].getLocationOnScreen().Y for b in ("OK", "Cancel"))
        for name in wanted[:4]:
            where, size = found[name].getLocationOnScreen(), found[name].getSize()
            assert size.Height > 0 and where.Y + size.Height <= buttons_top, name
        # The list's row is above the tick boxes' row, not over it.
        label = found["AI edits:"]
        assert label.getLocationOnScreen().Y + label.getSize().Height <= \
            found["Show the model's thinking"].getLocationOnScreen().Y + 2
    finally:
        shown = dialog()
        cancel = [n for n, _above in accessible_tree(shown)
                  if n.getAccessibleName() == "Cancel"] if shown else []
        assert cancel and cancel[0].doAccessibleAction(0)
        opener.join(20)
    assert not opener.is_alive()

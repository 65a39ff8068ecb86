"""The context meter, /test and a model that cannot call tools, in the real panel on Xvfb."""

from tests.support import sse_server as sse

from marginalia.chat.loop import NO_EDITS
from tests.support.panel_driver import PanelDriver, screenshot, wait_for

REFUSAL = sse.error_response(400, "registry.ollama.ai/library/gemma:2b does not support tools")


def test_the_meter_the_test_report_and_a_model_without_tools(gui_office, gui_doc, chat_server):
    gui_office.job("settings.save", context_window=32768)
    try:
        gui_doc.Text.setString("A short document about the context window.")
        chat_server.add(sse.text_response("It reads well.", usage=sse.usage(5210, 40)))
        panel = PanelDriver(gui_office, gui_doc)
        panel.type("Does it read well?")
        panel.key("Return")
        panel.wait_transcript("It reads well.")
        panel.wait_idle()
        # The server's count of the last request (prompt + answer) over the window: the
        # status line's tooltip, so the line itself stays plain words at any width.
        wait_for(lambda: "Context: 5.2k of 32k tokens" in panel.status_details(),
                 what="the context meter")
        assert panel.status() == "Ready"
        request = chat_server.chat_requests[0].json
        assert len(request["tools"]) == 13          # 32k: the full tool descriptions
        screenshot(gui_office, "panel_context_meter.png")

        # /test in the panel: the report lands in the chat; nothing goes to the model's history.
        chat_server.add(sse.tool_calls_response([("call_t", "get_secret_word", {})]))
        panel.type("/test")
        panel.key("Return")
        shown = panel.wait_transcript("context window:")
        assert "Test connection:\n  \u25b8 Connected to http://127.0.0.1:" in shown
        assert 'the model "test-model" is available.' in shown
        assert "streaming \u2714 \u00b7 tool calls: structured \u2714 \u00b7 thinking: none" \
            in shown
        assert panel.read("Message") == ""
        test_request = chat_server.chat_requests[1].json
        assert [t["function"]["name"] for t in test_request["tools"]] == ["get_secret_word"]
        screenshot(gui_office, "panel_test_report.png")

        # A model that cannot call tools still chats, and the panel says edits are unavailable.
        chat_server.add(REFUSAL, sse.text_response("Try a shorter first sentence."))
        panel.type("Improve the first sentence.")
        panel.key("Return")
        shown = panel.wait_transcript("Try a shorter first sentence.")
        panel.wait_idle()
        assert "\u2139 " + NO_EDITS in shown
        assert "\u26a0" not in shown.split("Improve the first sentence.")[1]
        third, fourth = [r.json for r in chat_server.chat_requests[2:4]]
        assert "tools" in third and "tools" not in fourth
        # The test's exchange never reached the chat history sent to the model.
        assert "get_secret_word" not in str(fourth["messages"])
        screenshot(gui_office, "panel_no_tools.png")
    finally:
        gui_office.job("settings.save", context_window=0)

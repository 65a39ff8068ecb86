"""The first-run card in a real Writer window: shown with no model, a message typed before
set-up kept, and gone once a model has answered (a scripted server)."""

from marginalia.ui import first_run
from tests.support import sse_server as sse
from tests.support.panel_driver import (PanelDriver, model_answered, screenshot,
                                        set_model_answered, wait_for)

LABEL, COMBO_BOX, PUSH_BUTTON = 30, 7, 44    # com.sun.star.accessibility.AccessibleRole
DEAD_LOCAL = "http://127.0.0.1:9/v1"     # the discard port: nothing listens there


def _fresh_profile(office, endpoint="http://localhost:11434/v1", provider="ollama", model=""):
    office.job("settings.save", endpoint=endpoint, model=model, provider=provider)
    set_model_answered(office, False)


def test_card_with_no_model_keeps_the_message_and_names_the_ways_forward(gui_office, gui_doc):
    _fresh_profile(gui_office, endpoint=DEAD_LOCAL, provider="ollama")
    try:
        panel = PanelDriver(gui_office, gui_doc)
        # Every control of the card has an accessible name (the boxes take their label's).
        controls = panel.card_controls()
        for control in ((first_run.TITLE, LABEL), ("Provider:", COMBO_BOX),
                        ("Model:", COMBO_BOX), ("Test", PUSH_BUTTON),
                        ("Open settings\u2026", PUSH_BUTTON)):
            assert control in controls, controls
        assert all(name for name, _role in controls)
        assert panel.status() == first_run.NEEDS_MODEL
        # Nothing listens at the address: the card says the two ways forward.
        text = wait_for(lambda: "Nothing answers" in panel.card_text() and panel.card_text(),
                        what="the card's sentence about the dead server")
        assert "127.0.0.1:9" in text and "ollama serve" in text and "ollama pull" in text
        assert "cloud provider" in text and "API key" in text
        screenshot(gui_office, "first_run_card.png")

        panel.type("Tighten the first paragraph.")
        panel.key("Return")
        wait_for(lambda: panel.status() == first_run.KEPT, what="the kept-message status")
        assert panel.read("Message") == "Tighten the first paragraph."
        assert panel.transcript() == ""
        assert panel.card_labels() is not None
        screenshot(gui_office, "first_run_kept_message.png")
    finally:
        gui_office.job("settings.save", endpoint="http://localhost:11434/v1", model="",
                       provider="ollama")


def test_card_goes_away_after_the_model_answers(gui_office, gui_doc):
    server = sse.ScriptedServer([sse.text_response("Hello, I can help.")],
                                models=("test-model",))
    server.start()
    _fresh_profile(gui_office, endpoint=server.url, provider="custom", model="test-model")
    try:
        panel = PanelDriver(gui_office, gui_doc)
        # A model is set but has not answered yet: the card stays, sending works.
        assert panel.card_labels() is not None
        wait_for(lambda: "test-model" in panel.card_text(),
                 what="the card naming the model (%r)" % (panel.card_controls(),))
        assert panel.status() == "Ready"
        screenshot(gui_office, "first_run_model_set.png")
        panel.type("Say hello.")
        panel.key("Return")
        panel.wait_transcript("Hello, I can help.")
        panel.wait_idle()
        wait_for(lambda: panel.card_labels() is None, what="the card to go away")
        assert model_answered(gui_office)
        screenshot(gui_office, "first_run_after_answer.png")
        # A new panel for another document shows no card any more.
        other = gui_office.new_writer()
        try:
            assert PanelDriver(gui_office, other).card_labels() is None
        finally:
            gui_office.close(other)
    finally:
        server.stop()
        gui_office.job("settings.save", endpoint="http://localhost:11434/v1", model="",
                       provider="ollama")
        set_model_answered(gui_office, True)


def test_the_card_folds_while_the_first_answer_comes_and_comes_back_if_none_came(
        gui_office, gui_doc):
    """Issue 39: the card (~300 px) stayed over the chat for the whole wait for the first
    answer (30 s and more on a local model). It folds when the message goes, comes back
    when the turn fails before any answer, and stays away once one came."""
    failed = sse.error_response(401, "Incorrect API key provided.")
    failed["head_delay"] = 2.5
    slow = sse.text_response("Hello, I can help.")
    slow["head_delay"] = 2.5
    server = sse.ScriptedServer([failed, slow], models=("test-model",))
    server.start()
    _fresh_profile(gui_office, endpoint=server.url, provider="custom", model="test-model")
    try:
        panel = PanelDriver(gui_office, gui_doc)
        wait_for(lambda: "test-model" in panel.card_text(), what="the card naming the model")
        for message in ("Say hello.", "Say hello again."):
            panel.type(message)
            panel.key("Return")
            wait_for(lambda: panel.card_labels() is None, what="the card to fold")
            assert panel.send_label() == "Stop"          # folded while the model is asked
            if message == "Say hello.":
                wait_for(lambda: panel.card_labels() is not None, timeout=30,
                         what="the card back after the failed turn")
                panel.wait_idle()
                assert not model_answered(gui_office)
        panel.wait_transcript("Hello, I can help.")
        panel.wait_idle()
        assert panel.card_labels() is None and model_answered(gui_office)
    finally:
        server.stop()
        gui_office.job("settings.save", endpoint="http://localhost:11434/v1", model="",
                       provider="ollama")
        set_model_answered(gui_office, True)

"""Pure logic behind the panel and the Options page: what is appended where, and form parsing."""

import pytest

from marginalia import config
from marginalia.document.docview import utf16_len
from marginalia.events import Event
from marginalia.ui import options_form
from marginalia.ui import panel_layout
from marginalia.ui.transcript import TranscriptRenderer


def pane_after(outs, pane=""):
    """The conversation pane's text after Appends were applied in order, as the view does."""
    for out in outs:
        if out.retract:
            assert pane.endswith(out.retract)
            pane = pane[:len(pane) - len(out.retract)]
        pane += out.chat
    return pane


def _render_all(entries):
    renderer = TranscriptRenderer()
    out = renderer.render(entries)
    return renderer, out


def test_thinking_goes_to_its_own_pane_and_tools_are_short_lines():
    renderer, out = _render_all([
        ("user", "Fix the spelling"),
        ("event", Event("reasoning", text="Look for colour.")),
        ("event", Event("tool_call_started", call_id="1", name="replace_text")),
        ("event", Event("tool_result", call_id="1", name="replace_text", ok=True,
                        summary="Replaced 2 occurrences of \u201ccolour\u201d")),
        ("event", Event("reasoning", text="Now confirm.")),
        ("event", Event("text", text="Done.")),
    ])
    assert out.chat == ("You: Fix the spelling\n\nAssistant:\n"
                        "  \u25b8 Replaced 2 occurrences of \u201ccolour\u201d\n\nDone.")
    assert "Look for colour" not in out.chat
    assert out.thinking == "\u2014 Fix the spelling\nLook for colour.\n\nNow confirm."


def test_pieces_rendered_one_by_one_equal_the_batch():
    entries = [("user", "Hi"), ("event", Event("text", text="Hel")),
               ("event", Event("text", text="lo")), ("event", Event("error", message="Cut.")),
               ("user", "Again"), ("event", Event("text", text="Yes"))]
    _, whole = _render_all(entries)
    renderer = TranscriptRenderer()
    pieces = pane_after(renderer.render([e]) for e in entries)
    assert pieces == whole.chat
    assert whole.chat == ("You: Hi\n\nAssistant:\nHello\n\u26a0 Cut.\n\nYou: Again\n\n"
                          "Assistant:\nYes")


def test_a_stopped_turn_is_marked_in_the_conversation():
    _, out = _render_all([("user", "Hi"), ("event", Event("done", finish_reason="cancelled"))])
    assert out.chat.endswith("\u25a0 Stopped\n")


def test_a_cut_answer_keeps_its_text_then_its_error_then_says_it_is_incomplete():
    _, out = _render_all([
        ("user", "Hi"), ("event", Event("text", text="A reader can try to s")),
        ("event", Event("error", message="The connection closed.")),
        ("event", Event("done", finish_reason="cut"))])
    assert out.chat == ("You: Hi\n\nAssistant:\nA reader can try to s\n"
                        "\u26a0 The connection closed.\n"
                        "\u25a0 The answer above is incomplete. Retry asks again.\n")


def test_utf16_length_counts_astral_characters_twice():
    assert utf16_len("a\U0001F600b") == 4
    assert utf16_len("\u00e9\n") == 2


def test_form_round_trip_and_bad_fields_keep_saved_values():
    base = config.Settings(endpoint="https://api.openai.com/v1", provider="openai",
                           temperature=0.7, max_tokens=100)
    form = options_form.settings_to_form(base)
    assert form["temperature"] == "0.7" and form["max_tokens"] == "100"
    again, problems = options_form.form_to_settings(base, form)
    assert problems == [] and again.temperature == 0.7 and again.provider == "openai"

    form.update(temperature="warm", max_tokens="", max_rounds="0",
                endpoint="http://10.0.0.5:8080/v1")
    changed, problems = options_form.form_to_settings(base, form)
    assert changed.temperature == 0.7          # kept
    assert changed.max_tokens is None          # empty: not sent
    assert changed.max_rounds == base.max_rounds
    assert changed.provider == "custom"        # endpoint no longer the preset's
    assert len(problems) == 2


def test_keeping_chats_is_on_by_default_and_a_tick_box_on_the_page():
    assert config.Settings().keep_chats is True
    form = options_form.settings_to_form(config.Settings())
    assert form["keep_chats"] is True
    form["keep_chats"] = False
    changed, problems = options_form.form_to_settings(config.Settings(), form)
    assert changed.keep_chats is False and problems == []


def test_apply_mode_is_one_choice_on_the_page_and_old_profiles_read_as_tracked():
    # A profile from before the modes: only the tick box's track_changes was saved.
    assert options_form.settings_to_form(config.Settings(track_changes=True))["apply_mode"] == \
        "tracked"
    assert options_form.settings_to_form(config.Settings())["apply_mode"] == "direct"
    assert options_form.settings_to_form(
        config.Settings(apply_mode="comments"))["apply_mode"] == "comments"
    assert "track_changes" not in options_form.settings_to_form(config.Settings())
    assert [label for _m, label in options_form.APPLY_MODES] == [
        "Edit directly", "Suggest as tracked changes", "Comment only"]
    for mode, _label in options_form.APPLY_MODES:
        base = config.Settings(apply_mode="comments", track_changes=True)
        form = options_form.settings_to_form(base)
        form["apply_mode"] = mode
        saved, problems = options_form.form_to_settings(base, form)
        assert problems == [] and saved.apply_mode == mode
        # track_changes follows, so an older reader (and the panel's Insert) agrees.
        assert saved.track_changes is (mode == "tracked")
        assert options_form.settings_to_form(saved)["apply_mode"] == mode
    # No choice (or a strange one) keeps what was saved.
    base = config.Settings(apply_mode="comments")
    form = options_form.settings_to_form(base)
    form["apply_mode"] = "shouting"
    assert options_form.form_to_settings(base, form)[0].apply_mode == "comments"


@pytest.mark.parametrize("text,value", [("", None), ("0", 0.0), ("1,5", 1.5), ("2", 2.0)])
def test_temperature_parsing(text, value):
    assert options_form.parse_temperature(text) == value


def test_connection_sentences():
    settings = config.Settings(endpoint="http://localhost:11434/v1", model="llama3")
    assert "is available" in options_form.connection_sentence(settings, ["llama3"])
    assert "no model named" in options_form.connection_sentence(settings, ["qwen"])
    assert "choose one" in options_form.connection_sentence(settings.copy(model=""), ["a", "b"])


@pytest.mark.parametrize("width,height", [(180, 300), (320, 900), (800, 1400)])
def test_layout_fills_the_panel_without_overlaps(width, height):
    for thinking in (True, False):
        boxes = panel_layout.layout(width, height, thinking)
        for x, y, w, h in boxes.values():
            assert x >= 0 and y >= 0 and x + w <= width and y + h <= max(height, 320)
        transcript = boxes["transcript"]
        assert transcript[2] == width - 2 * panel_layout.MARGIN
        assert transcript[1] + transcript[3] <= boxes["copy"][1]
        assert (boxes["thinking"][3] > 0) == thinking
        # The answer row sits between the conversation and the message box, edge to edge,
        # its buttons side by side; History shares the top row with the thinking toggle.
        row = [boxes[name] for name in panel_layout.ANSWER_ROW]
        assert row[0][0] == panel_layout.MARGIN and row[-1][0] + row[-1][2] == width - 6
        assert all(a[0] + a[2] < b[0] for a, b in zip(row, row[1:]))
        assert row[0][1] + row[0][3] <= boxes["input"][1]
        toggle, hist = boxes["thinking_toggle"], boxes["history"]
        assert toggle[1] == hist[1] and toggle[0] + toggle[2] < hist[0]
        # The empty chat's hint lies inside the conversation, clear of its scroll bar.
        hx, hy, hw, hh = boxes["chat_hint"]
        tx, ty, tw, th = transcript
        assert tx < hx and ty < hy and hx + hw <= tx + tw - 16 and hy + hh <= ty + th


def test_soft_wrap_breaks_long_paragraphs_at_sentence_ends_whatever_the_pieces():
    from marginalia.ui.transcript import SOFT_BREAK, SOFT_WRAP, SoftWrap
    text = " ".join("Sentence number %d is here." % i for i in range(300))
    whole = SoftWrap().feed(text)
    wrap = SoftWrap()
    pieces = "".join(wrap.feed(text[i:i + 7]) for i in range(0, len(text), 7))
    assert pieces == whole
    assert whole.replace(SOFT_BREAK, " ") == text    # only spaces became (marked) breaks
    lines = whole.split("\n")
    assert len(lines) > 10
    assert all(len(line) < SOFT_WRAP + 40 and line.endswith(".\u200b") for line in lines[:-1])


def test_a_number_keeps_its_percent_or_currency_sign_on_its_line_whatever_the_pieces():
    from marginalia.ui.softwrap import WORD_JOINER, SoftWrap, plain
    text = "Sales rose 12 % in Q3, to 40 \u20ac a unit; 100% sure, ab %d, 5 %."
    glued = "Sales rose 12 \u2060% in Q3, to 40 \u2060\u20ac a unit; 100% sure, ab %d, 5 \u2060%."
    assert SoftWrap().feed(text) == glued
    for size in (1, 2, 3, 5):
        wrap = SoftWrap()
        assert "".join(wrap.feed(text[i:i + size]) for i in range(0, len(text), size)) == glued
    assert plain(glued) == text and WORD_JOINER not in plain(glued)


def test_soft_wrap_without_sentences_breaks_at_the_hard_limit_and_keeps_short_text():
    from marginalia.ui.transcript import HARD_WRAP, SoftWrap
    words = " ".join("w%d" % i for i in range(2000))
    lines = SoftWrap().feed(words).split("\n")
    assert all(len(line) <= HARD_WRAP + 10 for line in lines) and len(lines) > 5
    short = "A short answer. With two sentences.\nAnd a line."
    assert SoftWrap().feed(short) == short


def test_renderer_wraps_a_long_answer_the_same_on_replay():
    text = " ".join("Word%d." % i for i in range(600))
    entries = [("user", "Go"), ("event", Event("text", text=text[:1000])),
               ("event", Event("text", text=text[1000:]))]
    renderer = TranscriptRenderer()
    streamed = pane_after(renderer.render([e]) for e in entries)
    _, replayed = _render_all(entries)
    assert streamed == replayed.chat
    assert "\n" in streamed.split("Assistant:\n", 1)[1]


def test_trim_point_keeps_whole_blocks_at_the_end():
    from marginalia.ui.transcript import trim_point
    text = "".join("You: q%d\n\nAssistant: answer %d\n\n" % (i, i) for i in range(100))
    cut = trim_point(text, 200)
    assert 0 < cut and len(text) - cut <= 200
    assert text[cut:].startswith("Assistant:") or text[cut:].startswith("You:")
    assert trim_point(text, len(text) + 1) == 0
    assert trim_point("one line\n" * 50, 40) % len("one line\n") == 0
    assert trim_point("x" * 500, 100) == 0      # no line break: nothing to cut at


def test_first_run_card_shows_until_a_model_is_set_and_has_answered():
    from marginalia.ui import first_run
    assert first_run.needs_card("", True) and first_run.needs_card("  ", False)
    assert first_run.needs_card("llama3.2", False)
    assert not first_run.needs_card("llama3.2", True)
    # An administrator's locked server and model: nothing for the user to set up.
    assert not first_run.needs_card("corp-7b", False, {"endpoint", "model"})
    assert first_run.needs_card("corp-7b", False, {"model"})
    assert first_run.needs_card("", False, {"endpoint", "model"})
    assert first_run.status_hint(config.Settings()) == first_run.NEEDS_MODEL
    assert first_run.status_hint(config.Settings(model="m")) is None
    assert first_run.answered_in([("event", Event("text", text="Hi"))])
    assert first_run.answered_in([("event", Event("tool_result", name="x", ok=True))])
    assert not first_run.answered_in([("user", "Hi"), ("event", Event("text", text="")),
                                      ("event", Event("error", message="No."))])


def test_first_run_card_words_each_state():
    from marginalia.ui import first_run
    local = config.Settings()
    dead = first_run.probe_failed(local, "Nothing is listening at localhost:11434.", None)
    assert dead.state == first_run.NO_SERVER
    text = first_run.card_text(local, dead)
    assert "localhost:11434" in text and "ollama serve" in text and "ollama pull" in text
    assert "cloud provider" in text and "API key" in text
    lm = config.Settings(provider="lmstudio", endpoint="http://localhost:1234/v1")
    assert "Start LM Studio" in first_run.card_text(lm, dead)
    cloud = config.Settings(provider="openai", endpoint="https://api.openai.com/v1")
    tls = first_run.probe_failed(local, "Any wording at all.", None, secure=True)
    assert tls.state == first_run.FAILED     # something answered there, in TLS
    refused = first_run.probe_failed(cloud, "The API key was refused.", 401)
    assert refused.state == first_run.FAILED
    assert first_run.card_text(cloud, refused).startswith("The API key was refused.")
    listed = first_run.Probe(first_run.MODELS, models=["a", "b"])
    assert "offers 2 models" in first_run.card_text(local, listed)
    assert "no model named" in first_run.card_text(local.copy(model="c"), listed)
    assert "Press Test" in first_run.card_text(local.copy(model="a"), listed)
    tested = first_run.Probe(first_run.MODELS, models=["a"], tested=True)
    assert "is ready" in first_run.card_text(local.copy(model="a"), tested)
    assert "no models" in first_run.card_text(local, first_run.Probe(first_run.MODELS))
    assert "Looking for" in first_run.card_text(local, first_run.Probe())


@pytest.mark.parametrize("width", [180, 240, 320])
def test_first_run_card_layout_fits_its_width_and_grows_with_the_text(width):
    from marginalia.ui import first_run
    short_boxes, short_h = first_run.card_layout(width, "One line.")
    long_boxes, long_h = first_run.card_layout(width, "word " * 80)
    assert long_h > short_h
    for boxes, height in ((short_boxes, short_h), (long_boxes, long_h)):
        for x, y, w, h in boxes.values():
            assert x >= 0 and x + w <= width and y + h <= height


def test_first_run_card_puts_a_box_under_its_label_when_its_choice_needs_the_width():
    """Issue 24: "Ollama (l" and "scripted-" were cut beside their labels at 180 px."""
    from marginalia.ui import first_run
    fits = {"provider": 80, "model": 80, "label": 50, "test": 40, "settings": 90, "text_h": 60}
    boxes, _h = first_run.card_layout(180, "x", fits)
    label, box = boxes["provider_label"], boxes["provider"]
    assert box[1] <= label[1] and label[1] + label[3] <= box[1] + box[3]   # side by side
    wide = dict(fits, provider=150, settings=140)
    boxes, height = first_run.card_layout(180, "x", wide)
    assert boxes["provider"][1] > boxes["provider_label"][1]          # under its label
    assert boxes["provider"][2] == 168 and boxes["model"][2] == 168
    assert boxes["settings"][1] > boxes["test"][1] and boxes["settings"][2] >= 140
    assert boxes["text"][3] == 60
    tall = first_run.card_layout(180, "x", dict(wide, row=34))[0]       # gtk3's boxes
    assert tall["model_label"][1] >= tall["provider"][1] + 34
    for x, y, w, h in boxes.values():
        assert x >= 0 and x + w <= 180 and y + h <= height


def test_probe_settings_shorten_the_connect_timeout_on_local_hosts_only():
    from marginalia.ui import first_run
    local = first_run.probe_settings(config.Settings(endpoint="http://127.0.0.1:9/v1"))
    assert local.connect_timeout == first_run.LOCAL_CONNECT_TIMEOUT
    cloud = first_run.probe_settings(config.Settings(endpoint="https://api.openai.com/v1"))
    assert cloud.connect_timeout == config.Settings().connect_timeout


def test_a_dead_local_port_answers_the_look_in_well_under_a_second():
    import time
    from marginalia.chat.transport import ChatClient
    from marginalia.errors import EndpointError
    from marginalia.ui import first_run
    settings = first_run.probe_settings(config.Settings(endpoint="http://127.0.0.1:9/v1"))
    started = time.monotonic()
    with pytest.raises(EndpointError):
        ChatClient(settings, retries=0).list_models()
    assert time.monotonic() - started < 1.0


def test_options_form_model_note_and_field_problem_line():
    assert options_form.model_note("a", ["a", "b"]) == ""
    # An empty box after the list came: the note says what to do (the page puts a lone
    # model in the box itself).
    assert options_form.model_note("", ["a", "b"]) == "Choose a model from the list."
    assert "does not offer \u201cc\u201d" in options_form.model_note("c", ["a", "b"])
    assert options_form.model_note("a", []) == "The server lists no models."
    with pytest.raises(ValueError) as caught:
        options_form.parse_rounds("0")
    assert str(caught.value).startswith("Most tool steps per answer")
    line = options_form.field_problem(str(caught.value))
    assert line.endswith("OK keeps the saved value.")


def test_an_answer_after_a_tool_line_starts_its_own_paragraph():
    # Issue 24: the answer ran straight on under "  ▸ Inserted a table".
    pane = pane_after([_render_all([
        ("user", "Add a table"),
        ("event", Event("tool_result", call_id="1", name="insert_table", ok=True,
                        summary="Inserted a table")),
        ("event", Event("text", text="Here it is.")),
        ("event", Event("done", finish_reason="stop")),
    ])[1]])
    assert pane.endswith("  \u25b8 Inserted a table\n\nHere it is.\n"), repr(pane)


def test_a_turn_ending_on_a_tool_line_leaves_one_blank_line_before_the_next():
    renderer = TranscriptRenderer()
    outs = [renderer.render([("user", "Continue"),
                             ("event", Event("text", text="More text.")),
                             ("event", Event("tool_result", call_id="a", name="continue", ok=True,
                                             summary="Inserted 1 paragraph below")),
                             ("event", Event("done", finish_reason="stop"))]),
            renderer.render([("user", "Next")])]
    assert "  \u25b8 Inserted 1 paragraph below\n\nYou: Next\n" in pane_after(outs)


@pytest.mark.parametrize("width", [180, 200, 240, 300, 420])
def test_the_status_line_is_never_a_narrow_column_beside_undo(width):
    """Beside Send and Undo at 180 px the status was 40 px wide: its words split mid-word.
    Where that column would be narrow, the status takes a row of its own over them."""
    height = 600
    for undo in (False, True):
        boxes = panel_layout.layout(width, height, False, undo_visible=undo, status_h=17)
        status, send, undo_box = boxes["status"], boxes["send"], boxes["undo"]
        assert status[2] >= panel_layout.STATUS_MIN_WIDTH, (width, undo, status)
        assert status[2] == panel_layout.status_width(width, undo)
        for button in (send, undo_box) if undo else (send,):
            # no overlap with the status, and inside the panel
            assert (button[1] >= status[1] + status[3] or button[0] >= status[0] + status[2]), \
                (width, undo, status, button)
            assert button[1] + button[3] <= height - panel_layout.MARGIN
        if undo:
            assert undo_box[0] + undo_box[2] <= send[0]
        assert boxes["input"][1] + boxes["input"][3] <= status[1]


def test_the_status_row_height_changes_only_past_two_lines():
    """panel_view relaid the panel out when the status's words went from one line to two,
    though the row (two lines at the least) stayed as high."""
    row = panel_layout.status_row
    assert row(17) == row(32) == row(0) == panel_layout.STATUS
    assert row(48) == 48 != row(32)

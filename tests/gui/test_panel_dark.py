"""The panel in a dark desktop theme: its colours come from the window's theme (issue 13).

A LibreOffice of its own, with the gtk3 plugin and GTK's dark Adwaita (built into
GTK 3, no package needed), as a user with a dark desktop runs it. Under gtk3 the
panel's controls are not in the UNO accessibility tree, so the test reads the
screen itself: the sidebar's column of the screenshot. Screenshots:
tests/artifacts/panel_dark_card.png, panel_dark.png and panel_dark_answered.png.
"""

import time

from tests.support import sse_server as sse
from tests.support.atspi import size_window
from tests.support.panel_driver import (screen_share, scripted_chat, screenshot,
                                        set_model_answered, show_deck, wait_for)

from marginalia.ui import theme

QUESTION = "Is the panel readable in the dark?"
ANSWER = "Yes: light text on the theme's dark field."
WIDTH = 1180
# The sidebar's panel in a WIDTH-wide window: right of the document's scroll bar, left of
# the deck's tab bar.
BAND = (WIDTH - 215, 130, 160, 760)


def _light(path):
    """The share of light pixels (what a light card or pane would fill)."""
    return screen_share(path, BAND, "-colorspace", "Gray", "-threshold", "75%")


def _of_colour(path, colour):
    return screen_share(path, BAND, "-fill", "black", "+opaque", "#%06x" % colour,
                        "-fill", "white", "-opaque", "#%06x" % colour, "-colorspace", "Gray")


def _open_panel(office, doc):
    frame = doc.CurrentController.Frame
    size_window(office.display, frame.Title, width=WIDTH)
    wait_for(lambda: frame.ContainerWindow.getPosSize().Width >= WIDTH - 10,
             what="the window to take its size")
    deck = show_deck(doc)
    wait_for(deck.isActive, what="the Marginalia deck")
    time.sleep(2.0)                    # drawn


def test_a_dark_theme_gives_a_dark_card_dark_panes_and_light_text(dark_office):
    set_model_answered(dark_office, False)
    dark_office.job("settings.save", model="")
    doc = dark_office.new_writer()
    try:
        _open_panel(dark_office, doc)
        style = doc.CurrentController.Frame.ComponentWindow.StyleSettings
        assert theme.is_dark(style.FieldColor), "GTK's dark theme did not reach the office"
        colours = theme.pane_colours(style.FieldColor, style.FieldTextColor)
        card_bg = theme.card_colour(style.FaceColor, style.LabelTextColor, style.HighlightColor)
        # The first-run card (no model yet) is tinted from the theme: a fixed light blue
        # put the theme's light labels on a light card.
        card = screenshot(dark_office, "panel_dark_card.png")
        assert _light(card) < 0.05, _light(card)
        assert theme.is_dark(card_bg) and _of_colour(card, card_bg) > 0.1   # and it is drawn
    finally:
        dark_office.close(doc)

    server = scripted_chat(dark_office)
    chat_server = next(server)
    try:
        # Slow pieces: the thinking pane is open while the answer has not begun.
        chat_server.add(sse.text_response(ANSWER, pieces=3, reasoning="Dark field, light text.",
                                          delay=1.5))
        doc = dark_office.new_writer()
        try:
            _open_panel(dark_office, doc)
            assert dark_office.job("chat.start", doc, message=QUESTION)["started"]
            kinds = []
            wait_for(lambda: kinds.extend(e.get("type") for e in
                                          dark_office.job("chat.poll", doc)["entries"])
                     or "reasoning" in kinds, what="the thinking")
            time.sleep(0.8)
            shot = screenshot(dark_office, "panel_dark.png")
            wait_for(lambda: not dark_office.job("chat.poll", doc)["busy"], what="the answer")
            time.sleep(1.0)
            # Folded: the toggle says how long the model thought, short where gtk3's
            # padding leaves no room for "Thought for N s" (look at it).
            answered = screenshot(dark_office, "panel_dark_answered.png")
            assert _light(answered) < 0.05, _light(answered)
            # Both panes are drawn in the theme's colours, which are dark.
            assert _of_colour(shot, colours["chat_bg"]) > 0.25
            assert _of_colour(shot, colours["thinking_bg"]) > 0.05
            assert theme.is_dark(colours["thinking_bg"])
            # And no light pane or card is left: only text and edges are light.
            assert _light(shot) < 0.05, _light(shot)
        finally:
            dark_office.close(doc)
    finally:
        next(server, None)

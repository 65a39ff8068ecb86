"""Fit at the sidebar's default width (issue 24, item 2): nothing cut, nothing overlapping.

Every shown label, button, check box, list and box of the panel (its cards, the
edit options tray, the review list, the slash list) and of the Options pages is
measured against the toolkit's own size for its text (office.fit_probe:
getMinimumSize, and calcAdjustedSize at its width for a label that wraps). A
control narrower or lower than its text needs is cut; one that overlaps a
sibling or pokes outside its container is misplaced. Each state is measured
again with every text ~30% longer (German against English): the layout must
wrap, shorten or grow, not cut. The Options pages are also measured in every shipped
language, with its catalog's texts (extension/locale/*.po): no exceptions. A wrapping
label whose longest word is wider than it is cut too (the toolkit splits the word).
Screenshots: tests/artifacts/panel_fit_*.png.
"""

import subprocess
from pathlib import Path

import pytest

from marginalia.i18n import po
from marginalia.office import fit_probe, page_fit
from marginalia.office.button_width import SLACK
from tests.gui.test_panel_options import on_main
from tests.support import sse_server as sse
from tests.support.panel_driver import (PanelDriver, has_state, screenshot,
                                        set_model_answered, set_paragraphs, show_deck,
                                        wait_for)

# Siblings meant to lie on each other: the jump button over the conversation's bottom
# edge, the hint inside the empty message box, the empty chat's hint on the conversation
# (their names in office.panel_view).
MEANT = {frozenset(("jump", "transcript")), frozenset(("placeholder", "input")),
         frozenset(("chat_hint", "transcript"))}
# The "/" and "@" lists lie over the bottom of the conversation, just above the box
# (never over the box, the status line or Send).
MEANT |= {frozenset((lst, under)) for lst in ("slash_list", "mention_list")
          for under in ("transcript", "thinking", "jump", "copy", "insert", "retry", "edit",
                        "scope")}
ONE_LINE_TEXT = ("FixedText", "Button", "CheckBox", "RadioButton", "ListBox", "ComboBox")
# A label's minimum height is its line's; a button's or a box's adds the toolkit's padding
# (gen: 26 px for a button, 21 for a box), which the Options dialog's own 20-23 px rows
# do without: their heights are not judged by it.
LABELS = ("FixedText", "CheckBox", "RadioButton")
# A wrapping label's measure at its width comes back up to 2 px wider than that width
# when a line fills it (seen on gen and gtk3 alike, whatever the width: the window's frame
# added to the text's rectangle); the words are wrapped within the width all the same.
WRAP_FRAME = 2
CHECKED = []           # how many controls each measure looked at, for the report


@pytest.fixture
def fit_office(gui_office):
    return gui_office


@pytest.fixture
def fit_doc(gui_doc):
    return gui_doc


@pytest.fixture
def fit_server(chat_server):
    return chat_server


def _gtk3_panel(office):
    """A new document with its panel open under gtk3 (no window manager: sized through X,
    tests/support/atspi.py). The driver's accessible names need the AT bridge there, so
    this panel is only measured (the job), not typed into."""
    from tests.support.atspi import size_window
    doc = office.new_writer()
    frame = doc.CurrentController.Frame
    size_window(office.display, frame.Title)
    wait_for(lambda: frame.ContainerWindow.getPosSize().Width >= 1000,
             what="the window to take its size")
    show_deck(doc)
    wait_for(lambda: _has_panel(office, doc), what="the panel under gtk3")
    return doc


def _has_panel(office, doc):
    try:
        return office.job("panel.fit", document=doc)["parent"][0] > 0
    except Exception:
        return False


def test_the_panel_and_the_first_run_card_fit_under_gtk3(gtk3_office):
    found = []
    for answered, shot in ((False, "first_run"), (True, "idle")):
        set_model_answered(gtk3_office, answered)
        # A model chosen and answered before: no card (a dead address: nothing is sent).
        gtk3_office.job("settings.save", endpoint="http://127.0.0.1:9/v1", provider="custom",
                        model="scripted-model-7b" if answered else "")
        doc = _gtk3_panel(gtk3_office)
        try:
            width = gtk3_office.job("panel.fit", document=doc)["parent"][0]
            assert 150 <= width <= 240, width          # the sidebar's default width
            if not answered:
                wait_for(lambda: any(c["id"] == "setup_provider" for c in gtk3_office.job(
                    "panel.fit", document=doc)["controls"]), what="the first-run card")
            found += _panel_fits(gtk3_office, doc, shot, shot)
        finally:
            gtk3_office.close(doc)
    assert not found, "\n".join(found)


def _label(c):
    return "%s %r in %r" % (c["kind"], c["name"] or c["text"], c["path"] or "panel")


def problems(controls):
    """Sentences for each control cut, poking out, or overlapping a sibling."""
    out = []
    for c in controls:
        x, y, w, h = c["box"]
        rw, rh = c["room"]
        if x < 0 or y < 0 or x + w > rw or y + h > rh:
            out.append("%s at %r pokes outside its %r container" % (_label(c), c["box"], c["room"]))
        if "min" not in c:
            continue
        mw, mh = c["min"]
        if c["kind"] == "Button":
            if c["image"]:
                continue          # an icon: its words are its tooltip and accessible name
            # A button's minimum holds padding its label does without (office.button_width,
            # measured on gen and gtk3): the product lays buttons out by the same need.
            mw -= SLACK
        if "wrap_w" in c:         # a label that wraps: its words' height at its width
            if c["need_h"] > h or c["wrap_w"] > w + WRAP_FRAME:
                out.append("%s is cut: it needs %dx%d wrapped, has %dx%d"
                           % (_label(c), c["wrap_w"], c["need_h"], w, h))
            elif c.get("word_w", 0) > w:
                out.append("%s splits a word: its longest is %d px wide, the label %d"
                           % (_label(c), c["word_w"], w))
        elif c["kind"] in ONE_LINE_TEXT and (mw > w or (mh > h and c["kind"] in LABELS)):
            out.append("%s is cut: it needs %dx%d, has %dx%d" % (_label(c), mw, mh, w, h))
    by_parent = {}
    for c in controls:
        by_parent.setdefault(c["path"], []).append(c)
    for siblings in by_parent.values():
        for i, a in enumerate(siblings):
            for b in siblings[i + 1:]:
                if frozenset((a["id"], b["id"])) in MEANT:
                    continue
                if _overlap(a["box"], b["box"]):
                    out.append("%s %r overlaps %s %r" % (_label(a), a["box"], _label(b), b["box"]))
    return out


def _overlap(a, b):
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


def _panel_fits(office, doc, what, shot):
    """Measure the panel now and then with longer words; the problems of both."""
    found = []
    for stretch in (False, True):
        report = office.job("panel.fit", document=doc, stretch=stretch)
        controls = report["controls"]
        CHECKED.append((office.plugin + " " + what, stretch, len(controls)))
        assert len(controls) >= 8, controls
        found += ["%s%s: %s" % (what, " (longer words)" if stretch else "", p)
                  for p in problems(controls)]
        screenshot(office, "panel_fit_%s_%s%s.png" % (office.plugin, shot,
                                                      "_long" if stretch else ""))
    office.job("panel.fit", document=doc)      # the words as they were
    print("fit: %s: %d controls checked" % (what, len(controls)))
    return found


def test_the_panel_with_its_cards_fits_at_the_default_width(fit_office, fit_doc, fit_server):
    fit_office.job("settings.save", apply_mode="direct", track_changes=False)
    set_paragraphs(fit_doc, "Teh cat sat.", "Teh dog ran.", "Teh end.")
    fit_server.add(
        sse.text_response("It is about a cat and a dog.", reasoning="Reading it first."),
        sse.tool_calls_response([
            ("e1", "replace_text", {"search": "Teh cat", "replacement": "The cat"}),
            ("e2", "replace_text", {"search": "Teh dog", "replacement": "The dog"}),
            ("e3", "replace_text", {"search": "Teh end", "replacement": "**The** end"})]),
        sse.text_response("Three typos fixed."))
    panel = PanelDriver(fit_office, fit_doc)
    width = panel.control("Conversation").getSize().Width
    assert 150 <= width <= 230, width            # the sidebar's default width
    panel.type("What is this about?")
    panel.key("Return")
    panel.wait_transcript("a cat and a dog.")
    panel.wait_idle()
    found = _panel_fits(fit_office, fit_doc, "after a question", "question")
    # The folded thinking keeps its words ("3 s ▸" alone said nothing without its tooltip).
    shown = {c["id"]: c["text"] for c in fit_office.job("panel.fit", document=fit_doc)["controls"]}
    assert shown["thinking_toggle"].startswith("Thought for "), shown["thinking_toggle"]

    panel.type("Fix the typos.")
    panel.key("Return")
    panel.wait_transcript("Three typos fixed.")
    panel.wait_idle()
    panel.refresh()
    panel.press("Review")
    panel.edit_options()
    found += _panel_fits(fit_office, fit_doc, "review list and tray open", "review")
    _tab_order_follows_the_eye(panel)

    # New chat offers Undo for a few seconds beside Send: the status line beside both was
    # a 40 px column whose words the toolkit split mid-word. Measured while Undo shows.
    panel.press("New chat")
    wait_for(lambda: "Undo" in panel.names(), what="Undo after New chat")
    report = fit_office.job("panel.fit", document=fit_doc)
    assert "Undo" in panel.names(), "Undo went before it was measured"
    screenshot(fit_office, "panel_fit_%s_undo.png" % fit_office.plugin)
    status = next(c for c in report["controls"] if c["id"] == "status")
    assert status["text"] and status.get("word_w"), status
    found += ["Undo showing: %s" % p for p in problems(report["controls"])]
    assert not found, "\n".join(found)


def _tab_order_follows_the_eye(panel):
    """Tab goes through the panel's children in their window order: it must run top to
    bottom, left to right (the change card's controls came after Send before)."""
    places = []
    for ctx in panel._panel_children():
        if not has_state(ctx, "SHOWING") or not has_state(ctx, "FOCUSABLE"):
            continue
        where = ctx.getLocation()
        places.append(((where.Y, where.X), ctx.getAccessibleName()))
    names = [name for _place, name in places]
    assert "Accept All" in names and "Send" in names, names
    assert names.index("Accept All") < names.index("Send"), names
    rows = [place for place, _name in places]
    assert rows == sorted(rows), places


def test_the_slash_list_fits_and_leaves_the_status_and_send(fit_office, fit_doc, fit_server):
    panel = PanelDriver(fit_office, fit_doc)
    panel.click("Message")
    panel.key("slash")
    wait_for(lambda: any(c["kind"] == "ListBox" and c["name"] != "How edits are applied"
                         for c in fit_office.job("panel.fit", document=fit_doc)["controls"]),
             what="the slash list")
    found = _panel_fits(fit_office, fit_doc, "slash list", "slash")
    boxes = {c["id"]: c["box"] for c in fit_office.job("panel.fit", document=fit_doc)["controls"]}
    x, y, w, h = boxes["slash_list"]
    assert y + h <= boxes["input"][1], boxes       # above the box: status and Send in sight
    assert h >= 5 * 17, boxes                      # five entries or more at once
    assert not found, "\n".join(found)


def test_the_first_run_card_fits(fit_office, fit_doc):
    fit_office.job("settings.save", endpoint="http://127.0.0.1:9/v1", model="scripted-model-7b",
                   provider="ollama")
    set_model_answered(fit_office, False)
    try:
        panel = PanelDriver(fit_office, fit_doc)
        wait_for(lambda: "Nothing answers" in panel.card_text(), what="the card's sentence")
        found = _panel_fits(fit_office, fit_doc, "first-run card", "first_run")
    finally:
        fit_office.job("settings.save", endpoint="http://localhost:11434/v1", model="",
                       provider="ollama")
        set_model_answered(fit_office, True)
    assert not found, "\n".join(found)


PAGES = (("OptionsPage", "org.marginalia.OptionsHandler"),
         ("PromptsPage", "org.marginalia.PromptsHandler"),
         ("AgentsPage", "org.marginalia.AgentsHandler"),
         ("AgentCallsPage", "org.marginalia.AgentCallsHandler"))


LOCALES = Path(__file__).resolve().parents[2] / "extension" / "locale"
# Screenshots of the pages in these languages (tests/artifacts/panel_fit_*_<lang>.png).
SHOTS = ("de", "fr", "ja", "zh_CN", "ko")


def _catalogs():
    """{language: {English text: its translation}} of every shipped .po (translated
    entries without context: the pages' labels and choices are looked up so)."""
    out = {}
    for path in sorted(LOCALES.glob("*.po")):
        entries = po.parse(path.read_text(encoding="utf-8"))
        out[path.stem] = {e.msgid: e.strings[0] for e in entries
                          if e.msgid and e.translated and e.context is None and not e.plural}
    return out


def _no_font(language):
    """Whether no font here draws ``language``'s script (fontconfig's own list): its text
    is then drawn in whatever glyphs fall back, overlapping (seen: Chinese on this
    machine), so its measure tells nothing about the page."""
    found = subprocess.run(["fc-list", ":lang=" + language.lower().replace("_", "-"),
                            "family"], capture_output=True, text=True, check=True)
    return not found.stdout.strip()


def _translate(window, catalog):
    """The page's words as that language's catalog gives them at "initialize": each
    label, tick box and button, and each drop-down's choices (the chosen one kept)."""
    for control in window.getControls():
        model = control.getModel()
        info = model.getPropertySetInfo()
        if info.hasPropertyByName("Label") and model.Label in catalog:
            model.Label = catalog[model.Label]
        # A drop-down's choices are words; a list's rows are data (the prompts), as in
        # fit_probe.stretch.
        if fit_probe.kind(control) in ("ComboBox", "ListBox") and model.StringItemList \
                and (fit_probe.kind(control) == "ComboBox" or model.Dropdown):
            chosen = tuple(model.SelectedItems) if fit_probe.kind(control) == "ListBox" else ()
            model.StringItemList = tuple(catalog.get(t, t) for t in model.StringItemList)
            if chosen:
                model.SelectedItems = chosen


def test_the_options_pages_fit(fit_office, fit_doc):
    """Each page as the Options dialog shows it: at its own size, in a window, in English,
    with every word ~30% longer, and in each shipped language (its catalog's texts)."""
    catalogs = _catalogs()
    assert len(catalogs) >= 20 and "de" in catalogs and "fr" in catalogs, sorted(catalogs)
    judged = _pages_fit(fit_office, fit_doc, catalogs, tuple(catalogs))
    # The texts judged were the catalogs': a translated label is measured as translated.
    assert judged["OptionsPage", "de"]["KeepChatsCheck"] == \
        catalogs["de"]["Keep chats (this computer only)"]
    assert judged["AgentsPage", "fr"]["EnabledCheck"] == \
        catalogs["fr"]["Let agents on this computer use Marginalia's document tools"]


def test_the_options_pages_fit_under_gtk3(gtk3_office):
    """gtk3 draws boxes and buttons taller than gen (its 34 px entries): the pages in
    English, ~30% longer and in German, each control's text whole and nothing overlapping."""
    doc = gtk3_office.new_writer()
    try:
        judged = _pages_fit(gtk3_office, doc, _catalogs(), ("de",))
        assert len(judged) == len(PAGES) * 3
    finally:
        gtk3_office.close(doc)


def _pages_fit(fit_office, fit_doc, catalogs, languages):
    """Measure every Options page in English, ~30% longer and in ``languages``; fails on
    a problem. The texts each measure judged, by (page, language)."""
    provider = fit_office.ctx.getValueByName(
        "/singletons/com.sun.star.deployment.PackageInformationProvider")
    root = provider.getPackageLocation("org.marginalia.writer") + "/dialogs/"
    parent = fit_doc.CurrentController.Frame.ContainerWindow
    found = []
    # Every language is judged: build.py test installs fonts for every shipped script.
    fontless = {language for language in catalogs if _no_font(language)}
    assert not fontless, "no font draws %s here (python3 build.py test installs them)" % (
        ", ".join(sorted(fontless)))
    judged = {}
    for page, service in PAGES:
        for language in ("en", "longer") + tuple(languages):
            handler = fit_office.create(service)
            box = {}

            def create():
                windows = fit_office.create("com.sun.star.awt.ContainerWindowProvider")
                box["window"] = windows.createContainerWindow(root + page + ".xdl", "",
                                                              parent, handler)
                box["window"].setVisible(True)
                assert handler.callHandlerMethod(box["window"], "initialize", "external_event")
            on_main(fit_office, create)
            window = box["window"]
            try:
                # The words as a translation gives them at "initialize", which lays the
                # page out for them (office.page_fit) as it does there.
                if language == "longer":
                    on_main(fit_office, lambda: (fit_probe.stretch(window),
                                                 page_fit.fit(window)))
                elif language != "en":
                    catalog = catalogs[language]
                    on_main(fit_office, lambda: (_translate(window, catalog),
                                                 page_fit.fit(window)))
                # Measured on the main thread, as the product's own measure is: a peer
                # read from the bridge's thread while the new window paints once
                # took the office down.
                on_main(fit_office, lambda: box.update(controls=fit_probe.measure(
                    window, page, {n: window.getControl(n)
                                   for n in window.getModel().getElementNames()})))
                controls = box["controls"]
                CHECKED.append((fit_office.plugin + " " + page, language, len(controls)))
                assert len(controls) >= 5, controls
                judged[page, language] = {c["id"]: c["text"] for c in controls}
                found += ["%s (%s): %s" % (page, language, p) for p in problems(controls)]
                if language in ("en", "longer") + SHOTS:
                    screenshot(fit_office, "panel_fit_%s_%s_%s.png"
                               % (fit_office.plugin, page, language))
            finally:
                on_main(fit_office, window.dispose)
    assert not found, "\n".join(found)
    return judged


def test_zz_report_the_count_of_controls_checked():
    """The count of controls measured (each state, with and without longer words)."""
    total = sum(n for _what, _stretch, n in CHECKED)
    print("fit: %d controls checked in %d measures: %r" % (total, len(CHECKED), CHECKED))
    assert total >= 100, CHECKED

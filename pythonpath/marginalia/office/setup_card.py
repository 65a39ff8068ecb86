"""The first-run card's controls at the top of the chat panel (ui.first_run decides its words).

The card is its own UnoControlContainer inside the panel's, so it shows and
hides as one window and its labels never mix with the panel's status line.
Choosing a provider or a model saves it at once (the chat reads the saved
settings); the model list comes from the server on a worker
(office.server_look). All methods run on the VCL main thread.
"""

import logging
from typing import Callable

import uno

from marginalia import config
from marginalia.i18n.catalog import N_, tr
from marginalia.office import (button_width, control_names, mainthread, server_look,
                               settings_store, text_fit)
from marginalia.office.control_events import Call
from marginalia import policy
from marginalia.ui import admin_locks, first_run, theme

log = logging.getLogger("marginalia.card")
WHAT = "first-run card action"   # how a failing control action is named in the log

EXTENSION_ID = "org.marginalia.writer"
STATE_NODE = "/org.marginalia.Settings/State"
CONNECTION_NODE = "/org.marginalia.Settings/Connection"
POSSIZE = 15
CARD_BACKGROUND = 0xEAF1FB       # a window without StyleSettings to read

# name: (model service, what it is called (a button's tooltip too), model properties)
CONTROLS = (
    ("title", "FixedText", first_run.TITLE, {"Label": first_run.TITLE, "NoLabel": True,
                                             "FontWeight": 150.0}),
    ("text", "FixedText", N_("About setting up"), {"NoLabel": True, "MultiLine": True}),
    ("provider_label", "FixedText", N_("Provider:"), {"Label": N_("Provider:")}),
    ("provider", "ListBox", N_("Provider"), {"Dropdown": True, "LineCount": 11}),
    ("model_label", "FixedText", N_("Model:"), {"Label": N_("Model:")}),
    ("model", "ComboBox", N_("Model"), {"Dropdown": True, "LineCount": 12,
                                        "Autocomplete": True}),
    ("test", "Button", N_("Test"), {"Label": N_("Test")}),
    ("settings", "Button", N_("Open settings\u2026"), {"Label": N_("Open settings\u2026")}),
)


def _prop(name, value):
    pv = uno.createUnoStruct("com.sun.star.beans.PropertyValue")
    pv.Name, pv.Value = name, value
    return pv


def _node(ctx, path, update=False):
    provider = ctx.ServiceManager.createInstanceWithContext(
        "com.sun.star.configuration.ConfigurationProvider", ctx)
    service = ("com.sun.star.configuration.ConfigurationUpdateAccess" if update
               else "com.sun.star.configuration.ConfigurationAccess")
    return provider.createInstanceWithArguments(service, (_prop("nodepath", path),))


def model_answered(ctx) -> bool:
    """True once a model has answered in this profile (the card then stays away)."""
    return bool(_node(ctx, STATE_NODE).getByName("model_answered"))


def remember_answer(ctx, answered: bool = True) -> None:
    node = _node(ctx, STATE_NODE, update=True)
    node.replaceByName("model_answered", answered)
    node.commitChanges()


OPTIONS_LEAF = ("/org.openoffice.Office.OptionsDialog/Nodes/org.marginalia.writer.Node/"
                "Leaves/org.marginalia.writer.Settings")
EXPAND = "vnd.sun.star.expand:"


def options_page_url(ctx) -> str:
    """The page's URL as the Options dialog compares it when asked to show a page.

    The dialog expands each registered page URL and compares the strings: ours is
    registered as "%origin%/../dialogs/..." (registry/OptionsDialog.xcu), so the
    package's location + "/dialogs/..." never matched and the dialog opened on
    whichever page it showed last. The registered value, expanded the same way
    (comphelper::getExpandedUri), does.
    """
    registered = _node(ctx, OPTIONS_LEAF).getByName("OptionsPage")
    if registered.startswith(EXPAND):
        from urllib.parse import unquote
        expander = ctx.getValueByName("/singletons/com.sun.star.util.theMacroExpander")
        registered = expander.expandMacros(unquote(registered[len(EXPAND):]))
    return registered


def open_options(ctx, frame) -> None:
    """Tools > Options with Marginalia's page selected (modal: returns when it closes)."""
    url = options_page_url(ctx)
    helper = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.DispatchHelper",
                                                          ctx)
    helper.executeDispatch(frame, ".uno:OptionsTreeDialog", "", 0,
                           (_prop("OptionsPageURL", url),))


def _card_colour(panel_container) -> int:
    """The card's background from the panel window's theme (ui.theme.card_colour)."""
    try:
        style = panel_container.getPeer().StyleSettings
        return theme.card_colour(style.FaceColor, style.LabelTextColor, style.HighlightColor)
    except Exception:
        return CARD_BACKGROUND


class SetupCard:
    """The card's window inside the panel; ``on_change`` tells the panel its text or
    settings changed (lay out again, refresh the status line)."""

    def __init__(self, ctx, frame, panel_container, on_change: Callable[[], None]):
        self.ctx = ctx
        self.frame = frame
        self._on_change = on_change
        self._disposed = False
        self.settings = settings_store.load(ctx, with_key=False)
        self.probe = first_run.Probe()
        self._latest = server_look.Latest()   # each look supersedes the ones before
        self._width = 0
        smgr = ctx.ServiceManager
        self.container = smgr.createInstanceWithContext("com.sun.star.awt.UnoControlContainer",
                                                        ctx)
        model = smgr.createInstanceWithContext("com.sun.star.awt.UnoControlContainerModel", ctx)
        model.BackgroundColor = _card_colour(panel_container)
        self.container.setModel(model)
        self._panel_container = panel_container
        panel_container.addControl("setup_card", self.container)
        self.controls = {}
        for name, kind, label, props in CONTROLS:
            cmodel = smgr.createInstanceWithContext("com.sun.star.awt.UnoControl%sModel" % kind,
                                                    ctx)
            # Only the buttons have tooltips (office.control_names); each box is named
            # by the label before it (VCL's labelled-by), the texts by their words.
            cmodel.HelpText = control_names.tooltip(kind, tr(label))
            for key, value in props.items():
                setattr(cmodel, key, tr(value) if key == "Label" and value else value)
            control = smgr.createInstanceWithContext("com.sun.star.awt.UnoControl%s" % kind, ctx)
            control.setModel(cmodel)
            self.container.addControl(name, control)
            self.controls[name] = control
        provider = self.controls["provider"]
        provider.addItems(tuple(tr(label) for _pid, label, _e in config.PRESETS), 0)
        self._select_provider()
        self.controls["model"].setText(self.settings.model)
        self._grey_locked()
        self._listeners = [
            ("provider", "addItemListener", Call(self._provider_chosen, WHAT)),
            ("model", "addItemListener", Call(self._model_chosen, WHAT)),
            ("test", "addActionListener", Call(self._test, WHAT)),
            ("settings", "addActionListener", Call(self._open_settings, WHAT)),
        ]
        for name, method, listener in self._listeners:
            getattr(self.controls[name], method)(listener)
        # The Options page (or a test) may save other settings while the card shows.
        self._watched = _node(ctx, CONNECTION_NODE)
        self._watch = Call(lambda: mainthread.post(ctx, self._settings_changed), WHAT)
        self._watched.addChangesListener(self._watch)
        self._show_text()
        self._look(tested=False)

    # -- layout --------------------------------------------------------------
    def place(self, x: int, y: int, width: int) -> int:
        """Lay the card out at (x, y), ``width`` wide; returns its height."""
        self._width = width
        boxes, height = first_run.card_layout(width, self.text(), self._needs(width))
        self.container.setPosSize(x, y, width, height, POSSIZE)
        for name, (cx, cy, cw, ch) in boxes.items():
            self.controls[name].setPosSize(cx, cy, cw, ch, POSSIZE)
        return height

    def _needs(self, width: int) -> dict:
        """What the card's words need in this toolkit (ui.first_run.card_layout)."""
        c = self.controls
        try:
            text_h = c["text"].calcAdjustedSize(uno.createUnoStruct(
                "com.sun.star.awt.Size", first_run.text_width(width), 0)).Height
            shown = {"provider": c["provider"].getSelectedItem(), "model": c["model"].getText()}
            needs = {name: text_fit.width(c[name], value) + text_fit.padding(c[name])
                     for name, value in shown.items()}
            needs.update(text_h=text_h + 4, label=max(
                c[n].getMinimumSize().Width for n in ("provider_label", "model_label")),
                test=button_width.widest_need((c["test"],)),
                settings=button_width.widest_need((c["settings"],)),
                row=max(c[n].getMinimumSize().Height for n in ("provider", "model", "test")))
            return needs
        except Exception:          # no peers yet: the estimates until the next layout
            log.debug("card measure failed", exc_info=True)
            return {}

    def text(self) -> str:
        return first_run.card_text(self.settings, self.probe)

    def _show_text(self) -> None:
        self.controls["text"].getModel().Label = self.text()
        if self._width:
            self._on_change()   # the sentence may need more or fewer lines

    def _grey_locked(self) -> None:
        """Grey what the administrator decided (as the Options page and the mode switch
        do): a locked provider or model, and Test when Test connection is turned off."""
        held = admin_locks.held(settings_store.locked(self.ctx))
        greyed = [(name, admin_locks.NOTE) for name, field in (("provider", "provider"),
                                                                ("model", "model"))
                  if field in held]
        if not settings_store.load_policy(self.ctx).allow_test_connection:
            greyed.append(("test", policy.TEST_OFF_NOTE))
        for name, why in greyed:
            model = self.controls[name].getModel()
            if model.Enabled:
                model.Enabled = False
                model.HelpText = admin_locks.help_text(model.HelpText, why)

    # -- settings ------------------------------------------------------------
    def _select_provider(self) -> None:
        ids = [pid for pid, _label, _e in config.PRESETS]
        pid = self.settings.provider if self.settings.provider in ids else "custom"
        self.controls["provider"].selectItemPos(ids.index(pid), True)

    def _save(self, **changes) -> None:
        settings = settings_store.load(self.ctx).copy(**changes)
        settings_store.save(self.ctx, settings)
        self.settings = settings.copy(api_key="")

    def reload(self) -> None:
        """Show the saved settings again (the Options page may have changed them)."""
        self.settings = settings_store.load(self.ctx, with_key=False)
        self._select_provider()
        self.controls["model"].setText(self.settings.model)
        self.probe = first_run.Probe()
        self._show_text()
        self._look(tested=False)

    def _settings_changed(self) -> None:
        if self._disposed:
            return
        saved = settings_store.load(self.ctx, with_key=False)
        if saved != self.settings.copy(api_key=""):
            self.reload()

    def ensure_model(self) -> bool:
        """True when a model is set, saving the one typed in the card if need be."""
        self.settings = settings_store.load(self.ctx, with_key=False)
        if self.settings.model:
            return True
        typed = self.controls["model"].getText().strip()
        if typed:
            self._save(model=typed)
            return True
        return False

    # -- actions -------------------------------------------------------------
    def _provider_chosen(self) -> None:
        pos = self.controls["provider"].getSelectedItemPos()
        if not 0 <= pos < len(config.PRESETS):
            return
        pid, _label, endpoint = config.PRESETS[pos]
        if pid == self.settings.provider:
            return
        if "provider" in admin_locks.held(settings_store.locked(self.ctx)):
            self._select_provider()     # greyed; a choice made in code changes nothing
            return
        changes = {"provider": pid}
        if endpoint:   # "custom" keeps the address; Open settings… is where to type one
            changes["endpoint"] = endpoint
            changes["api_key"] = settings_store.load_key(self.ctx, endpoint)
        self._save(**changes)
        self.probe = first_run.Probe()
        self._show_text()
        self._look(tested=False)

    def _model_chosen(self) -> None:
        typed = self.controls["model"].getText().strip()
        if typed and typed != self.settings.model:
            self._save(model=typed)
            self._show_text()

    def _test(self) -> None:
        if not settings_store.load_policy(self.ctx).allow_test_connection:
            return      # greyed (_grey_locked): the administrator turned Test off
        typed = self.controls["model"].getText().strip()
        if typed != self.settings.model:
            self._save(model=typed)
        self.probe = first_run.Probe()
        self._show_text()
        self._look(tested=True)

    def _open_settings(self) -> None:
        open_options(self.ctx, self.frame)
        if not self._disposed:
            self.reload()

    def _look(self, tested: bool) -> None:
        settings = settings_store.load(self.ctx)

        def show(result):
            if self._disposed:
                return
            if isinstance(result, Exception):
                self.probe = first_run.probe_failed(settings, server_look.sentence(result),
                                                    getattr(result, "status", None), tested,
                                                    getattr(result, "secure", False))
            else:
                server_look.fill_models(self.controls["model"], result)
                self.probe = first_run.Probe(first_run.MODELS, models=list(result),
                                             tested=tested)
            self._show_text()
        server_look.list_models_later(self.ctx, settings, show, self._latest)

    def dispose(self) -> None:
        self._disposed = True
        try:
            self._watched.removeChangesListener(self._watch)
        except Exception:
            log.info("could not stop watching the settings", exc_info=True)
        try:
            self._panel_container.removeControl(self.container)
        finally:
            self.container.dispose()

"""Tools > Options > Marginalia: fills the page from the settings and saves it back.

LibreOffice calls ``handle`` (through the registered OptionsHandler) with
"initialize" when the page is created, "ok" when the user confirms the dialog
and "back" when they press Reset. All page state lives in the controls, so
"ok" and "back" need nothing from "initialize" but the window.

Network work ("List models", "Test connection") runs on a worker thread
(office.server_look) and posts its result back to the main thread; the page may
be closed by then, in which case the result is dropped. Three lines say things:
TestResult (the last List models / Test), FieldProblem (a field typed wrong)
and ModelNote (a model the server does not offer), so none hides another.
"""

import logging
from typing import Dict, Union


from marginalia import config
from marginalia import debuglog
from marginalia.i18n.catalog import N_, tr, trn
from marginalia.office import dialog_words, page_fit, server_look, settings_store
from marginalia.office.control_events import Call
from marginalia import policy
from marginalia.ui import admin_locks, check_report, options_form

log = logging.getLogger("marginalia.options")
WHAT = "options page action"   # how a failing control action is named in the log

# The Options dialog is modal, so one page at a time: one guard for its server looks,
# and one for its context window looks (asked beside the model list).
_LATEST = server_look.Latest()
_LATEST_WINDOW = server_look.Latest()

EFFORT_LABELS = {"": N_("default")}      # translated where shown (tr())
CHECKS = {"show_thinking": "ShowThinkingCheck", "allow_http": "AllowHttpCheck",
          "keep_chats": "KeepChatsCheck"}
TEXTS = {"endpoint": "EndpointField", "api_key": "ApiKeyField",
         "temperature": "TemperatureField", "max_tokens": "MaxTokensField",
         "max_rounds": "RoundsField", "extra_instructions": "ExtraField",
         "context_window": "ContextField"}


def handle(ctx, window, event_object: str, method: str) -> bool:
    """The page's event handler; True when the event was handled."""
    if method != "external_event":
        return False
    if event_object == "initialize":
        dialog_words.translate_quietly(window)     # the .xdl's labels, before any is set
        fill(window, _shown(ctx))
        lock(window, settings_store.locked(ctx), settings_store.load_policy(ctx))
        _attach(ctx, window)
        _fetch_models(ctx, window, read_form(window), quiet=True)
        page_fit.fit(window)         # longer words (a translation) get their room
        return True
    if event_object == "ok":
        base = settings_store.load(ctx, with_key=False)
        settings, problems = options_form.form_to_settings(base, read_form(window))
        settings_store.save(ctx, settings)
        for problem in problems:
            log.info("options page: %s", problem)
        return True
    if event_object == "back":
        fill(window, _shown(ctx))
        _validate(window)
        return True
    return False


# -- page <-> values ---------------------------------------------------------
def _shown(ctx) -> config.Settings:
    """The saved settings as the page shows them: the administrator's key never fills the
    (greyed) key field, whether the page opens or Reset brings the saved values back."""
    return settings_store.load(
        ctx, with_key=not settings_store.load_policy(ctx).key_from_admin)


def fill(window, settings: config.Settings) -> None:
    """Show a Settings on the page."""
    form = options_form.settings_to_form(settings)
    provider = window.getControl("ProviderList")
    provider.removeItems(0, provider.getItemCount())
    provider.addItems(tuple(tr(label) for _pid, label, _endpoint in config.PRESETS), 0)
    ids = [pid for pid, _label, _endpoint in config.PRESETS]
    pid = form["provider"] if form["provider"] in ids else "custom"
    provider.selectItemPos(ids.index(pid), True)

    effort = window.getControl("ReasoningList")
    effort.removeItems(0, effort.getItemCount())
    effort.addItems(tuple(tr(EFFORT_LABELS[e]) if e in EFFORT_LABELS else e
                          for e in config.REASONING_EFFORTS), 0)
    efforts = list(config.REASONING_EFFORTS)
    effort.selectItemPos(efforts.index(form["reasoning_effort"])
                         if form["reasoning_effort"] in efforts else 0, True)

    modes = window.getControl("ApplyModeList")
    modes.removeItems(0, modes.getItemCount())
    modes.addItems(tuple(tr(label) for _mode, label in options_form.APPLY_MODES), 0)
    modes.selectItemPos([m for m, _label in options_form.APPLY_MODES].index(form["apply_mode"]),
                        True)

    for name, control in TEXTS.items():
        window.getControl(control).setText(form[name])
    window.getControl("ModelCombo").setText(form["model"])
    for name, control in CHECKS.items():
        window.getControl(control).getModel().State = 1 if form[name] else 0
    for line in ("TestResult", "FieldProblem", "ModelNote", "ContextNote"):
        _say(window, "", line)


def lock(window, locked, rules) -> None:
    """Grey the controls of values an administrator locked or the policy rules out; say
    so in their tooltips and in a line on the page, which a screen reader reads as text
    (on 7.4 a tooltip is not a control's accessible description: the page's descriptions
    are all empty)."""
    for name, why in admin_locks.greyed(locked, rules):
        model = window.getControl(name).getModel()
        model.Enabled = False
        model.HelpText = admin_locks.help_text(model.HelpText, why)
    if rules.key_from_admin:
        window.getControl("ApiKeyField").setText("")   # never shown, never saved
    # The field-problem line shows it whenever no field is typed wrong (_validate).
    window.getControl("FieldProblem").getModel().Tag = admin_locks.options_note(
        locked, rules, debuglog.is_on())
    _validate(window)


def read_form(window) -> Dict[str, Union[str, bool]]:
    """{field: text or bool} from the page (main thread only)."""
    form = {}
    for name, control in TEXTS.items():
        form[name] = window.getControl(control).getText()
    form["model"] = window.getControl("ModelCombo").getText()
    for name, control in CHECKS.items():
        form[name] = window.getControl(control).getModel().State == 1
    pos = window.getControl("ProviderList").getSelectedItemPos()
    form["provider"] = config.PRESETS[pos][0] if 0 <= pos < len(config.PRESETS) else "custom"
    pos = window.getControl("ReasoningList").getSelectedItemPos()
    efforts = config.REASONING_EFFORTS
    form["reasoning_effort"] = efforts[pos] if 0 <= pos < len(efforts) else ""
    pos = window.getControl("ApplyModeList").getSelectedItemPos()
    if 0 <= pos < len(options_form.APPLY_MODES):
        form["apply_mode"] = options_form.APPLY_MODES[pos][0]
    return form


def _say(window, sentence, line="TestResult"):
    window.getControl(line).getModel().Label = sentence
    if line in NOTES:
        page_fit.share_row(*(window.getControl(name) for name in NOTES))


NOTES = ("ModelNote", "ContextNote")       # one row: each note takes what its words need


# -- listeners ---------------------------------------------------------------
def _attach(ctx, window):
    window.getControl("ProviderList").addItemListener(
        Call(lambda: _provider_chosen(ctx, window), WHAT))
    window.getControl("RefreshButton").addActionListener(
        Call(lambda: _fetch_models(ctx, window, read_form(window), quiet=False), WHAT))
    window.getControl("TestButton").addActionListener(
        Call(lambda: _test(ctx, window, read_form(window)), WHAT))
    for name, _parse in VALIDATED:
        window.getControl(TEXTS[name]).addTextListener(Call(lambda: _validate(window), WHAT))


# Fields checked as the user types: OK keeps the saved value of a bad field,
# so the page says so while the user can still fix it.
VALIDATED = (("temperature", options_form.parse_temperature),
             ("max_tokens", options_form.parse_max_tokens),
             ("max_rounds", options_form.parse_rounds),
             ("context_window", options_form.parse_context_window))


def _validate(window):
    """Show the first bad field's sentence, or clear an earlier one once all are fine."""
    for name, parse in VALIDATED:
        try:
            parse(window.getControl(TEXTS[name]).getText())
        except ValueError as exc:
            _say(window, options_form.field_problem(str(exc)), "FieldProblem")
            return
    _say(window, window.getControl("FieldProblem").getModel().Tag, "FieldProblem")


def _provider_chosen(ctx, window):
    """A preset fills the endpoint and brings back the key stored for that server."""
    pos = window.getControl("ProviderList").getSelectedItemPos()
    if not 0 <= pos < len(config.PRESETS):
        return
    # What the last test or list said, or is still asking, was about the previous server.
    _LATEST.forget()
    _LATEST_WINDOW.forget()
    _say(window, "")
    _say(window, "", "ModelNote")
    _say(window, "", "ContextNote")
    endpoint = config.PRESETS[pos][2]
    if not endpoint:  # "custom": keep what the user typed
        return
    window.getControl("EndpointField").setText(endpoint)
    if not settings_store.load_policy(ctx).key_from_admin:   # that field stays empty
        window.getControl("ApiKeyField").setText(settings_store.load_key(ctx, endpoint))


# -- network, on a worker ----------------------------------------------------
def _client_settings(ctx, form):
    base = settings_store.load(ctx, with_key=False)
    settings, _problems = options_form.form_to_settings(base, form)
    rules = settings_store.load_policy(ctx)
    if rules.key_from_admin:
        # The field is greyed and empty: the administrator's key, where it is meant for
        # the server on the page (settings_store.key_for), is what a request carries.
        settings = settings.copy(api_key=settings_store.key_for(ctx, settings.endpoint,
                                                                rules))
    return settings


def _fetch_models(ctx, window, form, quiet):
    settings = _client_settings(ctx, form)
    if not quiet:
        _say(window, tr("Asking the server for its models\u2026"))

    def show(result):
        if isinstance(result, Exception):
            if not quiet:
                _say(window, server_look.sentence(result))
            return
        combo = window.getControl("ModelCombo")
        server_look.fill_models(combo, result)
        if len(result) == 1 and not combo.getText().strip():
            combo.setText(result[0])        # the one there is (of several, the user picks)
        _say(window, options_form.model_note(combo.getText(), result), "ModelNote")
        if not quiet:
            _say(window, trn("The server offers %d model.", "The server offers %d models.",
                             len(result)) % len(result))

    server_look.list_models_later(ctx, settings, show, _LATEST)
    if settings.model:
        server_look.window_later(ctx, settings, lambda found: _show_window(window, found),
                                 _LATEST_WINDOW)


def _show_window(window, found):
    """"detected: N" beside the Context window field (a failed look says nothing)."""
    if not isinstance(found, Exception):
        _say(window, options_form.window_note(found.tokens if found else None), "ContextNote")


def _test(ctx, window, form):
    settings = _client_settings(ctx, form)
    _say(window, tr("Testing the connection and whether the model can edit\u2026"))

    def show(result):
        if isinstance(result, Exception):
            _say(window, server_look.sentence(result))
            return
        # The page has room for two short lines (dialogs/OptionsPage.xdl).
        _say(window, check_report.report_summary(result, settings))
        if result.reached:
            _show_window(window, result.window)

    _LATEST_WINDOW.forget()
    server_look.check_later(ctx, settings, show, _LATEST)

"""The Options page's text fields <-> a Settings value (pure).

The page shows every value as text, a tick box or a choice; this module
formats a Settings for the page and reads the page back, keeping the saved
value of a field the user filled with something unusable and saying why in
one sentence.
"""

from typing import Dict, List, Optional, Tuple, Union

from marginalia import config
from marginalia.document import change_log as cl
from marginalia.i18n import formats
from marginalia.i18n.catalog import N_, tr, trn

TEXT_FIELDS = ("endpoint", "api_key", "model", "temperature", "max_tokens",
               "extra_instructions", "max_rounds", "context_window")
CHECK_FIELDS = ("show_thinking", "allow_http", "keep_chats")
# The page's "AI edits" choice, in the list's order. Longer than the panel's switch
# (ui.change_list.MODE_LABELS): the page has the room to say what Suggest means.
# Labels: English, translated where shown (tr(label)).
APPLY_MODES = ((cl.DIRECT, N_("Edit directly")), (cl.TRACKED, N_("Suggest as tracked changes")),
               (cl.COMMENTS, N_("Comment only")))


def _number_text(value: Optional[float]) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))  # "1", not "1.0"
    return str(value)


def settings_to_form(settings: config.Settings) -> Dict[str, Union[str, bool]]:
    """{field: text or bool} for the page."""
    form = {}
    for name in TEXT_FIELDS:
        value = getattr(settings, name)
        if name == "context_window":
            value = value or None          # 0 means "as the server says": an empty field
        form[name] = _number_text(value) if name in (
            "temperature", "max_tokens", "max_rounds", "context_window") else (value or "")
    for name in CHECK_FIELDS:
        form[name] = bool(getattr(settings, name))
    form["provider"] = settings.provider
    form["reasoning_effort"] = settings.reasoning_effort or ""
    # What a turn would do: a profile from before the modes has only track_changes.
    form["apply_mode"] = cl.apply_mode(settings)
    return form


def parse_temperature(text: Optional[str]) -> Optional[float]:
    """None for empty, else a float in [0, 2]; raises ValueError with a sentence."""
    text = (text or "").strip().replace(",", ".")
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        raise ValueError(tr("Temperature must be a number from 0 to 2, or empty."))
    if not 0.0 <= value <= 2.0:
        raise ValueError(tr("Temperature must be a number from 0 to 2, or empty."))
    return value


def parse_max_tokens(text: Optional[str]) -> Optional[int]:
    """None for empty, else a positive whole number."""
    text = (text or "").strip()
    if not text:
        return None
    if not text.isdigit() or int(text) < 1 or int(text) > 10000000:
        raise ValueError(tr("Max tokens must be a whole number above 0, or empty."))
    return int(text)


def parse_rounds(text: Optional[str]) -> int:
    """The most tool steps per answer (the turn loop's round limit), from 1 to 100."""
    text = (text or "").strip()
    if not text.isdigit() or not 1 <= int(text) <= 100:
        raise ValueError(tr("Most tool steps per answer must be a whole number from 1 to "
                            "100."))
    return int(text)


def parse_context_window(text: Optional[str]) -> int:
    """0 for empty (the server's own figure), else a whole number of tokens, 512 or more."""
    text = (text or "").strip().replace(",", "").replace("_", "")
    if not text:
        return 0
    if not text.isdigit() or not 512 <= int(text) <= 10000000:
        raise ValueError(tr("Context window must be a whole number of tokens from 512, or "
                            "empty to use what the server reports."))
    return int(text)


def window_note(tokens: Optional[int]) -> str:
    """The line above the Context window field: what the server reported, if anything
    (naming the field: a bare "not reported by the server" read as about the model)."""
    return tr("Context window detected: %s") % formats.number(tokens) if tokens \
        else tr("Context window: not reported")


def form_to_settings(base: config.Settings,
                     form: Dict[str, Union[str, bool]]) -> Tuple[config.Settings, List[str]]:
    """(Settings, [sentences]): the page's values over ``base``; bad fields keep base's value."""
    changes = {}
    problems = []
    provider = form.get("provider") or base.provider
    if provider not in [pid for pid, _label, _endpoint in config.PRESETS]:
        provider = "custom"
    changes["provider"] = provider
    endpoint = (form.get("endpoint") or "").strip()
    if endpoint:
        changes["endpoint"] = endpoint
        # An endpoint edited by hand no longer belongs to the chosen preset.
        if config.preset_endpoint(provider).rstrip("/") != endpoint.rstrip("/"):
            changes["provider"] = provider_for_endpoint(endpoint)
    else:
        problems.append("The endpoint URL is empty; the previous one was kept.")   # the log's
    changes["api_key"] = (form.get("api_key") or "").strip()
    changes["model"] = (form.get("model") or "").strip()
    changes["extra_instructions"] = form.get("extra_instructions") or ""
    effort = form.get("reasoning_effort") or ""
    changes["reasoning_effort"] = effort if effort in config.REASONING_EFFORTS else ""
    for name, parse in (("temperature", parse_temperature), ("max_tokens", parse_max_tokens),
                        ("max_rounds", parse_rounds),
                        ("context_window", parse_context_window)):
        try:
            changes[name] = parse(form.get(name))
        except ValueError as exc:
            problems.append(str(exc))
    for name in CHECK_FIELDS:
        if name in form:
            changes[name] = bool(form[name])
    if form.get("apply_mode") in cl.MODES:
        # Both fields, so a reader of the older track_changes setting agrees.
        changes.update(cl.mode_fields(str(form["apply_mode"])))
    return base.copy(**changes), problems


def provider_for_endpoint(endpoint: Optional[str]) -> str:
    """The preset whose endpoint this is, or "custom"."""
    wanted = (endpoint or "").strip().rstrip("/")
    for pid, _label, preset in config.PRESETS:
        if preset and preset.rstrip("/") == wanted:
            return pid
    return "custom"


def connection_sentence(settings: config.Settings, models: List[str]) -> str:
    """One sentence on what works, from the server's model list."""
    where = settings.endpoint
    if not settings.model:
        return trn("Connected to %(where)s; it offers %(count)d model: choose one under Model.",
                   "Connected to %(where)s; it offers %(count)d models: choose one under "
                   "Model.", len(models)) % {"where": where, "count": len(models)}
    values = {"where": where, "model": settings.model}
    if models and settings.model not in models:
        return tr('Connected to %(where)s, but it has no model named "%(model)s"; choose one '
                  'from the list.') % values
    return tr('Connected to %(where)s; the model "%(model)s" is available.') % values


def model_note(model: Optional[str], models: List[str]) -> str:
    """The line beside the Model field after the server listed its models: "" when fine."""
    model = (model or "").strip()
    if not models:
        return tr("The server lists no models.")
    if not model:
        return tr("Choose a model from the list.")
    if model not in models:
        return tr("The server does not offer \u201c%s\u201d; choose one from the list.") % model
    return ""


def field_problem(sentence: str) -> str:
    """The page's line for a field typed wrong: what is wrong, and what OK will do."""
    return tr("%s Until then, OK keeps the saved value.") % sentence

"""Settings an administrator locked or ruled out, and what the Options page shows (pure).

An administrator's configuration layer can set a Marginalia value with
``oor:finalized="true"``; LibreOffice then refuses every write to it from the
user's layer (office.settings_store finds which values are locked). This module
decides the rest: which stored values a lock also holds, which page controls
go grey, and the words the page shows and speaks for them; the same for what the
administrator's policy (marginalia.policy) rules out.
"""

from typing import FrozenSet, Iterable, List, Optional, Tuple

from marginalia import debuglog, policy
from marginalia.i18n.catalog import N_, tr

NOTE = N_("Set by your administrator")

# A value saved beside a locked one would undo the lock's meaning: the provider
# chooses the endpoint (a preset), and track_changes on still means "tracked"
# whatever apply_mode says (document.change_log.apply_mode).
LINKED = {"endpoint": ("provider",), "provider": ("endpoint",),
          "apply_mode": ("track_changes",), "track_changes": ("apply_mode",)}

# Page control -> (the settings it shows, its label on the page), in the page's order.
# The API key is not a registry value (the password container holds it): never locked.
CONTROLS: Tuple[Tuple[str, Tuple[str, ...], str], ...] = (
    ("ProviderList", ("provider", "endpoint"), N_("Provider")),
    ("EndpointField", ("endpoint",), N_("Endpoint URL")),
    ("AllowHttpCheck", ("allow_http",), N_("Allow unencrypted http")),
    ("ModelCombo", ("model",), N_("Model")),
    ("ContextField", ("context_window",), N_("Context window")),
    ("TemperatureField", ("temperature",), N_("Temperature")),
    ("MaxTokensField", ("max_tokens",), N_("Max tokens")),
    ("ReasoningList", ("reasoning_effort",), N_("Reasoning effort")),
    ("RoundsField", ("max_rounds",), N_("Most tool steps per answer")),
    ("ExtraField", ("extra_instructions",), N_("Extra instructions")),
    ("ApplyModeList", ("apply_mode", "track_changes"), N_("AI edits")),
    ("ShowThinkingCheck", ("show_thinking",), N_("Show the model's thinking")),
    ("KeepChatsCheck", ("keep_chats",), N_("Keep chats")),
)


def held(locked: Iterable[str]) -> FrozenSet[str]:
    """The stored values a save must leave alone: the locked ones and those linked to them."""
    out = set(locked)
    for name in list(out):
        out.update(LINKED.get(name, ()))
    return frozenset(out)


def locked_controls(locked: Iterable[str]) -> List[str]:
    """The page controls to disable, in the page's order."""
    names = set(locked)
    return [control for control, fields, _label in CONTROLS if names.intersection(fields)]


def help_text(original: str, note: str = NOTE) -> str:
    """A locked control's tooltip (and so its accessible description): the note first.
    ``original`` is the control's own tooltip, already in the user's language."""
    original = (original or "").strip()
    note = tr(note)
    return tr("%(note)s. %(tooltip)s") % {"note": note, "tooltip": original} if original \
        else note


def page_note(locked: Iterable[str]) -> str:
    """The page's visible line naming what is locked, or "" when nothing is."""
    names = set(locked)
    labels = [tr(label) for _control, fields, label in CONTROLS if names.intersection(fields)]
    if not labels:
        return ""
    return tr("Set by your administrator: %s.") % tr(", ").join(labels)



def key_endpoint(endpoint: str, held: Iterable[str], in_effect: str) -> Optional[str]:
    """The server a saved key is stored for: the endpoint in effect (``in_effect``, the
    administrator's when it is locked). None when the settings name another server (a
    preset chosen beside a locked endpoint): their key is that server's, and stored for
    the locked one it would overwrite the user's key there."""
    if "endpoint" not in held:
        return endpoint
    return in_effect if (endpoint or "").strip() == (in_effect or "").strip() else None


# -- the administrator's policy on the page (marginalia.policy) --------------------

def greyed(locked: Iterable[str], rules: policy.Policy) -> List[Tuple[str, str]]:
    """The Options page controls to grey, each with the note saying why: the locked
    values' first, then those the policy rules out. The notes are in English:
    help_text translates them where they are shown."""
    out = [(name, NOTE) for name in locked_controls(locked)]
    return out + _policy_controls(rules)


def options_note(locked: Iterable[str], rules: policy.Policy, debug_log: bool = False) -> str:
    """The page's visible line: what is locked, what the policy rules out, and whether the
    debug log is on (marginalia.debuglog: the page says so while it is)."""
    lines = [page_note(locked)] + [tr(why) + "." for _n, why in _policy_controls(rules)]
    if debug_log:
        lines.append(tr(debuglog.NOTE))
    return " ".join(line for line in lines if line)


def _policy_controls(rules: policy.Policy) -> List[Tuple[str, str]]:
    out = []
    if rules.key_from_admin:
        out.append(("ApiKeyField", N_("The API key is provided by your administrator")))
    if rules.chat_days == 0:
        out.append(("KeepChatsCheck", N_("Your administrator turned off keeping chats")))
    if not rules.allow_test_connection:
        out.append(("TestButton", policy.TEST_OFF_NOTE))
    return out

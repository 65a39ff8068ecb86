"""The first-run card: when the panel shows it, what it says, and how it is laid out (pure).

The card stays at the top of the chat panel until a model has answered once
(a flag the office glue keeps in the registry) and whenever no model is set.
It offers a provider, a model box filled from the server's list, Test and
"Open settings…". Its sentence depends on what the last look at the server
found (a ``Probe``); when nothing answers at a local address it gives the
two ways forward in plain words: start the local server, or choose a cloud
provider and paste its key.
"""

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple
from urllib.parse import urlsplit

from marginalia import config
from marginalia.chat.endpoint import default_port, is_local_host
from marginalia.events import TEXT, TOOL_RESULT
from marginalia.i18n.catalog import N_, tr, trn

# English, translated where shown: tr(TITLE).
TITLE = N_("Set up a model")
# The status line under the message box while no model is set: it is the box's hint.
NEEDS_MODEL = N_("Choose a model above; your message waits here.")
KEPT = N_("Message kept: choose a model above first.")
OLLAMA_MODEL = "llama3.2"           # a small model that calls tools; named in the hint only
# How long a look at a server on this computer or the LAN may take to connect:
# a local server answers in milliseconds, and a dead port refuses at once.
LOCAL_CONNECT_TIMEOUT = 3.0

CHECKING = "checking"
NO_SERVER = "no_server"
MODELS = "models"
FAILED = "failed"


def needs_card(model: Optional[str], answered: bool, locked=()) -> bool:
    """Show the card while no model is set, or until one has answered once; never when an
    administrator locked the server and a model: the user has nothing to set up."""
    if (model or "").strip() and {"endpoint", "model"} <= set(locked):
        return False
    return not (model or "").strip() or not answered


def answered_in(entries: List[Tuple[str, object]]) -> bool:
    """True when a batch of session entries holds answer text or a tool result."""
    for role, payload in entries:
        if role == "event" and (payload.kind == TOOL_RESULT
                                or (payload.kind == TEXT and payload.text)):
            return True
    return False


def probe_settings(settings: config.Settings) -> config.Settings:
    """Settings for a quick look at the server: a short connect timeout on local hosts."""
    host = urlsplit(settings.endpoint or "").hostname
    if is_local_host(host) and (settings.connect_timeout or 99) > LOCAL_CONNECT_TIMEOUT:
        return settings.copy(connect_timeout=LOCAL_CONNECT_TIMEOUT)
    return settings


@dataclass
class Probe:
    """What the last look at the server found."""

    state: str = CHECKING
    models: List[str] = field(default_factory=list)
    sentence: str = ""              # FAILED: the error's sentence
    tested: bool = False            # the user pressed Test (not the automatic look)


def probe_failed(settings: config.Settings, sentence: str, status: Optional[int],
                 tested: bool = False, secure: bool = False) -> Probe:
    """A failed look: NO_SERVER when nothing answered at a local address, else FAILED.

    ``status`` is the HTTP status of an answer, ``secure`` a failed TLS set-up (the
    EndpointError's fields): either means something is running there.
    """
    host = urlsplit(settings.endpoint or "").hostname
    if status is None and not secure and is_local_host(host):
        return Probe(NO_SERVER, sentence=sentence, tested=tested)
    return Probe(FAILED, sentence=sentence, tested=tested)


def _where(endpoint: str) -> str:
    parts = urlsplit(endpoint or "")
    if not parts.hostname:
        return endpoint or tr("the address in the settings")
    return "%s:%s" % (parts.hostname, parts.port or default_port(parts.scheme))


def _provider_label(provider: str) -> str:
    for pid, label, _endpoint in config.PRESETS:
        if pid == provider:
            return label.replace(" (local)", "")
    return tr("the model server")


def card_text(settings: config.Settings, probe: Probe) -> str:
    """The card's sentence(s) for the settings it shows and what the server said."""
    model = (settings.model or "").strip()
    if probe.state == CHECKING:
        return tr("Looking for a model server at %s\u2026") % _where(settings.endpoint)
    if probe.state == NO_SERVER:
        if settings.provider == "ollama":
            start = tr("\u2022 Start Ollama: in a terminal run \u201collama serve\u201d, then "
                       "\u201collama pull %s\u201d (or another model), and press Test.") \
                % OLLAMA_MODEL
        else:
            start = tr("\u2022 Start %s on this computer, load a model, and press Test.") \
                % _provider_label(settings.provider)
        return tr("Nothing answers at %(where)s. Two ways forward:\n%(start)s\n\u2022 Or choose "
                  "a cloud provider above, then paste its API key under Open settings\u2026") \
            % {"where": _where(settings.endpoint), "start": start}
    if probe.state == FAILED:
        return tr("%s\nOpen settings\u2026 to check the address and the API key.") \
            % probe.sentence
    if not probe.models:
        return tr("The server answers but offers no models yet. With Ollama, run "
                  "\u201collama pull %s\u201d, then press Test.") % OLLAMA_MODEL
    if not model:
        count = len(probe.models)
        return trn("The server offers %d model: choose one under Model, then press Test.",
                   "The server offers %d models: choose one under Model, then press Test.",
                   count) % count
    if model not in probe.models:
        return tr("The server has no model named \u201c%s\u201d; choose one from the list.") \
            % model
    if probe.tested:
        return tr("\u201c%s\u201d is ready. Type your message below and press Send.") % model
    return tr("Model \u201c%s\u201d. Press Test, or type your message below and press Send.") \
        % model


def status_hint(settings: config.Settings) -> Optional[str]:
    """The status line while the card shows: a hint when no model is set, else None."""
    return None if (settings.model or "").strip() else tr(NEEDS_MODEL)


# -- layout (pixels, inside the card's own window) ---------------------------
PAD = 6
GAP = 4
ROW = 24
TITLE_H = 18
LABEL_W = 56
LABEL_H = ROW - 6        # a field label's line
LINE_H = 14            # one line of the sentence at the sidebar's font
CHAR_W = 5.8           # a little more than an average character's width
TEST_W = 56
SETTINGS_W = 112


def text_lines(text: str, width: int) -> int:
    """How many lines ``text`` takes in a box ``width`` pixels wide (word wrap, estimated)."""
    per_line = max(int(width / CHAR_W), 10)
    lines = 0
    for paragraph in text.split("\n"):
        column = 0
        lines += 1
        for word in paragraph.split(" "):
            needed = len(word) + (1 if column else 0)
            if column and column + needed > per_line:
                lines += 1
                column = len(word)
            else:
                column += needed
    return lines


def text_width(width: int) -> int:
    """The sentence's width on a card ``width`` pixels wide."""
    return max(width - 2 * PAD, 120)


def card_layout(width: int, text: str, needs: Optional[Dict[str, int]] = None
                ) -> Tuple[Dict[str, Tuple[int, int, int, int]], int]:
    """({control: (x, y, w, h)}, the card's height) for a card ``width`` pixels wide.

    ``needs``: what the toolkit measured (office.setup_card): "text_h" the sentence's
    height at the card's width, "label" the wider field label's width, "provider" and
    "model" what the boxes' shown choices need, "test" and "settings" the buttons', "row"
    the height the toolkit gives a box or a button.
    A label and its box share a row when both fit, else the label goes above its box;
    the two buttons likewise share a row or take one each: words are never cut.
    """
    needs = needs or {}
    row = max(ROW, needs.get("row", 0))      # gtk3's boxes and buttons are taller than gen's
    inner = max(width - 2 * PAD, 120)
    boxes = {}
    y = PAD
    boxes["title"] = (PAD, y, inner, TITLE_H)
    y += TITLE_H + GAP
    text_h = max(text_lines(text, inner) * LINE_H + 4 if "text_h" not in needs else 0,
                 needs.get("text_h", 0))
    boxes["text"] = (PAD, y, text_width(width), text_h)
    y += text_h + GAP
    label_w = max(LABEL_W, needs.get("label", 0))
    beside = label_w <= inner // 2 and all(
        needs.get(name, 0) <= inner - label_w for name in ("provider", "model"))
    for name in ("provider", "model"):
        if beside:
            boxes[name + "_label"] = (PAD, y + (row - LABEL_H) // 2, label_w, LABEL_H)
            boxes[name] = (PAD + label_w, y, inner - label_w, row)
        else:
            boxes[name + "_label"] = (PAD, y, inner, LABEL_H)
            y += LABEL_H
            boxes[name] = (PAD, y, inner, row)
        y += row + GAP
    test_w = max(TEST_W, needs.get("test", 0))
    if test_w + GAP + max(needs.get("settings", 0), 0) <= inner:
        boxes["test"] = (PAD, y, test_w, row)
        boxes["settings"] = (PAD + test_w + GAP, y, min(max(SETTINGS_W, needs.get(
            "settings", 0)), inner - test_w - GAP), row)
    else:
        boxes["test"] = (PAD, y, inner, row)
        y += row + GAP
        boxes["settings"] = (PAD, y, inner, row)
    y += row + PAD
    return boxes, y

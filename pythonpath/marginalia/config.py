"""Settings as a plain value, and the provider presets that fill the endpoint.

The UNO glue (office.settings_store) reads these from the typed registry schema and the
key from the password container; everything else receives a Settings.
"""

from dataclasses import dataclass, field, fields, replace
from typing import Any, Callable, ClassVar, Optional, Tuple

from marginalia.i18n.catalog import N_
from marginalia.mcp import DEFAULT_PORT

DEFAULT_ENDPOINT = "http://localhost:11434/v1"
# The MCP server's port when the user has not chosen one (marginalia.mcp serves it).
DEFAULT_MCP_PORT = DEFAULT_PORT

# (id, label, endpoint): the Options page's provider choice fills the endpoint.
PRESETS = (
    ("ollama", N_("Ollama (local)"), "http://localhost:11434/v1"),
    ("lmstudio", N_("LM Studio (local)"), "http://localhost:1234/v1"),
    ("llamacpp", N_("llama.cpp server (local)"), "http://localhost:8080/v1"),
    ("vllm", N_("vLLM (local)"), "http://localhost:8000/v1"),
    ("openai", "OpenAI", "https://api.openai.com/v1"),
    ("openrouter", "OpenRouter", "https://openrouter.ai/api/v1"),
    ("deepseek", "DeepSeek", "https://api.deepseek.com/v1"),
    ("mistral", "Mistral", "https://api.mistral.ai/v1"),
    ("groq", "Groq", "https://api.groq.com/openai/v1"),
    ("gemini", "Gemini", "https://generativelanguage.googleapis.com/v1beta/openai"),
    ("custom", N_("Custom"), ""),
)

REASONING_EFFORTS = ("", "minimal", "low", "medium", "high")


def preset_endpoint(preset_id: str) -> str:
    """The endpoint a provider preset fills in; "" for custom or unknown."""
    for pid, _label, endpoint in PRESETS:
        if pid == preset_id:
            return endpoint
    return ""


@dataclass
class Settings:
    """Everything a turn needs to know about the user's choices.

    ``temperature`` and ``max_tokens`` are None when the user left them empty:
    then they are not sent at all. An unknown name is a TypeError.
    """

    provider: str = "ollama"
    endpoint: str = DEFAULT_ENDPOINT
    api_key: str = ""
    model: str = ""
    temperature: Optional[float] = None
    max_tokens: Optional[int] = None
    reasoning_effort: str = ""
    show_thinking: bool = True
    extra_instructions: str = ""
    max_rounds: int = 12
    context_window: int = 0          # tokens; 0: as the server says (chat.window)
    track_changes: bool = False
    # direct, tracked or comments (document.change_log.apply_mode reads both fields).
    apply_mode: str = "direct"
    # Chats kept per document in the user profile (office.chat_store), never in the file.
    keep_chats: bool = True
    allow_http: bool = False
    connect_timeout: float = 15.0
    read_timeout: float = 120.0
    # The MCP server for outside agents (office.mcp_host): off until the user turns it on;
    # their edits are suggestions (tracked changes) unless the user chooses otherwise.
    mcp_enabled: bool = False
    mcp_port: int = DEFAULT_MCP_PORT
    mcp_apply_mode: str = "tracked"
    # How Insert shows an answer's citations: footnotes, endnotes or list (sources.cite_as).
    citations_as: str = "footnotes"
    # The language answers are written in (chat.prompt.language_rule): "" the language of
    # the user's message, "document" the document's, else a language tag ("de-DE").
    answer_language: str = ""
    # How the model edits (chat.protocol): "rewrite", the new version of the lines that
    # change with a lean tool set and a prompt servers can cache; "tools", the full tool
    # set driven by paragraph numbers (the protocol before issue 36, kept for the eval's
    # side-by-side run and for models that do better with it).
    edit_protocol: str = "rewrite"
    # The administrator's policy as a check of any address a request goes to (a redirect
    # too): the refusal sentence, or None. Not a registry value: settings_store.load sets it.
    endpoint_check: Optional[Callable[[str], Optional[str]]] = field(
        default=None, compare=False, repr=False)

    # (name, default) of every field, in order: the registry glue walks it.
    FIELDS: ClassVar[Tuple[Tuple[str, Any], ...]] = ()

    def copy(self, **changes: Any) -> "Settings":
        """A new Settings with ``changes`` applied."""
        return replace(self, **changes)

    def __repr__(self) -> str:
        # Never show the key, even in a log line: only whether there is one.
        shown = []
        for name, _default in self.FIELDS:
            value = getattr(self, name)
            if name == "api_key":
                value = "***" if value else ""
            shown.append("%s=%r" % (name, value))
        return "Settings(%s)" % ", ".join(shown)


Settings.FIELDS = tuple((f.name, f.default) for f in fields(Settings)
                        if f.name != "endpoint_check")

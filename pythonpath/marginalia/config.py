"""Settings as a plain value, and the provider presets that fill the endpoint.

The UNO glue (office.settings_store) reads these from the typed registry schema and the
key from the password container; everything else receives a Settings.
"""

DEFAULT_ENDPOINT = "http://localhost:11434/v1"

# (id, label, endpoint): the Options page's provider choice fills the endpoint.
PRESETS = (
    ("ollama", "Ollama (local)", "http://localhost:11434/v1"),
    ("lmstudio", "LM Studio (local)", "http://localhost:1234/v1"),
    ("llamacpp", "llama.cpp server (local)", "http://localhost:8080/v1"),
    ("vllm", "vLLM (local)", "http://localhost:8000/v1"),
    ("openai", "OpenAI", "https://api.openai.com/v1"),
    ("openrouter", "OpenRouter", "https://openrouter.ai/api/v1"),
    ("deepseek", "DeepSeek", "https://api.deepseek.com/v1"),
    ("mistral", "Mistral", "https://api.mistral.ai/v1"),
    ("groq", "Groq", "https://api.groq.com/openai/v1"),
    ("gemini", "Gemini", "https://generativelanguage.googleapis.com/v1beta/openai"),
    ("custom", "Custom", ""),
)

REASONING_EFFORTS = ("", "minimal", "low", "medium", "high")


def preset_endpoint(preset_id):
    for pid, _label, endpoint in PRESETS:
        if pid == preset_id:
            return endpoint
    return ""


class Settings(object):
    """Everything a turn needs to know about the user's choices.

    ``temperature`` and ``max_tokens`` are None when the user left them empty:
    then they are not sent at all.
    """

    FIELDS = (
        ("provider", "ollama"),
        ("endpoint", DEFAULT_ENDPOINT),
        ("api_key", ""),
        ("model", ""),
        ("temperature", None),
        ("max_tokens", None),
        ("reasoning_effort", ""),
        ("show_thinking", True),
        ("extra_instructions", ""),
        ("max_rounds", 12),
        ("track_changes", False),
        ("allow_http", False),
        ("connect_timeout", 15.0),
        ("read_timeout", 120.0),
    )

    __slots__ = tuple(name for name, _ in FIELDS)

    def __init__(self, **values):
        for name, default in self.FIELDS:
            setattr(self, name, values.pop(name, default))
        if values:
            raise TypeError("unknown settings: %s" % ", ".join(sorted(values)))

    def copy(self, **changes):
        data = dict((name, getattr(self, name)) for name, _ in self.FIELDS)
        data.update(changes)
        return Settings(**data)

    def __repr__(self):
        # Never show the key, even in a log line.
        shown = []
        for name, _ in self.FIELDS:
            value = getattr(self, name)
            if name == "api_key":
                value = "***" if value else ""
            shown.append("%s=%r" % (name, value))
        return "Settings(%s)" % ", ".join(shown)

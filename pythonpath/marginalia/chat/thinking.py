"""Split ``<think>...</think>`` reasoning out of streamed answer text.

Local models (Qwen3, QwQ, DeepSeek-R1 distills on llama.cpp, vLLM without a
reasoning parser, text-generation-webui) write their reasoning into the
content, with tags cut anywhere between chunks ("<thi", "nk>"). The splitter
is a small state machine that holds back only what could still become a tag.

R1-style templates put ``<think>`` in the *prompt*, so the model emits
reasoning and only the closing ``</think>``. Nothing is held back waiting
for that tag (a model writing four words a second would leave the panel
blank for seconds): text streams as answer text at once, and a lone
``</think>`` yields RECLASSIFY: the caller moves all answer text of the
response so far into its reasoning (the stream accumulator emits a
RECLASSIFY event carrying it, and the panel moves what it showed into the
thinking pane).

Only whitespace and what could still become a ``<think>`` tag at the very
start ("<thi") wait for the next piece.

Only the first tag decides R1 mode: after a ``<think>`` block has been seen,
a stray ``</think>`` is ordinary text. A ``<think>`` anywhere opens a block
(interleaved thinking). Whitespace right after a tag and at the very start is
dropped.
"""

from typing import Any, Iterable, List, Sequence, Tuple

OPEN = "<think>"
CLOSE = "</think>"

TEXT = "text"
REASONING = "reasoning"
RECLASSIFY = "reclassify"   # everything yielded as TEXT so far was reasoning

_START, _THINK, _ANSWER = 0, 1, 2

Piece = Tuple[str, str]   # (kind, text): kind is TEXT, REASONING or RECLASSIFY


def _partial_at(text: str, tags: Sequence[str]) -> int:
    """Index where a proper prefix of one of ``tags`` ends ``text``, else len(text)."""
    # Each tag holds a single "<", so only the last "<" can begin a partial tag.
    start = text.rfind("<", max(0, len(text) - len(CLOSE) + 1))
    if start < 0:
        return len(text)
    tail = text[start:]
    for tag in tags:
        if tag.startswith(tail):
            return start
    return len(text)


def readable_details(details: Iterable[Any]) -> str:
    """Readable text of OpenRouter reasoning_details entries; encrypted ones are skipped."""
    parts = []
    for entry in details:
        if not isinstance(entry, dict) or entry.get("type") == "reasoning.encrypted":
            continue
        text = entry.get("text")
        if not isinstance(text, str):
            text = entry.get("summary")
        if isinstance(text, str):
            parts.append(text)
    return "".join(parts)


class ThinkSplitter:
    """``feed(text)`` and ``finish()`` return [(kind, text)]; kinds TEXT, REASONING, RECLASSIFY."""

    def __init__(self) -> None:
        self._state = _START
        self._held = ""
        self._seen_tag = False    # after any tag, a lone </think> is plain text
        self._strip = True        # drop whitespace before the next emitted piece

    def passthrough(self) -> bool:
        """True when text without "<" would come out unchanged as TEXT (the hot path)."""
        return self._state == _ANSWER and not self._held and not self._strip

    def feed(self, text: str) -> List[Piece]:
        """Split one content delta; returns the pieces that are certain now."""
        if self._state == _ANSWER and not self._held and "<" not in text:
            # Hot path: plain answer text.
            if self._strip:
                text = text.lstrip()
                if not text:
                    return []
                self._strip = False
            return [(TEXT, text)]
        out = []
        buf = self._held + text
        self._held = ""
        while buf:
            if self._state == _START:
                buf = self._start(buf, out)
            elif self._state == _THINK:
                buf = self._think(buf, out)
            else:
                buf = self._answer(buf, out)
        return out

    def finish(self) -> List[Piece]:
        """End of the response: release held text (a partial tag is just text)."""
        out = []
        held, self._held = self._held, ""
        if self._state == _THINK:
            self._emit(out, REASONING, held)
        else:
            self._emit(out, TEXT, held)
        self._state = _ANSWER
        return out

    def _emit(self, out, kind, text):
        if self._strip:
            text = text.lstrip()
            if not text:
                return
            self._strip = False
        if text:
            out.append((kind, text))

    def _open(self):
        self._state = _THINK
        self._seen_tag = True
        self._strip = True

    def _close(self):
        self._state = _ANSWER
        self._seen_tag = True
        self._strip = True

    def _start(self, buf, out):
        stripped = buf.lstrip()
        if stripped.startswith(OPEN):
            self._open()
            return stripped[len(OPEN):]
        if not stripped or OPEN.startswith(stripped):
            self._held = buf          # whitespace or "<thi": wait for more
            return ""
        # Answer text (or R1 reasoning, which a lone </think> will reclassify).
        self._state = _ANSWER
        return buf

    def _think(self, buf, out):
        end = buf.find(CLOSE)
        if end >= 0:
            self._emit(out, REASONING, buf[:end])
            self._close()
            return buf[end + len(CLOSE):]
        cut = _partial_at(buf, (CLOSE,))
        self._emit(out, REASONING, buf[:cut])
        self._held = buf[cut:]
        return ""

    def _answer(self, buf, out):
        opening = buf.find(OPEN)
        closing = -1 if self._seen_tag else buf.find(CLOSE)
        if closing >= 0 and (opening < 0 or closing < opening):
            # A lone </think> after released text: R1 reasoning longer than the window.
            self._emit(out, TEXT, buf[:closing])
            out.append((RECLASSIFY, ""))
            self._close()
            return buf[closing + len(CLOSE):]
        if opening >= 0:
            self._emit(out, TEXT, buf[:opening])
            self._open()
            return buf[opening + len(OPEN):]
        tags = (OPEN,) if self._seen_tag else (OPEN, CLOSE)
        cut = _partial_at(buf, tags)
        self._emit(out, TEXT, buf[:cut])
        self._held = buf[cut:]
        return ""

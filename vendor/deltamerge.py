"""Merge streamed chat-completion deltas into one snapshot.

Written from the ``accumulate_delta`` algorithm of the OpenAI Python SDK
(``src/openai/lib/streaming/_deltas.py``, Apache-2.0): strings concatenate,
dicts merge recursively, lists of dicts merge by their ``index`` key.
Self-contained (standard library only, no project imports, Python >= 3.8).

Corrections to the published algorithm, each for a server seen in the wild:

* Keys in ``REPLACE_KEYS`` are replaced, never concatenated. ``role`` is
  resent on every chunk by OpenRouter, Ollama, LM Studio and GLM (plain
  concatenation yields "assistantassistant..."); ``id``, ``type`` and
  ``index`` identify things; inside OpenRouter ``reasoning_details`` the
  ``format``, ``id`` and ``signature`` of an entry are whole values.
  ``thought_signature`` (Gemini ``extra_content``) is a whole value too.
* Numbers and booleans are replaced, never added: no streamed field is a
  counter to sum (usage is cumulative, not incremental).
* List entries are matched by the *value* of their ``index`` key, not by
  list position: the SDK's ``list.insert(index, ...)`` puts a gateway's
  first ``index: 1`` entry at position 0 and then loses track of it.
* An entry matches an earlier entry with the same ``index`` only when their
  ``type`` values are compatible (equal, or one of them missing):
  OpenRouter sends a ``reasoning.summary`` and a ``reasoning.encrypted``
  entry that both carry ``index: 0``.
* Duplicate indexes inside one chunk's list merge into one entry (vLLM
  repeats an index in its first tool-call chunk).
* A list entry without an integer ``index`` is appended as a new entry
  instead of raising.
* ``None`` in a delta never erases a value; a value of another type than
  the accumulated one replaces it (the SDK silently kept the old one).
* The input deltas are never mutated or aliased.

Cost is linear in the total stream size: strings are kept as lists of
parts and joined only when a snapshot is taken (the SDK's ``+=`` on every
delta is quadratic for long answers and long tool arguments).
"""

REPLACE_KEYS = frozenset(["role", "id", "type", "index", "format", "signature",
                          "thought_signature"])

_str = str
_dict = dict
_list = list


class _Text(object):
    """A string under construction: parts are joined on demand, once."""

    __slots__ = ("parts",)

    def __init__(self, first):
        self.parts = [first]

    def value(self):
        parts = self.parts
        if len(parts) != 1:
            # Collapse so a second snapshot does not join again.
            self.parts = parts = ["".join(parts)]
        return parts[0]


class _Entries(object):
    """A list of dicts keyed by their ``index`` value, in first-seen order."""

    __slots__ = ("items", "by_index")

    def __init__(self):
        self.items = []        # internal dict nodes, in order of appearance
        self.by_index = {}     # index value -> [nodes with that index]

    def merge(self, entry):
        index = entry.get("index")
        if type(index) is not int:
            self.items.append(_merge_dict({}, entry))
            return
        candidates = self.by_index.get(index)
        if candidates:
            kind = entry.get("type")
            if kind is None:
                # The common continuation fragment: no type, the latest entry wins.
                _merge_dict(candidates[-1], entry)
                return
            # Most recent compatible entry wins: same type, or a type missing on either side.
            for node in reversed(candidates):
                other = node.get("type")
                if kind is None or other is None or _plain(other) == kind:
                    _merge_dict(node, entry)
                    return
        node = _merge_dict({}, entry)
        self.items.append(node)
        self.by_index.setdefault(index, []).append(node)


def _adopt(value):
    """Convert a delta value into an internal node (a deep copy)."""
    kind = type(value)
    if kind is _str:
        return _Text(value)
    if kind is _dict:
        return _merge_dict({}, value)
    if kind is _list:
        if value and all(type(item) is _dict for item in value):
            entries = _Entries()
            for item in value:
                entries.merge(item)
            return entries
        return [_plain_copy(item) for item in value]
    return value


def _plain_copy(value):
    if type(value) is _dict:
        return dict((k, _plain_copy(v)) for k, v in value.items())
    if type(value) is _list:
        return [_plain_copy(v) for v in value]
    return value


def _merge_dict(acc, delta):
    """Merge one delta dict into an internal dict node; returns the node."""
    for key, value in delta.items():
        kind = type(value)
        if kind is _str:
            # The hot case (content, arguments): append a part, join later.
            old = acc.get(key)
            if type(old) is _Text and key not in REPLACE_KEYS:
                old.parts.append(value)
            else:
                acc[key] = _Text(value)
        elif value is None:
            # None never erases, but records that the key exists.
            if key not in acc:
                acc[key] = None
        elif kind is _dict:
            old = acc.get(key)
            if type(old) is _dict and key not in REPLACE_KEYS:
                _merge_dict(old, value)
            else:
                acc[key] = _merge_dict({}, value)
        elif kind is _list:
            old = acc.get(key)
            if key in REPLACE_KEYS:
                acc[key] = _adopt(value)
            elif type(old) is _Entries:
                for item in value:
                    if type(item) is _dict:
                        old.merge(item)
            elif type(old) is _list and old:
                # Lists of plain values only ever gain new entries.
                old.extend(_plain_copy(item) for item in value)
            else:
                acc[key] = _adopt(value)
        else:
            # Numbers and booleans: the latest value wins, never a sum.
            acc[key] = value
    return acc


def _plain(node):
    """Materialise an internal node as plain dicts, lists and strings."""
    kind = type(node)
    if kind is _Text:
        return node.value()
    if kind is _dict:
        return dict((k, _plain(v)) for k, v in node.items())
    if kind is _Entries:
        return [_plain(item) for item in node.items]
    if kind is _list:
        return [_plain(item) for item in node]
    return node


class DeltaAccumulator(object):
    """Accumulates deltas with ``add()``; ``snapshot()`` returns the merged dict."""

    __slots__ = ("_root",)

    def __init__(self) -> None:
        self._root = {}

    def add(self, delta: dict) -> None:
        """Merge one delta dict (for example ``choices[0].delta``) into the snapshot."""
        _merge_dict(self._root, delta)

    def __contains__(self, key: object) -> bool:
        return key in self._root

    def snapshot(self, key: object = None) -> object:
        """The merged value of everything added, or of one top-level key (None if absent)."""
        if key is None:
            return _plain(self._root)
        return _plain(self._root.get(key))


def accumulate(deltas) -> dict:
    """Merge an iterable of delta dicts and return the plain snapshot."""
    acc = DeltaAccumulator()
    for delta in deltas:
        acc.add(delta)
    return acc.snapshot()

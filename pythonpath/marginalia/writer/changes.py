"""A per-document change counter, for knowing when cached reads are stale.

The count lives in the document's state (writer.doc_state), whose modify
listener counts every change Writer broadcasts.
"""

from typing import Any

from marginalia.writer import doc_state


def change_count(doc: Any) -> int:
    """How many changes the document has had since we started watching it."""
    return doc_state.of(doc).count

"""What Marginalia does to a document as its first window opens (the ViewJob, on
OnViewCreated in registry/Jobs.xcu, calls ``opened`` before anything else).

LibreOffice runs that job on the thread that asked for the window: the main thread for the
user's File > Open, the bridge's for a script. Save events are no place for this: a copy
stored through the API (storeToURL, as converters and scripts save .docx) sends none to jobs.
"""

import logging
from typing import Any

log = logging.getLogger("marginalia.office")


def opened(model: Any) -> None:
    """An earlier version's keep-out marks in this version's form, so that any later save
    as .docx keeps every paragraph of them (writer.keepout.upgrade). The document does not
    count as changed for it: closing it asks nothing it would not have asked."""
    if model is None or not model.supportsService("com.sun.star.text.TextDocument"):
        return
    from marginalia.writer import keepout
    changed = model.isModified()
    converted = keepout.upgrade(model)
    if converted:
        if not changed:
            model.setModified(False)
        log.info("converted %d keep-out mark(s) of an earlier version", converted)

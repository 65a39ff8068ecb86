"""The open Writer documents, as the desktop lists them (main thread).

The Sources menu, the @ list, a source already open in a window and the MCP
server's list_documents all ask this one question.
"""

from typing import Any, Callable, List, Optional

TEXT_DOCUMENT = "com.sun.star.text.TextDocument"


def writer_documents(ctx: Any, keep: Optional[Callable[[Any], bool]] = None) -> List[Any]:
    """The open Writer documents (those ``keep`` accepts), in the desktop's order. A
    component that closes as we look, or has no URL or title to ask, is left out."""
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    out = []
    components = desktop.getComponents().createEnumeration()
    while components.hasMoreElements():
        doc = components.nextElement()
        try:
            if doc.supportsService(TEXT_DOCUMENT) and (keep is None or keep(doc)):
                out.append(doc)
        except Exception:
            continue
    return out

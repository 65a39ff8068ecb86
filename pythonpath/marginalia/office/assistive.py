"""Screen readers: whether one may be listening, and what this LibreOffice lets it read.

Measured through AT-SPI with the gtk3 plugin (tests/gui/test_panel_screen_reader.py):
on LibreOffice 7.4 a multi-line Edit is a scroll pane around an empty panel, with
no Text or EditableText interface, so a screen reader reads neither the
conversation nor the draft, and dictation cannot write it; single-line Edits
and ListBox items do expose their text. On 25.2 multi-line Edits expose Text and
EditableText. On neither does appending text through the peer send a
text-changed event, while a label's new text does (name and text events).

So the panel changes nothing for sighted users, and only while a screen reader is
on: it then announces each finished reply in the status line, and, where
multi-line Edits are opaque, shows the panes as lists (one item per line) and the
message box as a single-line Edit, which a screen reader can read and dictation
can write.

A screen reader is on when the session's accessibility bus says so
(org.a11y.Status ScreenReaderEnabled, the desktop's screen-reader switch), asked
through gdbus (GLib's D-Bus tool, on every GTK desktop) when a panel is built (about
10 ms); without a session bus or gdbus the answer is no. IsEnabled is no sign: it
read true on the test machine's fresh session bus with no assistive tool running
(gsettings' toolkit-accessibility was on there), and LibreOffice's tree is on the
bus either way (GTK 3 always loads its bridge).
"""

import os
import shutil
import subprocess
import sys

from marginalia.ui import spoken

SCROLL_PANE = 51          # com.sun.star.accessibility.AccessibleRole.SCROLL_PANE
# The panes' lists (office.panel_view adds each right after its pane: the same place in the
# Tab order, and the same box), and the message box's properties as a single-line Edit.
MIRRORS = {"thinking": "thinking_list", "transcript": "transcript_list"}
SINGLE_LINE = {"MultiLine": False, "VScroll": False, "AutoVScroll": False}
_on = False               # kept once true, for this office process


def screen_reader_on() -> bool:
    """Whether a screen reader is listening (AT-SPI).

    Asked again for each new panel until the answer is yes (a screen reader started
    after Writer counts from the next document window on), then kept.
    """
    global _on
    if not _on:
        _on = ask_bus()
    return _on


def ask_bus() -> bool:
    """ScreenReaderEnabled on the session's accessibility bus, asked now."""
    if not sys.platform.startswith("linux") or not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        return False
    gdbus = shutil.which("gdbus")
    if gdbus is None:
        return False
    try:
        said = subprocess.run(
            [gdbus, "call", "--session", "--timeout", "1", "--dest", "org.a11y.Bus",
             "--object-path", "/org/a11y/bus", "--method",
             "org.freedesktop.DBus.Properties.Get", "org.a11y.Status", "ScreenReaderEnabled"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            timeout=3).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return b"true" in said


def edits_opaque(ctx, container) -> bool:
    """Whether this LibreOffice's multi-line Edits are opaque to assistive tools, asked of
    a throwaway one in ``container`` (which has its peer)."""
    smgr = ctx.ServiceManager
    probe = smgr.createInstanceWithContext("com.sun.star.awt.UnoControlEdit", ctx)
    model = smgr.createInstanceWithContext("com.sun.star.awt.UnoControlEditModel", ctx)
    model.MultiLine = True
    probe.setModel(model)
    container.addControl("assistive_probe", probe)
    try:
        return edit_is_opaque(probe)
    finally:
        container.removeControl(probe)
        probe.dispose()


def reader_controls(controls):
    """The panel's CONTROLS as a screen reader can use them where Edits are opaque: each
    pane followed by its list, the message box on one line."""
    out = []
    for name, kind, label, props in controls:
        if name == "input":
            props = dict(props, **SINGLE_LINE)
        out.append((name, kind, label, props))
        if name in MIRRORS:
            out.append((MIRRORS[name], "ListBox", label, {}))
    return tuple(out)


def mirror(box, old, text: str):
    """Bring a pane's list from its items ``old`` up to ``text``, touching only the items
    from the first change on; returns the new items (the caller keeps them: asking the
    list for its items each time would copy them all)."""
    new = spoken.lines(text)
    start = spoken.first_change(old, new)
    if start < len(old):
        box.removeItems(start, len(old) - start)
    if start < len(new):
        box.addItems(tuple(new[start:]), start)
    return new


def show_answer(box, items, answer: str) -> None:
    """Select the list's line where the reply begins: reading starts there on Tab."""
    if items:
        at = spoken.answer_line(items, answer)
        box.selectItemPos(at, True)
        box.makeVisible(at)


def edit_is_opaque(control) -> bool:
    """Whether a multi-line Edit shows assistive tools a scroll pane without its text
    (LibreOffice 7.4) rather than a text (24.x and later)."""
    try:
        role = control.getPeer().getAccessibleContext().getAccessibleRole()
    except Exception:
        return False              # no accessible peer to ask: leave the panel as it is
    return role == SCROLL_PANE

"""The chat panel as a screen reader (Orca) meets it: through AT-SPI, with the gtk3 plugin.

Everything here goes through the accessibility bus, as an assistive tool
would: the message is written with EditableText (as dictation or voice
control write it), Send is pressed with its Action, the answer is read with
the Text interface, and the events the office sends while the reply arrives
are what a screen reader could speak. tests/support/atspi.py says what the
set-up takes; a missing piece fails the test with what to install.
"""

import os
import time

import pytest

from tests.support import sse_server as sse
from tests.support.atspi import (Reader, describe, interfaces, size_window, states, text_of,
                                 walk)
from marginalia.ui.spoken import ANSWERED as _ANSWERED
ANSWERED = _ANSWERED.replace("%s", "")
from marginalia.ui.status import READY
from tests.support.office import ARTIFACTS
from tests.support.panel_driver import DECK, screenshot, scripted_chat, wait_for

QUESTION = "Which colour is the sky?"
ANSWER = "The sky is blue on a clear day."
REASONING = "A short question about the sky's colour."
# What a screen reader must be able to say of the reply: its first words.
ANSWER_WORDS = "The sky is blue"


@pytest.fixture
def chat_server(reader_office):
    yield from scripted_chat(reader_office)


@pytest.fixture
def reader(reader_office):
    listening = Reader(reader_office.bus)
    yield listening
    listening.close()


@pytest.fixture
def panel(reader_office, reader):
    """The Marginalia panel of a new document window, as an AT-SPI node."""
    doc = reader_office.new_writer()
    frame = doc.CurrentController.Frame
    size_window(reader_office.display, frame.Title)
    # The deck opened before the window has its size comes up collapsed (gtk3, 7.4).
    wait_for(lambda: frame.ContainerWindow.getPosSize().Width >= 1000,
             what="the window to take its size")
    sidebar = doc.CurrentController.getSidebar()
    sidebar.setVisible(True)
    deck = sidebar.getDecks().getByName(DECK)
    open_deck(deck, lambda: reader.panel(timeout=0.5))
    yield reader.panel()
    reader_office.close(doc)


def open_deck(deck, shown, tries=3):
    """Open the deck (a second click if the first left it closed) until ``shown()``."""
    for _attempt in range(tries):
        if not deck.isActive():
            deck.activate(True)        # on an active deck this would close it
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                if shown():
                    return
            except AssertionError:
                pass                   # not yet
            time.sleep(0.2)
    raise AssertionError("the Marginalia deck did not open with the panel in it")


def office_version(office):
    import uno
    arg = uno.createUnoStruct("com.sun.star.beans.PropertyValue")
    arg.Name, arg.Value = "nodepath", "/org.openoffice.Setup/Product"
    node = office.create("com.sun.star.configuration.ConfigurationProvider") \
        .createInstanceWithArguments("com.sun.star.configuration.ConfigurationAccess", (arg,))
    return node.getByName("ooSetupVersionAboutBox")


def exposed(office, panel, when):
    """Keep what the panel exposes in tests/artifacts (per LibreOffice version): the facts
    a report about screen readers quotes."""
    path = os.path.join(ARTIFACTS, "atspi-panel-%s.txt" % office_version(office))
    with open(path, "a") as out:
        out.write("-- %s\n%s\n" % (when, "\n".join(describe(n) + " " + ",".join(
            sorted(states(n) & {"focusable", "editable", "focused"}))
            for n in walk(panel))))


def named(panel, name):
    """The panel's nodes named ``name`` (a multi-line edit may be a node and its child)."""
    return [node for node in walk(panel) if node.name == name]


def editable(panel, name):
    """The node with EditableText that is the control ``name`` (or inside it), or fail."""
    for node in walk(panel):
        if "EditableText" not in interfaces(node):
            continue
        if node.name == name or (node.parent is not None and node.parent.name == name):
            return node
    raise AssertionError("no EditableText for %r; the panel exposes:\n  %s"
                         % (name, "\n  ".join(describe(n) for n in walk(panel))))


def readable(panel, needle):
    """The panel's nodes whose accessible text contains ``needle``."""
    return [node for node in walk(panel) if needle in text_of(node)]


def button(panel, *names):
    import pyatspi
    for node in walk(panel):
        if node.name in names and node.getRole() == pyatspi.ROLE_PUSH_BUTTON:
            return node
    raise AssertionError("no button named %r in the panel" % (names,))


def spoken(events, needle):
    """The events a screen reader would speak with ``needle`` in what they carry: text
    inserted, a new name or description, or focus landing on a node that says it."""
    out = []
    for event in events:
        kind, data = event["type"], event["data"]
        if kind.startswith("object:text-changed:insert") or kind.startswith(
                "object:property-change") or kind.startswith("object:announcement"):
            said = data if isinstance(data, str) else ""
        elif kind.startswith("focus:") or (kind.startswith("object:state-changed:focused")
                                          and event.get("data") is not None):
            said = event["name"] + " " + event["text"]
        else:
            continue
        if needle in said:
            out.append(event)
    return out


def test_a_screen_reader_reads_the_answer_hears_it_and_sends_a_dictated_message(
        reader_office, reader, chat_server, panel):
    exposed(reader_office, panel, "before")
    chat_server.add(sse.text_response(ANSWER, pieces=4, reasoning=REASONING))
    # Dictation and voice control write the whole draft through EditableText.
    message = editable(panel, "Message")
    assert message.queryEditableText().setTextContents(QUESTION)
    reader.wait(lambda: text_of(message) == QUESTION, 10, what="the draft to show the text")
    reader.pump(0.5)
    reader.events[:] = []
    assert button(panel, "Send").queryAction().doAction(0)

    # Send took the draft that was written through EditableText.
    reader.wait(lambda: chat_server.chat_requests, 30, what="the message to reach the server")
    sent = chat_server.chat_requests[0].json["messages"][-1]["content"]
    assert sent.endswith(QUESTION)
    reader.wait(lambda: readable(panel, ANSWER), 40, what="the answer to be readable")
    reader.wait(lambda: named(panel, "Send"), 40, what="the reply to end (Stop back to Send)")
    reader.pump(1.0)

    # The finished reply was announced: an event carrying its words.
    heard = spoken(reader.events, ANSWER_WORDS)
    assert heard, ("no event announced the reply; heard:\n  %s"
                   % "\n  ".join("%(type)s %(role)s %(name)r %(data)r" % e
                                 for e in reader.events))
    exposed(reader_office, panel, "after")
    # The last answer can be read through the Text interface.
    assert readable(panel, ANSWER), ("the answer is not readable; the panel exposes:\n  %s"
                                     % "\n  ".join(describe(n) for n in walk(panel)))
    # So can the status line, and the thinking once its pane is open.
    assert any(text_of(node).startswith((READY, ANSWERED)) for node in walk(panel))
    toggle = [n for n in walk(panel) if n.name.startswith(("Thought for", "Thinking "))]
    assert toggle, "no thinking button after a turn that thought"
    if not toggle[0].name.endswith("\u25be"):
        toggle[0].queryAction().doAction(0)
    reader.wait(lambda: readable(panel, REASONING), 10, what="the thinking to be readable")
    # The draft is empty again, as the box shows.
    assert text_of(editable(panel, "Message")) == ""
    screenshot(reader_office, "panel_screen_reader.png")


def test_every_control_has_a_name_and_a_keyboard_path(reader_office, reader, panel):
    import pyatspi
    keyboard = (pyatspi.ROLE_PUSH_BUTTON, pyatspi.ROLE_TEXT, pyatspi.ROLE_LIST,
                pyatspi.ROLE_COMBO_BOX, pyatspi.ROLE_SCROLL_PANE)
    unnamed, unreachable = [], []
    for node in walk(panel)[1:]:
        role = node.getRole()
        # Scroll bars belong to their pane; panels and fillers only group controls.
        if role in (pyatspi.ROLE_SCROLL_BAR, pyatspi.ROLE_FILLER, pyatspi.ROLE_PANEL) \
                or "showing" not in states(node):
            continue
        if not node.name:
            unnamed.append(describe(node))
        if role == pyatspi.ROLE_TEXT and node.parent.getRole() == pyatspi.ROLE_COMBO_BOX:
            continue                          # a drop-down's line: its list takes the keys
        if role in keyboard:
            inside = [node] + [node.getChildAtIndex(i) for i in range(node.childCount)]
            if not any("focusable" in states(n) for n in inside if n is not None):
                unreachable.append(describe(node))
    assert not unnamed, "controls without a name: %s" % unnamed
    assert not unreachable, "controls a keyboard cannot reach: %s" % unreachable


def test_the_panel_changes_only_for_a_screen_reader(monkeypatch):
    """office.assistive asks the session's accessibility bus; IsEnabled alone (on where no
    assistive tool runs) leaves the panel as sighted users know it."""
    from marginalia.office import assistive
    from tests.support.atspi import AccessibilityBus
    from tests.support.office import Xvfb
    screen = Xvfb().start()
    bus = AccessibilityBus(screen.display)
    try:
        bus.start()
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", bus.address)
        assert assistive.ask_bus() is True           # the harness switched it on
        bus.switch("ScreenReaderEnabled", False)
        assert assistive.ask_bus() is False          # IsEnabled is still on
        monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS")
        bus.switch("ScreenReaderEnabled", True)
        assert assistive.ask_bus() is False          # no session bus: no answer, no change
    finally:
        bus.stop()
        screen.stop()

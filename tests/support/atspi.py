"""AT-SPI, what a screen reader (Orca) reads, for an office on Xvfb.

What it takes, as measured on Debian 12 (LibreOffice 7.4, at-spi2-core 2.46) and
trixie (LibreOffice 25.2):

- The gtk3 VCL plugin (SAL_USE_VCLPLUGIN=gtk3): under gen soffice never shows up
  on the accessibility bus.
- A session D-Bus of our own (``dbus-daemon --session``): the test machine has none, and
  a shared one would mix two offices' trees.
- The accessibility bus on it: ``at-spi-bus-launcher --launch-immediately`` claims
  org.a11y.Bus and starts a second dbus-daemon (the a11y bus), and at-spi2-registryd on
  it on demand. D-Bus activation of org.a11y.Bus would start it too; starting it
  ourselves lets us end it by its process id.
- GTK 3 loads its AT-SPI bridge unless NO_AT_BRIDGE=1, so LibreOffice's whole tree is
  there with org.a11y.Status IsEnabled false as well (measured with --a11y=0);
  gsettings' toolkit-accessibility and GTK_MODULES are not needed. We still switch
  IsEnabled and ScreenReaderEnabled on (``--a11y=1 --screen-reader=1``, set again
  through the Properties interface and read back): ScreenReaderEnabled is what the
  panel asks to learn that a screen reader listens (marginalia.office.assistive), as
  on a desktop whose screen reader is switched on.
- The test process finds the a11y bus the same way (DBUS_SESSION_BUS_ADDRESS, then
  org.a11y.Bus GetAddress), so those variables are set before pyatspi is imported.
- Under gtk3 with no window manager a new document window is "maximized" at 24x26
  pixels and ignores setPosSize (size_window below), and a deck opened before the
  window has its size comes up collapsed.
- pyatspi's cache is off for the office: the panel is built and rebuilt while we look.

Every missing piece raises AccessibilityMissing with what to install: the test fails
with that sentence, it never skips.
"""

import os
import shutil
import subprocess
import time

LAUNCHER_PATHS = ("/usr/libexec/at-spi-bus-launcher", "/usr/lib/at-spi2-core/at-spi-bus-launcher")


class AccessibilityMissing(AssertionError):
    """A piece the AT-SPI tests need is not there; says what to install."""


def _launcher():
    for path in LAUNCHER_PATHS:
        if os.path.exists(path):
            return path
    raise AccessibilityMissing("at-spi-bus-launcher was not found in %s (on Debian: "
                               "apt-get install at-spi2-core)" % ", ".join(LAUNCHER_PATHS))


def _read_line(fd, what, process):
    """One line a process writes on a pipe we gave it (an address), or fail saying what."""
    data = b""
    with os.fdopen(fd, "rb") as pipe:
        while not data.endswith(b"\n"):
            piece = pipe.read(1)
            if not piece:
                raise AccessibilityMissing("%s exited without printing its address (code %s)"
                                           % (what, process.poll()))
            data += piece
    return data.decode().strip()


class AccessibilityBus(object):
    """A private session D-Bus with the AT-SPI bus on it and accessibility switched on."""

    def __init__(self, display):
        self.display = display
        self.processes = []
        self.address = None

    def start(self):
        if shutil.which("dbus-daemon") is None:
            raise AccessibilityMissing("dbus-daemon is missing (on Debian: apt-get install "
                                       "dbus-daemon)")
        if shutil.which("gdbus") is None:
            raise AccessibilityMissing("gdbus is missing (on Debian: apt-get install "
                                       "libglib2.0-bin)")
        launcher = _launcher()
        read_fd, write_fd = os.pipe()
        daemon = subprocess.Popen(
            ["dbus-daemon", "--session", "--nofork", "--print-address=%d" % write_fd],
            pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env=dict(os.environ, DISPLAY=self.display))
        os.close(write_fd)
        self.processes.append(daemon)
        self.address = _read_line(read_fd, "dbus-daemon", daemon)
        self.processes.append(subprocess.Popen(
            [launcher, "--launch-immediately", "--a11y=1", "--screen-reader=1"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=self.env(os.environ)))
        self._wait_for_bus()
        for switch in ("IsEnabled", "ScreenReaderEnabled"):
            self.switch(switch, True)
        return self

    def switch(self, name, on):
        """Set an org.a11y.Status switch and read it back."""
        value = "true" if on else "false"
        self._gdbus("call", "--dest", "org.a11y.Bus", "--object-path", "/org/a11y/bus",
                    "--method", "org.freedesktop.DBus.Properties.Set", "org.a11y.Status",
                    name, "<%s>" % value)
        said = self._gdbus("call", "--dest", "org.a11y.Bus", "--object-path", "/org/a11y/bus",
                           "--method", "org.freedesktop.DBus.Properties.Get", "org.a11y.Status",
                           name)
        if value not in said:
            raise AccessibilityMissing("org.a11y.Status %s stays %s" % (name, said))

    def env(self, base=None):
        """Variables an office or the test process needs to be on this bus."""
        env = dict(base or {})
        env.update({"DISPLAY": self.display, "DBUS_SESSION_BUS_ADDRESS": self.address,
                    # GTK 3 skips its AT-SPI bridge when this is 1 (some CI images set it).
                    "NO_AT_BRIDGE": "0"})
        env.pop("AT_SPI_BUS_ADDRESS", None)      # another session's a11y bus
        return env

    def _gdbus(self, *args):
        run = subprocess.run(["gdbus", args[0], "--session"] + list(args[1:]),
                             env=self.env(os.environ), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, timeout=20)
        if run.returncode:
            raise AccessibilityMissing("gdbus %s failed: %s" % (" ".join(args),
                                                                run.stderr.decode().strip()))
        return run.stdout.decode().strip()

    def _wait_for_bus(self, timeout=20.0):
        deadline = time.time() + timeout
        said = ""
        while time.time() < deadline:
            try:
                said = self._gdbus("call", "--dest", "org.a11y.Bus", "--object-path",
                                   "/org/a11y/bus", "--method", "org.a11y.Bus.GetAddress")
                if "unix:" in said:
                    return said
            except AccessibilityMissing as exc:
                said = str(exc)
            time.sleep(0.2)
        raise AccessibilityMissing("the accessibility bus (org.a11y.Bus) did not come up: %s"
                                   % said)

    def stop(self):
        for process in reversed(self.processes):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
        self.processes = []


# -- the reader: the test process's side of AT-SPI ------------------------------

def size_window(display, title, width=1180, height=950):
    """Give a document window its size through X (xdotool).

    Under gtk3 with no window manager a new frame comes up "maximized" at 24x26
    pixels and ignores setPosSize while it thinks so (measured on 7.4); a
    configure request sent straight to X is obeyed.
    """
    env = dict(os.environ, DISPLAY=display)
    deadline = time.time() + 20
    while True:
        found = subprocess.run(["xdotool", "search", "--name", "^%s$" % title],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        ids = found.stdout.decode().split()
        if ids:
            break
        if time.time() > deadline:
            raise AssertionError("no X window titled %r" % title)
        time.sleep(0.2)
    for window in ids:
        subprocess.run(["xdotool", "windowmove", window, "0", "0",
                        "windowsize", window, str(width), str(height)], env=env, check=True)


class Reader(object):
    """What a screen reader sees of the office on one AccessibilityBus: the tree and events.

    pyatspi is imported only here, after the bus's variables are in os.environ
    (Atspi finds the accessibility bus through the session bus when first used).
    """

    EVENTS = ("object:text-changed:insert", "object:property-change:accessible-name",
              "object:property-change:accessible-description", "object:state-changed:focused",
              "focus:", "object:announcement")

    def __init__(self, bus):
        # Put back by close(): an office started later in this process (the gen window
        # tests) must not find this bus and think a screen reader is listening.
        self._saved = dict(os.environ)
        os.environ.update(bus.env(os.environ))
        try:
            import pyatspi
        except ImportError:
            raise AccessibilityMissing("pyatspi cannot be imported by the test's Python (on "
                                       "Debian: apt-get install python3-pyatspi; the .venv "
                                       "sees it through --system-site-packages)")
        from gi.repository import Atspi, GLib
        # Each call waits at most 3 s for the office (the default is 25 s, and a walk makes
        # hundreds): a busy or hung office then fails a test instead of stalling it.
        Atspi.set_timeout(3000, 15000)
        self.pyatspi = pyatspi
        self._loop = GLib.MainContext.default()
        self.events = []
        for kind in self.EVENTS:
            pyatspi.Registry.registerEventListener(self._heard, kind)

    def close(self):
        for kind in self.EVENTS:
            self.pyatspi.Registry.deregisterEventListener(self._heard, kind)
        os.environ.clear()
        os.environ.update(self._saved)

    def _heard(self, event):
        # What a screen reader could say for this event: the source's name, role and
        # text (for text insertions the inserted piece is any_data).
        try:
            source = event.source
            said = {"type": event.type, "name": source.name or "",
                    "role": source.getRoleName(), "data": event.any_data,
                    "text": text_of(source)}
        except Exception as exc:          # the source went away meanwhile
            said = {"type": event.type, "name": "", "role": "", "data": None,
                    "text": "", "error": str(exc)}
        self.events.append(said)

    def pump(self, seconds=0.3):
        """Let pyatspi deliver the events that arrived (they need the GLib loop)."""
        end = time.time() + seconds
        while True:
            while self._loop.iteration(False):
                pass
            if time.time() >= end:
                return
            time.sleep(0.02)

    def wait(self, predicate, timeout=30.0, what="condition"):
        deadline = time.time() + timeout
        while True:
            self.pump(0.05)
            value = predicate()
            if value:
                return value
            if time.time() > deadline:
                raise AssertionError("timed out after %.0f s waiting for %s" % (timeout, what))

    def office(self):
        """The soffice application on the accessibility bus, or None."""
        desktop = self.pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            app = desktop.getChildAtIndex(i)
            if app is not None and "office" in (app.name or "").lower():
                # No cached children or states: the panel is built and rebuilt while we
                # look, and a tree cached before it came stays without it (measured).
                from gi.repository import Atspi
                app.set_cache_mask(Atspi.Cache.NONE)
                app.clear_cache()
                return app
        return None

    def panel(self, timeout=30.0):
        """The Marginalia panel: the parent of the accessible named Conversation."""
        app = self.wait(self.office, timeout, what="soffice on the accessibility bus (is "
                        "the gtk3 plugin installed: libreoffice-gtk3?)")

        def find():
            for node in walk(app):
                if node.name == "Conversation":
                    return node.parent
            return None
        return self.wait(find, timeout, what="the panel's Conversation in the AT-SPI tree")


def walk(node, limit=60):
    """node and its descendants, depth first; wide nodes (the document) are not entered."""
    out, pending = [], [node]
    while pending:
        current = pending.pop()
        try:
            count = current.childCount
        except Exception:
            continue                      # gone while we looked
        out.append(current)
        if count > limit:
            continue
        for i in reversed(range(count)):
            child = current.getChildAtIndex(i)
            if child is not None:
                pending.append(child)
    return out


def interfaces(node):
    import pyatspi
    return set(pyatspi.listInterfaces(node))


def text_of(node):
    """The accessible text of node (Text interface), or "" when it has none."""
    if "Text" not in interfaces(node):
        return ""
    return node.queryText().getText(0, -1)


def states(node):
    import pyatspi
    return set(pyatspi.stateToString(s) for s in node.getState().getStates())


def describe(node):
    """One line about a node for a failure message: role, name, interfaces, text."""
    return "%s %r [%s] %r" % (node.getRoleName(), node.name,
                              ",".join(sorted(interfaces(node) - {"Accessible", "Collection",
                                                                  "Component"})),
                              text_of(node)[:60])

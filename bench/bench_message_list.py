"""A message list as the conversation pane (issue 24): cost, looks, wheel, accessibility.

    .venv/bin/python bench/bench_message_list.py      (needs Xvfb, xdotool, ImageMagick)

The conversation as a "viewport" UnoControlContainer holding, per message, a
role label (a bold coloured FixedText) and body blocks: a borderless
read-only multi-line Edit without a scroll bar for prose, aligned per message
(Arabic right), and a monospace Edit per code block. One UnoControlScrollBar
beside the viewport; the list places the blocks itself (y = offset - scroll
value), so it always knows the scroll position. A block's height is its peer's
getMinimumSize() (VCL MultiLineEdit::CalcMinimumSize: the text engine's
height wrapped at the window's width, plus the border, which is 0 here).

Measured: building 200 KB in 200 messages and the last 4,000 characters (what
a reopened chat replays, office.panel.REPLAY_CHARS); a streamed update of 40
characters into the last message against the single Edit's (insertText +
setSelection at 200 KB) and one bridge call; a scroll step; the mouse wheel
over a block (xdotool); screenshots in /work/scratch/message_list_*.png; the
viewport's accessible tree. Times are wall time from this process, bridge
calls included: ratios against the floors are what count. One run, printed.

Found (November 2026, LibreOffice 7.4.7 here and 25.2.3 in the Debian trixie root,
gen plugin under Xvfb; run-to-run noise on this 2-core machine is about 1.5x):
heights from getPreferredSize() are exact (39 lines of 13 px = 507 px; no cut line,
no gap in the screenshots, none changed after the build). getMinimumSize() cannot
be called from Python on the peer: PyUNO's invocation picks XTextLayoutConstrains'
overload (cols, lines). Build: 11-18 ms per message, the 4,000-character replay
70-90 ms, 200 messages 2.0-3.3 s and +12-22 MB. A streamed update 1.2-1.8x the
single Edit's. A scroll step of 20 px 1.6-4.4 ms. The wheel: a borderless Edit
without a bar eats it (nothing moves); over a role label, a gap or the
UnoControlScrollBar itself (VCL's ScrollBar does not take the wheel) it falls
through to the focused window, the document, which scrolls. Nothing in UNO hears
a wheel. The bar's arrows and thumb do reach an XAdjustmentListener.
"""
import os
import subprocess
import sys
import time
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for sub in ("", "pythonpath", "vendor"):
    sys.path.insert(0, os.path.join(ROOT, sub))
import uno
import unohelper
from com.sun.star.awt import XAdjustmentListener
import build
from tests.support.office import OfficeHarness, rss_kb
from marginalia.document.docview import utf16_len
from marginalia.office.panel_listen import Listener
from marginalia.ui.bidi import first_strong

WIDTH = int(os.environ.get("WIDTH", "180"))
HEIGHT = 700
BAR = 14                                   # the scroll bar's width; the viewport gets the rest
SHOTS = os.environ.get("SHOTS", "/work/scratch")
POS, SIZE, POSSIZE = 3, 12, 15             # com.sun.star.awt.PosSize
GAP_ROLE, GAP_BLOCK, GAP_MESSAGE = 1, 4, 10
YOU, ASSISTANT = 0x26A269, 0x1A5FB4
BOLD = 150.0                               # com.sun.star.awt.FontWeight.BOLD


WORDS = ("the quarterly report shows costs rose slightly while paper and rent stayed flat "
         "and the team asked whether the spring budget could cover a second printer").split()
ARABIC = ("\u0627\u0631\u062a\u0641\u0639\u062a \u0627\u0644\u062a\u0643\u0627\u0644\u064a\u0641 "
          "\u0642\u0644\u064a\u0644\u0627 \u0641\u064a \u0647\u0630\u0627 \u0627\u0644\u0631\u0628\u0639 ")


def prose(n_chars, seed):
    out, i = [], seed
    while sum(len(w) + 1 for w in out) < n_chars:
        out.append(WORDS[i % len(WORDS)])
        i += 7
    # a paragraph break every ~50 words (~300 characters), as answers have
    return "\n\n".join(" ".join(out[k:k + 50]) for k in range(0, len(out), 50))


def chat(total=200 * 1024, count=200):
    """(role, [(kind, text)]) messages: user and assistant in turn, every 4th with code,
    every 20th in Arabic."""
    user = 250                   # user messages are short; the answers carry the bulk
    per = (total - user * count // 2) // (count // 2)
    messages = []
    for i in range(count):
        role = "You" if i % 2 == 0 else "Assistant"
        if i % 20 == 7:
            messages.append((role, [("prose", (ARABIC * (per // len(ARABIC) + 1))[:per])]))
            continue
        if role == "You" and i % 20 == 12:
            messages.append((role, [("prose", (ARABIC * 3).strip())]))
            continue
        if role == "You":
            messages.append((role, [("prose", prose(user, i))]))
            continue
        blocks = [("prose", prose(per, i))]
        if i % 4 == 3:
            code = "".join("    total = sum(cost[%d] for cost in rows)\n" % k for k in range(6))
            blocks = [("prose", prose(per // 2, i)), ("code", code.rstrip("\n")),
                      ("prose", prose(per // 4, i + 1))]
        messages.append((role, blocks))
    return messages


def tail(messages, chars):
    """The last messages holding about ``chars`` characters (what a replay shows)."""
    out, n = [], 0
    for message in reversed(messages):
        out.insert(0, message)
        n += sum(len(t) for _, t in message[1])
        if n >= chars:
            break
    return out



class Bar(unohelper.Base, XAdjustmentListener):
    def __init__(self):
        self.heard = []

    def adjustmentValueChanged(self, event):
        self.heard.append(event.Value)

    def disposing(self, source):
        pass


class MessageList:
    """The viewport, its blocks and the one scroll bar."""

    def __init__(self, h, parent, x, y):
        self.ctx, self.smgr = h.ctx, h.smgr
        self.outer = self._control("com.sun.star.awt.UnoControlContainer", {})
        self.outer.createPeer(parent.getToolkit(), parent)
        self.outer.setPosSize(x, y, WIDTH, HEIGHT, POSSIZE)
        self.view = self._control("com.sun.star.awt.UnoControlContainer", {})
        self.view.setPosSize(0, 0, WIDTH - BAR, HEIGHT, POSSIZE)
        self.outer.addControl("viewport", self.view)
        self.bar = self._control("com.sun.star.awt.UnoControlScrollBar",
                                 {"Orientation": 1, "LineIncrement": 20,
                                  "BlockIncrement": HEIGHT - 20, "VisibleSize": HEIGHT})
        self.bar.setPosSize(WIDTH - BAR, 0, BAR, HEIGHT, POSSIZE)
        self.outer.addControl("bar", self.bar)
        self.outer.setVisible(True)
        self.blocks = []          # [control, y, height, kind]
        self.end = 0              # the content's height
        self.scroll = 0
        self.label_height = None
        self.count = 0

    def _control(self, kind, props):
        model = self.smgr.createInstanceWithContext(kind + "Model", self.ctx)
        if props:
            names = tuple(sorted(props))
            model.setPropertyValues(names, tuple(props[n] for n in names))
        control = self.smgr.createInstanceWithContext(kind, self.ctx)
        control.setModel(model)
        return control

    def _add(self, control, height, kind):
        y = self.end
        control.setPosSize(0, y - self.scroll, WIDTH - BAR, height, POSSIZE)
        self.count += 1
        self.view.addControl("b%d" % self.count, control)
        self.blocks.append([control, y, height, kind])
        return y

    def _font(self, weight=None, name=None):
        font = uno.createUnoStruct("com.sun.star.awt.FontDescriptor")
        if weight:
            font.Weight = weight
        if name:
            font.Name = name
            font.Pitch = 1                       # FIXED
        return font

    def add_message(self, role, blocks):
        if self.blocks:
            self.end += GAP_MESSAGE
        rtl = bool(first_strong("".join(t for _, t in blocks)))
        label = self._control("com.sun.star.awt.UnoControlFixedText", {
            "Label": role, "FontDescriptor": self._font(weight=BOLD),
            "TextColor": YOU if role == "You" else ASSISTANT, "Align": 2 if rtl else 0,
            "Tabstop": False})
        if self.label_height is None:
            self._add(label, 20, "role")
            self.label_height = label.getPeer().getPreferredSize().Height
            self.blocks[-1][2] = self.label_height
            label.setPosSize(0, 0, 0, self.label_height, 8)
        else:
            self._add(label, self.label_height, "role")
        self.end += self.label_height + GAP_ROLE
        for number, (kind, text) in enumerate(blocks):
            if number:
                self.end += GAP_BLOCK
            props = {"MultiLine": True, "ReadOnly": True, "Border": 0, "VScroll": False,
                     "HScroll": False, "Text": text, "Align": 2 if rtl else 0,
                     "Tabstop": False, "BackgroundColor": 0xFFFFFF}
            if kind == "code":
                props["FontDescriptor"] = self._font(name="DejaVu Sans Mono")
                props["BackgroundColor"] = 0xF0F0F0
                props["Align"] = 0
            if rtl and self.writing_mode:
                props["WritingMode"] = 1            # com.sun.star.text.WritingMode2.RL_TB
            edit = self._control("com.sun.star.awt.UnoControlEdit", props)
            # One line tall first: the peer is made at the list's width and wraps there.
            self._add(edit, 16, kind)
            height = edit.getPeer().getPreferredSize().Height
            self.blocks[-1][2] = height
            edit.setPosSize(0, 0, 0, height, 8)     # HEIGHT only
            self.end += height
        self.bar.setMaximum(max(self.end, HEIGHT))
        return self.blocks[-1]

    def in_view(self, scroll):
        top, bottom = scroll, scroll + HEIGHT
        return set(i for i, b in enumerate(self.blocks) if b[1] + b[2] > top and b[1] < bottom)

    def scroll_to(self, value, moved=None):
        """Set the bar and place the blocks that were or now are in view."""
        value = max(0, min(value, max(0, self.end - HEIGHT)))
        before = self.in_view(self.scroll)
        self.scroll = value
        after = self.in_view(value)
        self.bar.setValue(value)
        for i in before | after:
            block = self.blocks[i]
            block[0].setPosSize(0, block[1] - value, 0, 0, POS)
        return len(before | after)

    def grow_last(self, peer, end, text, following):
        """Append to the last block, re-measure it, follow the end if asked."""
        peer.insertText(uno.createUnoStruct("com.sun.star.awt.Selection", end, end), text)
        block = self.blocks[-1]
        height = peer.getPreferredSize().Height
        if height != block[2]:
            self.end += height - block[2]
            block[2] = height
            block[0].setPosSize(0, 0, 0, height, 8)
            self.bar.setMaximum(max(self.end, HEIGHT))
            if following:
                self.scroll_to(self.end - HEIGHT)
            return True
        return False


def build_list(h, parent, messages, x, y):
    ml = MessageList(h, parent, x, y)
    ml.writing_mode = "WritingMode" in [p.Name for p in ml._control(
        "com.sun.star.awt.UnoControlEdit", {}).getModel().getPropertySetInfo().getProperties()]
    t0 = time.perf_counter()
    for role, blocks in messages:
        ml.add_message(role, blocks)
    return ml, time.perf_counter() - t0


def screen_box(control):
    acc = control.getPeer().getAccessibleContext()
    at = acc.getLocationOnScreen()
    size = acc.getSize()
    return at.X, at.Y, size.Width, size.Height


def shot(h, control, name):
    x, y, w, hh = screen_box(control)
    path = os.path.join(SHOTS, "message_list_%s.png" % name)
    subprocess.run(["import", "-display", h.display, "-window", "root",
                    "-crop", "%dx%d+%d+%d" % (w, hh, x, y), "+repage", path])
    return path


class DocView:
    """Whether the document's view moved: its pixels left of the list, before and after."""

    def __init__(self, h):
        self.h = h
        self.path = os.path.join(SHOTS, "message_list_docview.png")

    def grab(self, path):
        subprocess.run(["import", "-display", self.h.display, "-window", "root",
                        "-crop", "300x400+700+300", "+repage", path])

    def mark(self):
        self.grab(self.path)

    def moved(self):
        time.sleep(1.5)                     # the document repaints after the wheel
        after = self.path.replace(".png", "_after.png")
        self.grab(after)
        changed = subprocess.run(["compare", "-metric", "AE", self.path, after, "null:"],
                                 capture_output=True, text=True).stderr.strip()
        return changed not in ("0", "")


def wheel(h, x, y, button, times=3):
    env = dict(os.environ, DISPLAY=h.display)
    subprocess.run(["xdotool", "mousemove", str(x), str(y)], env=env)
    time.sleep(0.2)
    for _ in range(times):
        subprocess.run(["xdotool", "click", str(button)], env=env)
        time.sleep(0.1)
    time.sleep(0.5)


def accessible_tree(control, limit=6):
    """The viewport's first children, each down to the nodes that carry text."""
    acc = control.getPeer().getAccessibleContext()
    print("  viewport: role %d, name %r, %d children" % (
        acc.getAccessibleRole(), acc.getAccessibleName(), acc.getAccessibleChildCount()))

    def walk(node, depth, index):
        try:
            text = repr(node.getText()[:40])
        except Exception:
            text = "-"
        print("  %schild %d: role %d, name %r, %d children, text %s" % (
            "  " * depth, index, node.getAccessibleRole(), node.getAccessibleName()[:30],
            node.getAccessibleChildCount(), text))
        if depth < 4:
            for j in range(min(2, node.getAccessibleChildCount())):
                walk(node.getAccessibleChild(j).getAccessibleContext(), depth + 1, j)

    for i in range(min(limit, acc.getAccessibleChildCount())):
        walk(acc.getAccessibleChild(i).getAccessibleContext(), 1, i)


h = OfficeHarness(build.build(), gui=True).start()
try:
    print("LibreOffice:", subprocess.run(
        ["sh", "-c", "soffice --version 2>/dev/null || libreoffice --version"],
        capture_output=True, text=True).stdout.strip())
    doc = h.new_writer()
    frame = doc.CurrentController.Frame
    frame.ContainerWindow.setPosSize(0, 0, 1180, 950, 15)
    parent = frame.ContainerWindow
    # The document's window moves right, so the lists lie beside it, not over it: over it,
    # the document's window (above ours) took the mouse and painted over the lists.
    time.sleep(1)
    frame.ComponentWindow.setPosSize(430, 0, 750, 950, 15)
    group = os.getpgid(h.office.process.pid)
    messages = chat()
    total = sum(len(t) for _, b in messages for _, t in b)
    print("chat: %d messages, %d KB of text, %d code blocks, %d Arabic messages" % (
        len(messages), total // 1024, sum(1 for _, b in messages for k, _ in b if k == "code"),
        sum(1 for _, b in messages if first_strong(b[0][1]))))
    time.sleep(1)

    # 1a. the replay: the last 4,000 characters
    recent = tail(messages, 4000)
    rss0 = rss_kb(group)
    small, t_small = build_list(h, parent, recent, 20, 100)
    time.sleep(0.5)
    rss1 = rss_kb(group)
    print("WritingMode on the Edit model:", small.writing_mode)
    print("replay %d chars in %d messages: %.0f ms, %.1f ms per message, %d controls, "
          "office RSS +%.1f MB" % (sum(len(t) for _, b in recent for _, t in b), len(recent),
                                   t_small * 1000, t_small * 1000 / len(recent),
                                   small.count, (rss1 - rss0) / 1024.0))
    small.scroll_to(small.end)
    probe = next(b for b in small.blocks if b[3] == "prose")
    pp = probe[0].getPeer()
    one, two = pp.getMinimumSize(1, 1).Height, pp.getMinimumSize(1, 2).Height
    print("height probe: a prose block of %d chars: preferred %s, line height %d "
          "(getMinimumSize(cols, lines): 1 line %d, 2 lines %d) -> %.2f lines" % (
              len(probe[0].getModel().Text), (pp.getPreferredSize().Width,
              pp.getPreferredSize().Height), two - one, one, two,
              pp.getPreferredSize().Height / float(two - one)))
    time.sleep(0.5)

    # 1b. the whole chat
    rss0 = rss_kb(group)
    ml, t_build = build_list(h, parent, messages, 220, 100)
    time.sleep(0.5)
    rss1 = rss_kb(group)
    print("build 200 KB in %d messages: %.0f ms, %.1f ms per message, %d controls, content "
          "%d px tall, office RSS +%.1f MB" % (len(messages), t_build * 1000,
                                              t_build * 1000 / len(messages), ml.count, ml.end,
                                              (rss1 - rss0) / 1024.0))

    # the single Edit at 200 KB, for the per-update comparison
    single = ml._control("com.sun.star.awt.UnoControlEdit",
                         {"MultiLine": True, "ReadOnly": True, "VScroll": True})
    small.outer.addControl("single", single)   # any window will do: it is only measured
    single.setPosSize(0, 0, WIDTH, HEIGHT, POSSIZE)
    flat = "\n\n".join("%s:\n%s" % (r, "\n".join(t for _, t in b)) for r, b in messages)
    speer = single.getPeer()
    speer.setText(flat)
    send = utf16_len(flat)
    single.setVisible(False)

    # 2. streamed updates of 40 characters into the last message, following the end
    ml.scroll_to(ml.end)
    last = ml.blocks[-1][0].getPeer()
    lend = utf16_len(ml.blocks[-1][0].getModel().Text)
    N = 100
    grew = 0
    piece = "word " * 8
    t0 = time.perf_counter()
    for i in range(N):
        grew += ml.grow_last(last, lend, piece, following=True)
        lend += 40
    t_list = (time.perf_counter() - t0) / N
    # the same when the user scrolled up (no following: no block moves, only the bar's max)
    ml.scroll_to(ml.end // 2)
    t0 = time.perf_counter()
    for i in range(N):
        ml.grow_last(last, lend, piece, following=False)
        lend += 40
    t_list_up = (time.perf_counter() - t0) / N
    single.setVisible(True)
    t0 = time.perf_counter()
    for i in range(N):
        speer.insertText(uno.createUnoStruct("com.sun.star.awt.Selection", send, send), piece)
        send += 40
        speer.setSelection(uno.createUnoStruct("com.sun.star.awt.Selection", send, send))
    t_single = (time.perf_counter() - t0) / N
    single.setVisible(False)
    t0 = time.perf_counter()
    for i in range(N):
        speer.getSelection()
    t_rt = (time.perf_counter() - t0) / N
    t0 = time.perf_counter()
    for i in range(N):
        last.getPreferredSize()
    t_measure = (time.perf_counter() - t0) / N
    print("per update of 40 chars at 200 KB: list following %.2f ms (%d of %d grew a line), "
          "list scrolled up %.2f ms, single Edit %.2f ms, getPreferredSize %.2f ms, one bridge "
          "call %.2f ms" % (t_list * 1000, grew, N, t_list_up * 1000, t_single * 1000,
                            t_measure * 1000, t_rt * 1000))
    print("ratios: list/single %.1f, list/bridge call %.1f, single/bridge call %.1f" % (
        t_list / t_single, t_list / t_rt, t_single / t_rt))
    print("last block now %d px tall, content %d px" % (ml.blocks[-1][2], ml.end))

    # 3. scrolling: 100 steps of 20 px from the middle
    start = ml.end // 2
    moved = 0
    t0 = time.perf_counter()
    for i in range(N):
        moved += ml.scroll_to(start + 20 * i)
    t_scroll = (time.perf_counter() - t0) / N
    t0 = time.perf_counter()
    for i in range(20):
        moved_far = ml.scroll_to(start - 3000 * (i % 2))
    t_jump = (time.perf_counter() - t0) / 20
    print("scroll step of 20 px: %.2f ms, %.1f blocks placed per step (%.1f bridge calls "
          "worth); a 3000 px jump %.2f ms" % (t_scroll * 1000, moved / float(N),
                                             t_scroll / t_rt, t_jump * 1000))

    # heights: does each Edit's text fit its block? (the peer's minimum at the final width)
    bad = 0
    for control, y, height, kind in ml.blocks:
        if kind != "role" and control.getPeer().getPreferredSize().Height != height:
            bad += 1
    print("blocks whose measured height changed after the build:", bad)

    # 4. screenshots: the replay list, the big list at a code block and an Arabic message
    time.sleep(1)
    print("screenshot:", shot(h, small.outer, "replay"))
    for kind, name in (("code", "code"),):
        y = next(b[1] for b in ml.blocks if b[3] == kind)
        ml.scroll_to(y - 150)
        time.sleep(0.8)
        print("screenshot:", shot(h, ml.outer, name))
    arabic_y = None
    for b in ml.blocks:
        if b[3] == "prose" and first_strong(b[0].getModel().Text):
            arabic_y = b[1]
            break
    ml.scroll_to(arabic_y - 250)
    time.sleep(0.8)
    print("screenshot:", shot(h, ml.outer, "arabic"))

    # 3b. the mouse wheel, over each kind of thing in the list; the document has text to
    # scroll, so a wheel that falls through to the focused window shows in its view.
    doc.Text.setString("\n".join("paragraph %d of the document, " % i * 6 for i in range(400)))
    doc.CurrentController.ViewCursor.gotoStart(False)    # the view at the top: room to scroll
    docview = DocView(h)
    listener = Bar()
    ml.bar.addAdjustmentListener(listener)
    bx, by, bw, bh = screen_box(ml.outer)
    block = next(b for b in ml.blocks[len(ml.blocks) // 2:] if b[3] == "prose" and b[2] > 200)
    ml.scroll_to(block[1] - 100)
    label = next(b for b in ml.blocks if b[3] == "role" and b[1] > block[1])
    ml.scroll_to(label[1] - 200)
    time.sleep(1.5)
    lx = bx + 10
    targets = [("a prose block", (bx + 60, by + 100)),
               ("a role label", (lx, by + 200 + label[2] // 2)),
               ("the gap above a label", (lx, by + 200 - GAP_MESSAGE // 2)),
               ("the scroll bar", (bx + bw - BAR // 2, by + 300))]
    for where, (x, y) in targets:
        before = ml.bar.getValue()
        heard = len(listener.heard)
        docview.mark()
        first = shot(h, ml.outer, "wheel_before")
        wheel(h, x, y, 5)
        time.sleep(1.5)
        second = shot(h, ml.outer, "wheel_after")
        changed = subprocess.run(["compare", "-metric", "AE", first, second, "null:"],
                                 capture_output=True, text=True).stderr.strip()
        print("wheel down x3 over %s: bar %d -> %d, adjustment events %d, document view "
              "moved %s, list pixels changed %s" % (
                  where, before, ml.bar.getValue(), len(listener.heard) - heard,
                  docview.moved(), changed))
        if listener.heard:
            ml.scroll_to(ml.bar.getValue())
    def control(when):
        """The first target again: can the document still move?"""
        ml.scroll_to(label[1] - 200)
        time.sleep(1)
        docview.mark()
        wheel(h, targets[0][1][0], targets[0][1][1], 5)
        print("control %s, %s again: document view moved %s" % (
            when, targets[0][0], docview.moved()))

    subprocess.run(["import", "-display", h.display, "-window", "root",
                    os.path.join(SHOTS, "message_list_screen.png")])
    control("after the four")
    # a click on a block: the list is what the mouse finds there (the wheel's target)
    pressed = []
    clicks = Listener(on_click=lambda: pressed.append(1))
    under = [b for b in ml.blocks if b[1] - ml.scroll <= 100 < b[1] + b[2] - ml.scroll][0]
    under[0].addMouseListener(clicks)
    env = dict(os.environ, DISPLAY=h.display)
    subprocess.run(["xdotool", "mousemove", str(targets[0][1][0]), str(targets[0][1][1]),
                    "click", "1"], env=env)
    time.sleep(1)
    print("click on the wheel's first target: the block under it heard %d press(es)"
          % len(pressed))
    # a click on the bar's down arrow: the bar does tell the list (XAdjustmentListener)
    before, heard = ml.bar.getValue(), len(listener.heard)
    env = dict(os.environ, DISPLAY=h.display)
    subprocess.run(["xdotool", "mousemove", str(bx + bw - BAR // 2), str(by + bh - 4),
                    "click", "1"], env=env)
    time.sleep(1)
    print("click on the bar's down arrow: bar %d -> %d, adjustment events %d %s" % (
        before, ml.bar.getValue(), len(listener.heard) - heard, listener.heard[heard:]))
    # a disabled Edit: does the wheel pass through it to the parent?
    block[0].getModel().Enabled = False
    ml.scroll_to(block[1] - 100)
    time.sleep(1)
    before, heard = ml.bar.getValue(), len(listener.heard)
    docview.mark()
    wheel(h, bx + 60, by + 150, 5)
    print("wheel over a disabled prose Edit: bar %d -> %d, events %d, document view moved %s"
          % (before, ml.bar.getValue(), len(listener.heard) - heard,
             docview.moved()))
    block[0].getModel().Enabled = True
    # the same block with its own vertical bar, the bar pushed past the viewport's right edge
    # (clipped away): does its Edit then keep the wheel from the document?
    block[0].getModel().VScroll = True
    block[0].setPosSize(0, 0, WIDTH, 0, 4)                  # WIDTH only
    time.sleep(1)
    before, heard = ml.bar.getValue(), len(listener.heard)
    docview.mark()
    wheel(h, bx + 60, by + 150, 5)
    print("wheel over a prose Edit with VScroll (bar clipped): bar %d -> %d, events %d, "
          "document view moved %s" % (before, ml.bar.getValue(), len(listener.heard) - heard,
                                      docview.moved()))
    control("at the end")
    shot(h, ml.outer, "after_wheel_tests")

    # 5. accessibility
    print("accessible tree of the replay viewport:")
    accessible_tree(small.view)
finally:
    h.stop()

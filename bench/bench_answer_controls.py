"""Which control shows answers: the rich-text form control or the multi-line Edit (issue 13).

    .venv/bin/python bench/bench_answer_controls.py      (needs Xvfb)

Both controls are built in one container in a Writer window of a private
office, filled with 200 KB in 200 appends, then given 100 streamed updates
of 40 characters: plain for both, and for the rich control also with a bold
run set through its text API (what formatted answers would need). Times are
wall time seen from this process, one UNO bridge call included per call
(measured too): the ratios against the Edit are what count. A screenshot is
saved in tests/artifacts/answer_controls.png.

Issue 24 added: the controls at the panel's default content width (WIDTH,
180 px), the office's resident memory after each control's fill (the
process group's VmRSS, so the rich control's share is the first delta and
the Edit's the second), and a rich fill shaped like a chat (a bold coloured
role line per message, a monospace code paragraph), what reopening a kept
chat would cost.
"""
import os
import subprocess
import sys
import time
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for sub in ("", "pythonpath", "vendor"):
    sys.path.insert(0, os.path.join(ROOT, sub))
import uno
import build
from tests.support.office import OfficeHarness, rss_kb

WIDTH = int(os.environ.get("WIDTH", "180"))


h = OfficeHarness(build.build(), gui=True).start()
try:
    doc = h.new_writer()
    frame = doc.CurrentController.Frame
    frame.ContainerWindow.setPosSize(0, 0, 1180, 950, 15)
    parent = frame.ContainerWindow
    ctx = h.ctx; smgr = h.smgr
    cont = smgr.createInstanceWithContext("com.sun.star.awt.UnoControlContainer", ctx)
    cont.setModel(smgr.createInstanceWithContext("com.sun.star.awt.UnoControlContainerModel", ctx))
    cont.createPeer(parent.getToolkit(), parent)
    cont.setPosSize(800, 100, WIDTH, 700, 15)
    group = os.getpgid(h.office.process.pid)
    rss0 = rss_kb(group)
    def add(name, model_svc, ctl_svc, props):
        m = smgr.createInstanceWithContext(model_svc, ctx)
        for k, v in props.items():
            setattr(m, k, v)
        c = smgr.createInstanceWithContext(ctl_svc, ctx)
        c.setModel(m)
        cont.addControl(name, c)
        return c
    t0 = time.perf_counter()
    rich = add("rich", "com.sun.star.form.component.RichTextControl",
               "com.sun.star.form.control.RichTextControl",
               {"RichText": True, "MultiLine": True, "ReadOnly": True, "VScroll": True})
    t_rich_create = time.perf_counter() - t0
    rich.setPosSize(0, 0, WIDTH, 340, 15)
    t0 = time.perf_counter()
    edit = add("edit", "com.sun.star.awt.UnoControlEditModel", "com.sun.star.awt.UnoControlEdit",
               {"MultiLine": True, "ReadOnly": True, "VScroll": True})
    t_edit_create = time.perf_counter() - t0
    edit.setPosSize(0, 350, WIDTH, 340, 15)
    cont.setVisible(True)
    print("peer rich:", rich.getPeer() is not None, "edit:", edit.getPeer() is not None)
    print("create: rich %.1f ms, edit %.1f ms" % (t_rich_create*1000, t_edit_create*1000))
    m = rich.getModel()
    print("rich model has createTextCursor:", hasattr(m, "createTextCursor"))
    text = m  # the model is the text
    filler = ("x" * 99 + "\n") * 10
    t0 = time.perf_counter()
    cur = text.createTextCursor()
    for i in range(200):
        cur.gotoEnd(False)
        text.insertString(cur, filler, False)
    t_fill_rich = time.perf_counter() - t0
    time.sleep(0.5)
    rss1 = rss_kb(group)
    peer = edit.getPeer()
    t0 = time.perf_counter()
    end = 0
    for i in range(200):
        peer.insertText(uno.createUnoStruct("com.sun.star.awt.Selection", end, end), filler)
        end += len(filler)
    t_fill_edit = time.perf_counter() - t0
    time.sleep(0.5)
    rss2 = rss_kb(group)
    print("width %d px; office RSS %d MB; +%.1f MB after the rich fill, +%.1f MB after the "
          "Edit's" % (WIDTH, rss0 // 1024, (rss1 - rss0) / 1024.0, (rss2 - rss1) / 1024.0))
    print("fill 200 KB in 200 appends: rich %.0f ms, edit %.0f ms"
          % (t_fill_rich*1000, t_fill_edit*1000))
    # per streamed update: 40 chars, bold run every 5th
    N = 100
    t0 = time.perf_counter()
    for i in range(N):
        cur.gotoEnd(False)
        text.insertString(cur, "word " * 8, False)
    t_rich = (time.perf_counter() - t0) / N
    t0 = time.perf_counter()
    for i in range(N):
        cur.gotoEnd(False)
        cur.setPropertyValue("CharWeight", 150.0)
        text.insertString(cur, "bold " * 8, False)
        cur.setPropertyValue("CharWeight", 100.0)
    t_rich_b = (time.perf_counter() - t0) / N
    t0 = time.perf_counter()
    for i in range(N):
        peer.insertText(uno.createUnoStruct("com.sun.star.awt.Selection", end, end), "word " * 8)
        end += 40
        peer.setSelection(uno.createUnoStruct("com.sun.star.awt.Selection", end, end))
    t_edit = (time.perf_counter() - t0) / N
    # bridge round trip floor
    t0 = time.perf_counter()
    for i in range(N):
        peer.getSelection()
    t_rt = (time.perf_counter() - t0) / N
    print("per update at 200 KB (wall, incl. bridge): rich plain %.2f ms, rich bold %.2f ms, "
          "edit %.2f ms; one bridge call %.2f ms" % (t_rich*1000, t_rich_b*1000, t_edit*1000,
                                                    t_rt*1000))
    print("ratios to the Edit: fill %.1f, plain update %.1f, bold update %.1f"
          % (t_fill_rich / t_fill_edit, t_rich / t_edit, t_rich_b / t_edit))
    # A chat-shaped rich fill: 200 KB in 200 messages, each a bold coloured role line,
    # prose and a monospace code paragraph (what a reopened chat would draw).
    text.setString("")
    prose = ("word " * 19 + "\n") * 8
    code = ("    code = line(%d)\n" % 1) * 4
    t0 = time.perf_counter()
    for i in range(200):
        cur.gotoEnd(False)
        cur.setPropertyValue("CharWeight", 150.0)
        cur.setPropertyValue("CharColor", 0x1A5FB4)
        text.insertString(cur, "Assistant\n", False)
        cur.setPropertyValue("CharWeight", 100.0)
        cur.setPropertyValue("CharColor", -1)
        text.insertString(cur, prose * 1, False)
        cur.setPropertyValue("CharFontName", "DejaVu Sans Mono")
        text.insertString(cur, code, False)
        cur.setPropertyValue("CharFontName", "DejaVu Sans")
        text.insertString(cur, ("y" * 99 + "\n") * 1, False)
    t_fill_fmt = time.perf_counter() - t0
    print("rich chat-shaped fill (%d KB, 4 property sets per message): %.0f ms, %.1fx the "
          "Edit's plain fill" % (len(text.getString()) // 1024, t_fill_fmt * 1000,
                                 t_fill_fmt / t_fill_edit))
    t0 = time.perf_counter()
    for i in range(N):
        cur.gotoEnd(False)
        cur.setPropertyValue("CharWeight", 150.0)
        text.insertString(cur, "bold " * 8, False)
        cur.setPropertyValue("CharWeight", 100.0)
    t_rich_f = (time.perf_counter() - t0) / N
    print("rich bold update after the chat-shaped fill: %.2f ms (%.1fx the Edit)"
          % (t_rich_f * 1000, t_rich_f / t_edit))
    rss3 = rss_kb(group)
    print("office RSS after the chat-shaped fill: +%.1f MB over the start"
          % ((rss3 - rss0) / 1024.0))
    # What each would show: one chat (a heading, a table, code, an Arabic message after an
    # English one) as the renderer lays it out for the Edit, and in the rich control with
    # what only it can do: bold coloured role lines, monospace code, Arabic paragraphs
    # right to left and right-aligned while the English stay left (per paragraph).
    from marginalia.events import Event
    from marginalia.ui.answer_format import CODE
    from marginalia.ui.bidi import first_strong
    from marginalia.ui.transcript import TranscriptRenderer
    sample = ("## Costs for the spring quarter\n\nCosts rose a little.\n\n"
              "| Item | Owner | Cost |\n|---|---|---|\n| Rent | Alice | 1,200 |\n"
              "| Paper | Bob | 80 |\n\n```python\ntotal = sum(costs)\n```\nDone.")
    arabic = ("\u0627\u0631\u062a\u0641\u0639\u062a "
              "\u0627\u0644\u062a\u0643\u0627\u0644\u064a\u0641.")
    chat = TranscriptRenderer().render([
        ("user", "Sum up the costs"), ("event", Event("text", text=sample)),
        ("event", Event("done", finish_reason="stop")),
        ("user", "\u0644\u062e\u0635 \u0627\u0644\u062a\u0643\u0627\u0644\u064a\u0641"),
        ("event", Event("text", text=arabic)),
        ("event", Event("done", finish_reason="stop"))]).chat
    edit.getPeer().setText(chat)
    text.setString("")
    cur = text.createTextCursor()
    for number, line in enumerate(chat.rstrip("\n").split("\n")):
        role = line.startswith("You:") or line == "Assistant:"
        rtl = bool(first_strong(line.replace("You:", "")))
        cur.gotoEnd(False)
        if number:
            text.insertControlCharacter(cur, 0, False)        # PARAGRAPH_BREAK
        cur.setPropertyValue("CharHeight", 9.0)
        cur.setPropertyValue("CharWeight", 150.0 if role else 100.0)
        cur.setPropertyValue("CharColor", (0x1A5FB4 if line == "Assistant:" else 0x26A269)
                             if role else 0x000000)
        cur.setPropertyValue("CharFontName", "DejaVu Sans Mono" if line.startswith(CODE)
                             else "DejaVu Sans")
        cur.setPropertyValue("ParaAdjust", 1 if rtl else 0)   # RIGHT, LEFT
        cur.setPropertyValue("WritingMode", 1 if rtl else 0)  # RL_TB, LR_TB
        text.insertString(cur, line, False)
    # Side by side and full height for the screenshot: the rich control left, the Edit right.
    cont.setPosSize(790, 100, 2 * WIDTH + 10, 700, 15)
    rich.setPosSize(0, 0, WIDTH, 690, 15)
    edit.setPosSize(WIDTH + 10, 0, WIDTH, 690, 15)
    time.sleep(1)
    os.makedirs(os.path.join(ROOT, "tests", "artifacts"), exist_ok=True)
    shot = os.path.join(ROOT, "tests", "artifacts", "answer_controls.png")
    subprocess.run(["import", "-display", h.display, "-window", "root", shot])
    print("screenshot: %s (the rich control left, the Edit right)" % shot)
    # accessibility of rich control
    try:
        acc = rich.getPeer().getAccessibleContext()
        print("rich control's accessible role %d (51: scroll pane, like the 7.4 Edit), %d children"
              % (acc.getAccessibleRole(), acc.getAccessibleChildCount()))
        # What a port of the pane would lean on: the follow logic reads the scroll bar
        # (role 49) and keeps the selection through the peer's XTextComponent.
        roles = [acc.getAccessibleChild(i).getAccessibleContext().getAccessibleRole()
                 for i in range(acc.getAccessibleChildCount())]
        print("its children's roles (40 panel, 50 scroll bar):", roles)
        print("rich peer has insertText/getSelection:",
              hasattr(rich.getPeer(), "insertText"), hasattr(rich.getPeer(), "getSelection"))
    except Exception as exc:
        print("rich control's accessibility: %s" % exc)
finally:
    h.stop()

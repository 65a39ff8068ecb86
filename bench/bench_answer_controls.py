"""Which control shows answers: the rich-text form control or the multi-line Edit (issue 13).

    .venv/bin/python bench/bench_answer_controls.py      (needs Xvfb)

Both controls are built in one container in a Writer window of a private
office, filled with 200 KB in 200 appends, then given 100 streamed updates
of 40 characters: plain for both, and for the rich control also with a bold
run set through its text API (what formatted answers would need). Times are
wall time seen from this process, one UNO bridge call included per call
(measured too): the ratios against the Edit are what count. A screenshot is
saved in tests/artifacts/answer_controls.png.
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
from tests.support.office import OfficeHarness

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
    cont.setPosSize(800, 100, 360, 700, 15)
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
    rich.setPosSize(0, 0, 360, 340, 15)
    t0 = time.perf_counter()
    edit = add("edit", "com.sun.star.awt.UnoControlEditModel", "com.sun.star.awt.UnoControlEdit",
               {"MultiLine": True, "ReadOnly": True, "VScroll": True})
    t_edit_create = time.perf_counter() - t0
    edit.setPosSize(0, 350, 360, 340, 15)
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
    peer = edit.getPeer()
    t0 = time.perf_counter()
    end = 0
    for i in range(200):
        peer.insertText(uno.createUnoStruct("com.sun.star.awt.Selection", end, end), filler)
        end += len(filler)
    t_fill_edit = time.perf_counter() - t0
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
    time.sleep(1)
    os.makedirs(os.path.join(ROOT, "tests", "artifacts"), exist_ok=True)
    shot = os.path.join(ROOT, "tests", "artifacts", "answer_controls.png")
    subprocess.run(["import", "-display", h.display, "-window", "root", shot])
    # accessibility of rich control
    try:
        acc = rich.getPeer().getAccessibleContext()
        print("rich control's accessible role %d (51: scroll pane, like the 7.4 Edit), %d children"
              % (acc.getAccessibleRole(), acc.getAccessibleChildCount()))
    except Exception as exc:
        print("rich control's accessibility: %s" % exc)
finally:
    h.stop()

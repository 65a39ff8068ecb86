"""The pure tier needs no LibreOffice: every pure module imports in an interpreter that has
no UNO bridge at all (python -I -S: no site-packages, where Debian's python3-uno lives),
and importing them all loads nothing of the office side. test_boundaries reads the imports
from the source; this runs them, so an import the reading cannot see (a computed name, a
module that imports the bridge at its top through a path the graph misses) fails here."""

import json
import os
import subprocess
import sys

from tests.core.test_boundaries import PURE, ROOT, _matches, build_graph

PROBE = r"""
import importlib, json, sys
sys.path[:0] = %(paths)r
try:
    import uno  # noqa: F401
    bridge = True
except ImportError:
    bridge = False
failed = {}
for name in %(names)r:
    try:
        importlib.import_module(name)
    except Exception as exc:
        failed[name] = "%%s: %%s" %% (type(exc).__name__, exc)
office_side = sorted(m for m in sys.modules if m in ("uno", "unohelper", "pyuno")
                     or m.startswith(("com.sun.star", "marginalia.office", "marginalia.writer",
                                      "marginalia.cli")))
print(json.dumps({"bridge": bridge, "failed": failed, "office_side": office_side,
                  "count": len(%(names)r)}))
"""


def test_every_pure_module_imports_without_the_uno_bridge():
    names = sorted(m for m in build_graph().modules if _matches(m, PURE))
    assert len(names) > 100, names           # the whole pure tier, not a handful
    paths = [os.path.join(ROOT, "pythonpath"), os.path.join(ROOT, "vendor")]
    out = subprocess.run([sys.executable, "-I", "-S", "-c", PROBE % {"paths": paths,
                                                                     "names": names}],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found["bridge"] is False, "the probe's interpreter still has the UNO bridge"
    assert found["failed"] == {}, found["failed"]
    assert found["office_side"] == [], found["office_side"]
    assert found["count"] == len(names)

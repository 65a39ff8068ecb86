"""Code outside the office never holds a tracked change's object (read from the source).

Writer's object for a tracked change (SwXRedline) is destroyed without the office's
lock (its destructor takes none, 7.4 to 25.x) while it listens to the document's
default page style. A proxy that a test or the runner lets go over the bridge is
destroyed on a bridge thread, racing Writer's broadcasts to those listeners: it
aborted the office once in a full run (issue 37). Outside the office, the tracked
changes are counted (getCount, which makes no such object) or read through the
office (tests/support/writer.tracked_changes, the writer.redlines job); inside it,
on the main thread, a released proxy goes at once, under the lock.
"""

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUTSIDE = [os.path.join(ROOT, "tests"), os.path.join(ROOT, "bench"),
           os.path.join(ROOT, "pythonpath", "marginalia", "cli"),
           os.path.join(ROOT, "pythonpath", "marginalia", "eval")]
# The test-only extension's code runs inside the office, like the product's (writer.redlines).
INSIDE = os.path.join(ROOT, "tests", "extension")
# The collection, then anything but a count.
_USE = re.compile(r"(?:getRedlines\(\)|\.Redlines\b)(?!\s*\.\s*getCount\(\))")


def uses(text):
    """The lines of ``text`` that reach the tracked changes other than by counting."""
    return [n for n, line in enumerate(text.splitlines(), 1)
            if _USE.search(line) and not line.lstrip().startswith("#")]


def test_outside_code_only_counts_tracked_changes():
    found = []
    for top in OUTSIDE:
        for folder, _dirs, files in os.walk(top):
            if folder == INSIDE or folder.startswith(INSIDE + os.sep):
                continue
            for name in files:
                if name.endswith(".py") and name != os.path.basename(__file__):
                    path = os.path.join(folder, name)
                    with open(path, encoding="utf-8") as handle:
                        found += ["%s:%d" % (os.path.relpath(path, ROOT), n)
                                  for n in uses(handle.read())]
    assert found == [], "read tracked changes through tracked_changes(): %s" % found


def test_the_rule_sees_each_way_in():
    assert uses("reds = doc.getRedlines()\nred = reds.getByIndex(0)") == [1]
    assert uses("for r in doc.Redlines.createEnumeration(): pass") == [1]
    assert uses("n = doc.getRedlines().getCount()\nm = doc.Redlines . getCount()") == []

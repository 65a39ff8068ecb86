"""The suite's own layout: what would stop `python3 build.py test` before any test ran.

The test folders are not packages, so pytest imports each test file by its basename: two
files of one name in two tiers (tests/core and tests/office both had
test_line_direction.py) stop the whole collection with an import mismatch, and CI ran no
test at all.
"""

import collections
import os

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_no_two_test_files_share_a_name():
    where = collections.defaultdict(list)
    for folder, dirs, files in os.walk(TESTS):
        dirs[:] = [d for d in dirs if d not in ("__pycache__", "artifacts")]
        for name in files:
            if name.startswith("test_") and name.endswith(".py"):
                where[name].append(os.path.relpath(folder, TESTS))
    shared = {name: folders for name, folders in where.items() if len(folders) > 1}
    assert len(where) > 100          # the walk found the suite
    assert shared == {}, "rename one of each: %s" % shared

"""Commands run where LibreOffice's folder for extensions installed for every user is an empty
one of their own: a private mount namespace with a tmpfs over it.

So ``build.py install --shared`` and ``uninstall --shared`` run exactly as an
administrator runs them (unopkg with its default paths, as root), and whatever
they write stays in the tmpfs, gone with the namespace: the machine's own
LibreOffice is untouched. (tests/support/shared_install.py points LibreOffice at
another folder instead, by an -env: argument; the commands tested here take none.)

    unshare --mount [--map-root-user] PYTHON -m tests.support.private_shared STEPS RESULTS
"""

import json
import os
import subprocess
import sys
from typing import Any, Dict, List

from marginalia.cli.office_process import find_soffice


def shared_folder() -> str:
    """The folder unopkg --shared writes: $UNO_SHARED_PACKAGES (lounorc), the brand's
    share/uno_packages; its cache/ is a link to /var/spool/libreoffice on Debian."""
    program = os.path.dirname(os.path.realpath(find_soffice()))
    return os.path.join(os.path.dirname(program), "share", "uno_packages")


def snapshot(folder: str) -> List[str]:
    """Every path under ``folder`` (links followed), to show it unchanged afterwards."""
    out = []
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=True):
        out.extend(os.path.join(dirpath, name) for name in sorted(dirnames + filenames))
    return sorted(out)


def run(steps: List[Dict[str, Any]], folder: str) -> Dict[str, Dict[str, Any]]:
    """``steps`` ({"name", "argv", "env"}) one after the other in a private namespace;
    {name: {"rc", "stdout", "stderr"}}. Root unshares the mount namespace; anyone else
    a user namespace too (root inside it), where the kernel allows one."""
    steps_path = os.path.join(folder, "steps.json")
    results_path = os.path.join(folder, "results.json")
    with open(steps_path, "w", encoding="utf-8") as fh:
        json.dump(steps, fh)
    unshare = ["unshare", "--mount", "--propagation", "private"]
    if os.geteuid() != 0:
        unshare.append("--map-root-user")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    done = subprocess.run(unshare + [sys.executable, "-m", "tests.support.private_shared",
                                     steps_path, results_path],
                          cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, timeout=900)
    if done.returncode:
        raise AssertionError("the private namespace failed:\n%s" % done.stdout[-3000:])
    with open(results_path, encoding="utf-8") as fh:
        return json.load(fh)


def _inside(steps_path: str, results_path: str) -> None:
    folder = shared_folder()
    subprocess.run(["mount", "-t", "tmpfs", "marginalia-test", folder], check=True)
    os.mkdir(os.path.join(folder, "cache"))
    with open(steps_path, encoding="utf-8") as fh:
        steps = json.load(fh)
    results = {}
    for step in steps:
        done = subprocess.run(step["argv"], env=step["env"], cwd=step.get("cwd"),
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True, timeout=300)
        results[step["name"]] = {"rc": done.returncode, "stdout": done.stdout,
                                 "stderr": done.stderr}
    with open(results_path, "w", encoding="utf-8") as fh:
        json.dump(results, fh)


if __name__ == "__main__":
    _inside(sys.argv[1], sys.argv[2])

"""`build.py install --shared` as docs/ADMIN.md says, then the runner, a user's own install and
`build.py uninstall --shared`, each as an administrator or user runs it (issue 37, 5).

All in a private mount namespace whose folder for extensions installed for every
user is an empty tmpfs (tests/support/private_shared.py): the machine's own
LibreOffice is untouched, which the test checks too.
"""

import json
import os
import sys
import zipfile

from marginalia.cli.office_process import find_soffice, office_env
from tests.office.test_headless import fox_odt  # noqa: F401  (a fixture)
from tests.support import private_shared
from tests.support.sse_server import ScriptedServer, text_response, tool_calls_response

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _step(name, argv, home, **extra):
    # A clean environment, as an administrator's shell: no test PYTHONPATH, no pyenv, and
    # a home of its own (unopkg's and the per-user install's profiles go there).
    env = office_env(os.environ)
    env.pop("XDG_CONFIG_HOME", None)
    env.update(HOME=home, **extra)
    return {"name": name, "argv": argv, "env": env, "cwd": ROOT}


def _unopkg():
    return os.path.join(os.path.dirname(os.path.realpath(find_soffice())), "unopkg")


def test_installed_for_every_user_the_runner_uses_it_and_uninstall_removes_it(fox_odt,
                                                                              tmp_path):
    real = private_shared.snapshot(private_shared.shared_folder())
    home = str(tmp_path / "home")
    os.makedirs(home)
    build = [sys.executable, os.path.join(ROOT, "build.py")]
    out_path = str(tmp_path / "out.odt")
    script = [tool_calls_response([("call_1", "replace_text",
                                    {"search": "fox", "replacement": "cat", "all": True})]),
              text_response("Replaced both foxes.")]
    with ScriptedServer(script) as srv:
        results = private_shared.run([
            _step("install", build + ["install", "--shared"], home),
            _step("listed", [_unopkg(), "list", "--shared"], home),
            _step("runner", [sys.executable, "-m", "marginalia.cli.headless", fox_odt,
                             "--message", "Replace fox with cat everywhere",
                             "--output", out_path, "--endpoint", srv.url, "--model", "m",
                             "--edit-protocol", "tools"], home,
                  PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "pythonpath"),
                                              os.path.join(ROOT, "vendor")])),
            _step("user install", build + ["install"], home),
            _step("uninstall", build + ["uninstall", "--shared"], home),
            _step("listed after", [_unopkg(), "list", "--shared"], home),
            _step("uninstall again", build + ["uninstall", "--shared"], home),
        ], str(tmp_path))

    install = results["install"]
    assert install["rc"] == 0, install["stderr"]
    assert "marginalia.oxt for every user" in install["stdout"]
    assert "org.marginalia.writer" in results["listed"]["stdout"]

    # The runner takes the shared Marginalia (it added its own copy and failed before).
    runner = results["runner"]
    assert runner["rc"] == 0, runner["stderr"]
    assert runner["stderr"] == ""             # the same version: nothing to note
    lines = [json.loads(line) for line in runner["stdout"].splitlines() if line.strip()]
    assert [line["ok"] for line in lines if line["type"] == "tool_result"] == [True]
    with zipfile.ZipFile(out_path) as zf:
        content = zf.read("content.xml").decode("utf-8")
    assert "The quick brown cat jumps." in content and "fox" not in content

    # A user's own copy beside the shared one cannot work: said as it is, not blamed on
    # the file ("it is not a usable extension file").
    user = results["user install"]
    assert user["rc"] == 1
    assert "is already installed for every user of this machine" in user["stderr"]
    assert "usable" not in user["stderr"] and "Traceback" not in user["stderr"]

    uninstall = results["uninstall"]
    assert uninstall["rc"] == 0, uninstall["stderr"]
    assert "removed Marginalia for every user" in uninstall["stdout"]
    assert "org.marginalia.writer" not in results["listed after"]["stdout"]
    again = results["uninstall again"]
    assert again["rc"] == 0 and "nothing to remove" in again["stdout"]

    assert private_shared.snapshot(private_shared.shared_folder()) == real

"""End to end: `python3 -m marginalia.cli.headless` against real documents and a scripted server.

The runner starts its own office and installs the built .oxt; the `office`
fixture (a second, independent office) only creates the input documents and
inspects what the runner saved.
"""

import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from marginalia.cli import interrupt
from marginalia.cli.doclock import lock_path
from tests.support.office import Office, paragraph_texts, paragraphs, props
from tests.support.sse_server import (ScriptedServer, error_response, sse_body, text_delta,
                                      text_response, tool_call_delta, tool_calls_response,
                                      usage)
from tests.support.writer import accept_all, tracked_changes

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _env(**extra):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "pythonpath"),
                                         os.path.join(ROOT, "vendor")])
    for name in ("MARGINALIA_ENDPOINT", "MARGINALIA_MODEL", "MARGINALIA_API_KEY"):
        env.pop(name, None)
    env.update(extra)
    return env


def run_headless(*args, env=None, timeout=180):
    return subprocess.run([sys.executable, "-m", "marginalia.cli.headless"] + list(args),
                          cwd=ROOT, env=env or _env(), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=timeout)


def events(stdout):
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


@pytest.fixture
def fox_odt(office, tmp_path):
    """An .odt with a heading and two paragraphs mentioning a fox."""
    doc = office.new_writer()
    text = doc.Text
    cursor = text.createTextCursor()
    text.insertString(cursor, "Animals", False)
    cursor.ParaStyleName = "Heading 1"
    text.insertControlCharacter(cursor, 0, False)  # PARAGRAPH_BREAK
    cursor.ParaStyleName = "Text body"   # programmatic name: 25.x refuses "Text Body"
    text.insertString(cursor, "The quick brown fox jumps.", False)
    text.insertControlCharacter(cursor, 0, False)
    text.insertString(cursor, "A fox is clever.", False)
    path = str(tmp_path / "fox.odt")
    import uno
    doc.storeToURL(uno.systemPathToFileUrl(path), props(FilterName="writer8"))
    office.close(doc)
    return path


def test_turn_edits_and_saves_odt_with_tracked_changes(office, fox_odt, tmp_path):
    out_path = str(tmp_path / "out.odt")
    script = [
        tool_calls_response([("call_1", "replace_text",
                              {"search": "fox", "replacement": "cat", "all": True})],
                            reasoning="The user wants cats.", usage=usage(100, 10)),
        text_response("Replaced both foxes.", usage=usage(150, 8)),
    ]
    with ScriptedServer(script) as srv:
        done = run_headless(fox_odt, "--message", "Replace fox with cat everywhere",
                            "--output", out_path, "--endpoint", srv.url,
                            "--model", "test-model", "--track-changes",
                            "--edit-protocol", "tools")
        requests = srv.chat_requests
    assert done.returncode == 0, done.stderr
    lines = events(done.stdout)
    kinds = [line["type"] for line in lines]
    assert kinds[-1] == "done"
    assert "reasoning" in kinds and "text" in kinds
    call = next(line for line in lines if line["type"] == "tool_call")
    assert call["name"] == "replace_text" and call["id"] == "call_1"
    assert json.loads(call["arguments"])["replacement"] == "cat"
    result = next(line for line in lines if line["type"] == "tool_result")
    assert result["ok"] is True and result["id"] == "call_1"
    assert "".join(line["text"] for line in lines if line["type"] == "text") == \
        "Replaced both foxes."
    usage_line = [line for line in lines if line["type"] == "usage"][-1]
    assert usage_line["total_tokens"] == 268
    # The second request carried the tool result paired with the call id.
    tool_msgs = [m for m in requests[1].json["messages"] if m["role"] == "tool"]
    assert tool_msgs and tool_msgs[0]["tool_call_id"] == "call_1"

    doc = office.load(out_path)
    try:
        doc.RecordChanges = False
        changes = tracked_changes(doc)
        assert len(changes) >= 2
        authors = set(red["author"] for red in changes)
        assert any("Marginalia" in a for a in authors), authors
        # Accepting every change gives the edited text.
        accept_all(office, doc)
        texts = paragraph_texts(doc)
        assert texts[0] == "Animals"
        assert texts[1:] == ["The quick brown cat jumps.", "A cat is clever."]
    finally:
        office.close(doc)


def test_markdown_insert_saved_as_docx(office, fox_odt, tmp_path):
    """The rewrite protocol, the runner's default: the model writes the lines it adds
    after the last one, in an edit block amid its answer; the turn ends with the edit."""
    out_path = str(tmp_path / "out.docx")
    script = [
        text_response("A section on habits:\n```edit\n3: A fox is clever.\n## Habits\n"
                      "Foxes **hunt** at night.\n```"),
    ]
    with ScriptedServer(script) as srv:
        done = run_headless(fox_odt, "--message", "Add a section on habits",
                            "--output", out_path, "--endpoint", srv.url,
                            env=_env(MARGINALIA_MODEL="test-model"))
    assert done.returncode == 0, done.stderr
    doc = office.load(out_path)
    try:
        paras = paragraphs(doc)
        assert [p.getString() for p in paras][-2:] == ["Habits", "Foxes hunt at night."]
        assert paras[-2].ParaStyleName.replace(" ", "") in ("Heading2", "heading2")
        portions = paras[-1].createEnumeration()
        bold = []
        while portions.hasMoreElements():
            portion = portions.nextElement()
            if portion.getString():
                bold.append((portion.getString(), portion.CharWeight > 100))
        assert ("hunt", True) in bold
        assert all(not b for s, b in bold if s != "hunt")
    finally:
        office.close(doc)


def _replace_fox(fox_odt, out_path, *extra):
    script = [tool_calls_response([("c1", "replace_text",
                                    {"search": "fox", "replacement": "cat", "all": True})]),
              text_response("Done.")]
    with ScriptedServer(script) as srv:
        return run_headless(fox_odt, "--message", "cats", "--output", out_path,
                            "--endpoint", srv.url, "--model", "m", *extra)


def test_two_runs_on_the_same_document_leave_no_lock(office, fox_odt, tmp_path):
    for n in (1, 2):
        out_path = str(tmp_path / ("run%d.odt" % n))
        done = _replace_fox(fox_odt, out_path)
        assert done.returncode == 0, done.stderr
        assert not os.path.exists(lock_path(fox_odt)), "run %d left the lock file" % n
        doc = office.load(out_path)
        try:
            assert paragraph_texts(doc)[1:] == ["The quick brown cat jumps.", "A cat is clever."]
        finally:
            office.close(doc)
    assert sorted(os.listdir(str(tmp_path))) == ["fox.odt", "run1.odt", "run2.odt"]


def test_a_failed_run_leaves_no_lock(fox_odt, tmp_path):
    with ScriptedServer([error_response(401, "Incorrect API key provided")]) as srv:
        done = run_headless(fox_odt, "--message", "hi", "--output", str(tmp_path / "o.odt"),
                            "--endpoint", srv.url, "--model", "m")
    assert done.returncode == 1
    assert not os.path.exists(lock_path(fox_odt))


def test_a_document_open_in_another_office_is_named_and_ignore_lock_works_on_a_copy(
        fox_odt, tmp_path):
    with open(fox_odt, "rb") as fh:
        original = fh.read()
    holder = Office()  # another LibreOffice on its own profile has the document open
    with holder:
        doc = holder.load(fox_odt, hidden=True)
        assert os.path.exists(lock_path(fox_odt))
        refused = _replace_fox(fox_odt, str(tmp_path / "refused.odt"))
        assert refused.returncode == 1
        sentence = _one_sentence(refused)
        assert sentence.startswith("fox.odt is open in LibreOffice by ")
        assert " on %s since " % socket.gethostname() in sentence
        assert "--ignore-lock" in sentence
        assert not os.path.exists(str(tmp_path / "refused.odt"))

        out_path = str(tmp_path / "copy.odt")
        done = _replace_fox(fox_odt, out_path, "--ignore-lock")
        assert done.returncode == 0, done.stderr
        assert os.path.exists(out_path)
        # The holder's lock and the original stay as they were.
        assert os.path.exists(lock_path(fox_odt))
        with open(fox_odt, "rb") as fh:
            assert fh.read() == original
        holder.close(doc)
    assert not os.path.exists(lock_path(fox_odt))


def test_a_stale_lock_from_an_office_that_is_gone_is_cleared(office, fox_odt, tmp_path):
    gone = tmp_path / "gone-profile"
    with open(lock_path(fox_odt), "w") as fh:
        fh.write(",someone,%s,01.01.2026 10:00,%s;" % (socket.gethostname(), gone.as_uri()))
    out_path = str(tmp_path / "o.odt")
    done = _replace_fox(fox_odt, out_path)
    assert done.returncode == 0, done.stderr
    assert os.path.exists(out_path) and not os.path.exists(lock_path(fox_odt))


def test_failing_endpoint_exits_with_one_sentence(fox_odt, tmp_path):
    out_path = str(tmp_path / "never.odt")
    with ScriptedServer([error_response(401, "Incorrect API key provided: sk-...abc")]) as srv:
        done = run_headless(fox_odt, "--message", "hello", "--output", out_path,
                            "--endpoint", srv.url, "--model", "test-model",
                            "--api-key-env", "MY_KEY", env=_env(MY_KEY="sk-secret-123"))
        auth = srv.chat_requests[0].headers.get("authorization")
    assert auth == "Bearer sk-secret-123"
    assert done.returncode == 1
    message = done.stderr.strip()
    assert len(message.splitlines()) == 1 and "key" in message.lower()
    assert "sk-secret-123" not in done.stderr + done.stdout
    assert "Traceback" not in done.stderr
    assert any(e["type"] == "error" for e in events(done.stdout))
    assert not os.path.exists(out_path)


CUT_SENTENCE = "The connection to the server closed before the answer finished."


def _cut_run(fox_odt, tmp_path, script, *args):
    out_path = str(tmp_path / "cut.odt")
    with ScriptedServer(script) as srv:
        done = run_headless(fox_odt, "--message", "Tighten the text", "--output", out_path,
                            "--endpoint", srv.url, "--model", "test-model", *args)
        asked = len(srv.chat_requests)
    return done, events(done.stdout), out_path, asked


def test_an_answer_the_server_cut_after_whole_events_fails_the_run(fox_odt, tmp_path):
    # Whole events, then a plain close: no finish reason, no [DONE].
    script = [{"body": sse_body([text_delta("A reader can try to s")], done=False),
               "split": [5, 9], "delay": 0.01}]
    done, lines, out_path, _ = _cut_run(fox_odt, tmp_path, script)
    assert done.returncode == 1, done.stdout
    assert [line["message"] for line in lines if line["type"] == "error"] == [CUT_SENTENCE]
    assert "".join(line["text"] for line in lines if line["type"] == "text") == \
        "A reader can try to s"                    # what came is kept
    assert done.stderr.strip() == CUT_SENTENCE and "Traceback" not in done.stderr
    assert not os.path.exists(out_path)


def test_a_cut_inside_the_second_call_runs_neither_and_fails_the_run(fox_odt, tmp_path):
    script = [{"body": sse_body([
        tool_call_delta(0, id="a", name="replace_text",
                        arguments='{"search": "fox", "replacement": "cat", "all": true}'),
        tool_call_delta(1, id="b", name="replace_text", arguments='{"search": "cl')],
        done=False)}]
    done, lines, out_path, asked = _cut_run(fox_odt, tmp_path, script,
                                            "--edit-protocol", "tools")
    assert done.returncode == 1
    assert not [line for line in lines if line["type"] in ("tool_call", "tool_result")]
    assert [line["message"] for line in lines if line["type"] == "error"] == [CUT_SENTENCE]
    assert asked == 1 and not os.path.exists(out_path)


def test_missing_document_and_bad_output(tmp_path):
    done = run_headless(str(tmp_path / "missing.odt"), "--message", "x", "--output",
                        str(tmp_path / "o.odt"), "--model", "m")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "The document %s does not exist or cannot be read." % (tmp_path / "missing.odt")]
    done = run_headless(__file__, "--message", "x", "--output", str(tmp_path / "o.txt"),
                        "--model", "m")
    assert done.returncode == 2 and "must end in .odt, .docx or .pdf" in done.stderr


def _office_pids(marker):
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                cmd = open("/proc/%s/cmdline" % pid, "rb").read()
            except OSError:
                continue
            if b"soffice" in cmd and marker in cmd:
                found.append(int(pid))
    return found


def _descendants(root):
    """The pids of every process below ``root`` (from /proc's parent links)."""
    parents = {}
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                stat = open("/proc/%s/stat" % pid, "rb").read()
            except OSError:
                continue
            # "pid (name) state ppid ...": the name may hold spaces, so split after ")".
            parents[int(pid)] = int(stat.rsplit(b")", 1)[1].split()[1])
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _ctrl_c_as_in_a_terminal():
    """The runner's SIGINT as a terminal gives it. A suite started in the background by a
    shell without job control ignores SIGINT, its children inherit that, and Python then
    leaves Ctrl+C ignored: both interrupt tests waited 60 s for nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupted(fox_odt, tmp_path, before_interrupt=None):
    """Start a turn the scripted server stalls, Ctrl+C the runner once it streams;
    returns (seconds to end, its stderr, its office's pids, its exit code)."""
    script = [{"status": 200, "headers": {"Content-Type": "text/event-stream"},
               "body": ['data: {"choices":[{"index":0,"delta":{"reasoning":"Thinking"}}]}\n\n',
                        {"sleep": 60}]}]
    with ScriptedServer(script) as srv:
        proc = subprocess.Popen(
            [sys.executable, "-m", "marginalia.cli.headless", fox_odt, "--message", "hi",
             "--output", str(tmp_path / "o.odt"), "--endpoint", srv.url, "--model", "m"],
            cwd=ROOT, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            universal_newlines=True, preexec_fn=_ctrl_c_as_in_a_terminal)
        first = proc.stdout.readline()  # the first streamed event: the turn is running
        assert json.loads(first)["type"] == "reasoning"
        # Only the runner's own offices: other offices on the machine come and go.
        offices = set(_office_pids(b"port=")) & _descendants(proc.pid)
        assert offices, "the runner's office should be running"
        if before_interrupt is not None:
            before_interrupt(offices)
        started = time.time()
        proc.send_signal(signal.SIGINT)
        try:
            _out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            _out, err = proc.communicate()
            for pid in offices:     # a frozen office left behind would outlive the suite
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            raise AssertionError("the runner did not end within 60 s of Ctrl+C; it said:\n%s"
                                 % err[-3000:])
    return time.time() - started, err, offices, proc.returncode


def _ended_cleanly(fox_odt, tmp_path, offices, err):
    assert "Stopped" in err and "Traceback" not in err
    assert not (offices & set(_office_pids(b"port=")))
    assert not os.path.exists(str(tmp_path / "o.odt"))
    assert not os.path.exists(lock_path(fox_odt))


def test_interrupt_ends_the_office(fox_odt, tmp_path):
    took, err, offices, code = _interrupted(fox_odt, tmp_path)
    assert code == 130
    _ended_cleanly(fox_odt, tmp_path, offices, err)
    assert took < 30


def test_interrupt_ends_the_run_while_the_office_does_not_answer(fox_odt, tmp_path):
    """An office that stops answering (here: SIGSTOP) holds the runner's main thread in a
    UNO call, where Python never sees the KeyboardInterrupt: the runner still ends, its
    office ended and its lock file gone, once interrupt.GRACE has passed (and not before: the usual way out goes first)."""
    def freeze(offices):
        for pid in offices:
            os.kill(pid, signal.SIGSTOP)
    took, err, offices, code = _interrupted(fox_odt, tmp_path, freeze)
    assert code == 130
    _ended_cleanly(fox_odt, tmp_path, offices, err)
    assert err.count("Stopped") == 1, err
    assert interrupt.GRACE - 1 < took < 45, took


def _marked_offices(mark):
    """soffice processes started with MARGINALIA_TEST_MARK=mark in their environment."""
    found = []
    for pid in _office_pids(b"soffice"):
        try:
            environ = open("/proc/%d/environ" % pid, "rb").read()
        except OSError:
            continue
        if b"MARGINALIA_TEST_MARK=" + mark.encode() in environ.split(b"\0"):
            found.append(pid)
    return found


def _one_sentence(done):
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr and "com.sun.star" not in done.stderr
    return lines[0]


def test_unusable_extension_file_is_one_sentence_and_the_office_ends(fox_odt, tmp_path):
    bad = tmp_path / "broken.oxt"
    bad.write_bytes(b"this is not a zip file")
    out_path = str(tmp_path / "o.odt")
    done = run_headless(fox_odt, "--message", "hi", "--output", out_path, "--model", "m",
                        "--oxt", str(bad), env=_env(MARGINALIA_TEST_MARK=str(tmp_path)))
    assert done.returncode == 1
    assert "broken.oxt" in _one_sentence(done)
    assert not os.path.exists(out_path)
    assert _marked_offices(str(tmp_path)) == []


def test_office_dying_mid_turn_is_one_sentence(fox_odt, tmp_path):
    script = [{"status": 200, "headers": {"Content-Type": "text/event-stream"},
               "body": ['data: {"choices":[{"index":0,"delta":{"reasoning":"Thinking"}}]}\n\n',
                        {"sleep": 60}]}]
    out_path = str(tmp_path / "o.odt")
    with ScriptedServer(script) as srv:
        proc = subprocess.Popen(
            [sys.executable, "-m", "marginalia.cli.headless", fox_odt, "--message", "hi",
             "--output", out_path, "--endpoint", srv.url, "--model", "m"],
            cwd=ROOT, env=_env(MARGINALIA_TEST_MARK=str(tmp_path)), stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, universal_newlines=True)
        assert json.loads(proc.stdout.readline())["type"] == "reasoning"
        ours = _marked_offices(str(tmp_path))
        assert ours
        for pid in ours:
            os.kill(pid, signal.SIGKILL)
        out, err = proc.communicate(timeout=60)
    done = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    assert done.returncode == 1
    assert "LibreOffice" in _one_sentence(done)
    assert not os.path.exists(out_path)


def test_python_without_uno_is_one_sentence(fox_odt, tmp_path):
    code = ("import runpy, sys; sys.modules['uno'] = None; "
            "runpy.run_module('marginalia.cli.headless', run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", code, fox_odt, "--message", "hi",
                           "--output", str(tmp_path / "o.odt"), "--model", "m"],
                          cwd=ROOT, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=60)
    assert done.returncode == 1
    assert "python3-uno" in _one_sentence(done)


def test_sigterm_during_the_interrupt_still_ends_the_office(fox_odt, tmp_path):
    script = [{"status": 200, "headers": {"Content-Type": "text/event-stream"},
               "body": ['data: {"choices":[{"index":0,"delta":{"reasoning":"Thinking"}}]}\n\n',
                        {"sleep": 60}]}]
    with ScriptedServer(script) as srv:
        proc = subprocess.Popen(
            [sys.executable, "-m", "marginalia.cli.headless", fox_odt, "--message", "hi",
             "--output", str(tmp_path / "o.odt"), "--endpoint", srv.url, "--model", "m"],
            cwd=ROOT, env=_env(MARGINALIA_TEST_MARK=str(tmp_path)), stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, universal_newlines=True)
        assert json.loads(proc.stdout.readline())["type"] == "reasoning"
        assert _marked_offices(str(tmp_path))
        proc.send_signal(signal.SIGINT)
        time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=60)
    # 143: SIGTERM landed during the clean-up; 130: after it, once main() had returned;
    # -15: later still, in interpreter shutdown, after Python put back the default handler.
    assert proc.returncode in (130, 143, -signal.SIGTERM)
    assert err.strip().splitlines() == ["Stopped; the document was not saved."]
    assert _marked_offices(str(tmp_path)) == []
    assert not os.path.exists(str(tmp_path / "o.odt"))
    assert not os.path.exists(lock_path(fox_odt))


def test_a_scripted_turn_uses_expect_after_its_own_insert(office, fox_odt, tmp_path):
    out_path = str(tmp_path / "out.odt")
    script = [
        tool_calls_response([("c1", "insert_paragraphs",
                              {"markdown": "Foxes are canids.", "after_paragraph": 1})]),
        # The old number of "The quick brown fox jumps." with what was read there.
        tool_calls_response([("c2", "delete_paragraphs",
                              {"start": 2, "end": 2, "expect": "The quick brown"})]),
        tool_calls_response([("c3", "delete_paragraphs",
                              {"start": 3, "end": 3, "expect": "the quick, brown"})]),
        text_response("Removed the sentence about jumping."),
    ]
    with ScriptedServer(script) as srv:
        done = run_headless(fox_odt, "--message", "Add a line, drop the jumping fox",
                            "--output", out_path, "--endpoint", srv.url,
                            "--model", "test-model", "--edit-protocol", "tools")
        requests = srv.chat_requests
    assert done.returncode == 0, done.stderr
    results = [line for line in events(done.stdout) if line["type"] == "tool_result"]
    assert [r["ok"] for r in results] == [True, False, True]
    tools = [m for m in requests[-1].json["messages"] if m["role"] == "tool"]
    assert "Paragraphs 2 and after are now 3 and after." in tools[0]["content"]
    assert "Paragraph 3 begins with it now." in tools[1]["content"]
    assert "Nothing was changed" in tools[1]["content"]
    assert "Paragraphs 4 and after are now 3 and after." in tools[2]["content"]
    # The model was told why to give expect.
    system = requests[0].json["messages"][0]["content"]
    assert "pass expect with the first words" in system
    schemas = {t["function"]["name"]: t["function"] for t in requests[0].json["tools"]}
    assert "expect" in schemas["delete_paragraphs"]["parameters"]["properties"]
    doc = office.load(out_path)
    try:
        assert paragraph_texts(doc) == ["Animals", "Foxes are canids.", "A fox is clever."]
    finally:
        office.close(doc)


def test_transcript_and_continue_take_up_the_documents_kept_chat(fox_odt, tmp_path):
    chats = str(tmp_path / "chats")
    first_out, second_out = str(tmp_path / "first.odt"), str(tmp_path / "second.odt")
    first_md, second_md = str(tmp_path / "first.md"), str(tmp_path / "second.md")
    with ScriptedServer([text_response("Foxes are clever.", reasoning="Easy one."),
                         text_response("Yes, the second fox too.")]) as srv:
        common = ["--endpoint", srv.url, "--model", "test-model", "--continue",
                  "--chats-dir", chats]
        done = run_headless(fox_odt, "--message", "Are foxes clever?", "--output", first_out,
                            "--transcript", first_md, *common)
        assert done.returncode == 0, done.stderr
        assert "no kept chat" in done.stderr          # a document never chatted about
        done = run_headless(first_out, "--message", "And the second one?", "--output",
                            second_out, "--transcript", second_md, *common)
        assert done.returncode == 0, done.stderr
        assert "no kept chat" not in done.stderr
        resent = srv.chat_requests[1].json["messages"]
    # The second run continued the first run's chat: the model saw it.
    assert [m["role"] for m in resent] == ["system", "user", "assistant", "user"]
    assert resent[1]["content"].endswith("Are foxes clever?")
    assert resent[2]["content"] == "Foxes are clever."
    with open(first_md, encoding="utf-8") as handle:
        first = handle.read()
    assert first.startswith("# Chat about ")
    assert "## You\n\nAre foxes clever?\n\n## Assistant\n\n> Easy one.\n\nFoxes are clever." \
        in first
    with open(second_md, encoding="utf-8") as handle:
        second = handle.read()
    assert second.index("Are foxes clever?") < second.index("And the second one?")
    assert second.rstrip().endswith("Yes, the second fox too.")
    # One document folder with one chat, now holding both turns.
    (folder,) = os.listdir(chats)
    (kept,) = os.listdir(os.path.join(chats, folder))
    with open(os.path.join(chats, folder, kept), encoding="utf-8") as handle:
        assert len(json.load(handle)["messages"]) == 4

    bad = run_headless(fox_odt, "--message", "x", "--output", first_out, "--model", "m",
                       "--chats-dir", chats)
    assert bad.returncode == 2 and "--chats-dir goes with --continue" in bad.stderr

"""The prompt library in the registry and JSON files, the context menu's registration
and content, and the commands Tools > Customize and Tools > Marginalia offer."""

import json
import time

import uno

from tests.support.sse_server import ScriptedServer, text_response
from tests.support.writer import build, find, texts

USER = [{"id": "user-1", "name": "Make it punchy", "instruction": "Make it punchy.",
         "mode": "comment", "needs_selection": True},
        {"id": "shorten", "mode": "suggest"},
        {"id": "explain", "hidden": True},
        {"id": "user-2", "name": "Title case", "instruction": "Title case: {argument}",
         "mode": "replace", "needs_selection": False}]


def by_id(library):
    return dict((p["id"], p) for p in library)


def test_library_round_trips_through_the_registry_and_json(office, tmp_path):
    office.job("prompts.save", prompts=USER)
    library = office.job("prompts.load", fresh=True)      # read back from the registry
    assert office.job("prompts.load") == library          # the kept copy is the same
    ids = [p["id"] for p in library]
    # The stored order first, the built-ins not mentioned after it: none is lost.
    assert ids[:4] == ["user-1", "shorten", "explain", "user-2"]
    assert set(ids) >= {"improve", "fix", "shorten", "expand", "formal", "friendly",
                        "translate", "explain", "summarize"}
    got = by_id(library)
    assert got["user-1"]["mode"] == "comment" and got["user-1"]["builtin"] is False
    assert got["shorten"]["mode"] == "suggest" and got["shorten"]["name"] == "Shorten"
    assert got["explain"]["hidden"] is True
    assert got["user-2"]["needs_selection"] is False

    path = str(tmp_path / "prompts.json")
    assert office.job("prompts.export", path=path) == len(library)
    data = json.loads(open(path, encoding="utf-8").read())
    assert data["format"] == "marginalia-prompts" and len(data["prompts"]) == len(library)
    office.job("prompts.save", prompts=[])
    assert by_id(office.job("prompts.load"))["shorten"]["mode"] == "replace"
    assert office.job("prompts.import", path=path) == {"imported": True,
                                                       "count": len(library)}
    assert office.job("prompts.load", fresh=True) == library


def test_a_bad_import_is_refused_with_a_sentence_and_changes_nothing(office, tmp_path):
    office.job("prompts.save", prompts=USER)
    before = office.job("prompts.load")
    bad = {"not json": "{nope",
           "other": json.dumps({"format": "something-else", "prompts": []}),
           "mode": json.dumps({"format": "marginalia-prompts", "version": 1, "prompts": [
               {"id": "user-9", "name": "X", "instruction": "Y", "mode": "shout"}]}),
           "empty": json.dumps({"format": "marginalia-prompts", "version": 1, "prompts": [
               {"id": "user-9", "name": " ", "instruction": "Y", "mode": "panel"}]})}
    for label, content in bad.items():
        path = tmp_path / ("%s.json" % label.replace(" ", "-"))
        path.write_text(content, encoding="utf-8")
        result = office.job("prompts.import", path=str(path))
        assert result["imported"] is False, label
        sentence = result["sentence"]
        assert sentence.endswith(".") and "Traceback" not in sentence and len(sentence) < 160
        assert office.job("prompts.load", fresh=True) == before, label
    result = office.job("prompts.import", path=str(tmp_path / "missing.json"))
    assert result == {"imported": False, "sentence": "That file could not be read as text."}


def test_each_writer_view_gets_the_submenu_with_and_without_a_selection(office):
    office.job("prompts.save", prompts=USER)
    doc = build(office, [("Standard", "Some text to work on.")])
    try:
        # Registered by the OnViewCreated job, with no panel ever opened.
        menu = office.job("quick.menu", doc, has_selection=True, recent=["French"])
        assert menu["registered"] is True
        labels = [e.get("label") for e in menu["entries"]]
        # The library's order: Shorten was moved up; Explain is hidden; the user's
        # prompt with an {argument} is for the chat box only.
        assert labels == ["Shorten", "Improve writing", "Fix spelling and grammar", "Expand",
                          "More formal", "More friendly", "Translate to", "Summarize",
                          "Ask Marginalia\u2026", None, "Make it punchy", None,
                          "Keep Marginalia out"]
        translate = menu["entries"][6]["children"]
        assert translate[0]["label"] == "French" and translate[1] == {"separator": True}
        assert translate[0]["url"] == "org.marginalia.cmd:Run?arg=French&id=translate"
        bare = office.job("quick.menu", doc, has_selection=False)
        assert [e.get("label") for e in bare["entries"]] == ["Summarize",
                                                            "Ask Marginalia\u2026"]
    finally:
        office.close(doc)
        office.job("prompts.save", prompts=[])


MACRO = ("vnd.sun.star.script:marginalia.oxt|scripts|Marginalia.py$%s"
         "?language=Python&location=user:uno_packages")


def test_commands_are_macros_customize_lists_and_dispatch_on_the_frame(office):
    doc = build(office, [("Standard", "Please shorten this sentence a lot.")])
    before = None
    try:
        # Tools > Customize > Keyboard binds macros; the extension's resolve by URI.
        provider = office.create("com.sun.star.script.provider.MasterScriptProviderFactory"
                                 ).createScriptProvider("")
        scripts = dict((name, provider.getScript(MACRO % name)) for name in (
            "focus_marginalia_chat", "ask_marginalia", "improve_writing", "shorten",
            "fix_spelling_and_grammar", "expand", "more_formal", "more_friendly",
            "explain", "summarize"))
        assert all(script is not None for script in scripts.values())
        frame = doc.getCurrentController().getFrame()
        url = uno.createUnoStruct("com.sun.star.util.URL")
        url.Complete = "org.marginalia.cmd:Run?id=shorten"
        assert frame.queryDispatch(url, "_self", 0) is not None
        doc.getCurrentController().select(find(doc, "shorten this sentence a lot"))
        before = office.job("settings.load")
        with ScriptedServer([text_response("shorten this", pieces=2)]) as srv:
            # A macro reads the saved settings; put them back after (the office is shared).
            office.job("settings.save", endpoint=srv.url, model="test-model")
            refused = office.job("quick.dispatch", doc, url="org.marginalia.cmd:Run?id=nope")
            assert "no prompt" in refused
            # The Shorten macro, as a bound key runs it: it dispatches on the current frame.
            frame.activate()
            scripts["shorten"].invoke((), (), ())
            deadline = time.time() + 30
            while texts(doc) != ["Please shorten this."] and time.time() < deadline:
                time.sleep(0.05)
        assert texts(doc) == ["Please shorten this."]
    finally:
        if before is not None:
            office.job("settings.save", endpoint=before["endpoint"], model=before["model"])
        office.close(doc)

"""Tools > Options > Marginalia > Prompts in a real window: add, edit, reorder, hide, OK.

The page is made from the installed .xdl with its registered handler, as the
Options dialog does (tests/gui/test_panel_options.py explains the main-thread
calls); buttons are pressed through accessibility. Export and Import go
through the system file picker, which is not driven here: the same functions
are tested through the job interface (tests/office/test_quick_library.py).
"""

from tests.gui.test_panel_options import _press, on_main
from tests.support.panel_driver import accessible_tree, options_dialog, screenshot, wait_for

BUILTIN_NAMES = ["Improve writing", "Fix spelling and grammar", "Shorten", "Expand",
                 "More formal", "More friendly", "Translate", "Explain", "Summarize"]


def _top_window(office):
    """A window of its own for the page, so nothing covers it in the screenshot."""
    import uno
    desc = uno.createUnoStruct("com.sun.star.awt.WindowDescriptor")
    desc.Type = uno.Enum("com.sun.star.awt.WindowClass", "TOP")
    desc.WindowServiceName = "window"
    desc.ParentIndex = -1
    desc.Bounds = uno.createUnoStruct("com.sun.star.awt.Rectangle", 40, 60, 600, 500)
    desc.WindowAttributes = 1 | 16 | 32      # SHOW, BORDER, MOVEABLE
    return office.create("com.sun.star.awt.Toolkit").createWindow(desc)


def open_page(office, xdl, service):
    """An Options page (its .xdl and handler service) in a window of its own, initialized
    on the main thread as the Options dialog does: (page window, handler, its window)."""
    provider = office.ctx.getValueByName(
        "/singletons/com.sun.star.deployment.PackageInformationProvider")
    url = provider.getPackageLocation("org.marginalia.writer") + "/dialogs/" + xdl
    handler = office.create(service)
    box = {}

    def create():
        parent = box["parent"] = _top_window(office)
        windows = office.create("com.sun.star.awt.ContainerWindowProvider")
        box["window"] = windows.createContainerWindow(url, "", parent, handler)
        box["window"].setPosSize(0, 0, 600, 500, 15)
        box["window"].setVisible(True)
        assert handler.callHandlerMethod(box["window"], "initialize", "external_event")
    on_main(office, create)
    return box["window"], handler, box["parent"]


def _open(office, doc):
    return open_page(office, "PromptsPage.xdl", "org.marginalia.PromptsHandler")


def _items(office, window):
    """The list's rows, read on the main thread: the page rebuilds the list there (all
    rows removed, then added), so a read from here could catch it empty halfway."""
    box = {}
    on_main(office, lambda: box.update(rows=list(window.getControl("PromptList").getItems())))
    return box["rows"]


def test_prompts_page_adds_edits_moves_hides_and_saves(gui_office, gui_doc):
    gui_office.job("prompts.save", prompts=[])
    window, handler, parent = _open(gui_office, gui_doc)
    try:
        assert _items(gui_office, window) == BUILTIN_NAMES
        # A built-in's text is fixed; only its output mode and Hidden can change.
        assert window.getControl("NameField").getModel().ReadOnly is True

        _press(window, "Add")       # the click is handled a moment later
        wait_for(lambda: _items(gui_office, window)[-1] == "New prompt", what="the new prompt")

        def edit():
            window.getControl("NameField").setText("Punchy")
            window.getControl("InstructionField").setText("Make it punchy.")
            window.getControl("ModeList").selectItemPos(2, True)     # Add as a comment
        on_main(gui_office, edit)
        _press(window, "Up")
        wait_for(lambda: _items(gui_office, window)[-2:] == ["Punchy", "Summarize"], what="the move")

        screenshot(gui_office, "quick_prompts_page.png")
        on_main(gui_office, lambda: handler.callHandlerMethod(window, "ok", "external_event"))
        library = gui_office.job("prompts.load")
        names = [p["name"] for p in library]
        assert names[-2:] == ["Punchy", "Summarize"]
        punchy = library[-2]
        assert (punchy["instruction"], punchy["mode"], punchy["builtin"]) == (
            "Make it punchy.", "comment", False)
        assert len(library) == len(BUILTIN_NAMES) + 1
    finally:
        on_main(gui_office, lambda: (window.dispose(), parent.dispose()))
        gui_office.job("prompts.save", prompts=[])


def test_deleting_a_builtin_hides_it_and_reset_reads_the_library_again(gui_office, gui_doc):
    gui_office.job("prompts.save", prompts=[])
    window, handler, parent = _open(gui_office, gui_doc)
    try:
        _press(window, "Delete")           # the first entry, Improve writing: hidden
        wait_for(lambda: _items(gui_office, window)[0] == "Improve writing (hidden)", what="hidden")
        wait_for(lambda: "hidden, not deleted" in
                 window.getControl("PromptsStatus").getModel().Label, what="the sentence")
        assert window.getControl("HiddenCheck").getState() == 1
        on_main(gui_office, lambda: handler.callHandlerMethod(window, "back", "external_event"))
        assert _items(gui_office, window) == BUILTIN_NAMES
        _press(window, "Delete")
        wait_for(lambda: _items(gui_office, window)[0] == "Improve writing (hidden)", what="hidden again")
        on_main(gui_office, lambda: handler.callHandlerMethod(window, "ok", "external_event"))
        library = gui_office.job("prompts.load")
        assert library[0]["id"] == "improve" and library[0]["hidden"] is True
        assert len(library) == len(BUILTIN_NAMES)
    finally:
        on_main(gui_office, lambda: (window.dispose(), parent.dispose()))
        gui_office.job("prompts.save", prompts=[])



def test_the_page_is_registered_under_marginalia_in_tools_options(gui_office, gui_doc):
    """The Options dialog's tree offers Marginalia > Prompts (modal: opened from a thread).

    (Choosing the page in the tree is not driven: the tree's accessible selection
    crashes LibreOffice 7.4, and without a window manager the dialog takes no keys.)
    """
    import threading
    frame = gui_doc.CurrentController.Frame
    helper = gui_office.create("com.sun.star.frame.DispatchHelper")
    opener = threading.Thread(target=helper.executeDispatch, daemon=True,
                              args=(frame, ".uno:OptionsTreeDialog", "", 0, ()))
    opener.start()
    toolkit = gui_office.create("com.sun.star.awt.Toolkit")

    def dialog():
        return options_dialog(toolkit)

    def marginalia_node():
        for node, above in accessible_tree(wait_for(dialog, what="the Options dialog"), 9):
            if node.getAccessibleName() == "Prompts" and above is not None \
                    and above.getAccessibleName() == "Marginalia":
                return above
        return None
    try:
        node = wait_for(marginalia_node, timeout=30, what="Marginalia > Prompts in Tools > Options")
        leaves = [node.getAccessibleChild(j).getAccessibleContext().getAccessibleName()
                  for j in range(node.getAccessibleChildCount())]
    finally:
        # Closed however this ends: the modal dialog would block the tests after it.
        opened = dialog()
        cancel = [n for n, _above in accessible_tree(opened, 9)
                  if n.getAccessibleName() == "Cancel"] if opened is not None else []
        closed = bool(cancel) and cancel[0].doAccessibleAction(0)
    # Other agents: the MCP server's page, Agents' calls: what they do (both in
    # tests/gui/test_agents_page.py); Language: the answers' language
    # (tests/gui/test_language_page.py).
    assert leaves == ["Model and connection", "Prompts", "Other agents", "Agents' calls",
                      "Language"]
    assert closed
    opener.join(20)
    assert not opener.is_alive()

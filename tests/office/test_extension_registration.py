"""The installed .oxt registers the deck, the panel factory and the Options page.

Checked in the configuration LibreOffice actually merged (not in our source
files), including that the icon and dialog URLs expand to files that exist:
a wrong %origin% path gives an empty square on the deck tab and no page.
"""

import os

import uno

from marginalia.office import settings_store


def _node(office, path):
    provider = office.create("com.sun.star.configuration.ConfigurationProvider")
    arg = uno.createUnoStruct("com.sun.star.beans.PropertyValue")
    arg.Name, arg.Value = "nodepath", path
    return provider.createInstanceWithArguments(
        "com.sun.star.configuration.ConfigurationAccess", (arg,))


def _existing_file(office, url):
    """The system path a registry URL points to (vnd.sun.star.expand: resolved)."""
    if url.startswith("vnd.sun.star.expand:"):
        from urllib.parse import unquote
        expander = office.ctx.getValueByName("/singletons/com.sun.star.util.theMacroExpander")
        url = expander.expandMacros(unquote(url[len("vnd.sun.star.expand:"):]))
    path = uno.fileUrlToSystemPath(url)
    assert os.path.isfile(path), "%s does not exist" % path
    return path


def test_panel_factory_is_registered_for_our_resource_urls(office):
    factory = _node(office, "/org.openoffice.Office.UI.Factories/Registered/UIElementFactories"
                            "/MarginaliaPanelFactory")
    assert factory.getByName("Type") == "toolpanel"
    assert factory.getByName("Name") == "MarginaliaPanelFactory"
    assert factory.getByName("FactoryImplementation") == "org.marginalia.PanelFactory"
    assert office.create("org.marginalia.PanelFactory") is not None


def test_deck_is_writer_only_and_has_an_icon_that_exists(office):
    deck = _node(office, "/org.openoffice.Office.UI.Sidebar/Content/DeckList/MarginaliaDeck")
    assert deck.getByName("Title") == "Marginalia"
    assert deck.getByName("Id") == "MarginaliaDeck"
    contexts = deck.getByName("ContextList")
    assert len(contexts) == 1 and contexts[0].startswith("WriterVariants")
    icon = _existing_file(office, deck.getByName("IconURL"))
    with open(icon, "rb") as handle:
        assert handle.read(8) == b"\x89PNG\r\n\x1a\n"
    _existing_file(office, deck.getByName("HighContrastIconURL"))


def test_chat_panel_sits_in_the_deck_and_names_the_factory(office):
    panel = _node(office, "/org.openoffice.Office.UI.Sidebar/Content/PanelList"
                          "/MarginaliaChatPanel")
    assert panel.getByName("DeckId") == "MarginaliaDeck"
    assert panel.getByName("ImplementationURL") == \
        "private:resource/toolpanel/MarginaliaPanelFactory/ChatPanel"
    assert panel.getByName("WantsCanvas") is False
    assert panel.getByName("ContextList")[0].startswith("WriterVariants")


def test_options_page_is_registered_with_its_dialog_and_handler(office):
    node = _node(office, "/org.openoffice.Office.OptionsDialog/Nodes/org.marginalia.writer.Node")
    assert node.getByName("Label") == "Marginalia"
    assert node.getByName("AllModules") is True
    leaf = node.getByName("Leaves").getByName("org.marginalia.writer.Settings")
    assert leaf.getByName("Id") == "org.marginalia.writer"
    assert leaf.getByName("EventHandlerService") == "org.marginalia.OptionsHandler"
    page = _existing_file(office, leaf.getByName("OptionsPage"))
    assert page.endswith("OptionsPage.xdl")
    handler = office.create("org.marginalia.OptionsHandler")
    assert handler.getSupportedMethodNames() == ("external_event",)


def test_settings_schema_is_installed_with_every_field_but_the_key(office):
    for group, names in settings_store.GROUPS.items():
        node = _node(office, "/org.marginalia.Settings/" + group)
        assert sorted(node.getElementNames()) == sorted(names)
    assert "api_key" not in sum((list(n) for n in settings_store.GROUPS.values()), [])


def test_the_sidebar_builds_the_chat_panel_for_a_writer_window(office):
    doc = office.new_writer(hidden=False)
    try:
        sidebar = doc.CurrentController.getSidebar()
        sidebar.setVisible(True)
        deck = sidebar.getDecks().getByName("MarginaliaDeck")
        if not deck.isActive():
            deck.activate(True)
        panels = deck.getPanels()
        assert panels.getElementNames() == ("MarginaliaChatPanel",)
        panel = panels.getByName("MarginaliaChatPanel")
        assert panel.getTitle() == "Chat"
        # The factory's element is what the sidebar shows: our controls, by accessible name.
        names = set()
        pending = [doc.CurrentController.Frame.ContainerWindow.getAccessibleContext()]
        while pending:
            ctx = pending.pop()
            names.add(ctx.getAccessibleName())
            if ctx.getAccessibleChildCount() < 60:
                pending.extend(ctx.getAccessibleChild(i).getAccessibleContext()
                               for i in range(ctx.getAccessibleChildCount()))
        # (The thinking pane is hidden while it is empty, so it is not listed yet.)
        assert {"Conversation", "Message", "Send", "New chat"} <= names, \
            {"Conversation", "Message", "Send", "New chat"} - names
    finally:
        office.close(doc)


def test_a_failing_panel_build_is_logged_and_raises_a_plain_uno_error(office):
    factory = office.create("org.marginalia.PanelFactory")
    log_file = os.path.join(office.profile_dir, "user", "marginalia", "marginalia.log")
    before = open(log_file, encoding="utf-8").read() if os.path.exists(log_file) else ""
    from com.sun.star.uno import RuntimeException
    try:
        factory.createUIElement("private:resource/toolpanel/MarginaliaPanelFactory/ChatPanel",
                                ())
    except RuntimeException as exc:
        message = exc.Message
    else:
        raise AssertionError("a panel without a Frame should be refused")
    assert "Traceback" not in message and "File \"" not in message
    assert "marginalia.log" in message
    with open(log_file, encoding="utf-8") as handle:
        logged = handle.read()[len(before):]
    assert "panel factory" in logged and "Frame" in logged


def _menu_items(node):
    """(URL, Title, submenu items) of an Addons menu node's Submenu, in the menu's order."""
    items = []
    if not node.hasByName("Submenu"):
        return items
    submenu = node.getByName("Submenu")
    # The menu's order is configmgr's: shorter names first, then alphabetical.
    for name in sorted(submenu.getElementNames(), key=lambda n: (len(n), n)):
        child = submenu.getByName(name)
        title = (child.getByName("Title") if child.hasByName("Title") else "") or ""
        items.append((child.getByName("URL"), title, _menu_items(child)))
    return items


def test_tools_marginalia_offers_translate_to_and_keep_out_like_the_context_menu(office):
    from marginalia import prompt_library as pl
    from marginalia.ui import quick_menu as qm
    tools = _node(office, "/org.openoffice.Office.Addons/AddonUI/OfficeMenuBarMerging"
                          "/org.marginalia.writer/ToolsMarginalia/MenuItems/marginalia")
    items = _menu_items(tools)
    titles = [title for _url, title, _sub in items]
    assert titles[:2] == [qm.FOCUS_LABEL, ""]        # a separator after Focus
    # Issue 24: the context submenu had Translate to and Keep out, Tools > Marginalia not.
    assert titles.index("More friendly") < titles.index(qm.TRANSLATE_TO) < titles.index("Explain")
    translate = items[titles.index(qm.TRANSLATE_TO)][2]
    assert [(url, title) for url, title, _sub in translate] == qm.translate_urls(pl.BUILTINS)
    # The same command the context menu's entry dispatches.
    keep_out = [url for url, title, _sub in items if title == qm.TOGGLE_KEEP_OUT_LABEL]
    assert keep_out == [qm.command_url(qm.KEEP_OUT)]

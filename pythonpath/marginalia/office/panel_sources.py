"""The panel's Sources button: the chat's sources listed, a file or open document added, one removed.

The menu (ui.sources_menu) lists the chat's sources, "Add a file…" (the file
picker: com.sun.star.ui.dialogs.FilePicker), the other open Writer documents,
and a source to remove. Reading a source runs on a worker, which reads
through LibreOffice in short main-thread slices (office.source_reader), so the
window keeps taking keys while a long PDF is read; the status line says when it
is done, or the one sentence saying why it could not be read. Main thread.
"""

import logging
import os
from typing import Callable, Optional

import uno

from marginalia import threads
from marginalia.errors import user_sentence
from marginalia.i18n.catalog import tr
from marginalia.office import chat_sources, mainthread, source_reader
from marginalia.office.slash_list import MENTIONS_NAME
from marginalia.sources import cite_as
from marginalia.ui import sources_menu as sm

log = logging.getLogger("marginalia.panel")

FILEOPEN_SIMPLE = 0            # com.sun.star.ui.dialogs.TemplateDescription


class PanelSources:
    """What the Sources button does for one ChatPanel."""

    def __init__(self, panel, say: Callable[[str], None]) -> None:
        self.panel = panel
        self._say = say

    @property
    def session(self):
        return self.panel.session

    def menu(self, popup: Callable) -> None:
        from marginalia.writer import read
        sources = [(s.id, s.name) for s in self.session.sources.sources()]
        documents = chat_sources.open_documents(self.panel.ctx, exclude=self.panel.document)
        titles = [read.title(doc) for doc in documents]
        from marginalia.office import settings_store
        settings = settings_store.load(self.panel.ctx, with_key=False)
        choice = sm.chosen(popup(sm.menu_items(sources, titles, settings.citations_as)),
                           sources, titles)
        if choice is None:
            return
        action, what = choice
        if action == "cite as":
            # Only the Chat group: this menu never loaded the key, which a whole save drops.
            settings_store.save(self.panel.ctx, settings.copy(citations_as=what),
                                only=("Chat",))
            self._say(tr(cite_as.CHOSEN) % tr(dict(cite_as.STYLES)[what]))
            return
        if self.session.busy:
            self._say(sm.BUSY)        # the turn's tools read the sources meanwhile
            return
        if action == "remove":
            name = dict(sources).get(what, what)
            if self.session.sources.remove(what):
                self._say(tr(sm.REMOVED) % name)
                self.panel.scope.refresh()
            return
        if action == "file":
            path = self.pick_file()
            if path is not None:
                self.add(os.path.basename(path),
                         lambda run: self.session.sources.add_file(path, run))
        else:
            doc = documents[what]
            self.add(titles[what], lambda run: self.session.sources.add_document(doc, run))

    def pick_file(self) -> Optional[str]:
        ctx = self.panel.ctx
        picker = ctx.ServiceManager.createInstanceWithArgumentsAndContext(
            "com.sun.star.ui.dialogs.FilePicker", (FILEOPEN_SIMPLE,), ctx)
        picker.setTitle(sm.PICKER_TITLE)
        picker.appendFilter(*sm.FILTER)
        picker.setCurrentFilter(sm.FILTER[0])
        url = self.panel.document.getURL()
        if url:
            picker.setDisplayDirectory(url.rsplit("/", 1)[0])
        if picker.execute() != 1:
            return None
        files = picker.getFiles()
        return uno.fileUrlToSystemPath(files[0]) if files else None

    def add(self, name: str, read: Callable) -> None:
        """Read a source on a worker; the status line says how it went."""
        ctx = self.panel.ctx
        session = self.session
        if session.busy:
            # The turn's tools read the library on their worker meanwhile.
            self._say(sm.BUSY)
            return
        self._say(tr(sm.READING) % name)

        def work():
            try:
                source = read(lambda fn: mainthread.run_sync(ctx, fn))
                sentence = sm.added(source.name, len(session.sources.library.passages(
                    source.id)))
            except source_reader.Unreadable as exc:
                sentence = str(exc)
            except Exception as exc:
                log.exception("adding a source failed")
                sentence = user_sentence(exc)
            mainthread.post(ctx, lambda: self._told(sentence))
        threads.start(work, name="marginalia-source")

    def _told(self, sentence: str) -> None:
        try:
            self._say(sentence)
            self.panel.scope.refresh()
        except Exception:        # the panel went away meanwhile: nothing to tell
            log.info("a source was read after its panel closed")


def mention_list(panel):
    """The list under the message box offering sources after "@" (ui.mentions): the chat's
    sources, and the open documents, which become sources when chosen."""
    from marginalia.office.slash_list import SlashList
    from marginalia.ui import mentions
    from marginalia.writer import read
    offered = {"documents": [], "titles": []}

    def matcher(text):
        if mentions.typed_word(text) is None:
            return []
        sources = [(s.id, s.name) for s in panel.session.sources.sources()]
        documents = chat_sources.open_documents(panel.ctx, exclude=panel.document)
        offered["documents"], offered["titles"] = documents, [read.title(d) for d in documents]
        return mentions.matches(sources, offered["titles"], text)

    def completer(text, match):
        return mentions.completion(text, mentions.name_of(match.label))

    def chosen(match):
        if not match.key.startswith(mentions.DOCUMENT_KEY):
            return
        index = int(match.key[len(mentions.DOCUMENT_KEY):])
        doc, title = offered["documents"][index], offered["titles"][index]
        PanelSources(panel, panel.say).add(
            title, lambda run: panel.session.sources.add_document(doc, run))

    return SlashList(panel.ctx, panel.view, lambda: (), matcher, completer, chosen,
                     MENTIONS_NAME, key="mention_list")

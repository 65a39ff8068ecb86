"""Tools > Options > Marginalia > Prompts: the prompt library's editor.

The page edits a copy of the library (``_Page``, one per page window: the
Options dialog is modal); "ok" saves it to the registry (office.prompt_store),
"back" (Reset) reads it again. The fields edit the chosen prompt and are
taken back into the copy whenever another prompt is chosen, a button is
pressed, or the dialog is confirmed. Export and Import go through the system
file picker; a file that is not a prompt file is refused with one sentence
and the library stays as it was. Main thread.
"""

import logging
from dataclasses import replace
from typing import Optional


from marginalia.i18n.catalog import tr, trn
from marginalia.office import dialog_words, page_fit, prompt_store
from marginalia.office.control_events import Call
from marginalia.office.modal_pages import ModalPages
from marginalia import prompt_library as pl

log = logging.getLogger("marginalia.options")
WHAT = "prompts page action"   # how a failing control action is named in the log

_pages = ModalPages()


class _Page:
    """The library being edited and the window showing it."""

    def __init__(self, ctx, window, library):
        self.ctx = ctx
        self.window = window
        self.library = list(library)
        self.current = 0 if self.library else -1

    def control(self, name):
        return self.window.getControl(name)

    # -- list and fields -------------------------------------------------------
    def show_list(self) -> None:
        box = self.control("PromptList")
        box.removeItems(0, box.getItemCount())
        box.addItems(tuple(tr("%s (hidden)") % p.name if p.hidden else p.name
                           for p in self.library), 0)
        if self.current >= 0:
            box.selectItemPos(self.current, True)
        self.show_fields()

    def show_fields(self) -> None:
        prompt = self.library[self.current] if self.current >= 0 else None
        name, instruction = self.control("NameField"), self.control("InstructionField")
        name.setText(prompt.name if prompt else "")
        instruction.setText(prompt.instruction if prompt else "")
        fixed = prompt is None or prompt.builtin
        for field in ("NameField", "InstructionField"):
            self.control(field).getModel().ReadOnly = fixed
        self.control("NeedsSelectionCheck").getModel().Enabled = bool(
            prompt and not prompt.builtin)
        self.control("NeedsSelectionCheck").setState(1 if prompt and prompt.needs_selection
                                                     else 0)
        self.control("HiddenCheck").setState(1 if prompt and prompt.hidden else 0)
        modes = self.control("ModeList")
        if modes.getItemCount() != len(pl.MODES):
            modes.removeItems(0, modes.getItemCount())
            modes.addItems(pl.mode_labels(), 0)
        if prompt:
            modes.selectItemPos(pl.MODE_IDS.index(prompt.mode), True)

    def take_fields(self) -> None:
        """Copy the fields into the chosen prompt (a built-in: its mode and hidden flag)."""
        if self.current < 0:
            return
        prompt = self.library[self.current]
        pos = self.control("ModeList").getSelectedItemPos()
        mode = pl.MODE_IDS[pos] if 0 <= pos < len(pl.MODE_IDS) else prompt.mode
        hidden = self.control("HiddenCheck").getState() == 1
        if prompt.builtin:
            prompt = replace(prompt, mode=mode, hidden=hidden)
        else:
            instruction = self.control("InstructionField").getText()
            prompt = replace(prompt, name=self.control("NameField").getText().strip(),
                             instruction=instruction, mode=mode, hidden=hidden,
                             needs_selection=self.control("NeedsSelectionCheck").getState()
                             == 1, takes_argument="{argument}" in instruction)
        self.library[self.current] = prompt

    def say(self, text: str) -> None:
        self.control("PromptsStatus").getModel().Label = text

    # -- buttons ---------------------------------------------------------------
    def chosen(self) -> None:
        pos = self.control("PromptList").getSelectedItemPos()
        if pos == self.current or pos < 0:
            return
        self.take_fields()
        self.current = pos
        self.show_list()

    def add(self) -> None:
        self.take_fields()
        self.library.append(pl.Prompt(pl.new_id(self.library), tr("New prompt"), "",
                                      pl.REPLACE, True))
        self.current = len(self.library) - 1
        self.show_list()
        self.say(tr("Give the new prompt a name and an instruction."))

    def delete(self) -> None:
        if self.current < 0:
            return
        self.take_fields()
        builtin = self.library[self.current].builtin
        self.library = pl.remove(self.library, self.current)
        self.current = min(self.current, len(self.library) - 1)
        self.show_list()
        self.say(tr("Built-in prompts are hidden, not deleted: untick Hidden to bring one "
                    "back.") if builtin else "")

    def move(self, delta: int) -> None:
        if self.current < 0:
            return
        self.take_fields()
        self.library = pl.move(self.library, self.current, delta)
        self.current = max(0, min(len(self.library) - 1, self.current + delta))
        self.show_list()

    def export(self) -> None:
        self.take_fields()
        path = pick_file(self.ctx, save=True)
        if path:
            try:
                prompt_store.export_to(self.library, path)
                count = len(self.library)
                self.say(trn("Saved %(count)d prompt to %(path)s.",
                             "Saved %(count)d prompts to %(path)s.", count)
                         % {"count": count, "path": path})
            except OSError:
                self.say(tr("The prompts could not be saved there; choose another folder."))

    def import_(self) -> None:
        path = pick_file(self.ctx, save=False)
        if path:
            self.import_path(path)

    def import_path(self, path: str) -> bool:
        """Take a prompt file's library (saved on OK); a bad file changes nothing."""
        try:
            library = prompt_store.import_from(path)
        except pl.ImportProblem as exc:
            self.say(tr("%s Your prompts are unchanged.") % str(exc))
            return False
        self.library = library
        self.current = 0
        self.show_list()
        self.say(trn("Imported %d prompt; OK keeps it.", "Imported %d prompts; OK keeps them.",
                     len(library)) % len(library))
        return True

    def save(self) -> None:
        self.take_fields()
        keep = []
        for prompt in self.library:
            problem = None if prompt.builtin else pl.check(prompt.name, prompt.instruction,
                                                            prompt.mode)
            if problem:
                log.info("prompts page: not saved: %s", problem)
                continue
            keep.append(prompt)
        prompt_store.save(self.ctx, keep)


def pick_file(ctx, save: bool) -> Optional[str]:
    """A JSON file's path from the system file picker, or None when cancelled."""
    import uno
    from com.sun.star.ui.dialogs.TemplateDescription import FILEOPEN_SIMPLE, FILESAVE_SIMPLE
    picker = ctx.ServiceManager.createInstanceWithContext(
        "com.sun.star.ui.dialogs.FilePicker", ctx)
    picker.initialize((FILESAVE_SIMPLE if save else FILEOPEN_SIMPLE,))
    picker.appendFilter(tr("Marginalia prompts (*.json)"), "*.json")
    if save:
        picker.setDefaultName("marginalia-prompts.json")
    if picker.execute() != 1:
        return None
    files = picker.getSelectedFiles()
    return uno.fileUrlToSystemPath(files[0]) if files else None


def _attach(page: _Page) -> None:
    wiring = (("PromptList", "item", page.chosen), ("AddButton", "action", page.add),
              ("DeleteButton", "action", page.delete),
              ("UpButton", "action", lambda: page.move(-1)),
              ("DownButton", "action", lambda: page.move(1)),
              ("ExportButton", "action", page.export),
              ("ImportButton", "action", page.import_))
    for name, kind, fn in wiring:
        control = page.control(name)
        if kind == "item":
            control.addItemListener(Call(fn, WHAT))
        else:
            control.addActionListener(Call(fn, WHAT))


def page_for(window) -> Optional[_Page]:
    return _pages.find(window)


def handle(ctx, window, event_object: str, method: str) -> bool:
    """The page's event handler; True when the event was handled."""
    if method != "external_event":
        return False
    if event_object == "initialize":
        dialog_words.translate_quietly(window)     # the .xdl's labels, before any is set
        page = _pages.start(window, _Page(ctx, window, prompt_store.load(ctx)))
        _attach(page)
        page.show_list()
        page_fit.fit(window)         # longer words (a translation) get their room
        return True
    page = page_for(window)
    if page is None:
        return False
    if event_object == "ok":
        page.save()
        return True
    if event_object == "back":
        page.library = prompt_store.load(ctx)
        page.current = 0 if page.library else -1
        page.show_list()
        return True
    return False

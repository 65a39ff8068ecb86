"""Marginalia's commands as macros, so Tools > Customize can bind keys to them.

Tools > Customize > Keyboard lists macros (under Application Macros / My Macros,
library "Marginalia"), not add-on menu commands; each macro here dispatches the
same org.marginalia.cmd: URL as the Tools > Marginalia menu and the context
submenu (office/commands.py in the extension's pythonpath). No key is bound by
default: Writer already uses them.
"""

PROTOCOL = "org.marginalia.cmd:"


def _dispatch(command):
    ctx = XSCRIPTCONTEXT.getComponentContext()  # noqa: F821 (given by LibreOffice)
    frame = XSCRIPTCONTEXT.getDesktop().getCurrentFrame()  # noqa: F821
    if frame is None:
        return
    helper = ctx.ServiceManager.createInstanceWithContext(
        "com.sun.star.frame.DispatchHelper", ctx)
    helper.executeDispatch(frame, PROTOCOL + command, "", 0, ())


def focus_marginalia_chat(*_args):
    _dispatch("Focus")


def ask_marginalia(*_args):
    _dispatch("Ask")


def improve_writing(*_args):
    _dispatch("Run?id=improve")


def fix_spelling_and_grammar(*_args):
    _dispatch("Run?id=fix")


def shorten(*_args):
    _dispatch("Run?id=shorten")


def expand(*_args):
    _dispatch("Run?id=expand")


def more_formal(*_args):
    _dispatch("Run?id=formal")


def more_friendly(*_args):
    _dispatch("Run?id=friendly")


def explain(*_args):
    _dispatch("Run?id=explain")


def summarize(*_args):
    _dispatch("Run?id=summarize")


def keep_marginalia_out(*_args):
    _dispatch("KeepOut")


g_exportedScripts = (focus_marginalia_chat, ask_marginalia, improve_writing,
                     fix_spelling_and_grammar, shorten, expand, more_formal, more_friendly,
                     explain, summarize, keep_marginalia_out)

"""Marginalia's registered UNO component: thin classes that import the package lazily.

LibreOffice loads this file when it first needs one of the services below, so
it stays small; the real work lives in ``pythonpath/marginalia`` (put on
sys.path by LibreOffice from the .oxt's ``pythonpath/`` folder).
"""

import json
import logging

import unohelper
from com.sun.star.awt import XContainerWindowEventHandler
from com.sun.star.frame import XDispatch, XDispatchProvider
from com.sun.star.task import XJob
from com.sun.star.ui import XUIElementFactory
from com.sun.star.lang import XInitialization, XServiceInfo

log = logging.getLogger("marginalia.component")

PANEL_FACTORY = "org.marginalia.PanelFactory"
OPTIONS_HANDLER = "org.marginalia.OptionsHandler"
JOB = "org.marginalia.Job"
PROMPTS_HANDLER = "org.marginalia.PromptsHandler"
AGENTS_HANDLER = "org.marginalia.AgentsHandler"
AGENT_CALLS_HANDLER = "org.marginalia.AgentCallsHandler"
LANGUAGE_HANDLER = "org.marginalia.LanguageHandler"
COMMANDS = "org.marginalia.Commands"
VIEW_JOB = "org.marginalia.ViewJob"
PROTOCOL = "org.marginalia.cmd:"


def _setup_logging(ctx):
    """What every component does first: the log file, garbage collection on the main
    thread (office.collector says why), and the interface language (before any label)."""
    try:
        from marginalia.office import logfile
        logfile.setup(ctx)
    except Exception:
        log.exception("log setup failed")
    try:
        from marginalia.office import collector
        collector.take_over(ctx)
    except Exception:
        log.exception("garbage collection set-up failed")
    try:
        from marginalia.office import ui_language
        ui_language.ensure(ctx)
    except Exception:
        log.exception("the interface language could not be chosen; English is used")


def _named_values(args):
    return dict((nv.Name, nv.Value) for nv in args or ())


class _Info(unohelper.Base, XServiceInfo):
    IMPL = ""
    SERVICES = ()

    def getImplementationName(self):
        return self.IMPL

    def supportsService(self, name):
        return name in self.SERVICES

    def getSupportedServiceNames(self):
        return self.SERVICES


class PanelFactory(_Info, XUIElementFactory):
    """Creates the chat panel once per Writer window's sidebar."""

    IMPL = PANEL_FACTORY
    SERVICES = ("com.sun.star.ui.UIElementFactory",)

    def __init__(self, ctx):
        self.ctx = ctx
        _setup_logging(ctx)

    def createUIElement(self, url, args):
        try:
            from marginalia.office import mainthread
            from marginalia.office import panel
            # The sidebar calls factories on the VCL main thread (tests: over the bridge).
            with mainthread.called_by_office():
                return panel.create_ui_element(self.ctx, url, _named_values(args))
        except Exception:
            # Logged once here; the sidebar gets a plain UNO error, not a traceback.
            log.exception("panel factory failed for %s", url)
            from com.sun.star.uno import RuntimeException
            raise RuntimeException("Marginalia could not build its panel; the details are "
                                   "in marginalia.log in the LibreOffice profile.", self)


class OptionsHandler(_Info, XContainerWindowEventHandler):
    """Tools > Options > Marginalia page events."""

    IMPL = OPTIONS_HANDLER
    SERVICES = (OPTIONS_HANDLER,)

    def __init__(self, ctx):
        self.ctx = ctx
        _setup_logging(ctx)

    def callHandlerMethod(self, window, event_object, method):
        try:
            from marginalia.office import mainthread
            from marginalia.office import options_page
            with mainthread.called_by_office():
                return options_page.handle(self.ctx, window, event_object, method)
        except Exception:
            log.exception("options page %s failed", method)
            return False

    def getSupportedMethodNames(self):
        return ("external_event",)


class PromptsHandler(OptionsHandler):
    """Tools > Options > Marginalia > Prompts page events."""

    IMPL = PROMPTS_HANDLER
    SERVICES = (PROMPTS_HANDLER,)

    def callHandlerMethod(self, window, event_object, method):
        try:
            from marginalia.office import mainthread
            from marginalia.office import prompts_page
            with mainthread.called_by_office():
                return prompts_page.handle(self.ctx, window, event_object, method)
        except Exception:
            log.exception("prompts page %s failed", method)
            return False


class AgentsHandler(OptionsHandler):
    """Tools > Options > Marginalia > Other agents page events (the MCP server)."""

    IMPL = AGENTS_HANDLER
    SERVICES = (AGENTS_HANDLER,)

    def callHandlerMethod(self, window, event_object, method):
        try:
            from marginalia.office import mainthread
            from marginalia.office import agents_page
            with mainthread.called_by_office():
                return agents_page.handle(self.ctx, window, event_object, method)
        except Exception:
            log.exception("agents page %s failed", method)
            return False


class AgentCallsHandler(OptionsHandler):
    """Tools > Options > Marginalia > Agents' calls page events (the agents' call log)."""

    IMPL = AGENT_CALLS_HANDLER
    SERVICES = (AGENT_CALLS_HANDLER,)

    def callHandlerMethod(self, window, event_object, method):
        try:
            from marginalia.office import mainthread
            from marginalia.office import agent_calls_page
            with mainthread.called_by_office():
                return agent_calls_page.handle(self.ctx, window, event_object, method)
        except Exception:
            log.exception("agents' calls page %s failed", method)
            return False


class LanguageHandler(OptionsHandler):
    """Tools > Options > Marginalia > Language page events (the answers' language)."""

    IMPL = LANGUAGE_HANDLER
    SERVICES = (LANGUAGE_HANDLER,)

    def callHandlerMethod(self, window, event_object, method):
        try:
            from marginalia.office import mainthread
            from marginalia.office import language_page
            with mainthread.called_by_office():
                return language_page.handle(self.ctx, window, event_object, method)
        except Exception:
            log.exception("language page %s failed", method)
            return False


class Commands(_Info, XDispatchProvider, XDispatch, XInitialization):
    """The org.marginalia.cmd: protocol: quick actions and Focus chat, for menus and keys."""

    IMPL = COMMANDS
    SERVICES = ("com.sun.star.frame.ProtocolHandler",)

    def __init__(self, ctx, *args):
        self.ctx = ctx
        self.frame = None
        _setup_logging(ctx)

    def initialize(self, args):
        if args:
            self.frame = args[0]

    def queryDispatch(self, url, target, flags):
        return self if url.Complete.startswith(PROTOCOL) else None

    def queryDispatches(self, requests):
        return tuple(self.queryDispatch(r.FeatureURL, r.FrameName, r.SearchFlags)
                     for r in requests)

    def dispatch(self, url, args):
        try:
            from marginalia.office import commands, mainthread
            # Posted: a dispatch may come from another thread (a macro, the bridge);
            # from a menu it runs a moment later, on the same main thread.
            if self.frame is not None:
                frame, complete = self.frame, url.Complete
                mainthread.post(self.ctx, lambda: commands.dispatch_url(self.ctx, frame,
                                                                         complete))
        except Exception:
            log.exception("command %s failed", url.Complete)

    def addStatusListener(self, listener, url):
        # Menus and toolbars ask whether the command is enabled: it always is.
        try:
            import uno
            state = uno.createUnoStruct("com.sun.star.frame.FeatureStateEvent")
            state.FeatureURL, state.IsEnabled, state.Source = url, True, self
            listener.statusChanged(state)
        except Exception:
            log.exception("status for %s failed", url.Complete)

    def removeStatusListener(self, listener, url):
        pass


class ViewJob(_Info, XJob):
    """Runs on OnViewCreated (registry/Jobs.xcu): readies the document (office.doc_events)
    and gives a Writer view the context submenu."""

    IMPL = VIEW_JOB
    SERVICES = (VIEW_JOB,)

    def __init__(self, ctx):
        self.ctx = ctx
        _setup_logging(ctx)

    def execute(self, args):
        try:
            env = _named_values(_named_values(args).get("Environment"))
        except Exception:
            log.exception("a view job without its environment")
            env = {}
        try:
            from marginalia.office import doc_events
            doc_events.opened(env.get("Model"))
        except Exception:
            # The context menu and the MCP server below do not depend on it.
            log.exception("could not ready an opened document")
        try:
            from marginalia.office import context_menu
            # Registering makes no run_sync call: no main-thread guess from here (a
            # document loaded over the bridge sends its events on the bridge's thread).
            model = env.get("Model")
            frame = env.get("Frame")
            controller = (frame.getController() if frame is not None
                          else model.getCurrentController() if model is not None else None)
            context_menu.register(self.ctx, controller)
        except Exception:
            log.exception("could not add the context menu to a new view")
        try:
            from marginalia.office import mcp_host
            # The first view starts the MCP server when the user turned it on.
            mcp_host.at_view(self.ctx)
        except Exception:
            log.exception("could not start the MCP server")
        return None


class Job(_Info, XJob):
    """Runs a named command in process (tests and the headless runner); returns JSON."""

    IMPL = JOB
    SERVICES = (JOB, "com.sun.star.task.Job")

    def __init__(self, ctx):
        self.ctx = ctx
        _setup_logging(ctx)

    def execute(self, args):
        values = _named_values(args)
        try:
            from marginalia.office import jobs
            payload = json.loads(values.get("Payload") or "{}")
            result = jobs.execute(self.ctx, values.get("Command", ""),
                                  values.get("Document"), payload)
            return json.dumps({"ok": True, "result": result}, ensure_ascii=False)
        except Exception as exc:
            import traceback
            log.exception("job %s failed", values.get("Command"))
            return json.dumps({"ok": False, "error": str(exc) or type(exc).__name__,
                               "error_type": type(exc).__name__,
                               "detail": traceback.format_exc()}, ensure_ascii=False)


g_ImplementationHelper = unohelper.ImplementationHelper()
g_ImplementationHelper.addImplementation(PanelFactory, PANEL_FACTORY, PanelFactory.SERVICES)
g_ImplementationHelper.addImplementation(OptionsHandler, OPTIONS_HANDLER, OptionsHandler.SERVICES)
g_ImplementationHelper.addImplementation(Job, JOB, Job.SERVICES)
g_ImplementationHelper.addImplementation(PromptsHandler, PROMPTS_HANDLER,
                                         PromptsHandler.SERVICES)
g_ImplementationHelper.addImplementation(AgentsHandler, AGENTS_HANDLER, AgentsHandler.SERVICES)
g_ImplementationHelper.addImplementation(AgentCallsHandler, AGENT_CALLS_HANDLER,
                                         AgentCallsHandler.SERVICES)
g_ImplementationHelper.addImplementation(LanguageHandler, LANGUAGE_HANDLER,
                                         LanguageHandler.SERVICES)
g_ImplementationHelper.addImplementation(Commands, COMMANDS, Commands.SERVICES)
g_ImplementationHelper.addImplementation(ViewJob, VIEW_JOB, ViewJob.SERVICES)

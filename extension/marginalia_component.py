"""Marginalia's registered UNO component: thin classes that import the package lazily.

LibreOffice loads this file when it first needs one of the services below, so
it stays small; the real work lives in ``pythonpath/marginalia`` (put on
sys.path by LibreOffice from the .oxt's ``pythonpath/`` folder).
"""

import json
import logging

import unohelper
from com.sun.star.awt import XContainerWindowEventHandler
from com.sun.star.task import XJob
from com.sun.star.ui import XUIElementFactory
from com.sun.star.lang import XServiceInfo

log = logging.getLogger("marginalia.component")

PANEL_FACTORY = "org.marginalia.PanelFactory"
OPTIONS_HANDLER = "org.marginalia.OptionsHandler"
JOB = "org.marginalia.Job"


def _setup_logging(ctx):
    try:
        from marginalia.office import logfile
        logfile.setup(ctx)
    except Exception:
        log.exception("log setup failed")


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

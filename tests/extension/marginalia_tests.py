"""The test-only extension's UNO component: ``org.marginalia.TestJob``.

The harness (tests/support/office.py) sends every job command here. A command of the
tests' own (marginalia_testjobs, on sys.path from this extension's pythonpath/) runs here;
any other goes to the product's ``org.marginalia.Job`` as it came, so the product's
commands are tested through the product's own service. Installed only in the tests'
throwaway profiles, beside the product's .oxt.
"""

import json
import logging

import unohelper
from com.sun.star.lang import XServiceInfo
from com.sun.star.task import XJob

TEST_JOB = "org.marginalia.TestJob"
PRODUCT_JOB = "org.marginalia.Job"

log = logging.getLogger("marginalia.tests")


class TestJob(unohelper.Base, XServiceInfo, XJob):
    def __init__(self, ctx):
        self.ctx = ctx
        # Made first: loading the product's component puts its pythonpath (the marginalia
        # package the test commands import) on sys.path, and sets up its log.
        self.product = ctx.ServiceManager.createInstanceWithContext(PRODUCT_JOB, ctx)

    def getImplementationName(self):
        return TEST_JOB

    def supportsService(self, name):
        return name in self.getSupportedServiceNames()

    def getSupportedServiceNames(self):
        return (TEST_JOB, "com.sun.star.task.Job")

    def execute(self, args):
        values = dict((nv.Name, nv.Value) for nv in args or ())
        command = values.get("Command", "")
        try:
            import marginalia_testjobs
            if not marginalia_testjobs.handles(command):
                return self.product.execute(args)
            payload = json.loads(values.get("Payload") or "{}")
            result = marginalia_testjobs.execute(self.ctx, command, values.get("Document"),
                                                 payload)
            return json.dumps({"ok": True, "result": result}, ensure_ascii=False)
        except Exception as exc:
            import traceback
            log.exception("test job %s failed", command)
            return json.dumps({"ok": False, "error": str(exc) or type(exc).__name__,
                               "error_type": type(exc).__name__,
                               "detail": traceback.format_exc()}, ensure_ascii=False)


g_ImplementationHelper = unohelper.ImplementationHelper()
g_ImplementationHelper.addImplementation(TestJob, TEST_JOB, (TEST_JOB, "com.sun.star.task.Job"))

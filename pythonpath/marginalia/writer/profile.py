"""Marginalia's folder in the user's LibreOffice profile (``<profile>/user/marginalia``).

The one place that asks the office where the profile is: the log (office.logfile), the
author rescue file (writer.turn) and the other files kept per profile are named from it.
It lives at the bottom of the office side, so both writer/ and office/ can use it.
A UNO call: main thread.
"""

import os


def folder(ctx) -> str:
    """The folder as a system path (not made here: its writers make it)."""
    import uno      # here, not at the top: callers' modules are imported without an office
    subst = ctx.ServiceManager.createInstanceWithContext(
        "com.sun.star.util.PathSubstitution", ctx)
    user_dir = uno.fileUrlToSystemPath(subst.substituteVariables("$(user)", True))
    return os.path.join(user_dir, "marginalia")

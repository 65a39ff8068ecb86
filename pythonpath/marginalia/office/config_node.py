"""A node of LibreOffice's configuration, read or written (runs in the office)."""

import uno


def prop(name, value):
    pv = uno.createUnoStruct("com.sun.star.beans.PropertyValue")
    pv.Name = name
    pv.Value = value
    return pv


def node(ctx, path: str, update: bool = False):
    """The configuration node at ``path`` ("/org.openoffice.Setup/L10N"); ``update`` for
    one that can be written and committed."""
    provider = ctx.ServiceManager.createInstanceWithContext(
        "com.sun.star.configuration.ConfigurationProvider", ctx)
    service = ("com.sun.star.configuration.ConfigurationUpdateAccess" if update
               else "com.sun.star.configuration.ConfigurationAccess")
    return provider.createInstanceWithArguments(service, (prop("nodepath", path),))

"""Settings in LibreOffice: typed registry values plus the API key in the password container.

The registry schema (registry/Marginalia.xcs) holds every field of
config.Settings except ``api_key``: registry values end up in plain text in the
profile's registrymodifications.xcu. The key goes to
com.sun.star.task.PasswordContainer instead, one record per endpoint origin
(scheme://host:port), so switching between providers keeps each provider's key.

Call these on the VCL main thread: reading a key protected by a user master
password may show LibreOffice's master password prompt.
"""

import logging
import os
from urllib.parse import urlsplit

import uno

from marginalia import config
from marginalia.chat.endpoint import default_port
from marginalia.errors import ConfigError, PolicyError
from marginalia.i18n.catalog import tr
from marginalia import policy as admin_policy
from marginalia.ui import admin_locks

log = logging.getLogger("marginalia.settings")

ROOT = "/org.marginalia.Settings"
GROUPS = {
    "Connection": ("provider", "endpoint", "model", "allow_http",
                   "connect_timeout", "read_timeout"),
    "Chat": ("temperature", "max_tokens", "reasoning_effort", "show_thinking",
             "extra_instructions", "max_rounds", "context_window", "track_changes", "apply_mode",
             "keep_chats", "citations_as", "answer_language", "edit_protocol"),
    "Mcp": ("mcp_enabled", "mcp_port", "mcp_apply_mode"),
}
# Registry types, so a Python int written into a double property does not fail.
FLOATS = ("temperature", "connect_timeout", "read_timeout")
INTS = ("max_tokens", "max_rounds", "context_window", "mcp_port")

READONLY = 16            # com.sun.star.beans.PropertyAttribute.READONLY

KEY_USER = "marginalia"
KEY_SCHEME = "marginalia-key://"


def key_url(endpoint):
    """The password container URL for an endpoint: one record per scheme, host and port."""
    parts = urlsplit((endpoint or "").strip())
    host = (parts.hostname or "").lower()
    if not host:
        return KEY_SCHEME + "default"
    port = parts.port or default_port(parts.scheme)
    return "%s%s/%s/%d" % (KEY_SCHEME, parts.scheme or "http", host, port)


def _prop(name, value):
    pv = uno.createUnoStruct("com.sun.star.beans.PropertyValue")
    pv.Name = name
    pv.Value = value
    return pv


def _config(ctx, path, update=False):
    provider = ctx.ServiceManager.createInstanceWithContext(
        "com.sun.star.configuration.ConfigurationProvider", ctx)
    service = ("com.sun.star.configuration.ConfigurationUpdateAccess" if update
               else "com.sun.star.configuration.ConfigurationAccess")
    return provider.createInstanceWithArguments(service, (_prop("nodepath", path),))


def interaction_handler(ctx):
    return ctx.ServiceManager.createInstanceWithContext(
        "com.sun.star.task.InteractionHandler", ctx)


def password_container(ctx):
    return ctx.ServiceManager.createInstanceWithContext(
        "com.sun.star.task.PasswordContainer", ctx)


def load(ctx, with_key: bool = True) -> config.Settings:
    """The user's settings: registry values and (unless with_key is False) the endpoint's key."""
    values = {}
    for group, names in GROUPS.items():
        node = _config(ctx, "%s/%s" % (ROOT, group))
        for name in names:
            value = node.getByName(name)
            if value is None:
                values[name] = None
            elif name in FLOATS:
                values[name] = float(value)
            elif name in INTS:
                values[name] = int(value)
            else:
                values[name] = value
    rules = load_policy(ctx)
    # Every client built from these settings checks a redirect's address by the policy.
    settings = config.Settings(endpoint_check=endpoint_check(rules), **values)
    _use_office_proxy(ctx)
    if not with_key:
        return settings
    if not rules.key_from_admin:
        return settings.copy(api_key=load_key(ctx, settings.endpoint))
    return settings.copy(api_key=key_for(ctx, settings.endpoint, rules))


def key_for(ctx, endpoint: str, rules=None) -> str:
    """The administrator's key when it is for ``endpoint`` (policy.admin_key_applies),
    else "": it never goes to a server the user chose."""
    rules = rules if rules is not None else load_policy(ctx)
    if not admin_policy.admin_key_applies(rules, endpoint, "endpoint" in locked(ctx)):
        return ""
    try:
        return admin_key(rules)
    except PolicyError:
        # Said where it matters, before a request (refusal); a page only shows no key.
        log.warning("the administrator's API key could not be read")
        return ""


def refusal(ctx, settings: config.Settings, testing: bool = False):
    """The PolicyError refusing a request to ``settings.endpoint`` (a Test connection with
    ``testing``), or None when the administrator's policy allows it."""
    rules = load_policy(ctx)
    sentence = (admin_policy.test_refusal if testing else admin_policy.endpoint_refusal)(
        rules, settings.endpoint)
    if sentence:
        log.info("refused by the administrator's policy")
        return PolicyError(sentence)
    if rules.key_from_admin:
        sentence = admin_policy.key_refusal(rules, settings.endpoint,
                                            "endpoint" in locked(ctx))
        if sentence:
            return PolicyError(sentence)
        try:
            admin_key(rules)
        except PolicyError as exc:
            return exc
    return None


def endpoint_check(rules: admin_policy.Policy):
    """The policy as ChatClient's check of an address: its sentence, or None."""
    def check(url):
        return admin_policy.address_refusal(rules, url) or None
    return check


def load_policy(ctx) -> admin_policy.Policy:
    """The administrator's policy (the schema's defaults restrict nothing)."""
    node = _config(ctx, ROOT + "/Policy")
    values = dict((name, node.getByName(name)) for name in admin_policy.Policy._fields)
    values["allowed_endpoints"] = tuple(
        e.strip() for e in (values["allowed_endpoints"] or ()) if e.strip())
    values["chat_days"] = int(values["chat_days"])
    return admin_policy.Policy(**values)


def admin_key(rules: admin_policy.Policy) -> str:
    """The key from the administrator's environment variable or file."""
    def read(path):
        with open(os.path.expanduser(path), encoding="utf-8") as fh:
            return fh.read()
    try:
        return admin_policy.admin_key(rules, os.environ, read)
    except ValueError as exc:
        raise PolicyError(str(exc))


def _use_office_proxy(ctx) -> None:
    """Hand LibreOffice's proxy settings (Tools > Options > Internet > Proxy) to chat.proxy."""
    from marginalia.chat import proxy
    try:
        node = _config(ctx, "/org.openoffice.Inet/Settings")

        def get(name, default):
            value = node.getByName(name)
            return default if value is None else value
        proxy.use_office(proxy.from_office(
            int(get("ooInetProxyType", 0)), get("ooInetHTTPSProxyName", ""),
            int(get("ooInetHTTPSProxyPort", 0)), get("ooInetHTTPProxyName", ""),
            int(get("ooInetHTTPProxyPort", 0)), get("ooInetNoProxy", "")))
    except Exception:
        # Without them the environment decides; the chat must not fail over this.
        log.exception("could not read LibreOffice's proxy settings")


def locked(ctx) -> frozenset:
    """The settings an administrator's layer finalized (oor:finalized="true").

    Verified on LibreOffice 7.4: a finalized value shows PropertyAttribute.READONLY
    on an *update* access (a read-only access marks every value so), and
    replaceByName on it raises IllegalArgumentException ("modification of
    finalized item"), so the user's layer can never hold a value of its own.
    """
    out = set()
    for group, names in GROUPS.items():
        info = _config(ctx, "%s/%s" % (ROOT, group), update=True).getPropertySetInfo()
        out.update(name for name in names
                   if info.getPropertyByName(name).Attributes & READONLY)
    return frozenset(out)


def save(ctx, settings: config.Settings, only=None) -> None:
    """Write the registry values, then store (or remove) the key for the endpoint.

    Values an administrator locked, and those tied to them (ui.admin_locks),
    are left as they are: writing one would fail the whole save. With ``only``
    (group names), just those groups are written and the key is left alone: a
    page that never loaded the key must not store its absence.
    """
    held = admin_locks.held(locked(ctx))
    if held:
        log.info("left as the administrator set them: %s", ", ".join(sorted(held)))
    for group, names in GROUPS.items():
        if only is not None and group not in only:
            continue
        node = _config(ctx, "%s/%s" % (ROOT, group), update=True)
        for name in names:
            if name in held:
                continue
            value = getattr(settings, name)
            if value is not None and name in FLOATS:
                value = float(value)
            elif value is not None and name in INTS:
                value = int(value)
            node.replaceByName(name, value)
        node.commitChanges()
    if only is not None:
        return
    # The key belongs to the server in use: the administrator's, when it is locked.
    if load_policy(ctx).key_from_admin:
        return      # the administrator's key is never stored in the user's profile
    in_effect = settings.endpoint
    if "endpoint" in held:
        in_effect = _config(ctx, ROOT + "/Connection").getByName("endpoint")
    endpoint = admin_locks.key_endpoint(settings.endpoint, held, in_effect)
    if endpoint is None:
        log.info("key not stored: it is for a server other than the locked one")
        return
    save_key(ctx, endpoint, settings.api_key)


def watch(ctx, group: str, listener):
    """Tell ``listener`` (an XChangesListener) when a group's saved values change.

    Returns the function that stops it. The listener is called on the thread that
    committed: post to the main thread before touching a window.
    """
    node = _config(ctx, "%s/%s" % (ROOT, group))
    node.addChangesListener(listener)
    return lambda: node.removeChangesListener(listener)


def load_key(ctx, endpoint: str) -> str:
    """The stored key for an endpoint, or "" when there is none."""
    url = key_url(endpoint)
    try:
        return find_secret(ctx, url, KEY_USER)
    except Exception:
        # The user cancelled LibreOffice's master-password prompt (or the store
        # is damaged): say so instead of failing the turn with a generic error.
        log.warning("the password container did not give the key for %s", url)
        raise ConfigError(tr("Marginalia could not read the API key from LibreOffice's "
                             "password store; enter the master password when asked, or "
                             "type the key again under Tools > Options > Marginalia."))


def save_key(ctx, endpoint: str, key: str) -> bool:
    """Keep the key in the password container (store_secret); an empty key forgets it."""
    return store_secret(ctx, key_url(endpoint), KEY_USER, key)


def find_secret(ctx, url: str, user: str) -> str:
    """The secret kept for exactly ``url`` and ``user``, or "" when there is none; raises
    when the container will not give it (a cancelled master-password prompt)."""
    record = password_container(ctx).findForName(url, user, interaction_handler(ctx))
    # find* strips path segments until something matches: insist on our exact URL.
    if record is None or record.Url != url:
        return ""
    for entry in record.UserList:
        if entry.UserName == user and entry.Passwords:
            return entry.Passwords[0]
    return ""


def store_secret(ctx, url: str, user: str, secret: str) -> bool:
    """Keep a secret in the password container, persistently when LibreOffice allows it.

    A fresh profile has persistent password storage off and no master
    password. Then we turn storage on protected by LibreOffice's default master
    password, which is what Tools > Options > Security does when the user
    ticks "Persistently save passwords" without a master password; a user who
    set a master password is asked for it by LibreOffice's own prompt. If that
    still fails (prompt cancelled), the secret is kept for this session only.
    Returns True when it was stored persistently (or, empty, forgotten).
    """
    container = password_container(ctx)
    handler = interaction_handler(ctx)
    # Always drop the old value first: an empty secret means "forget it".
    for remove in (container.remove, container.removePersistent):
        try:
            remove(url, user)
        except Exception:  # no such record, or storage locked: nothing to drop
            pass
    if not secret:
        return True
    if not container.isPersistentStoringAllowed():
        container.allowPersistentStoring(True)
    if not container.hasMasterPassword():
        container.useDefaultMasterPassword(handler)
    try:
        container.addPersistent(url, user, (secret,), handler)
        return True
    except Exception:  # NoMasterException: the user cancelled the master password prompt
        container.add(url, user, (secret,), handler)
        return False

"""``build.py admin-config``: an administrator's settings for Marginalia, locked or not (pure).

Writes a configuration-only extension (``.oxt``; or with ``--out X.xcu`` just
its data file) that sets Marginalia's values and finalizes the locked ones.

Why an extension and not an ``.xcd`` in LibreOffice's share/registry folder
(verified on LibreOffice 7.4, Debian): configmgr reads its layers in order, the
share/registry ``.xcd`` files first and extensions after, and data for a
component whose schema is not yet known is dropped. Marginalia's schema comes
with its extension, so an ``.xcd`` there is ignored; one carrying a copy of the
schema works, but the first schema read wins, so it would hide every setting a
later Marginalia adds. Installed with ``unopkg add --shared`` beside a shared
Marginalia, the admin extension's data is read in the same layer, after all its
schemas, and every user's own layer comes later still, so a finalized value wins.
"""

import argparse
import io
import re
import sys
import zipfile
from typing import Dict, Iterable, List, NamedTuple, Optional
from urllib.parse import urlsplit
from xml.etree import ElementTree
from xml.sax.saxutils import escape, quoteattr

from marginalia.chat.endpoint import Endpoint
from marginalia.errors import ConfigError

OOR = "{http://openoffice.org/2001/registry}"
# The groups of the schema an administrator sets: the user's choices and the policy
# (not learnt state or the prompts).
GROUPS = ("Connection", "Chat", "Mcp", "Policy")
LIST = "oor:string-list"
IDENTIFIER = "org.marginalia.admin"
ZIP_DATE = (2026, 1, 1, 0, 0, 0)


class Field(NamedTuple):
    group: str
    name: str
    type: str          # the schema's oor:type: xs:string, xs:boolean, xs:int, xs:double
    default: Optional[str]


class AdminConfigError(ValueError):
    """A field or value the schema does not allow; the message says which."""


def schema_fields(xcs_text: str) -> List[Field]:
    """The settings an administrator can set, from registry/Marginalia.xcs, in its order."""
    root = ElementTree.fromstring(xcs_text)
    out = []
    for group in root.find("component"):
        if group.get(OOR + "name") not in GROUPS:
            continue
        for prop in group:
            value = prop.find("value")
            out.append(Field(group.get(OOR + "name"), prop.get(OOR + "name"),
                             prop.get(OOR + "type"),
                             None if value is None else (value.text or "")))
    return out


def check_value(field: Field, text: str) -> str:
    """The value as the registry writes it; raises AdminConfigError for a wrong one."""
    text = text.strip() if field.type != "xs:string" else text
    if field.type == LIST:
        # Written with oor:separator=" ": the items are URLs and hosts, never with spaces.
        return " ".join(item for item in text.replace(",", " ").split() if item)
    if field.type == "xs:boolean":
        if text.lower() not in ("true", "false"):
            raise AdminConfigError("%s is true or false, not %r" % (field.name, text))
        return text.lower()
    try:
        if field.type == "xs:int":
            return str(int(text))
        if field.type == "xs:double":
            return repr(float(text))
    except ValueError:
        raise AdminConfigError("%s is a number, not %r" % (field.name, text))
    return text


# An allowed-endpoints entry without a scheme is a host, optionally with a port: that is
# all policy._matches compares it with (a path there would never match).
_HOST_ENTRY = re.compile(r"^[A-Za-z0-9_]([A-Za-z0-9_.-]*)(:[0-9]{1,5})?$")


def address_problem(text: str, host_allowed: bool = False) -> str:
    """Why ``text`` is no model server's address, or "" when it is one.

    Stricter than chat.endpoint.Endpoint, which guesses a scheme for what a user
    pastes: an administrator's value goes to every user unseen, so a typo such as
    "htp//llm example.org" (which Endpoint would read as host "htp") is refused.
    ``host_allowed``: an allowed-endpoints entry may also be a bare host[:port].
    """
    if not text.strip():
        return "it is empty"
    if re.search(r"\s", text.strip()):
        return "it has a space in it"
    if "://" not in text:
        if host_allowed and _HOST_ENTRY.match(text):
            return ""
        return "it does not start with http:// or https://"
    try:
        parts = urlsplit(text)
        parts.port
    except ValueError:
        return "its port is not a number from 0 to 65535"
    if parts.scheme.lower() not in ("http", "https"):
        return "it starts with %s://, not http:// or https://" % parts.scheme
    if not parts.hostname:
        return "it has no host name"
    if parts.username or parts.password:
        return "it holds a user name or password; a key goes in --key-env or --key-file"
    try:
        Endpoint(text)         # the transport's own reading, as every user's chat will use
    except ConfigError as exc:
        return str(exc).rstrip(".")
    return ""


def endpoint_problems(values: Dict[str, str]) -> List[str]:
    """One sentence for each bad address among the endpoint and the allowed endpoints."""
    out = []
    endpoint = values.get("endpoint")
    if endpoint is not None:
        why = address_problem(endpoint)
        if why:
            out.append("the endpoint %r is not a model server's address (%s): give a URL "
                       "such as https://llm.example.org/v1" % (endpoint, why))
    for entry in (values.get("allowed_endpoints") or "").replace(",", " ").split():
        why = address_problem(entry, host_allowed=True)
        if why:
            out.append("the allowed endpoint %r is not a model server's address (%s): give "
                       "a URL such as https://llm.example.org/v1 or a host such as gpu01 "
                       "or gpu01:8000" % (entry, why))
    return out


def admin_xcu(fields: List[Field], values: Dict[str, str], lock: Iterable[str]) -> str:
    """The component data: ``values`` set, the ``lock`` ones finalized.

    A locked field without a value of its own is locked at the schema's default,
    written out so the file says what every user gets.
    """
    by_name = dict((f.name, f) for f in fields)
    locked = set(lock)
    for name in sorted(set(values) | locked):
        if name not in by_name:
            raise AdminConfigError("there is no setting %r; the settings are: %s"
                                   % (name, ", ".join(f.name for f in fields)))
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<!-- Written by `python3 build.py admin-config`. -->',
             '<oor:component-data xmlns:oor="http://openoffice.org/2001/registry"',
             '    xmlns:xs="http://www.w3.org/2001/XMLSchema"',
             '    oor:name="Settings" oor:package="org.marginalia">']
    for group in GROUPS:
        props = []
        for field in (f for f in fields if f.group == group):
            if field.name not in values and field.name not in locked:
                continue
            value = values.get(field.name, field.default)
            final = ' oor:finalized="true"' if field.name in locked else ""
            separator = ' oor:separator=" "' if field.type == LIST else ""
            body = "" if value is None else "<value%s>%s</value>" % (
                separator, escape(check_value(field, value)))
            props.append('    <prop oor:name=%s%s>%s</prop>'
                         % (quoteattr(field.name), final, body))
        if props:
            lines += ['  <node oor:name="%s">' % group] + props + ["  </node>"]
    lines.append("</oor:component-data>")
    return "\n".join(lines) + "\n"


DESCRIPTION = """<?xml version="1.0" encoding="UTF-8"?>
<description xmlns="http://openoffice.org/extensions/description/2006"
             xmlns:xlink="http://www.w3.org/1999/xlink">
  <identifier value="%s"/>
  <version value="%s"/>
  <display-name><name lang="en">Marginalia: settings from your administrator</name></display-name>
</description>
"""
MANIFEST = """<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="http://openoffice.org/2001/manifest">
  <manifest:file-entry manifest:full-path="registry/MarginaliaAdmin.xcu"
                       manifest:media-type="application/vnd.sun.star.configuration-data"/>
</manifest:manifest>
"""


def admin_extension(xcu: str, version: str = "1") -> bytes:
    """A configuration-only .oxt holding ``xcu``, for ``unopkg add --shared``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in (("description.xml", DESCRIPTION % (IDENTIFIER, escape(version))),
                           ("META-INF/manifest.xml", MANIFEST),
                           ("registry/MarginaliaAdmin.xcu", xcu)):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, text.encode("utf-8"))
    return buffer.getvalue()


def parse_args(argv: List[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="build.py admin-config", description=(
        "Write an administrator's Marginalia settings as a configuration extension "
        "(install it with `unopkg add --shared`, beside a shared Marginalia)."))
    parser.add_argument("--endpoint", required=True, help="the model server's URL")
    parser.add_argument("--model", required=True, help="the model's name on that server")
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                        help="any other setting (repeatable)")
    parser.add_argument("--lock", action="append", nargs="+", default=[], metavar="FIELD",
                        help="settings users cannot change")
    policy = parser.add_argument_group("policy (always locked: see docs/ADMIN.md)")
    policy.add_argument("--allow-endpoint", action="append", default=[], metavar="URL_OR_HOST",
                        help="a model server users may use (repeatable); no other is allowed")
    policy.add_argument("--local-only", action="store_true",
                        help="only servers on the computer or the local network")
    policy.add_argument("--selection-only", action="store_true",
                        help="the model sees only the user's selection")
    policy.add_argument("--chat-days", type=int, metavar="N",
                        help="keep chats N days; 0: never keep them")
    policy.add_argument("--no-test-connection", action="store_true",
                        help="turn off Test connection")
    policy.add_argument("--allow-outside-agents", action="store_true",
                        help="serve outside agents (MCP) although --local-only or "
                             "--allow-endpoint is given")
    policy.add_argument("--agents", choices=("off", "read", "comment", "suggest", "edit"),
                        help="the most an outside agent's token may do (off: no outside "
                             "agents at all)")
    policy.add_argument("--key-env", metavar="NAME",
                        help="the API key comes from this environment variable")
    policy.add_argument("--key-file", metavar="PATH",
                        help="the API key comes from this file")
    parser.add_argument("--version", default="1",
                        help="the extension's version: raise it to replace an older one")
    parser.add_argument("--out", help="the .oxt (default dist/marginalia-admin.oxt) or an .xcu")
    return parser.parse_args(argv)


def policy_values(args: argparse.Namespace) -> Dict[str, str]:
    """The policy options given, as Policy settings; a policy users could change would be
    none, so main() locks every one given."""
    out = {}
    if args.allow_endpoint:
        out["allowed_endpoints"] = " ".join(args.allow_endpoint)
    for flag, name, value in ((args.local_only, "local_only", "true"),
                              (args.selection_only, "selection_only", "true"),
                              (args.no_test_connection, "allow_test_connection", "false"),
                              (args.allow_outside_agents, "allow_outside_agents", "true")):
        if flag:
            out[name] = value
    for given, name in ((args.chat_days, "chat_days"), (args.key_env, "api_key_env"),
                        (args.key_file, "api_key_file"), (args.agents, "agents_scope")):
        if given is not None:
            out[name] = str(given)
    return out


def key_problem(values: Dict[str, str], locks: Iterable[str]) -> str:
    """Why the administrator's key may not be given, or "": Marginalia gives that key only
    to the administrator's server (policy.admin_key_applies), so one must be named, by
    the locked endpoint or an allowed-endpoints list."""
    if not (values.get("api_key_env") or values.get("api_key_file") or "").strip():
        return ""
    if "endpoint" in locks or (values.get("allowed_endpoints") or "").strip():
        return ""
    return ("--key-env and --key-file need --lock endpoint or --allow-endpoint: the "
            "administrator's key is only for the administrator's server")


def main(argv: List[str], xcs_path: str, default_out: str) -> int:
    args = parse_args(argv)
    values = {"endpoint": args.endpoint, "model": args.model}
    for item in args.set:
        name, sep, value = item.partition("=")
        if not sep:
            sys.stderr.write("--set takes FIELD=VALUE, not %r\n" % item)
            return 2
        values[name.strip()] = value
    rules = policy_values(args)
    values.update(rules)
    locks = [n for group in args.lock for n in group] + list(rules)
    problems = endpoint_problems(values) + [p for p in [key_problem(values, locks)] if p]
    if problems:
        for problem in problems:
            sys.stderr.write("admin-config: %s; nothing was written.\n" % problem)
        return 2
    with open(xcs_path, encoding="utf-8") as fh:
        fields = schema_fields(fh.read())
    try:
        xcu = admin_xcu(fields, values, locks)
    except AdminConfigError as exc:
        sys.stderr.write("admin-config: %s\n" % exc)
        return 2
    out = args.out or default_out
    data = xcu.encode("utf-8") if out.endswith(".xcu") else admin_extension(xcu, args.version)
    with open(out, "wb") as fh:
        fh.write(data)
    print("wrote %s" % out)
    return 0

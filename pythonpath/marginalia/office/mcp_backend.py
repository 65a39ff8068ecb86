"""The office's MCP Backend: Marginalia's document tools for agents outside the office.

Tools: ``list_documents`` (the open Writer documents: id and title) and every
document tool of the one declaration per tool (document.tool_specs) with a
``document`` argument added: the id list_documents gives (the document's
RuntimeUID, stable while it is open). It may be left out while exactly one
Writer document is open. Each call runs through office.mcp_turns: a
WriterToolbox on the main thread, the agent's calls within a few seconds one
turn (one undo step, its name as the tracked changes' author), the apply mode
the stricter of the mcp_apply_mode setting and the scope of the agent's token
(mcp.scopes.apply_mode: comment-only edits become comment proposals), keep-out
marks refused by the toolbox as for the panel, unless the user allows the one call when
asked (writer.consent says what to ask, mcp.questions how; the panel shows the question,
office.agent_banner, and a client that shows forms gets it too). Each tool is declared
with MCP's readOnlyHint, which the protocol reads to keep a read-only token to the
reading tools; a call reaching here under that scope anyway is refused again.

Each tools/call and resources/read is recorded as it ends (note_call, office.agent_calls):
the agent, its token's name, the tool, the document's title, the outcome; no text.

Resources: each open document's text as read_document shows it
(marginalia://document/<id>), read outside any agent turn. Prompts: the prompt library (office.prompt_store).

Threads: the server calls these methods on its HTTP threads; every UNO call
goes to the main thread (office.mainthread.run_sync). Refusals are
mcp.backend.McpRefusal sentences; a tool's own failure is a result with
isError, as the model in the panel reads it.
"""

import logging
import threading
from typing import Any, Dict, List, Optional

from marginalia.document import change_log as cl
from marginalia.document import tool_specs
from marginalia.mcp import questions, scopes
from marginalia.mcp.backend import (Backend, BadRequestState, Client, McpRefusal, UnknownName,
                                    text_result)
from marginalia.office import agent_questions, mainthread, mcp_turns
from marginalia.office.agent_questions import QUESTIONS

log = logging.getLogger("marginalia.mcp")

LIST_DOCUMENTS = "list_documents"
RESOURCE_PREFIX = "marginalia://document/"
DOCUMENT_PARAM = {
    "type": "string",
    "description": ("The document's id, as list_documents gives it. May be left out when "
                    "exactly one Writer document is open."),
}
NO_DOCUMENT = "No Writer document is open in LibreOffice."
WHICH = ("%d Writer documents are open: give the document argument (its id from "
         "list_documents).")
UNKNOWN_DOCUMENT = ("No open Writer document has the id %r (it may have been closed); call "
                    "list_documents to see the open documents.")
FAULT = "Writer could not do that; nothing was changed."
# Questions one call may raise in a row (a kept-out passage, then a large deletion).
ROUNDS = 3


def open_documents(ctx) -> List[Any]:
    """(id, title, model) of each open Writer document; main thread."""
    from marginalia.office.writer_docs import writer_documents
    return [(str(doc.RuntimeUID), doc.getTitle(), doc) for doc in writer_documents(ctx)]


def _with_document(schema):
    out = dict(schema or {"type": "object", "properties": {}})
    out["properties"] = dict(out.get("properties") or {}, document=DOCUMENT_PARAM)
    return out


def _turn_session(client: Client) -> str:
    """What tells one agent's turn from another's besides its name: its MCP session, which
    only the token that opened it can use; for a stateless agent (2026-07-28), its token and
    name. Two agents of one name with tokens of different scopes never share a turn, whose
    toolbox was made for the first one's scope."""
    return client.session_id or "%s@%s" % (client.grant.id, client.label)


class OfficeBackend(Backend):
    """The document tools, resources and prompts of one office process."""

    instructions = ("Marginalia edits the documents open in the user's LibreOffice Writer, "
                    "with the same safety as its own assistant: each of your turns is one "
                    "Undo step, edits may arrive as tracked changes or comments the user "
                    "reviews, and passages the user kept out are refused. Call list_documents "
                    "first, read before you edit, and give the document id when several "
                    "documents are open.")

    def __init__(self, ctx, rules=None) -> None:
        self.ctx = ctx
        # The administrator's policy (marginalia.policy): selection only leaves the
        # selection's tools.
        self.rules = rules
        self._tools = self._declare()
        # id -> model of the documents seen open: a call naming one skips the look-up (a
        # main-thread round trip); the toolbox finds out itself when it was closed since.
        self._seen = {}
        self._names = {}        # id -> title of the documents seen open, for the call log
        self._here = threading.local()      # the title of the document this thread's call is on

    def _declare(self):
        tools = [{"name": LIST_DOCUMENTS,
                  "description": ("The Writer documents open in LibreOffice: their ids (the "
                                  "document argument of the other tools) and titles."),
                  "inputSchema": {"type": "object", "properties": {}},
                  "annotations": {"readOnlyHint": True}}]
        from marginalia import policy
        # The full tool set: agents are large models that drive the tools themselves.
        for spec in tool_specs.offered(tool_specs.TOOLS):
            if self.rules is not None and not policy.offers(self.rules, spec.name):
                continue
            tools.append({"name": spec.name, "description": spec.description,
                          "inputSchema": _with_document(spec.parameters),
                          "annotations": {"readOnlyHint": not spec.edits}})
        return tools

    def refusal(self, client: Client) -> Optional[str]:
        """A stopped agent's lists and prompts are refused as its tool calls are."""
        if mcp_turns.is_stopped(client.label, client.session_id):
            return mcp_turns.STOPPED
        return None

    # -- tools ----------------------------------------------------------------------
    def tools(self) -> List[Dict[str, Any]]:
        return self._tools

    def call_tool(self, client: Client, name: str, arguments: Dict[str, Any]):
        if mcp_turns.is_stopped(client.label, client.session_id):
            raise McpRefusal(mcp_turns.STOPPED)
        if name == LIST_DOCUMENTS:
            return text_result(self._list())
        if name not in set(t["name"] for t in self._tools):
            raise UnknownName("There is no tool named %s." % name)
        spec = tool_specs.spec(name)
        if spec is not None and spec.edits and client.grant.scope == scopes.READ:
            raise McpRefusal(scopes.READ_ONLY)
        arguments = dict(arguments or {})
        call_key = questions.call_key(client.grant.id, name, arguments)
        key, doc = self._document(arguments.pop("document", None))
        self._here.title = self._names.get(key, "")
        state, responses = client.reply
        if state is None:
            question = QUESTIONS.find(call_key)
        else:
            question = QUESTIONS.issued(state, call_key)
            if question is None:
                raise BadRequestState(questions.BAD_STATE)
        allowed = questions.NOTHING
        for _round in range(ROUNDS):
            if question is not None:
                answer = self._answer(client, question, responses)
                if answer is None:
                    self._here.asked = True         # the call log says: asked the user
                    if client.forms and not question.elicited:
                        question.elicited = True
                        return questions.input_required(question)
                    return text_result(questions.PENDING % question.ask.reason(), True)
                if not answer:      # kept, so the same call made again is not asked again
                    return text_result(questions.REFUSED % question.ask.reason(), True)
                QUESTIONS.use(question)
                allowed, responses = question.allowed.plus(question.ask), None
            result, asked = self._turn_call(client, name, key, doc, arguments, allowed)
            if asked is None:
                return text_result(result.content, is_error=not result.ok)
            question = QUESTIONS.ask(call_key, asked, client.label, key, self._here.title,
                                     allowed)
        return text_result(result.content, is_error=True)

    def _answer(self, client: Client, question, responses) -> Optional[bool]:
        """The user's answer to ``question``: given already, in the retried call's form, or
        in the panel within agent_questions.wait_seconds (None: not yet). A client that
        shows forms is sent the form first (the caller does), without waiting."""
        if question.answer is None and client.forms and question.elicited:
            said = questions.answer_of(responses)
            if said is not None:
                QUESTIONS.answer(question.id, said, agent_questions.CLIENT)
        if question.answer is None and not (client.forms and not question.elicited):
            QUESTIONS.wait(question, agent_questions.wait_seconds[0])
        return question.answer

    def _turn_call(self, client, name, key, doc, arguments, allowed):
        try:
            return mcp_turns.call(self.ctx, client.label, _turn_session(client), key, doc,
                                  name, arguments,
                                  lambda agent: self._toolbox(doc, agent, client.grant.scope),
                                  allowed)
        except mcp_turns.DocumentClosed as exc:
            self._seen.pop(key, None)
            raise McpRefusal(str(exc))
        except (mcp_turns.Stopped, mcp_turns.PanelBusy) as exc:
            raise McpRefusal(str(exc))

    def _list(self) -> str:
        import json
        docs = self._open_documents()
        return json.dumps({"documents": [{"id": key, "title": title} for key, title
                                         in zip([d[0] for d in docs], self._titles(docs))]},
                          ensure_ascii=False)

    def _open_documents(self):
        docs = mainthread.run_sync(self.ctx, lambda: open_documents(self.ctx))
        self._seen = dict((key, doc) for key, _title, doc in docs)
        self._names = dict((key, title) for key, title, _doc in docs)
        return docs

    def note_call(self, client: Client, tool: str, arguments: Dict[str, Any],
                  outcome: str) -> None:
        from marginalia.mcp import call_log
        from marginalia.office import agent_calls
        title, self._here.title = getattr(self._here, "title", ""), ""
        if getattr(self._here, "asked", False):
            self._here.asked, outcome = False, call_log.ASKED
        # A call refused before it reached call_tool (the token's scope) names its document.
        title = title or self._names.get(str((arguments or {}).get("document", "")), "")
        agent_calls.record(client.label, client.grant.name, tool, title, outcome)

    def _titles(self, docs):
        """The titles agents are told: none under the administrator's selection only."""
        from marginalia import policy
        titles = [title for _key, title, _doc in docs]
        return titles if self.rules is None else policy.document_titles(self.rules, titles)

    def _document(self, wanted: Optional[str]):
        """(id, model) of the document a call names, or the only one open."""
        known = self._seen.get(str(wanted)) if wanted not in (None, "") else None
        if known is not None:
            return str(wanted), known
        docs = self._open_documents()
        if wanted in (None, ""):
            if not docs:
                raise McpRefusal(NO_DOCUMENT)
            if len(docs) > 1:
                raise McpRefusal(WHICH % len(docs))
            return docs[0][0], docs[0][2]
        for key, _title, doc in docs:
            if key == str(wanted):
                return key, doc
        raise McpRefusal(UNKNOWN_DOCUMENT % str(wanted)[:80])

    def _toolbox(self, doc, agent, scope=scopes.READ):
        """A WriterToolbox for an agent's turn: the stricter of the outside agents' apply
        mode and the token's ``scope``, the administrator's policy, the agent's author
        name. A read-only scope's toolbox makes no edit: its mode is Comment only."""
        from marginalia.office import settings_store
        from marginalia.writer.toolbox import WriterToolbox
        from marginalia.writer.turn import agent_author

        def settings():
            saved = settings_store.load(self.ctx, with_key=False)
            mode = scopes.apply_mode(scope, saved.mcp_apply_mode) or cl.COMMENTS
            # Agents get the tools protocol's full set (what tools() lists), whatever the
            # chat's own edit protocol is.
            return saved.copy(edit_protocol=tool_specs.TOOLS, **cl.mode_fields(mode)), \
                settings_store.load_policy(self.ctx)
        values, rules = mainthread.run_sync(self.ctx, settings)
        return WriterToolbox(self.ctx, doc, values,
                             lambda fn: mainthread.run_sync(self.ctx, fn), rules,
                             author=agent_author(agent),
                             post=lambda fn: mainthread.post(self.ctx, fn))

    # -- resources ------------------------------------------------------------------
    def resources(self) -> List[Dict[str, Any]]:
        try:
            docs = self._open_documents()
        except Exception:
            log.exception("could not list the documents")
            return []
        return [{"uri": RESOURCE_PREFIX + key, "name": title, "title": title,
                 "description": "The document's text as read_document shows it.",
                 "mimeType": "text/plain"}
                for key, title in zip([d[0] for d in docs], self._titles(docs))]

    def read_resource(self, client: Client, uri: str):
        """The document's text as read_document shows it, read on the main thread outside
        any turn: a read must not open an agent turn, nor close another agent's."""
        from marginalia.errors import Cancelled
        if not uri.startswith(RESOURCE_PREFIX):
            raise UnknownName("There is no resource at %s." % uri[:120])
        if mcp_turns.is_stopped(client.label, client.session_id):
            raise McpRefusal(mcp_turns.STOPPED)
        key, doc = self._document(uri[len(RESOURCE_PREFIX):])
        self._here.title = self._names.get(key, "")
        try:
            result = self._toolbox(doc, client.label).registry.call("read_document", {})
        except Cancelled:
            self._seen.pop(key, None)
            raise McpRefusal(mcp_turns.CLOSED)
        if not result.ok:
            raise McpRefusal(result.content)
        return {"contents": [{"uri": uri, "mimeType": "text/plain", "text": result.content}]}

    # -- prompts --------------------------------------------------------------------
    def _library(self):
        from marginalia.office import prompt_store
        from marginalia import prompt_library as pl
        return pl.visible(mainthread.run_sync(self.ctx, lambda: prompt_store.load(self.ctx)))

    def prompts(self) -> List[Dict[str, Any]]:
        try:
            library = self._library()
        except Exception:
            log.exception("could not read the prompt library")
            return []
        out = []
        for prompt in library:
            entry = {"name": prompt.key, "title": prompt.name,
                     "description": prompt.instruction}
            if prompt.takes_argument:
                entry["arguments"] = [{"name": "argument", "required": True,
                                       "description": "What the prompt asks for "
                                                      "(Translate: the language)."}]
            out.append(entry)
        return out

    def get_prompt(self, client: Client, name: str, arguments: Dict[str, str]):
        for prompt in self._library():
            if prompt.key != name:
                continue
            text = prompt.instruction
            if prompt.takes_argument:
                text = text.replace("{argument}", (arguments or {}).get("argument", "")
                                    or "the language the user names")
            return {"description": prompt.name, "messages": [
                {"role": "user", "content": {"type": "text", "text": text}}]}
        raise UnknownName("There is no prompt named %s." % name)

    def session_ended(self, client: Client) -> None:
        """The agent's session ended: its open turns close now rather than after IDLE (its
        own only: another agent's turn may have taken the document meanwhile)."""
        mcp_turns.end_session(client.session_id)

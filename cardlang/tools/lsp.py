"""`cardlang lsp`: the language server (pygls, over stdio). It answers from `cardlang.tools.analysis`
and only converts: LSP counts lines and columns from 0, the parser from 1.

Every request is answered, with a result or a JSON-RPC error of one line (never a traceback):
parameters that are not LSP's (a negative position) get `InvalidParams`, a request the server cannot
carry out (a rename to a word that is no name, a document it may not read) `RequestFailed`. The
server reads the documents the editor opened, and from disk only regular rule files of the
workspace, within the size limit of every rule file (`lang.files.read_source`): never a FIFO, a
device or a file outside the workspace the editor did not open.
"""

from __future__ import annotations

import functools
import logging
import os
from typing import Optional
from urllib.parse import unquote

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException, JsonRpcInternalError, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import from_fs_path, to_fs_path

from ..lang.diagnostics import Span
from ..lang.files import inside, read_source
from ..lang.report import DOCS_URI
from . import analysis
from .analysis import Analysis, RenameError, Unreadable
from .fmt import FormatError, format_source

_COMPLETION_KINDS = {
    "keyword": lsp.CompletionItemKind.Keyword, "phase": lsp.CompletionItemKind.Function,
    "define": lsp.CompletionItemKind.Function, "zone": lsp.CompletionItemKind.Folder,
    "pzone": lsp.CompletionItemKind.Folder, "var": lsp.CompletionItemKind.Variable,
    "pvar": lsp.CompletionItemKind.Variable, "tvar": lsp.CompletionItemKind.Variable,
    "local": lsp.CompletionItemKind.Variable,
    "option": lsp.CompletionItemKind.Constant, "order": lsp.CompletionItemKind.Enum,
    "ranking": lsp.CompletionItemKind.Enum, "rank": lsp.CompletionItemKind.EnumMember,
    "suit": lsp.CompletionItemKind.EnumMember, "colour": lsp.CompletionItemKind.EnumMember, "builtin": lsp.CompletionItemKind.Function,
    "word": lsp.CompletionItemKind.Value,
}
_SYMBOL_KINDS = {
    "phase": lsp.SymbolKind.Function, "setup": lsp.SymbolKind.Event, "round": lsp.SymbolKind.Event,
    "define": lsp.SymbolKind.Function, "option": lsp.SymbolKind.Property, "zone": lsp.SymbolKind.Array,
    "var": lsp.SymbolKind.Variable, "pvar": lsp.SymbolKind.Variable, "tvar": lsp.SymbolKind.Variable,
    "order": lsp.SymbolKind.Enum,
    "ranking": lsp.SymbolKind.Enum, "game": lsp.SymbolKind.Module, "score": lsp.SymbolKind.Number,
}


def to_range(span: Span) -> lsp.Range:
    """An LSP range (from 0) for a span (from 1, end exclusive)."""
    return lsp.Range(lsp.Position(max(0, span.line - 1), max(0, span.column - 1)),
                     lsp.Position(max(0, span.end_line - 1), max(0, span.end_column - 1)))


def to_diagnostic(d) -> lsp.Diagnostic:
    """A cardlang diagnostic as LSP shows it: the same code, range, message and help as `check`."""
    message = d.message + "".join(f"\nnote: {n}" for n in d.notes) + (f"\nhelp: {d.help}" if d.help else "")
    fix = analysis.suggestion(d)
    return lsp.Diagnostic(
        range=to_range(d.span), message=message, code=d.code, source="cardlang",
        severity=lsp.DiagnosticSeverity.Error if d.is_error else lsp.DiagnosticSeverity.Warning,
        code_description=lsp.CodeDescription(href=f"{DOCS_URI}#{d.code.lower()}"),
        data={"replacement": fix} if fix else None,
    )


class RequestFailed(JsonRpcException):
    """LSP's RequestFailed: the request was understood, and cannot be carried out (the text says why)."""

    CODE = lsp.LSPErrorCodes.RequestFailed.value


_ANSWERED = object()  # a message the protocol has answered already (its parameters were not LSP's)


class _Protocol(LanguageServerProtocol):
    """pygls' protocol, answering a request whose parameters do not fit LSP's types (a negative or huge
    position) with InvalidParams: pygls itself only logs it, and the editor would wait for ever."""

    def structure_message(self, data):
        try:
            return super().structure_message(data)
        except JsonRpcException:
            if not (isinstance(data, dict) and "method" in data and "id" in data):
                raise  # a notification or a response: nobody waits for an answer
            msg_id = data["id"] if type(data["id"]) in (int, str) else None
            method = str(data["method"])[:100]
            self._send_response(msg_id, None, JsonRpcInvalidParams(
                f"the parameters of {method} are not valid LSP parameters (a position is two whole "
                f"numbers from 0 to {2 ** 31 - 1})").to_response_error())
            return _ANSWERED

    def handle_message(self, message):
        if message is not _ANSWERED:
            super().handle_message(message)


def _answering(handler):
    """Every request gets an answer: a result, or a one-line JSON-RPC error, never a traceback."""

    @functools.wraps(handler)
    def answer(ls, params):
        try:
            return handler(ls, params)
        except JsonRpcException:
            raise
        except (RenameError, Unreadable) as e:  # (a new name typed may hold a line break)
            raise RequestFailed("".join(c if c.isprintable() else repr(c)[1:-1] for c in str(e))) from None
        except Exception as e:  # noqa: BLE001 - a bug answers as an error, and the server goes on
            logging.exception("cardlang: %s failed", handler.__name__)
            raise JsonRpcInternalError(f"cardlang could not answer this request ({type(e).__name__})") from None
    return answer


class CardsServer(LanguageServer):
    """The server: the last analysis of each open document."""

    def __init__(self):
        super().__init__("cardlang", "0.1.0", protocol_cls=_Protocol)
        self.analyses: dict = {}

    def workspace_folders(self) -> list:
        """The workspace's folders (the root and every folder the editor named), symbolic links resolved."""
        ws = self.workspace
        paths = [ws.root_path] + [to_fs_path(f.uri) for f in ws.folders.values()]
        return [os.path.realpath(p) for p in paths if p]

    def readable(self, path: str) -> bool:
        """Whether a file not open in the editor may be read: it lies in the workspace."""
        real = os.path.realpath(path)
        return any(inside(real, folder) for folder in self.workspace_folders())

    def text_of(self, uri: str) -> tuple:
        """(the text, the path) of a document: open in the editor, or a rule file of the workspace read
        from disk (bounded; a regular file only). `RequestFailed` for any other."""
        doc = self.workspace.text_documents.get(unquote(uri))
        path = to_fs_path(uri) if uri.startswith("file:") else None
        if doc is not None:
            return doc.source, path or uri
        if path is None or not self.readable(path):
            raise RequestFailed(f"{uri[:200]} is not open in the editor nor a file of the workspace: "
                                "the cardlang server reads no other file")
        text, problems = read_source(path)
        if text is None:
            raise RequestFailed(f"{uri[:200]}: {problems[0].message if problems else 'cannot be read'}")
        return text, path

    def analyse(self, uri: str) -> Analysis:
        """Checks an open document again (its bases as open in the editor, or from disk)."""
        text, path = self.text_of(uri)
        opened = {os.path.normpath(to_fs_path(u) or u): d for u, d in self.workspace.text_documents.items()}

        def read(file: str) -> Optional[str]:
            d = opened.get(os.path.normpath(file))
            if d is not None:
                return d.source
            if not self.readable(file):
                raise Unreadable(f"{file} is outside the editor's workspace and not open in it: the language "
                                 "server does not read it (open it, or add its folder to the workspace)")
            return None

        try:
            result = analysis.analyse(text, path, read, self.analyses.get(uri))
        except Exception:  # noqa: BLE001 - a bug must not take the editor's server down
            logging.exception("cardlang: analysis failed")
            return self.analyses.get(uri) or analysis.analyse("", path)
        self.analyses[uri] = result
        return result

    def publish(self, uri: str, version: Optional[int]) -> None:
        """Checks a document and sends its diagnostics (none for a document it may not read)."""
        try:
            a = self.analyse(uri)
        except RequestFailed as e:
            logging.warning("cardlang: %s", e.message)
            return
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
            uri=uri, version=version, diagnostics=[to_diagnostic(d) for d in analysis.own_diagnostics(a)]))

    def current(self, uri: str) -> Analysis:
        """The last analysis of a document (made now if there is none)."""
        return self.analyses.get(uri) or self.analyse(uri)


server = CardsServer()


def _location(span: Span) -> lsp.Location:
    return lsp.Location(uri=from_fs_path(os.path.abspath(span.file)), range=to_range(span))


def _at(params) -> tuple:
    a = server.current(params.text_document.uri)
    return a, params.position.line + 1, params.position.character + 1


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: CardsServer, params: lsp.DidOpenTextDocumentParams) -> None:
    """Diagnostics as soon as a file is opened."""
    ls.publish(params.text_document.uri, params.text_document.version)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: CardsServer, params: lsp.DidChangeTextDocumentParams) -> None:
    """Diagnostics on every change, of the file and of the open variants that extend it."""
    uri = params.text_document.uri
    ls.publish(uri, params.text_document.version)
    changed = os.path.normpath(to_fs_path(uri) or uri)
    for other, a in list(ls.analyses.items()):  # the open variants of this file see the change too
        if other != uri and changed in a.files:
            ls.publish(other, None)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: CardsServer, params: lsp.DidCloseTextDocumentParams) -> None:
    """A closed file is forgotten and its diagnostics cleared."""
    ls.analyses.pop(params.text_document.uri, None)
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
@_answering
def hover(ls: CardsServer, params: lsp.HoverParams) -> Optional[lsp.Hover]:
    """What the word under the cursor means."""
    found = analysis.hover(*_at(params))
    if found is None:
        return None
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=found[0]))


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
@_answering
def definition(ls: CardsServer, params: lsp.DefinitionParams) -> Optional[lsp.Location]:
    """Where the name under the cursor is declared."""
    span = analysis.definition(*_at(params))
    return _location(span) if span is not None else None


@server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
@_answering
def references(ls: CardsServer, params: lsp.ReferenceParams) -> list:
    """Every use of the name under the cursor."""
    spans = analysis.references(*_at(params), include_declaration=params.context.include_declaration)
    return [_location(s) for s in spans]


@server.feature(lsp.TEXT_DOCUMENT_RENAME)
@_answering
def rename(ls: CardsServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit:
    """The edits that rename a name everywhere (in this file and its bases)."""
    spans = analysis.rename(*_at(params), params.new_name)  # (a RenameError answers as RequestFailed)
    changes: dict = {}
    for s in spans:
        changes.setdefault(from_fs_path(os.path.abspath(s.file)), []).append(
            lsp.TextEdit(range=to_range(s), new_text=params.new_name))
    return lsp.WorkspaceEdit(changes=changes)


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[" ", "("]))
@_answering
def completion(ls: CardsServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    """What may be typed at the cursor, what the context asks for first."""
    items = [lsp.CompletionItem(label=c.label, kind=_COMPLETION_KINDS.get(c.kind, lsp.CompletionItemKind.Text),
                                detail=c.detail, sort_text=f"{c.rank}{k:04d}")
             for k, c in enumerate(analysis.complete(*_at(params)))]
    return lsp.CompletionList(is_incomplete=False, items=items)


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@_answering
def document_symbols(ls: CardsServer, params: lsp.DocumentSymbolParams) -> list:
    """The outline: the file's declarations and blocks."""
    a = server.current(params.text_document.uri)
    return [lsp.DocumentSymbol(name=s.name, kind=_SYMBOL_KINDS.get(s.kind, lsp.SymbolKind.Object), detail=s.kind,
                               range=to_range(s.span), selection_range=to_range(s.name_span))
            for s in analysis.outline(a)]


@server.feature(lsp.TEXT_DOCUMENT_FOLDING_RANGE)
@_answering
def folding(ls: CardsServer, params: lsp.FoldingRangeParams) -> list:
    """The blocks and comment runs that fold."""
    a = server.current(params.text_document.uri)
    kinds = {"comment": lsp.FoldingRangeKind.Comment, "region": lsp.FoldingRangeKind.Region}
    return [lsp.FoldingRange(start_line=first - 1, end_line=last - 1, kind=kinds[kind])
            for first, last, kind in analysis.folds(a)]


@server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
@_answering
def code_actions(ls: CardsServer, params: lsp.CodeActionParams) -> list:
    """A quick fix for each did-you-mean diagnostic."""
    out = []
    for d in params.context.diagnostics:
        fix = (d.data or {}).get("replacement") if isinstance(d.data, dict) else None
        if d.source != "cardlang" or not fix:
            continue
        edit = lsp.WorkspaceEdit(changes={params.text_document.uri: [lsp.TextEdit(range=d.range, new_text=fix)]})
        out.append(lsp.CodeAction(title=f"replace with `{fix}`", kind=lsp.CodeActionKind.QuickFix,
                                  diagnostics=[d], edit=edit, is_preferred=True))
    return out


@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
@_answering
def formatting(ls: CardsServer, params: lsp.DocumentFormattingParams) -> Optional[list]:
    """The whole document in `cardlang fmt`'s layout (nothing when it does not parse)."""
    source, path = ls.text_of(params.text_document.uri)
    try:
        formatted = format_source(source, path)
    except FormatError:
        return None
    if formatted == source:
        return []
    end = lsp.Position(line=len(source.splitlines(True)), character=0)
    return [lsp.TextEdit(range=lsp.Range(lsp.Position(0, 0), end), new_text=formatted)]


def main() -> None:
    """Serves over stdin and stdout until the client says exit."""
    server.start_io()

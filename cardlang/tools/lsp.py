"""`cardlang lsp`: the language server (pygls, over stdio). It answers from `cardlang.tools.analysis`
and only converts: LSP counts lines and columns from 0, the parser from 1."""

from __future__ import annotations

import logging
import os
from typing import Optional

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from ..lang.diagnostics import Span
from ..lang.report import DOCS_URI
from . import analysis
from .analysis import Analysis, RenameError
from .fmt import FormatError, format_source

_COMPLETION_KINDS = {
    "keyword": lsp.CompletionItemKind.Keyword, "phase": lsp.CompletionItemKind.Function,
    "define": lsp.CompletionItemKind.Function, "zone": lsp.CompletionItemKind.Folder,
    "pzone": lsp.CompletionItemKind.Folder, "var": lsp.CompletionItemKind.Variable,
    "pvar": lsp.CompletionItemKind.Variable, "tvar": lsp.CompletionItemKind.Variable,
    "local": lsp.CompletionItemKind.Variable,
    "option": lsp.CompletionItemKind.Constant, "order": lsp.CompletionItemKind.Enum,
    "ranking": lsp.CompletionItemKind.Enum, "rank": lsp.CompletionItemKind.EnumMember,
    "suit": lsp.CompletionItemKind.EnumMember, "builtin": lsp.CompletionItemKind.Function,
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


class CardsServer(LanguageServer):
    """The server: the last analysis of each open document."""

    def __init__(self):
        super().__init__("cardlang", "0.1.0")
        self.analyses: dict = {}

    def analyse(self, uri: str) -> Analysis:
        """Checks an open document again (its bases as open in the editor, or from disk)."""
        doc = self.workspace.get_text_document(uri)
        path = to_fs_path(uri) or uri
        opened = {os.path.normpath(to_fs_path(u) or u): d for u, d in self.workspace.text_documents.items()}

        def read(file: str) -> Optional[str]:
            d = opened.get(os.path.normpath(file))
            return d.source if d is not None else None

        try:
            result = analysis.analyse(doc.source, path, read, self.analyses.get(uri))
        except Exception:  # noqa: BLE001 - a bug must not take the editor's server down
            logging.exception("cardlang: analysis failed")
            return self.analyses.get(uri) or analysis.analyse("", path)
        self.analyses[uri] = result
        return result

    def publish(self, uri: str, version: Optional[int]) -> None:
        """Checks a document and sends its diagnostics."""
        a = self.analyse(uri)
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
def hover(ls: CardsServer, params: lsp.HoverParams) -> Optional[lsp.Hover]:
    """What the word under the cursor means."""
    found = analysis.hover(*_at(params))
    if found is None:
        return None
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=found[0]))


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def definition(ls: CardsServer, params: lsp.DefinitionParams) -> Optional[lsp.Location]:
    """Where the name under the cursor is declared."""
    span = analysis.definition(*_at(params))
    return _location(span) if span is not None else None


@server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
def references(ls: CardsServer, params: lsp.ReferenceParams) -> list:
    """Every use of the name under the cursor."""
    spans = analysis.references(*_at(params), include_declaration=params.context.include_declaration)
    return [_location(s) for s in spans]


@server.feature(lsp.TEXT_DOCUMENT_RENAME)
def rename(ls: CardsServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit:
    """The edits that rename a name everywhere (in this file and its bases)."""
    try:
        spans = analysis.rename(*_at(params), params.new_name)
    except RenameError as e:
        raise ValueError(str(e)) from None
    changes: dict = {}
    for s in spans:
        changes.setdefault(from_fs_path(os.path.abspath(s.file)), []).append(
            lsp.TextEdit(range=to_range(s), new_text=params.new_name))
    return lsp.WorkspaceEdit(changes=changes)


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[" ", "("]))
def completion(ls: CardsServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    """What may be typed at the cursor, what the context asks for first."""
    items = [lsp.CompletionItem(label=c.label, kind=_COMPLETION_KINDS.get(c.kind, lsp.CompletionItemKind.Text),
                                detail=c.detail, sort_text=f"{c.rank}{k:04d}")
             for k, c in enumerate(analysis.complete(*_at(params)))]
    return lsp.CompletionList(is_incomplete=False, items=items)


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbols(ls: CardsServer, params: lsp.DocumentSymbolParams) -> list:
    """The outline: the file's declarations and blocks."""
    a = server.current(params.text_document.uri)
    return [lsp.DocumentSymbol(name=s.name, kind=_SYMBOL_KINDS.get(s.kind, lsp.SymbolKind.Object), detail=s.kind,
                               range=to_range(s.span), selection_range=to_range(s.name_span))
            for s in analysis.outline(a)]


@server.feature(lsp.TEXT_DOCUMENT_FOLDING_RANGE)
def folding(ls: CardsServer, params: lsp.FoldingRangeParams) -> list:
    """The blocks and comment runs that fold."""
    a = server.current(params.text_document.uri)
    kinds = {"comment": lsp.FoldingRangeKind.Comment, "region": lsp.FoldingRangeKind.Region}
    return [lsp.FoldingRange(start_line=first - 1, end_line=last - 1, kind=kinds[kind])
            for first, last, kind in analysis.folds(a)]


@server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
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
def formatting(ls: CardsServer, params: lsp.DocumentFormattingParams) -> Optional[list]:
    """The whole document in `cardlang fmt`'s layout (nothing when it does not parse)."""
    doc = ls.workspace.get_text_document(params.text_document.uri)
    try:
        formatted = format_source(doc.source, doc.path)
    except FormatError:
        return None
    if formatted == doc.source:
        return []
    end = lsp.Position(line=len(doc.lines), character=0)
    return [lsp.TextEdit(range=lsp.Range(lsp.Position(0, 0), end), new_text=formatted)]


def main() -> None:
    """Serves over stdin and stdout until the client says exit."""
    server.start_io()

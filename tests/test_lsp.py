"""`cardlang lsp` through a real client over pipes: pygls's LanguageClient starts the server as a
subprocess and speaks JSON-RPC to it on its stdin and stdout."""

import asyncio
import os
import sys

import pytest

lsp = pytest.importorskip("lsprotocol.types", reason="the language server needs the `lsp` extra (pygls)")
from pygls.lsp.client import LanguageClient  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402

BASE = '''game "Two errors"
players 2..4
deck standard

zone talon: pile, public
zone hand: per player, private
# Who deals this round.
var dealer: player = none

setup:
    set dealer = random(players)

round:
    move all cards to talon
    shuffle talon
    deal 2 from talon to hand(players)
    set dealr = left of dealer
    dealer chooses:
        "keep":
            pass
        "stop":
            finish
    move top of talom to hand(dealer)

# The game ends with the dealer as winner.
phase finish:
    end game winner dealer
'''
VARIANT = '''game "Variant"
extends "base.cards"

phase finish:
    if top of talon is K:
        end game winner dealer
'''


class Session:
    """A client connected to a `cardlang lsp` subprocess, with the diagnostics it has published."""

    def __init__(self, folder):
        self.folder = folder
        self.client = LanguageClient("cardlang-test", "1")
        self.diagnostics: dict = {}
        self.arrived = asyncio.Event()

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _published(params):
            self.diagnostics[params.uri] = params.diagnostics
            self.arrived.set()

    def uri(self, name):
        return from_fs_path(str(self.folder / name))

    async def start(self):
        await self.client.start_io(sys.executable, "-m", "cardlang.cli", "lsp")
        await self.client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(), root_uri=from_fs_path(str(self.folder))))
        self.client.initialized(lsp.InitializedParams())

    async def open(self, name, text):
        self.arrived.clear()
        self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=self.uri(name), language_id="cards", version=1, text=text)))
        await asyncio.wait_for(self.arrived.wait(), 30)
        return list(self.diagnostics[self.uri(name)])

    async def change(self, name, text, version):
        self.arrived.clear()
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=self.uri(name), version=version),
            [lsp.TextDocumentContentChangeWholeDocument(text=text)]))
        await asyncio.wait_for(self.arrived.wait(), 30)
        return list(self.diagnostics[self.uri(name)])

    def at(self, name, line, character):
        """A document and a position, lines and characters counted from 0 as LSP does."""
        return dict(text_document=lsp.TextDocumentIdentifier(uri=self.uri(name)),
                    position=lsp.Position(line=line, character=character))

    async def stop(self):
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()


def run(folder, scenario):
    async def main():
        session = Session(folder)
        await session.start()
        try:
            await scenario(session)
        finally:
            await session.stop()
    asyncio.run(main())


def test_diagnostics_on_open_and_change_with_the_did_you_mean_quick_fix(tmp_path):
    async def scenario(s):
        found = await s.open("base.cards", BASE)
        assert [(d.code, d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character)
                for d in found] == [("E010", 16, 8, 16, 13), ("E010", 22, 16, 22, 21)]
        assert found[0].message == "unknown variable `dealr`\nhelp: did you mean `dealer`?"
        assert found[1].message == "unknown name `talom`\nhelp: did you mean `talon`?"
        assert all(d.severity == lsp.DiagnosticSeverity.Error and d.source == "cardlang" for d in found)
        actions = await s.client.text_document_code_action_async(lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=s.uri("base.cards")), range=found[0].range,
            context=lsp.CodeActionContext(diagnostics=[found[0]])))
        assert [a.title for a in actions] == ["replace with `dealer`"]
        (edit,) = actions[0].edit.changes[s.uri("base.cards")]
        assert (edit.range, edit.new_text) == (found[0].range, "dealer")
        left = await s.change("base.cards", BASE.replace("set dealr", "set dealer"), 2)
        assert [(d.code, d.range.start.line, d.range.start.character) for d in left] == [("E010", 22, 16)]
        assert await s.change("base.cards", BASE.replace("dealr", "dealer").replace("talom", "talon"), 3) == []
        broken = await s.change("base.cards", BASE + "    set x =\n", 4)
        assert [d.code for d in broken] == ["E001"]
        await s.change("base.cards", BASE.replace("players 2..4", "players 2 .. 4"), 5)
        edits = await s.client.text_document_formatting_async(lsp.DocumentFormattingParams(
            text_document=lsp.TextDocumentIdentifier(uri=s.uri("base.cards")),
            options=lsp.FormattingOptions(tab_size=4, insert_spaces=True)))
        assert [(e.range.start.line, e.range.end.line, e.new_text) for e in edits] == [(0, 27, BASE)]
    run(tmp_path, scenario)


def test_hover_definition_references_and_rename(tmp_path):
    fixed = BASE.replace("dealr", "dealer").replace("talom", "talon")
    (tmp_path / "base.cards").write_text(fixed)

    async def scenario(s):
        assert await s.open("base.cards", fixed) == []
        shown = await s.client.text_document_hover_async(lsp.HoverParams(**s.at("base.cards", 10, 10)))
        assert "var dealer: player = none" in shown.contents.value
        assert "Who deals this round." in shown.contents.value
        word = await s.client.text_document_hover_async(lsp.HoverParams(**s.at("base.cards", 15, 5)))
        assert "n rounds of one card to each zone" in word.contents.value  # docs/language.md on `deal`
        where = await s.client.text_document_definition_async(lsp.DefinitionParams(**s.at("base.cards", 14, 12)))
        assert (where.uri, where.range.start.line, where.range.start.character) == (s.uri("base.cards"), 4, 5)
        phase = await s.client.text_document_definition_async(lsp.DefinitionParams(**s.at("base.cards", 21, 15)))
        assert phase.range.start.line == 25
        uses = await s.client.text_document_references_async(lsp.ReferenceParams(
            **s.at("base.cards", 7, 6), context=lsp.ReferenceContext(include_declaration=True)))
        assert [(u.range.start.line, u.range.start.character) for u in uses] == [
            (7, 4), (10, 8), (16, 8), (16, 25), (17, 4), (22, 30), (26, 20)]
        edit = await s.client.text_document_rename_async(lsp.RenameParams(**s.at("base.cards", 10, 9),
                                                                           new_name="banker"))
        edits = edit.changes[s.uri("base.cards")]
        assert len(edits) == 7 and {e.new_text for e in edits} == {"banker"}
        renamed = fixed.split("\n")
        for e in sorted(edits, key=lambda e: (e.range.start.line, -e.range.start.character)):
            row = renamed[e.range.start.line]
            renamed[e.range.start.line] = row[:e.range.start.character] + e.new_text + row[e.range.end.character:]
        assert not [row for row in renamed if "dealer" in row.split("#")[0]]  # comments are not code
        assert await s.change("base.cards", "\n".join(renamed), 2) == []
    run(tmp_path, scenario)


def test_definitions_and_references_across_extends(tmp_path):
    fixed = BASE.replace("dealr", "dealer").replace("talom", "talon")
    (tmp_path / "base.cards").write_text(fixed)

    async def scenario(s):
        assert await s.open("variant.cards", VARIANT) == []
        where = await s.client.text_document_definition_async(lsp.DefinitionParams(**s.at("variant.cards", 4, 15)))
        assert (where.uri, where.range.start.line, where.range.start.character) == (s.uri("base.cards"), 4, 5)
        shown = await s.client.text_document_hover_async(lsp.HoverParams(**s.at("variant.cards", 5, 27)))
        assert "from" in shown.contents.value and "var dealer: player = none" in shown.contents.value
        # the base, opened and broken in the editor: the variant's diagnostics follow, on its `extends` line
        await s.open("base.cards", fixed)
        s.arrived.clear()
        s.diagnostics.pop(s.uri("variant.cards"), None)
        await s.change("base.cards", fixed.replace("zone talon", "zone talons"), 2)
        for _ in range(100):
            if s.uri("variant.cards") in s.diagnostics:
                break
            await asyncio.sleep(0.05)
        found = s.diagnostics[s.uri("variant.cards")]
        assert {d.code for d in found} == {"E010", "W001"}  # W001: the zone `talons` is never used
        own = [(d.range.start.line, d.range.start.character) for d in found if not d.message.startswith("in ")]
        assert own == [(4, 14)]  # `top of talon` in the variant itself
        based = [d for d in found if d.message.startswith("in ")]
        assert based and all((d.range.start.line, d.range.start.character) == (1, 8) for d in based)
        assert f"in {tmp_path / 'base.cards'}:14:23: unknown name `talon`" in [d.message.split("\n")[0] for d in based]
    run(tmp_path, scenario)


def test_completion_outline_and_folding(tmp_path):
    fixed = BASE.replace("dealr", "dealer").replace("talom", "talon")

    async def scenario(s):
        assert await s.open("base.cards", fixed) == []
        lines = fixed.split("\n")
        lines.insert(16, "    ")
        lines.insert(17, "    move top of talon to ")
        lines.insert(18, "    if top of talon is ")
        text = "\n".join(lines)
        await s.change("base.cards", text, 2)  # a half-typed round: completion uses the last good parse

        async def labels(line, character):
            got = await s.client.text_document_completion_async(lsp.CompletionParams(**s.at("base.cards", line, character)))
            return [i.label for i in sorted(got.items, key=lambda i: i.sort_text)]
        start = await labels(16, 4)
        assert {"shuffle", "deal", "for each", "if", "finish", "dealer"} <= set(start)
        assert start.index("finish") < start.index("dealer")  # a phase may be played here
        zones = await labels(17, 25)
        assert set(zones[:2]) == {"talon", "hand"}
        ranks = await labels(18, 23)
        assert {"K", "A", "hearts"} <= set(ranks[:17])
        top = await labels(0, 0)
        assert {"game", "option", "zone", "phase", "per player var"} <= set(top)
        outline = await s.client.text_document_document_symbol_async(lsp.DocumentSymbolParams(
            text_document=lsp.TextDocumentIdentifier(uri=s.uri("base.cards"))))
        assert [(o.name, o.detail) for o in outline] == [
            ("Two errors", "game"), ("talon", "zone"), ("hand", "zone"), ("dealer", "var"), ("setup", "setup"),
            ("round", "round"), ("finish", "phase")]
        assert (outline[5].range.start.line, outline[5].range.end.line) == (12, 22)
        folds = await s.client.text_document_folding_range_async(lsp.FoldingRangeParams(
            text_document=lsp.TextDocumentIdentifier(uri=s.uri("base.cards"))))
        assert (12, 22) in [(f.start_line, f.end_line) for f in folds]  # round: as of the last good parse
        assert (17, 21) in [(f.start_line, f.end_line) for f in folds]  # dealer chooses
    run(tmp_path, scenario)

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


# ------------------------------------------------------------------ hostile requests (issue 27, item 9)
class Raw:
    """`cardlang lsp` spoken to in raw JSON-RPC over its stdin and stdout, as an editor does: any
    parameters can be sent (pygls's client would refuse a negative position before sending it), and
    every request waits for its answer a bounded time (None: no answer came)."""

    def __init__(self, root):
        import queue
        import subprocess
        import threading

        self.proc = subprocess.Popen([sys.executable, "-m", "cardlang.cli", "lsp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.answers: queue.Queue = queue.Queue()
        self.published: dict = {}
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        assert "result" in self.request("initialize", {"processId": None, "rootUri": from_fs_path(str(root)),
                                                       "capabilities": {}})
        self.notify("initialized", {})

    def _read(self):
        import json

        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if line == b"\r\n":
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            self.answers.put(json.loads(out.read(length)))

    def _send(self, message):
        import json

        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method, params):
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params, timeout=20):
        import queue
        import time

        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                message = self.answers.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                break
            if message.get("method") == "textDocument/publishDiagnostics":
                self.published[message["params"]["uri"]] = message["params"]["diagnostics"]
            elif message.get("id") == self.next_id and "method" not in message:
                return message
        return None

    def close(self):
        self.proc.kill()
        self.proc.wait()


def _one_line_error(answer, code):
    """A JSON-RPC error answer of `code`, one line, without a traceback."""
    assert answer is not None, "no answer"
    assert "result" not in answer and answer["error"]["code"] == code, answer
    assert "\n" not in answer["error"]["message"] and "Traceback" not in str(answer), answer
    assert not answer["error"].get("data"), answer
    return answer["error"]["message"]


@pytest.fixture
def raw(tmp_path):
    server = Raw(tmp_path)
    yield server
    server.close()


def _at(uri, line, character):
    return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}


def test_every_position_gets_an_answer(tmp_path, raw):
    uri = from_fs_path(str(tmp_path / "base.cards"))
    raw.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cards", "version": 1,
                                                         "text": BASE}})
    for line, character in ((-1, 0), (0, -5), (2 ** 31, 0), (0, 2 ** 40)):  # not LSP positions: InvalidParams
        for method in ("textDocument/hover", "textDocument/completion", "textDocument/definition"):
            message = _one_line_error(raw.request(method, _at(uri, line, character)), -32602)
            assert method in message and "position" in message
    for line, character in ((2 ** 31 - 1, 0), (10 ** 6, 3), (5, 10 ** 6), (2 ** 31 - 1, 2 ** 31 - 1)):
        assert raw.request("textDocument/hover", _at(uri, line, character)) == {"jsonrpc": "2.0", "id": raw.next_id,
                                                                                "result": None}
        answer = raw.request("textDocument/completion", _at(uri, line, character))  # below the last line: as there
        assert "error" not in answer and answer["result"]["items"], answer
        assert raw.request("textDocument/references", dict(_at(uri, line, character),
                                                           context={"includeDeclaration": True}))["result"] == []
    shown = raw.request("textDocument/hover", _at(uri, 10, 10))["result"]  # and the server still answers well
    assert "var dealer: player = none" in shown["contents"]["value"]


def test_a_rename_to_no_name_is_a_one_line_error(tmp_path, raw):
    fixed = BASE.replace("dealr", "dealer").replace("talom", "talon")
    uri = from_fs_path(str(tmp_path / "base.cards"))
    raw.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cards", "version": 1,
                                                         "text": fixed}})
    for name in ("1abc", "", "a b", "if", "x\ny", "é" * 10, "x" * 100 + "!"):
        message = _one_line_error(raw.request("textDocument/rename", dict(_at(uri, 10, 9), newName=name)), -32803)
        assert message.endswith("` cannot be a name"), message
    taken = raw.request("textDocument/rename", dict(_at(uri, 10, 9), newName="hand"))
    assert _one_line_error(taken, -32803) == "`hand` is already a per-player zone (line 6)"
    nothing = raw.request("textDocument/rename", dict(_at(uri, 2, 0), newName="fine"))  # no name there
    assert _one_line_error(nothing, -32803) == "there is no declared name here"
    assert raw.request("textDocument/rename", dict(_at(uri, 10, 9), newName="banker"))["result"]["changes"]


@pytest.mark.skipif(not hasattr(os, "mkfifo") or not os.path.exists("/dev/zero"), reason="POSIX only")
def test_a_document_never_opened_is_read_only_from_the_workspace_and_only_if_regular(tmp_path, raw):
    os.mkfifo(tmp_path / "fifo.cards")  # reading it would wait for a writer for ever
    (tmp_path / "disk.cards").write_text(BASE)
    outside = tmp_path.parent / f"{tmp_path.name}-outside.cards"
    outside.write_text(BASE)
    try:
        for uri, why in ((from_fs_path("/dev/zero"), "not open in the editor nor a file of the workspace"),
                         (from_fs_path(str(outside)), "not open in the editor nor a file of the workspace"),
                         (from_fs_path(str(tmp_path / "fifo.cards")), "named pipe (FIFO)"),
                         ("untitled:Untitled-1", "not open in the editor")):
            for method, params in (("textDocument/hover", _at(uri, 0, 0)),
                                   ("textDocument/documentSymbol", {"textDocument": {"uri": uri}}),
                                   ("textDocument/formatting", {"textDocument": {"uri": uri},
                                                                "options": {"tabSize": 4, "insertSpaces": True}})):
                assert why in _one_line_error(raw.request(method, params, timeout=10), -32803)
        # a rule file of the workspace not opened is read (as `check` reads it), and the server still answers
        symbols = raw.request("textDocument/documentSymbol", {"textDocument": {"uri": from_fs_path(str(tmp_path / "disk.cards"))}})
        assert [s["name"] for s in symbols["result"]][:2] == ["Two errors", "talon"]
    finally:
        outside.unlink()


def test_a_base_outside_the_workspace_is_not_read(tmp_path):
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (tmp_path / "base.cards").write_text(BASE.replace("dealr", "dealer").replace("talom", "talon"))
    variant = tmp_path / "variant.cards"  # opened by the editor, though outside the workspace
    server = Raw(workspace)
    try:
        uri = from_fs_path(str(variant))
        server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cards", "version": 1,
                                                                "text": VARIANT}})
        assert server.request("textDocument/hover", _at(uri, 0, 0)) is not None  # (the diagnostics came first)
        found = server.published[uri]
        assert any("outside the editor's workspace and not open in it" in d["message"] for d in found), found
    finally:
        server.close()

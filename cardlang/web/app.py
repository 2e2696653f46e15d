"""The web server: Starlette routes over the tables, the store and the games (docs/web.md).

One process holds every table in memory and writes each move to the store before it tells anyone.
Pages are static files; every answer is JSON or a shipped file, with a Content-Security-Policy.
Tokens are the only credentials of seats and spectators (the store keeps their SHA-256); the lobby
can ask for a password. Every message from a browser is bounded in size and rate, and answered
with one line when refused.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import secrets
import time
from pathlib import Path
from typing import Optional
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..lang.diagnostics import CardlangError
from ..runtime.basics import RuleError
from . import protocol
from .replays import replay_steps
from .rules import Catalog, build
from .store import Store, now
from .tables import PERSON, IDLE_BOT, Table, TableError, new_record, new_token

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 16 * 1024
RATE = 20.0  # messages a second a connection may send
BURST = 40.0
MAX_REFUSED = 200  # refused messages after which a connection is closed
MAX_CONNECTIONS = 64  # per table
MAX_PLAYING = 1000  # tables being played at once: past it, a new table waits for one to end
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "font-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
SECURITY_HEADERS = {"content-security-policy": CSP, "x-content-type-options": "nosniff",
                    "referrer-policy": "no-referrer", "x-frame-options": "DENY",
                    "cache-control": "no-store"}
ASSET = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,80}$")
TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


class JSON(JSONResponse):
    """A JSON answer written by `protocol.encode` (every invisible character of a rule file's text
    escaped)."""

    def render(self, content) -> bytes:
        """The body: `protocol.encode` of the content."""
        return protocol.encode(content).encode("utf-8")


def token_hash(token: str) -> str:
    """What the store keeps of a token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Connection:
    """One open WebSocket: its table and seat (None: a spectator), what waits to go out, its rate
    bucket. A view is queued as a mark and written when it goes out, from the table as it is then:
    moves made meanwhile (the bots') cost no view of their own, and a slow reader never gets an old
    one."""

    VIEW = None  # the mark of a view in the outbox

    def __init__(self, ws: WebSocket, table, seat: Optional[int]):
        self.ws = ws
        self.table = table
        self.seat = seat
        self.outbox: list = []
        self.ready = asyncio.Event()
        self.tokens = BURST
        self.last = time.monotonic()
        self.refused = 0

    def push(self, text: str) -> None:
        """Queues a message (at most 32 wait: a reader that does not read loses the oldest)."""
        self.outbox.append(text)
        del self.outbox[:-32]
        self.ready.set()

    def push_view(self) -> None:
        """Queues the seat's view, unless one waits already (it will be the newest when it goes)."""
        if self.VIEW not in self.outbox:
            self.outbox.append(self.VIEW)
        self.ready.set()

    def next_text(self) -> str:
        """The next message to send (a view mark becomes the view as the table is now)."""
        item = self.outbox.pop(0)
        return self.table.view_text(self.seat) if item is self.VIEW else item

    def allow(self) -> bool:
        """The rate limit: a bucket of BURST messages refilled at RATE a second."""
        t = time.monotonic()
        self.tokens = min(BURST, self.tokens + (t - self.last) * RATE)
        self.last = t
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Server:
    """The tables of one process, the store behind them, the games offered."""

    def __init__(self, catalog: Catalog, store: Store, password: Optional[str] = None, reload: bool = False,
                 static: Path = STATIC):
        self.catalog = catalog
        self.store = store
        self.password = password
        self.reload = reload
        self.static = static
        self.tables: dict = {}  # id -> Table
        self.connections: dict = {}  # id -> set of Connection
        self.locks: dict = {}
        self.driving: set = set()
        self.tasks: set = set()
        for record in store.tables():
            try:
                game = build(record.rules, record.path, record.players, record.options)
            except CardlangError:
                continue  # (rules this cardlang no longer builds: the table stays in the store, unlisted)
            self.tables[record.id] = Table(record, game)

    # ------------------------------------------------------------------ the play
    def lock(self, table_id: str) -> asyncio.Lock:
        """The lock under which a table's moves are made."""
        lock = self.locks.get(table_id)
        if lock is None:
            lock = self.locks[table_id] = asyncio.Lock()
        return lock

    def commit(self, table: Table, action: int, seat: int) -> None:
        """A move: played, then written (one commit), before anyone is told."""
        table.apply(action, seat)
        self.store.add_action(table.record.id, len(table.record.actions) - 1, action, seat, table.seq,
                              table.status())

    def broadcast(self, table: Table, seats_too: bool = False) -> None:
        """Every connection of the table gets its new view (and who sits where)."""
        seats = protocol.encode(table.seats_message()) if seats_too else None
        for conn in list(self.connections.get(table.record.id, ())):
            if seats is not None:
                conn.push(seats)
            conn.push_view()

    def kick(self, table: Table) -> None:
        """Lets the bots play, if one is to move and none is playing yet at this table."""
        if table.record.id in self.driving or table.bot_to_play() is None:
            return
        self.driving.add(table.record.id)
        task = asyncio.get_running_loop().create_task(self._drive(table))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _drive(self, table: Table) -> None:
        try:
            while True:
                bot = table.bot_to_play()
                if bot is None:
                    return
                seq = table.seq
                try:
                    if bot.name.split(":")[0] == IDLE_BOT:
                        action = bot.choose(table.state)
                    else:  # (a search thinks on a copy, in a thread: the server answers meanwhile)
                        action = await asyncio.to_thread(bot.choose, table.state.clone())
                except RuleError as e:
                    table.broken = " ".join(str(e).split())
                    self.broadcast(table)
                    return
                except Exception as e:  # noqa: BLE001 - a bot's failure stops its table with one line, not the server
                    table.broken = f"a bot failed: {type(e).__name__}: {' '.join(str(e).split())}"[:500]
                    self.broadcast(table)
                    return
                async with self.lock(table.record.id):
                    if table.seq != seq or table.bot_to_play() is None:
                        continue  # (the table moved meanwhile: an undo, the person came back)
                    self.commit(table, action, table.state.current_player)
                self.broadcast(table)
                await asyncio.sleep(0)
        finally:
            self.driving.discard(table.record.id)

    async def tick(self) -> None:
        """Every second: seats left empty too long get their bot; with `--reload`, the files."""
        while True:
            await asyncio.sleep(1.0)
            for table in list(self.tables.values()):
                idle = tuple(s for s in range(table.n) if table.idle(s))
                if idle != table.last_idle:  # (a seat's bot takes over: everyone is told)
                    table.last_idle = idle
                    self.broadcast_seats(table, None)
                if not table.over and table.bot_to_play() is not None:
                    self.kick(table)
            if self.reload:
                self.catalog.refresh()

    # ------------------------------------------------------------------ HTTP
    def lobby_refused(self, request: Request) -> Optional[Response]:
        """A 401 answer when the lobby has a password and the request lacks it, else None."""
        if self.password is None:
            return None
        given = request.headers.get("x-cardlang-password", "")
        if secrets.compare_digest(given.encode("utf-8", "replace"), self.password.encode("utf-8")):
            return None
        return JSON({"error": "this lobby asks for its password (header X-Cardlang-Password)"},
                            status_code=401)

    def page(self, name: str) -> Response:
        """A shipped file of `static/`, or 404."""
        path = self.static / name
        if not path.is_file():
            return JSON({"error": "no such page"}, status_code=404)
        return FileResponse(path)

    async def lobby_page(self, request: Request) -> Response:
        """`GET /`."""
        return self.page("lobby.html")

    async def table_page(self, request: Request) -> Response:
        """`GET /t/{token}` and `GET /s/{token}`: the page reads the token from its address."""
        return self.page("table.html")

    async def asset(self, request: Request) -> Response:
        """`GET /static/{name}`: a file of the folder itself, by a plain name."""
        name = request.path_params["name"]
        if not ASSET.match(name):
            return JSON({"error": "no such file"}, status_code=404)
        return self.page(name)

    async def games(self, request: Request) -> Response:
        """`GET /api/games`."""
        refused = self.lobby_refused(request)
        if refused is not None:
            return refused
        return JSON({"games": [r.info() for r in self.catalog.games.values()]})

    async def list_tables(self, request: Request) -> Response:
        """`GET /api/tables` (no token)."""
        refused = self.lobby_refused(request)
        if refused is not None:
            return refused
        return JSON({"tables": [t.summary() for t in self.tables.values()]})

    async def create_table(self, request: Request) -> Response:
        """`POST /api/tables`: the only answer that holds the tokens."""
        refused = self.lobby_refused(request)
        if refused is not None:
            return refused
        if sum(1 for t in self.tables.values() if not t.over) >= MAX_PLAYING:
            return JSON({"error": f"{MAX_PLAYING} tables are being played: try again when one ends"},
                        status_code=503)
        body = await bounded_body(request)
        if body is None:
            return JSON({"error": f"a request is at most {MAX_BODY} bytes"}, status_code=413)
        try:
            data = json.loads(body, parse_constant=_refuse)
        except (ValueError, RecursionError):
            return bad("the request is one JSON object")
        if not isinstance(data, dict):
            return bad("the request is one JSON object")
        rules = self.catalog.get(data.get("game")) if isinstance(data.get("game"), str) else None
        if rules is None:
            return bad("no such game (see /api/games)")
        try:
            record, game = new_record(rules, data.get("players", rules.symbols.players[0] if rules.symbols else 0),
                                      data.get("options") or {}, data.get("seats"), data.get("undo", False),
                                      data.get("idle_seconds", 120), data.get("seed"), now())
        except TableError as e:
            return bad(str(e))
        seat_tokens = {s: new_token() for s, k in enumerate(record.seats) if k == PERSON}
        spectator = new_token()
        hashes = [(token_hash(t), s) for s, t in seat_tokens.items()] + [(token_hash(spectator), None)]
        table = Table(record, game)
        self.store.create_table(record, hashes)
        self.tables[record.id] = table
        self.kick(table)
        return JSON({"table": record.id, "spectator": f"/s/{spectator}",
                             "seats": [{"seat": s, "kind": k, "link": f"/t/{seat_tokens[s]}" if s in seat_tokens else None}
                                       for s, k in enumerate(record.seats)]})

    def find(self, token: str) -> Optional[tuple]:
        """(table, seat or None) of a token, or None."""
        if not TOKEN.match(token or ""):
            return None
        found = self.store.token(token_hash(token))
        if found is None or found[0] not in self.tables:
            return None
        return self.tables[found[0]], found[1]

    async def replay(self, request: Request) -> Response:
        """`GET /api/replay/{token}?seat=k|all`: a finished game played again."""
        found = self.find(request.path_params["token"])
        if found is None:
            return JSON({"error": "no such table"}, status_code=404)
        table, _ = found
        if not table.over:
            return JSON({"error": "the game is not over: its replay comes at the end"}, status_code=409)
        which = request.query_params.get("seat", "all")
        if which != "all" and not (which.isdigit() and int(which) < table.n):
            return bad(f"`seat` is `all` or a seat from 0 to {table.n - 1}")
        return JSON(replay_steps(table, None if which == "all" else int(which)))

    # ------------------------------------------------------------------ the WebSocket
    async def socket(self, ws: WebSocket) -> None:
        """`WS /ws/{token}`: hello, the view, then a view after every change; reads the client's messages."""
        await ws.accept()
        if not origin_ok(ws):
            await ws.send_text(protocol.error("this page's origin may not open the table"))
            await ws.close(4403)
            return
        found = self.find(ws.path_params["token"])
        if found is None:
            await ws.send_text(protocol.error("no table has this link"))
            await ws.close(4404)
            return
        table, seat = found
        table_id = table.record.id
        conns = self.connections.setdefault(table_id, set())
        if len(conns) >= MAX_CONNECTIONS:
            await ws.send_text(protocol.error("this table has too many connections"))
            await ws.close(4429)
            return
        conn = Connection(ws, table, seat)
        conns.add(conn)
        table.join(seat)
        conn.push(protocol.encode(table.hello(seat)))
        conn.push(protocol.encode(table.seats_message()))
        conn.push_view()
        self.broadcast_seats(table, conn)
        writer = asyncio.get_running_loop().create_task(self._write(conn))
        try:
            await self._read(conn, table)
        finally:
            writer.cancel()
            conns.discard(conn)
            table.leave(seat)
            self.broadcast_seats(table, None)

    def broadcast_seats(self, table: Table, but: Optional[Connection]) -> None:
        """Every connection of the table (but one) is told who sits where now."""
        text = protocol.encode(table.seats_message())
        for c in list(self.connections.get(table.record.id, ())):
            if c is not but:
                c.push(text)

    async def _write(self, conn: Connection) -> None:
        try:
            while True:
                await conn.ready.wait()
                conn.ready.clear()
                while conn.outbox:
                    await conn.ws.send_text(conn.next_text())
        except (WebSocketDisconnect, RuntimeError, asyncio.CancelledError):
            return
        except Exception:  # noqa: BLE001 - a socket gone bad: the reader ends the connection
            return

    async def _read(self, conn: Connection, table: Table) -> None:
        ws = conn.ws
        while True:
            try:
                message = await ws.receive()
            except (WebSocketDisconnect, RuntimeError):
                return
            if message["type"] == "websocket.disconnect":
                return
            raw = message.get("text") if message.get("text") is not None else message.get("bytes")
            if raw is not None and len(raw) > protocol.MAX_MESSAGE * 4:
                conn.push(protocol.error(f"a message is at most {protocol.MAX_MESSAGE} bytes"))
                await asyncio.sleep(0.05)
                await ws.close(1009)
                return
            if not conn.allow():
                conn.refused += 1
                if conn.refused > MAX_REFUSED:
                    await ws.close(4429)
                    return
                conn.push(protocol.error("too many messages: slow down"))
                continue
            try:
                msg = protocol.parse_client(raw)
                reply = await self.handle(table, conn, msg)
            except (protocol.BadMessage, TableError) as e:
                conn.push(protocol.error(str(e)))
                continue
            except RuleError as e:  # (a rule of the file broke while the move was played or shown)
                conn.push(protocol.error(f"the rules broke: {e}"))
                continue
            if reply is not None:
                conn.push(protocol.encode(reply))

    async def handle(self, table: Table, conn: Connection, msg: dict) -> Optional[dict]:
        """One checked message of a connection: its direct answer (None when the views say it)."""
        kind, seat = msg["type"], conn.seat
        if kind == "ping":
            return {"type": "pong"}
        if seat is None:
            raise TableError("a spectator watches: only a seat may act, undo or rate")
        if kind == "act":
            async with self.lock(table.record.id):
                action = table.action_for(seat, msg["id"], msg["seq"])
                self.commit(table, action, seat)
            self.broadcast(table)
            self.kick(table)
            return None
        if kind == "undo":
            async with self.lock(table.record.id):
                table.undo(seat)
                self.store.drop_actions(table.record.id, len(table.record.actions), table.seq, table.status())
            self.broadcast(table)
            return None
        if kind == "rate":
            if not table.over:
                raise TableError("rate the game once it is over")
            self.store.rate(table.record.id, seat, msg["stars"], msg["comment"])
            return {"type": "rated", "stars": msg["stars"]}
        raise TableError("unknown message type")


def bad(message: str) -> Response:
    """A 400 answer with one line."""
    return JSON({"error": " ".join(message.split())}, status_code=400)


def _refuse(name):
    raise ValueError(name)


async def bounded_body(request: Request) -> Optional[bytes]:
    """The request's body, or None past MAX_BODY (read no further)."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        return None
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def origin_ok(ws: WebSocket) -> bool:
    """A browser's WebSocket must come from a page of this server: its Origin names the Host it
    asks (a client with no Origin, a bot or a test, is let in)."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    host = ws.headers.get("host", "")
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower() and bool(host)


class SecurityHeaders:
    """ASGI middleware: the security headers on every HTTP answer, and bodies bounded up front."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for k, v in SECURITY_HEADERS.items():
                    headers[k] = v
            await send(message)

        for k, v in scope.get("headers", ()):
            if k == b"content-length" and (not v.isdigit() or int(v) > MAX_BODY):
                response = JSON({"error": f"a request is at most {MAX_BODY} bytes"}, status_code=413)
                return await response(scope, receive, send_with_headers)
        return await self.app(scope, receive, send_with_headers)


def make_app(server: Server) -> Starlette:
    """The Starlette application of a server."""
    import contextlib

    @contextlib.asynccontextmanager
    async def lifespan(app):
        ticker = asyncio.get_running_loop().create_task(server.tick())
        for table in list(server.tables.values()):
            server.kick(table)
        try:
            yield
        finally:
            ticker.cancel()

    routes = [
        Route("/", server.lobby_page),
        Route("/t/{token}", server.table_page),
        Route("/s/{token}", server.table_page),
        Route("/static/{name}", server.asset),
        Route("/api/games", server.games),
        Route("/api/tables", server.list_tables, methods=["GET"]),
        Route("/api/tables", server.create_table, methods=["POST"]),
        Route("/api/replay/{token}", server.replay),
        WebSocketRoute("/ws/{token}", server.socket),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(SecurityHeaders)
    app.state.server = server
    return app

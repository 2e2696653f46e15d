"""The web table in a real browser (issue 30): Playwright driving Debian's Chromium against a real
`cardlang serve` process.

Two browsers sit at two seats of a Coucou table with bots in the others and play it to the end (the
first seat clicks its first action, the second plays by keyboard); one of them closes its page and
opens its link again mid-game; a spectator watches; the server is killed with SIGKILL and started
again mid-game and the game goes on. The lobby creates a table; the table is usable at phone
width; a rule file's `<script>` and `<img onerror>` texts show as text.

Where no Chromium is installed (or Playwright is missing) these tests skip and say so; `.ci/run`
installs Chromium, so CI runs them. `CARDLANG_SCREENSHOTS=1` saves the screenshots of the docs
(docs/images/web-*.png) from the run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CARDLANG_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
IMAGES = ROOT / "docs" / "images"
SHOTS = os.environ.get("CARDLANG_SCREENSHOTS", "") not in ("", "0")

STATIC = ROOT / "cardlang" / "web" / "static"

# A rule file whose texts are HTML meant to run: every one must show as text.
HOSTILE = r'''game "<script>window.pwned = 1</script>Hostile"
about "<img src=x onerror=\"window.pwned = 2\"> an about text"

players 2

deck ranks A K suits hearts spades

zone pile: pile, hidden
zone hand: per player, private

round:
    shuffle pile
    deal 1 from pile to hand(players)
    announce "<b>not bold</b> <img src=x onerror=window.pwned=3>"
    let p = top of players
    p chooses:
        "<script>window.pwned = 4</script>keep":
            pass
        "<img src=x onerror=window.pwned=5>fold":
            pass
    end game winner p
'''


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A `cardlang serve` subprocess on a free port, with its SQLite file; `kill()` is SIGKILL."""

    def __init__(self, paths: list, db: Path, log: Path, extra: tuple = ()):
        self.paths, self.db, self.log, self.extra = paths, db, log, extra
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = None

    def start(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen([sys.executable, "-m", "cardlang.cli", "serve", *map(str, self.paths),
                                          "--port", str(self.port), "--db", str(self.db), *self.extra],
                                         cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server stopped: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        self.stop()  # (no server left behind by a failed test)
        raise AssertionError("the server did not answer within 30 s")

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.kill()

    def create(self, game: str, seats: list, **more) -> dict:
        """A table made through the API: its answer (`table`, `seats` with links, `spectator`)."""
        body = json.dumps({"game": game, "players": len(seats), "seats": seats, **more}).encode()
        request = urllib.request.Request(self.url + "/api/tables", data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as r:
            return json.loads(r.read())


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install 'cardlang[web]')")
    pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'cardlang[web]')")
    tmp = tmp_path_factory.mktemp("web")
    (tmp / "hostile.cards").write_text(HOSTILE, encoding="utf-8")
    (tmp / "broken.cards").write_text('game "Broken <i>"\nplayers 2\nround:\n    move all cards to nowhere\n', encoding="utf-8")
    s = Server([ROOT / "games", tmp / "hostile.cards", tmp / "broken.cards", ROOT / "tests" / "hostile_text" / "escapes_in_texts.cards",
                ROOT / "examples" / "hints.cards", ROOT / "examples" / "spades.cards"],
               tmp / "tables.sqlite", tmp / "server.log")
    try:
        s.start()
        yield s
    finally:
        s.stop()


@pytest.fixture(scope="module")
def chromium_browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM} (`apt-get install chromium`; .ci/run installs it)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield b
        b.close()


class Person:
    """One person's browser (its own context: its own storage) at a page, collecting the page's
    script errors (a page that throws fails the test)."""

    def __init__(self, browser, width: int = 1280, height: int = 860):
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.errors: list = []
        self.page = None

    def open(self, url: str):
        if self.page is None or self.page.is_closed():
            self.page = self.context.new_page()
            self.page.on("pageerror", lambda e: self.errors.append(str(e)))
            # the CSP refuses any inline script or style: the page must need none
            self.page.on("console", lambda m: self.errors.append(m.text)
                         if m.type == "error" and ("Content Security Policy" in m.text or "Refused" in m.text) else None)
        self.page.goto(url)
        return self.page

    def close(self):
        self.context.close()
        assert not self.errors, self.errors


def shot(page, name: str, full: bool = False) -> None:
    """Saves docs/images/web-NAME.png when CARDLANG_SCREENSHOTS is set (the docs' pictures)."""
    if SHOTS:
        IMAGES.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(IMAGES / f"web-{name}.png"), full_page=full)


def absolute(server, link: str) -> str:
    return server.url + link


def sync_api_errors():
    """Playwright's timeout error (imported late: Playwright may be missing)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    return PlaywrightTimeout


def enabled_actions(page):
    return page.locator("#actions button.action:not([disabled])")


def hand(page) -> list:
    return page.locator("#mine .card").evaluate_all("els => els.map(e => e.dataset.card || 'back')")


def log_lines(page) -> list:
    return page.locator("#log li").all_inner_texts()


def hand_and_log(page) -> tuple[list, list]:
    """The hand and the log read in one script run: a view arriving between two reads (a bot's
    move that takes a card from this hand) cannot pair one view's hand with the next one's log."""
    cards, log = page.evaluate("""() => [
        [...document.querySelectorAll('#mine .card')].map(e => e.dataset.card || 'back'),
        [...document.querySelectorAll('#log li')].map(e => e.innerText)]""")
    return cards, log


# ---------------------------------------------------------------------------------------------


def test_the_page_never_parses_text_as_html():
    """Without a browser: the page's scripts build the page with text nodes and `textContent` only,
    and no page has an inline script, style or event handler (the CSP would refuse them)."""
    scripts = sorted(STATIC.glob("*.js"))
    assert [p.name for p in scripts] == ["dom.js", "end.js", "lobby.js", "table.js"]
    for path in scripts:
        code = path.read_text(encoding="utf-8")
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function",
                     "createContextualFragment", "DOMParser", "srcdoc"):
            assert sink not in code, f"{path.name} uses {sink}"
    for path in STATIC.glob("*.html"):
        html = path.read_text(encoding="utf-8")
        assert not re.search(r"<script(?![^>]*\bsrc=)", html), f"{path.name} has an inline script"
        assert not re.search(r"<style|\sstyle=|\son[a-z]+=", html), f"{path.name} has an inline style or handler"
        assert "http://" not in html and "https://" not in html, f"{path.name} loads something from elsewhere"
    css = (STATIC / "app.css").read_text(encoding="utf-8")
    assert "@import" not in css and "url(http" not in css




def test_lobby_lists_the_games_and_creates_a_table(chromium_browser, server):
    person = Person(chromium_browser)
    page = person.open(server.url + "/")
    coucou = page.locator('.game[data-game="coucou"]')
    coucou.wait_for()
    assert "Everyone holds one card" in coucou.inner_text()  # the game's `about`
    assert "5–20 players" in coucou.inner_text()
    coucou.get_by_role("button", name="set up a table").click()
    assert page.locator("#game").input_value() == "coucou"
    page.fill("#players", "5")
    page.dispatch_event("#players", "input")
    assert page.locator("#seats select").count() == 5
    page.fill('[data-option="tokens"]', "2")
    page.select_option('#seats select[data-seat="2"]', "bot:random")
    page.fill("#seed", "42")
    page.click("#create-button")
    links = page.locator("#seat-links input.link")
    links.first.wait_for()
    addresses = links.evaluate_all("els => els.map(e => e.value)")
    # two people (the default), three bots: two seat links and the spectator's
    assert len(addresses) == 3
    assert [a.split("/")[3] for a in addresses] == ["t", "t", "s"]
    assert all(a.startswith(server.url + "/") for a in addresses)
    # a file that does not check shows its problems, as text, and cannot be picked
    broken = page.locator('.game.broken[data-game="broken"]')
    problems = broken.locator(".problems li").all_inner_texts()
    assert problems and all("broken.cards:" in line for line in problems), problems
    assert page.locator('#game option[value="broken"]').count() == 0
    page.click("#refresh")
    page.locator("#tables .table-row").first.wait_for()
    assert "Coucou" in page.locator("#tables").inner_text()
    # the link opens the seat's table
    table = person.open(addresses[0])
    table.locator("#who").filter(has_text="you are P0").wait_for()
    table.locator("#mine .card").first.wait_for()
    # the form's seed was sent: a table made with the same seed and seats is the same game (the
    # lobby's default bot is the game's first, greedy)
    twin = server.create("coucou", ["person", "person", "bot:random", "bot:greedy", "bot:greedy"],
                         options={"tokens": 2}, seed=42)
    other = Person(chromium_browser)
    again = other.open(absolute(server, twin["seats"][0]["link"]))
    for p in (table, again):  # both wait for a person (P1 is away: nobody plays for it yet)
        p.locator("#turn").filter(has_text=re.compile("^(Your turn|Waiting for P1)$")).wait_for()
    assert hand(again) == hand(table) and log_lines(again) == log_lines(table)
    other.close()
    person.close()


def test_two_browsers_and_bots_play_coucou_to_the_end(chromium_browser, server):
    """Seats 0 and 1 are people (0 clicks, 1 plays by keyboard), 2–4 bots; mid-game P1 closes its
    page and opens its link again, and the server is killed (SIGKILL) and started again."""
    made = server.create("coucou", ["person", "person", "bot:random", "bot:random", "bot:random"],
                         options={"tokens": 2}, seed=7)
    links = {s["seat"]: absolute(server, s["link"]) for s in made["seats"] if s["link"]}
    people = {seat: Person(chromium_browser) for seat in links}
    pages = {seat: people[seat].open(link) for seat, link in links.items()}
    watcher = Person(chromium_browser)
    spectator = watcher.open(absolute(server, made["spectator"]))
    for seat, page in pages.items():
        page.locator("#who").filter(has_text=f"you are P{seat}").wait_for()
        page.locator("#mine .card").first.wait_for()
    spectator.locator("#who").filter(has_text="watching").wait_for()

    moves = {0: 0, 1: 0}
    reopened = restarted = False
    deadline = time.monotonic() + 90
    while not all(p.locator("#over").is_visible() for p in pages.values()):
        assert time.monotonic() < deadline, "the game did not end in 90 s"
        moved = False
        for seat, page in pages.items():
            buttons = enabled_actions(page)
            if not buttons.count() or page.locator("#turn").inner_text() != "Your turn":
                continue
            before = page.locator("#log li").count()
            if seat == 0 and moves[0] == 1:
                shot(page, "table")  # mid-game, the seat's turn
            if seat == 0:
                buttons.first.click()
            else:  # by keyboard: an arrow away and back, then Enter plays the first action
                page.keyboard.press("ArrowRight")
                page.keyboard.press("ArrowLeft")
                page.keyboard.press("Enter")
            moves[seat] += 1
            moved = True
            try:
                page.locator("#log li").nth(before).wait_for(timeout=15000)
            except sync_api_errors() as e:  # say what the page showed instead
                raise AssertionError(f"no new view after P{seat}'s move {moves[seat]}: the page says "
                                     f"{page.locator('#error').text_content()!r}, {page.locator('#conn').text_content()!r}") from e
        if moved and not reopened and moves[0] + moves[1] >= 2 and not pages[1].locator("#over").is_visible():
            # P1 closes its page and opens its link again: back where it was
            page = pages[1]
            cards, log = hand_and_log(page)
            page.close()
            page = pages[1] = people[1].open(links[1])
            page.locator("#log li").nth(len(log) - 1).wait_for(timeout=5000)
            now_cards, now_log = hand_and_log(page)
            assert now_cards == cards or len(now_log) > len(log)
            assert now_log[:len(log)] == log
            reopened = True
        elif moved and reopened and not restarted and moves[0] + moves[1] >= 4:
            server.kill()
            for page in pages.values():
                page.locator('#conn[data-state="retrying"]').wait_for(timeout=5000)
            assert enabled_actions(pages[0]).count() == 0  # nothing can be sent while the server is away
            server.start()
            for page in list(pages.values()) + [spectator]:
                page.locator('#conn[data-state="open"]').wait_for(timeout=10000)
            restarted = True
        if not moved:
            pages[0].wait_for_timeout(50)
    assert reopened and restarted, (moves, reopened, restarted)
    assert moves[0] >= 2 and moves[1] >= 2, moves

    for seat, page in pages.items():
        over = page.locator("#over")
        assert "Game over" in over.inner_text()
        assert "Winner" in over.inner_text()
        assert page.locator("#turn").inner_text() == "Game over"
        assert enabled_actions(page).count() == 0
    # the spectator saw the same end, without a hand and without actions
    spectator.locator("#over").wait_for()
    assert "Winner" in spectator.locator("#over").inner_text()
    assert spectator.locator("#mine").is_hidden()
    assert spectator.locator("#rate").count() == 0
    assert spectator.locator("#log li").count() > 0
    # each person may rate the game: 1–5 stars and a comment, acknowledged
    page = pages[0]
    shot(page, "over", full=True)
    page.locator(".star").nth(3).click()
    page.fill("#rate textarea", "<b>fun</b> with friends")
    page.click("#rate button[type=submit]")
    page.locator(".thanks").wait_for()
    # the replay of the whole game, step by step
    page.click("#replay-all")
    page.locator(".replay-bar").wait_for()
    assert page.locator("#turn").inner_text().startswith("Replay: step 1 of ")
    page.click("#replay-next")
    assert page.locator("#turn").inner_text().startswith("Replay: step 2 of ")
    # the whole game shows every hand; a seat's own replay only what it saw
    hidden_all = page.locator("#players .card.back").count()
    page.click("#replay-close")
    assert page.locator("#turn").inner_text() == "Game over"
    page.click("#replay-seat")
    page.locator(".replay-bar").wait_for()
    assert page.locator("#who").inner_text() == "replay · P0's view"
    page.click("#replay-next")
    assert page.locator("#players .card.back").count() > hidden_all
    page.keyboard.press("Escape")
    assert page.locator("#turn").inner_text() == "Game over"
    # the spectator may watch the replay too
    spectator.click("#replay-all")
    spectator.locator(".replay-bar").wait_for()
    assert spectator.locator("#turn").inner_text().startswith("Replay: step 1 of ")
    spectator.keyboard.press("ArrowRight")
    assert spectator.locator("#turn").inner_text().startswith("Replay: step 2 of ")
    for person in list(people.values()) + [watcher]:
        person.close()


def test_table_at_phone_width(chromium_browser, server):
    made = server.create("coucou", ["person", "bot:random", "bot:random", "bot:random", "bot:random"], seed=3)
    person = Person(chromium_browser, width=390, height=844)
    page = person.open(absolute(server, made["seats"][0]["link"]))
    page.locator("#mine .card").first.wait_for()
    # nothing wider than the phone: no sideways scrolling
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    enabled_actions(page).first.wait_for(timeout=10000)
    box = enabled_actions(page).first.bounding_box()
    assert box["width"] > 300  # the actions span the width: easy to tap
    hand_box = page.locator("#mine").bounding_box()
    assert hand_box["y"] < page.locator("#players").bounding_box()["y"]  # the seat's own cards come first
    shot(page, "phone", full=True)
    # a digit plays an action: "1" the first
    before = page.locator("#log li").count()
    page.keyboard.press("1")
    page.locator("#log li").nth(before).wait_for()
    assert page.locator("#log li").nth(before).inner_text().startswith("P0 chooses ")
    # the lobby too
    lobby = person.open(server.url + "/")
    lobby.locator(".game").first.wait_for()
    assert lobby.evaluate("document.documentElement.scrollWidth") <= 390
    person.close()


def test_cards_have_coloured_suits_and_the_hand_is_sorted(chromium_browser, server):
    # Coucou's dealer holds three cards: seat 0 deals when the draw says so; try a few seeds
    person = Person(chromium_browser)
    for seed in range(40):
        made = server.create("coucou", ["person"] + ["bot:random"] * 4, seed=seed)
        page = person.open(absolute(server, made["seats"][0]["link"]))
        page.locator("#mine .card").first.wait_for()
        if page.locator("#mine .card").count() == 3:
            break
    else:
        pytest.fail("no seed in 40 made seat 0 the dealer")
    # sorted as the rules sort a hand (hello's `card_order`: suit, then rank in the game's order)
    cards = hand(page)
    order = page.evaluate("T.order")
    assert len(order) == 32 and cards == sorted(cards, key=order.index), (cards, order)
    suits = [c[-1] for c in cards]
    assert suits == sorted(suits, key=suits.index)  # a suit's cards side by side
    for card in page.locator("#mine .card").all():
        label = card.get_attribute("data-card")
        colour = card.evaluate("e => getComputedStyle(e).color")
        assert colour == ("rgb(200, 16, 46)" if label[-1] in "♥♦" else "rgb(27, 31, 36)"), (label, colour)
    # the others' cards are backs
    assert page.locator('#players .player[data-seat="1"] .card.back').count() == 1
    # the dealer keeps one of its cards: each card names one action ("keep K♦"), and clicking it plays it
    page.locator("#actions button.action:not([disabled])").first.wait_for()
    assert page.locator("#mine .card.playable").count() == 3
    card = page.locator("#mine .card.playable").nth(1)
    kept = card.get_attribute("data-card")
    assert card.get_attribute("title") == f"keep {kept}"
    before = page.locator("#log li").count()
    card.click()
    page.locator("#log li").nth(before).wait_for()
    assert page.locator("#log li").nth(before).inner_text() == f"P0 chooses keep {kept}"
    # what happened since the seat's move is marked new
    total, new = page.locator("#log li").evaluate_all("els => [els.length, els.filter(e => e.classList.contains('new')).length]")
    assert new == total - before > 0
    person.close()


def test_hostile_rule_text_is_shown_as_text(chromium_browser, server):
    person = Person(chromium_browser)
    page = person.open(server.url + "/")
    game = page.locator('.game[data-game="hostile"]')
    game.wait_for()
    assert "<script>window.pwned = 1</script>Hostile" in game.locator("h3").inner_text()
    assert '<img src=x onerror="window.pwned = 2"> an about text' in game.inner_text()
    made = server.create("hostile", ["person", "person"], seed=1)
    seat = next(s for s in made["seats"])
    page = person.open(absolute(server, seat["link"]))
    page.locator("#log li").first.wait_for()
    assert any("<b>not bold</b> <img src=x onerror=window.pwned=3>" in line for line in log_lines(page))
    assert page.locator("#about-text").text_content() == '<img src=x onerror="window.pwned = 2"> an about text'
    if enabled_actions(page).count() == 0:  # the other seat acts: open its link
        other = made["seats"][1]
        page = person.open(absolute(server, other["link"]))
    enabled_actions(page).first.wait_for()
    labels = page.locator("#actions .label").all_inner_texts()
    assert labels == ["<script>window.pwned = 4</script>keep", "<img src=x onerror=window.pwned=5>fold"]
    assert page.locator("#title").inner_text() == "<script>window.pwned = 1</script>Hostile"
    # nothing of it became an element, nothing of it ran
    assert page.locator("main script, main img, main b, header script, header img").count() == 0
    assert page.evaluate("typeof window.pwned") == "undefined"
    enabled_actions(page).nth(1).click()
    page.locator("#over").wait_for()
    assert page.locator("main img, main script").count() == 0
    assert page.evaluate("typeof window.pwned") == "undefined"
    person.close()


def test_a_dropped_connection_comes_back_by_itself(chromium_browser, server):
    made = server.create("coucou", ["person", "bot:random", "bot:random", "bot:random", "bot:random"], seed=5)
    person = Person(chromium_browser)
    page = person.open(absolute(server, made["seats"][0]["link"]))
    page.locator('#conn[data-state="open"]').wait_for()
    page.locator("#mine .card").first.wait_for()
    cards, log = hand_and_log(page)
    page.evaluate("T.ws.close()")  # the network drops the socket
    page.locator('#conn[data-state="retrying"]').wait_for()
    page.locator('#conn[data-state="open"]').wait_for(timeout=3000)
    page.locator("#log li").nth(len(log) - 1).wait_for()
    assert hand(page) == cards and log_lines(page)[:len(log)] == log
    # and its actions work again
    buttons = enabled_actions(page)
    if buttons.count():
        before = page.locator("#log li").count()
        buttons.first.click()
        page.locator("#log li").nth(before).wait_for()
    person.close()


def test_undo_takes_back_a_move_where_the_table_allows_it(chromium_browser, server):
    # Ascenseur's bids: a bid reveals nothing hidden and draws nothing, so its bidder may take it back
    made = server.create("ascenseur", ["person", "person"], seed=11, undo=True)
    people = [Person(chromium_browser) for _ in made["seats"]]
    pages = [person.open(absolute(server, s["link"])) for person, s in zip(people, made["seats"])]
    for page in pages:
        page.locator("#log li").first.wait_for()
    page = next(p for p in pages if p.locator("#turn").inner_text() == "Your turn")
    enabled_actions(page).first.wait_for()
    assert page.locator("#undo").is_hidden()  # nothing to take back yet
    labels = page.locator("#actions .label").all_inner_texts()
    before = page.locator("#log li").count()
    enabled_actions(page).first.click()
    page.locator("#log li").nth(before).wait_for()
    page.locator("#undo:not([disabled])").wait_for()
    page.keyboard.press("u")  # (the button's key)
    page.locator("#undo").wait_for(state="hidden")
    enabled_actions(page).first.wait_for()
    assert page.locator("#log li").count() == before
    assert page.locator("#actions .label").all_inner_texts() == labels
    for person in people:
        person.close()


def test_a_protected_lobby_asks_for_its_password(chromium_browser, tmp_path):
    s = Server([ROOT / "games"], tmp_path / "tables.sqlite", tmp_path / "server.log",
               extra=("--password", "our secret"))
    try:
        s.start()
        person = Person(chromium_browser)
        page = person.open(s.url + "/")
        page.locator("#password-form").wait_for()
        assert page.locator(".game").count() == 0
        page.fill("#password", "not it")
        page.click("#password-form button")
        page.locator("#password-form").wait_for()  # asked again
        page.fill("#password", "our secret")
        page.click("#password-form button")
        page.locator('.game[data-game="coucou"]').get_by_role("button", name="set up a table").click()
        page.fill("#players", "5")
        page.dispatch_event("#players", "input")
        page.click("#create-button")
        page.locator("#seat-links input.link").first.wait_for()
        page.locator("#tables .table-row").first.wait_for()
        shot(page, "lobby", full=True)  # (the docs' picture: the games of games/ only)
        person.close()
    finally:
        s.stop()


def test_invisible_and_control_characters_show_as_escapes(chromium_browser, server):
    """tests/hostile_text/escapes_in_texts.cards: terminal escapes, C1 controls, a bidi override and
    zero-width characters in every text. The page writes each as its escape (`\\u202e`), as the
    terminal does: a right-to-left override cannot turn a label around."""
    raw = ("\x1b", "\x07", "\x85", "\x9b", "\u202e", "\u202c", "\u200b", "\u2028")
    person = Person(chromium_browser)
    page = person.open(server.url + "/")
    game = page.locator('.game[data-game="escapes_in_texts"]')
    game.wait_for()
    assert game.locator("h3").inner_text() == r"Nice\x1b]0;PWNED\x07 game\x1b]52;c;ZWNobyBwd25lZA==\x07"
    assert r"\u202eRLO\u202c" in game.inner_text()
    # the lobby's form: the option's values shown escaped, sent as they are
    game.get_by_role("button", name="set up a table").click()
    assert page.locator('[data-option="mode"] option').all_inner_texts() == [r"calm\x1b[41m", "wild"]
    page.click("#create-button")
    page.locator("#seat-links input.link").first.wait_for()
    links = page.locator("#seat-links input.link").evaluate_all("els => els.map(e => e.value)")
    body = page.evaluate("document.body.innerText")
    assert not any(c in body for c in raw)
    for link in links[:2]:
        page = person.open(link)
        page.locator("#log li").first.wait_for()
        if enabled_actions(page).count():
            break
    enabled_actions(page).first.wait_for()
    labels = page.locator("#actions .label").all_inner_texts()
    assert labels == ["keep\\x1b[2K\\x1b[1G 9. win the game", "fold\\u202e\\u200b\\x85 \\x1b[8m"]
    assert any("\\x1b[2K\\x1b[1G" in line for line in log_lines(page))
    body = page.evaluate("document.body.innerText + document.title")
    assert not any(c in body for c in raw)
    person.close()


def test_a_silent_connection_is_dropped_and_made_again(chromium_browser, server):
    """A server that stops answering without closing (SIGSTOP: the socket stays open, nothing comes
    back) is noticed by the page's heartbeat, which connects again when the server is back."""
    made = server.create("coucou", ["person", "bot:random", "bot:random", "bot:random", "bot:random"], seed=8)
    person = Person(chromium_browser)
    page = person.open(absolute(server, made["seats"][0]["link"]))
    page.locator('#conn[data-state="open"]').wait_for()
    page.locator("#mine .card").first.wait_for()
    cards = hand(page)
    page.evaluate("T.pingMs = 100; T.staleMs = 400; beat()")  # (seconds in a real browser: 10 and 25)
    server.proc.send_signal(signal.SIGSTOP)
    try:
        page.locator('#conn[data-state="retrying"]').wait_for(timeout=5000)
    finally:
        server.proc.send_signal(signal.SIGCONT)
    page.locator('#conn[data-state="open"]').wait_for(timeout=10000)
    page.locator("#mine .card").first.wait_for()
    assert hand(page) == cards or page.locator("#log li.new").count() > 0
    person.close()


def test_what_a_seat_was_told_and_the_teams_are_shown(chromium_browser, server):
    # examples/hints.cards: a seat does not see its own hand but is told of it ("not red")
    made = server.create("hints", ["person", "person"], seed=2)
    people = [Person(chromium_browser) for _ in made["seats"]]
    pages = [person.open(absolute(server, s["link"])) for person, s in zip(people, made["seats"])]
    for page in pages:
        page.locator("#log li").first.wait_for()
    teller = next(i for i, p in enumerate(pages) if p.locator("#turn").inner_text() == "Your turn")
    told = pages[1 - teller]
    assert told.locator("#mine .card.back").count() == 5 and told.locator("#mine .card.told").count() == 0
    tell = pages[teller].locator("#actions button.action:not([disabled])").filter(has_text="tell").first
    what = tell.locator(".label").inner_text().split(" their ")[1].rstrip("s")  # "red cards" → "red card", "5s" → "5"
    tell.click()
    told.locator("#mine .card.told").first.wait_for()
    facts = told.locator("#mine .card.told .fact").all_inner_texts()
    assert len(facts) == 5
    kind = what.split(" ")[0]
    assert set(facts) <= {kind, f"not {kind}"} and kind in facts, (what, facts)
    for person in people:
        person.close()
    # examples/spades.cards: partners are marked
    made = server.create("spades", ["person", "bot:random", "bot:random", "bot:random"], seed=1)
    person = Person(chromium_browser)
    page = person.open(absolute(server, made["seats"][0]["link"]))
    page.locator("#players .player").first.wait_for()
    teams = [page.locator(f'#players .player[data-seat="{p}"] .tag.team').inner_text() for p in range(4)]
    assert teams == ["team 1", "team 2", "team 1", "team 2"]
    person.close()


def test_an_empty_seat_is_shown_and_played_by_a_bot_until_its_person_comes(chromium_browser, server):
    made = server.create("coucou", ["person", "person", "bot:random", "bot:random", "bot:random"],
                         seed=4, idle_seconds=5)
    people = [Person(chromium_browser), Person(chromium_browser)]
    page = people[0].open(absolute(server, made["seats"][0]["link"]))
    away = page.locator('#players .player[data-seat="1"] .tag.away')
    away.wait_for()
    # after the table's idle time, a bot plays P1's seat, and everyone is told
    away.filter(has_text="a bot plays").wait_for(timeout=15000)
    # P1 comes back: the seat is theirs again
    other = people[1].open(absolute(server, made["seats"][1]["link"]))
    other.locator("#who").filter(has_text="you are P1").wait_for()
    away.wait_for(state="detached")
    for person in people:
        person.close()

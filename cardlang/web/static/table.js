// The table: one seat's view (or a spectator's), drawn from the server's `view` messages.
// The page holds no secret and decides nothing: it shows what the server sent and sends back the id
// of an action it was offered (docs/web.md). Every text of the rule file goes through textContent.
"use strict";

const T = {
  token: "",
  spectator: false,
  ws: null,
  hello: null,
  view: null,          // the last `view` message
  baseline: null,      // what the seat saw when it last moved: {log, zones, variables, player_variables}
  selected: 0,         // the keyboard's action
  sent: false,         // an action sent, its view not yet come
  heard: 0,            // when the server last said anything (Date.now())
  pingMs: 10000,       // the heartbeat's period
  staleMs: 25000,      // silence after which the connection counts as dead
  retries: 0,
  closedForGood: false,
  rated: false,
  seats: null,         // the last `seats` message's list: who is connected, who a bot plays for now
  replay: null,        // an open replay: {data, which, step, view, base, who}
  order: null,         // the deck's cards in the order a hand is sorted (hello's `card_order`)
  shape: null,         // hello's `zones`: {name: {per_player, visibility, kind: "pile"|"row"}}
};

function $(id) { return document.getElementById(id); }

function storageKey() { return "cardlang.table." + T.token; }

function loadMemory() {
  try {
    const kept = JSON.parse(localStorage.getItem(storageKey()) || "null");
    if (kept && typeof kept === "object") {
      T.baseline = kept.baseline || null;
      T.rated = !!kept.rated;
    }
  } catch (e) { /* storage off or garbled: start afresh */ }
}

function saveMemory() {
  try { localStorage.setItem(storageKey(), JSON.stringify({ baseline: T.baseline, rated: T.rated })); } catch (e) { /* ignore */ }
}

// ---- connection ---------------------------------------------------------------------------

function setConn(state, text) {
  const conn = $("conn");
  conn.setAttribute("data-state", state);
  setText(conn, text);
  document.body.setAttribute("data-conn", state);
}

/** A refusal, shown for a few seconds; `lasting`: shown until the page closes. */
function showError(text, lasting) {
  const box = $("error");
  setText(box, String(text));
  box.hidden = false;
  clearTimeout(showError.timer);
  if (!lasting) showError.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  let ws;
  try {
    ws = new WebSocket(`${scheme}//${location.host}/ws/${encodeURIComponent(T.token)}`);
  } catch (e) {
    return retry();
  }
  T.ws = ws;
  ws.addEventListener("open", () => {
    T.retries = 0;
    T.heard = Date.now();
    setConn("open", "connected");
  });
  ws.addEventListener("message", (event) => {
    T.heard = Date.now();
    let message;
    try { message = JSON.parse(event.data); } catch (e) { return; }
    if (message && typeof message === "object") handle(message);
  });
  ws.addEventListener("close", (event) => {
    if (T.ws !== ws) return;
    T.ws = null;
    // 4000–4999: the server refuses this link for good (unknown token, table gone): say why, stop
    if (event.code >= 4000 && event.code < 5000) {
      T.closedForGood = true;
      setConn("closed", event.reason ? String(event.reason) : "this link is not valid");
      renderActions();
      return;
    }
    retry();
  });
}

// Back within a second after a drop: the first tries come fast, then one a second while the
// server is away (a restart).
function retry() {
  if (T.closedForGood) return;
  const delays = [50, 150, 300, 500];
  const delay = T.retries < delays.length ? delays[T.retries] : 1000;
  T.retries += 1;
  setConn("retrying", "reconnecting…");
  T.sent = false;
  renderActions();
  clearTimeout(retry.timer);
  retry.timer = setTimeout(connect, delay);
}

// A connection can die without a word (a laptop sleeps, a network changes): the page pings the
// server every `T.pingMs` and, when nothing at all came back for `T.staleMs`, drops the socket
// and connects again at once, without waiting for the browser to notice.
function beat() {
  heartbeat();
  setTimeout(beat, T.pingMs);
}

function heartbeat() {
  const ws = T.ws;
  if (!ws || ws.readyState !== WebSocket.OPEN) return;
  if (Date.now() - (T.heard || 0) > T.staleMs) {
    T.ws = null;
    try { ws.close(); } catch (e) { /* already gone */ }
    T.retries = 0;
    retry();
    return;
  }
  send({ type: "ping" });
}

function send(message) {
  if (!T.ws || T.ws.readyState !== WebSocket.OPEN) return false;
  T.ws.send(JSON.stringify(message));
  return true;
}

function handle(message) {
  if (message.type === "hello") {
    T.hello = message;
    // the table's shape from the rules: which zones are one per seat, which are rows; the deck's sort order
    if (Array.isArray(message.card_order)) T.order = message.card_order.map(String);
    if (message.zones && typeof message.zones === "object") T.shape = message.zones;
    renderHeader();
  } else if (message.type === "view") {
    T.sent = false;
    const before = T.view;
    T.view = message;
    if (!before || before.seq !== message.seq) T.selected = 0;
    if (message.error) showError(message.error, true);  // the table cannot go on (a rule broke): said for good
    if (!T.baseline || T.spectator) {
      // a spectator sees what the last move changed; a seat that never moved, nothing yet
      T.baseline = snapshot(T.spectator && before ? before : message);
      saveMemory();
    }
    render();
  } else if (message.type === "seats") {
    // who sits where changed (a person came or left, a bot took an empty seat over)
    if (Array.isArray(message.seats)) T.seats = message.seats;
    if (T.view) render();
  } else if (message.type === "error") {
    T.sent = false;
    showError(message.message || "the server refused that");
    renderActions();
  } else if (message.type === "pong") {
    // (heard: the connection lives)
  } else if (message.type === "rated") {
    T.rated = true;
    saveMemory();
    renderOver();
  }
}

// ---- what changed since the seat's last move ----------------------------------------------

function observation(view) { return (view && view.observation) || {}; }

function logOf(view) {
  const log = view && (view.log || observation(view).log);
  return Array.isArray(log) ? log : [];
}

function snapshot(view) {
  const obs = observation(view);
  return {
    log: logOf(view).length,
    zones: obs.zones || {},
    variables: obs.variables || {},
    player_variables: obs.player_variables || {},
    team_variables: obs.team_variables || {},
  };
}

function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

// ---- drawing ------------------------------------------------------------------------------

function seatName(p) {
  if (p === null || p === undefined) return "–";
  const names = T.hello && Array.isArray(T.hello.players) ? T.hello.players : null;
  if (typeof p === "number") return names && names[p] !== undefined ? String(names[p]) : `P${p}`;
  return String(p);
}

function playerCount(obs) {
  if (typeof obs.players === "number") return obs.players;
  if (T.hello && Array.isArray(T.hello.players)) return T.hello.players.length;
  return Array.isArray(obs.active) ? obs.active.length : 0;
}

/** Zones held one per seat, as the rules say (hello's `zones`), else as they look: a list of lists
 * as long as the player count. */
function perPlayerZones(obs) {
  const n = playerCount(obs);
  const out = {};
  for (const [name, cards] of Object.entries(obs.zones || {})) {
    if (!Array.isArray(cards) || cards.length !== n || !cards.every(Array.isArray)) continue;
    const shape = T.shape && T.shape[name];
    if (shape ? shape.per_player === true : true) out[name] = cards;
  }
  return out;
}

/** A zone's cards as its kind draws them: a row spread out, a pile its face-up top over a stack. */
function zoneCards(name, cards) {
  const shape = T.shape && T.shape[name];
  if (shape && shape.kind === "row") return cards.length ? cardsRow(cards) : el("span", { className: "empty muted" }, "empty");
  return pileEl(cards);
}

function toAct(view) {
  const who = view.to_act !== undefined ? view.to_act : observation(view).current_player;
  return Array.isArray(who) ? who : (who === null || who === undefined || who < 0 ? [] : [who]);
}

/** The view drawn: a step of the replay while one is open, else the table's last view. */
function shown() { return T.replay ? T.replay.view : T.view; }

function renderHeader() {
  const hello = T.hello || {};
  const obs = observation(shown());
  const title = hello.game || obs.game || "";
  setText($("title"), String(title));
  const about = $("about");
  if (hello.about) {
    setText($("about-text"), String(hello.about), true);
    about.hidden = false;
  }
  const seat = T.view ? T.view.seat : hello.seat;
  let you = T.spectator || seat === null || seat === undefined ? "watching" : `you are ${seatName(seat)}`;
  if (T.replay) you = `replay · ${T.replay.who}`;
  setText($("who"), you);
  document.body.classList.toggle("spectator", T.spectator);
}

/** A row of cards; `facts` (parallel to `cards`) is what the seat was told of each card it does not
 * see (`{"text": "not red", …}`), written on its back. Sorting keeps each card with its fact, and
 * the unseen cards in their places' order. */
function cardsRow(cards, { sort, big, changedFrom, facts } = {}) {
  let pairs = cards.map((c, i) => [c, Array.isArray(facts) ? facts[i] : null]);
  if (sort) {
    const order = sortCards(cards.map((c, i) => i).filter((i) => cards[i] !== null).map((i) => cards[i]), T.order);
    const unseen = pairs.filter(([c]) => c === null);
    pairs = order.map((c) => [c, null]).concat(unseen);
  }
  const before = changedFrom ? changedFrom.slice() : null;
  return el("span", { className: "cards" + (big ? " big" : "") },
    pairs.map(([c, fact]) => {
      let fresh = false;
      if (before && c !== null) {
        const at = before.indexOf(c);
        if (at >= 0) before.splice(at, 1); else fresh = true;
      }
      const card = cardEl(c, fresh ? "new" : "");
      if (c === null && fact && fact.text) {
        card.classList.add("told");
        card.title = visible(fact.text);
        card.append(el("span", { className: "fact" }, String(fact.text)));
      }
      return card;
    }));
}

/** What the seat was told of a zone's cards (`observation.facts`), for seat `p` when it is one per seat. */
function factsOf(obs, name, p) {
  const facts = obs.facts && obs.facts[name];
  if (!Array.isArray(facts)) return null;
  return p === undefined ? facts : (Array.isArray(facts[p]) ? facts[p] : null);
}

/** A pile: its top cards drawn (the rest counted), or a stack of backs with a count. */
function pileEl(cards) {
  const known = cards.filter((c) => c !== null);
  if (!cards.length) return el("span", { className: "empty muted" }, "empty");
  if (!known.length) {
    return el("span", { className: "pile" }, cardEl(null, "stack"), el("span", { className: "count" }, `${cards.length}`));
  }
  // the face-up cards on top (the list is bottom first), at most six, over a stack standing for the rest
  let shownCount = 0;
  while (shownCount < Math.min(6, cards.length) && cards[cards.length - 1 - shownCount] !== null) shownCount += 1;
  const top = cards.slice(cards.length - shownCount);
  const rest = cards.length - top.length;
  return el("span", { className: "pile" }, rest > 0 ? cardEl(null, "stack") : null, cardsRow(top),
    rest > 0 ? el("span", { className: "count" }, `${cards.length} cards`) : null);
}

/** Draws the view shown (the table's last, or a replay's step) with what changed since `base`. */
function render() {
  renderHeader();
  const view = shown();
  if (!view) return;
  const obs = observation(view);
  const seat = view.seat;
  const ctx = {
    view,
    obs,
    seat,
    base: T.replay ? T.replay.base : (T.baseline || snapshot(view)),
    acting: view.over ? [] : toAct(view),
    mine: typeof seat === "number" && (T.replay ? true : !T.spectator),
    perPlayer: perPlayerZones(obs),
  };
  renderTurn(ctx);
  renderPlayers(ctx);
  renderPublic(ctx);
  renderMine(ctx);
  renderLog(ctx.base);
  renderActions();
  renderOver();
}

function renderTurn({ view, obs, seat, acting, mine }) {
  const yours = mine && acting.includes(seat);
  let text = "";
  if (T.replay) text = `Replay: step ${T.replay.step + 1} of ${T.replay.data.steps.length}`;
  else if (view.over) text = "Game over";
  else if (yours) text = "Your turn";
  else if (acting.length) text = `Waiting for ${acting.map(seatName).join(", ")}`;
  const turn = $("turn");
  setText(turn, text);
  turn.setAttribute("data-mine", String(yours && !T.replay));
  document.title = `${yours && !T.replay ? "● " : ""}${visible(obs.game || "table")} — cardlang`;
}

/** A value of the rule file with its name, marked when it changed since `was` (undefined: unknown). */
function varEl(name, text, changed) {
  return el("div", { className: "var" + (changed ? " changed" : "") }, el("dt", {}, words(name)), el("dd", {}, suited(text)));
}

function changedFrom(was, now) { return was !== undefined && !same(was, now); }

/** Who sits where: the last `seats` message's list (with presence), else the view's, else the hello's. */
function seatInfo(view) {
  const list = Array.isArray(T.seats) ? T.seats : Array.isArray(view.seats) ? view.seats
    : (T.hello && Array.isArray(T.hello.seats)) ? T.hello.seats : [];
  const info = [];
  for (const s of list) if (s && typeof s.seat === "number") info[s.seat] = s;
  return info;
}

/** The players around the table: name, tags (you, bot, away, out, team, to play), their values and
 * their cards (the seat's own are drawn large, by `renderMine`). */
function renderPlayers({ view, obs, seat, base, acting, mine, perPlayer }) {
  const info = seatInfo(view);
  const active = Array.isArray(obs.active) ? obs.active : [];
  const pvars = obs.player_variables || {};
  const basePvars = base.player_variables || {};
  fill($("players"), Array.from({ length: playerCount(obs) }, (_, p) => {
    const { kind, present, bot_now: botNow } = info[p] || {};
    const me = p === seat && mine;
    const out = active.length && active[p] === false;
    const toPlay = acting.includes(p);
    const team = Array.isArray(obs.teams) ? obs.teams.findIndex((t) => Array.isArray(t) && t.includes(seatName(p))) : -1;
    const box = el("div", { className: "player" + (toPlay ? " to-act" : "") + (me ? " me" : "") + (out ? " out" : ""), "data-seat": p },
      el("div", { className: "player-name" }, seatName(p),
        me ? el("span", { className: "tag" }, "you") : null,
        kind && kind !== "person" ? el("span", { className: "tag bot" }, String(kind).replace("bot:", "")) : null,
        kind === "person" && present === false
          ? el("span", { className: "tag away", title: "not connected" }, botNow ? "away: a bot plays" : "away") : null,
        out ? el("span", { className: "tag" }, "out") : null,
        team >= 0 ? el("span", { className: `tag team team-${team % 4}`, title: obs.teams[team].map(String).join(" and ") }, `team ${team + 1}`) : null,
        toPlay ? el("span", { className: "tag turn-tag" }, "to play") : null));
    const values = el("dl", { className: "vars" });
    for (const [name, all] of Object.entries(pvars)) {
      const v = Array.isArray(all) ? all[p] : all;
      values.append(varEl(name, valueText(v), changedFrom(Array.isArray(basePvars[name]) ? basePvars[name][p] : undefined, v)));
    }
    if (values.childNodes.length) box.append(values);
    for (const [name, zones] of Object.entries(perPlayer)) {
      if (me) continue;
      const cards = zones[p] || [];
      const was = base.zones && Array.isArray(base.zones[name]) ? base.zones[name][p] : undefined;
      box.append(el("div", { className: "zone small" + (changedFrom(was, cards) ? " changed" : "") },
        el("span", { className: "zone-name" }, words(name)),
        cards.length ? cardsRow(cards, { changedFrom: was, facts: factsOf(obs, name, p) }) : el("span", { className: "empty muted" }, "none")));
    }
    return box;
  }));
}

/** The zones that are no one seat's (a talon, a trick, numbered columns) and the public values. */
function renderPublic({ obs, base, perPlayer }) {
  const parts = [];
  for (const [name, cards] of Object.entries(obs.zones || {})) {
    if (perPlayer[name] || !Array.isArray(cards)) continue;
    const changed = changedFrom(base.zones ? base.zones[name] : undefined, cards);
    const drawn = cards.length && cards.every(Array.isArray)  // a numbered family: its piles in order
      ? el("span", { className: "piles" }, cards.map((pile, k) => el("span", { className: "numbered" }, el("span", { className: "muted" }, `${k + 1}`), zoneCards(name, pile))))
      : zoneCards(name, cards);
    parts.push(el("div", { className: "zone" + (changed ? " changed" : "") }, el("span", { className: "zone-name" }, words(name)), drawn));
  }
  const values = el("dl", { className: "vars public-vars" });
  for (const [name, value] of Object.entries(obs.variables || {})) {
    values.append(varEl(name, valueText(value), changedFrom(base.variables ? base.variables[name] : undefined, value)));
  }
  for (const [name, all] of Object.entries(obs.team_variables || {})) {
    if (!Array.isArray(all)) continue;
    values.append(varEl(name, all.map((v, k) => `team ${k + 1}: ${valueText(v)}`).join(" · "),
      changedFrom(base.team_variables ? base.team_variables[name] : undefined, all)));
  }
  if (values.childNodes.length) parts.push(values);
  fill($("public"), parts);
}

/** The seat's own cards, large and sorted, the ones new since its last move marked. */
function renderMine({ obs, seat, base, mine, perPlayer }) {
  const own = $("mine");
  if (!mine) {
    own.hidden = true;
    return;
  }
  fill(own, Object.entries(perPlayer).map(([name, zones]) => {
    const was = base.zones && Array.isArray(base.zones[name]) ? base.zones[name][seat] : undefined;
    const cards = zones[seat] || [];
    return el("div", { className: "zone own" }, el("span", { className: "zone-name" }, `your ${words(name)}`),
      cards.length ? cardsRow(cards, { sort: true, big: true, changedFrom: was, facts: factsOf(obs, name, seat) })
        : el("span", { className: "empty muted" }, "none"));
  }));
  own.hidden = !own.childNodes.length;
}

/** The index of the one action whose label names `card` (as a word: "play 10♥", not "play 0♥"),
 * or -1 when none or several do. */
function actionOfCard(card, list) {
  const named = list.map((a, i) => [i, String(a.label).split(/[\s,;:()]+/).includes(card)]).filter(([, yes]) => yes);
  return named.length === 1 ? named[0][0] : -1;
}

/** A card of the seat's hand that one of its actions names can be played by clicking it (or with
 * Enter when focused); hovering shows which action. */
function linkCardsToActions() {
  const list = actions();
  const live = !!(T.ws && T.ws.readyState === WebSocket.OPEN) && !T.sent;
  for (const card of $("mine").querySelectorAll(".card.face")) {
    const i = live ? actionOfCard(card.getAttribute("data-card"), list) : -1;
    card.classList.toggle("playable", i >= 0);
    card.tabIndex = i >= 0 ? 0 : -1;
    card.onclick = i >= 0 ? () => act(i) : null;
    card.onkeydown = i >= 0 ? (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); event.stopPropagation(); act(i); } } : null;
    card.title = i >= 0 ? visible(list[i].label) : visible(card.getAttribute("data-card"));
  }
}

function renderLog(base) {
  const list = $("log");
  const log = logOf(shown());
  const from = Math.min(base.log || 0, log.length);
  fill(list, log.map((line, i) => el("li", { className: i >= from ? "new" : "" },
    suited(typeof line === "string" ? line : (line && (line.text || line.line)) || valueText(line)))));
  list.scrollTop = list.scrollHeight;
}

function actions() {
  const view = T.view;
  if (!view || view.over || view.error || T.spectator || T.replay || !Array.isArray(view.actions)) return [];
  return view.actions;
}

function renderActions() {
  const box = $("actions");
  const list = actions();
  const live = !!(T.ws && T.ws.readyState === WebSocket.OPEN) && !T.sent;
  if (T.selected >= list.length) T.selected = 0;
  const hadFocus = box.contains(document.activeElement);
  fill(box, list.map((action, i) => el("button", {
    type: "button",
    className: "action" + (i === T.selected ? " selected" : ""),
    disabled: !live,
    "data-id": action.id,
    "aria-keyshortcuts": i < 10 ? String((i + 1) % 10) : undefined,
    onclick: () => act(i),
  }, i < 10 ? el("kbd", {}, String((i + 1) % 10)) : null, el("span", { className: "label" }, suited(action.label)))));
  const undo = $("undo");
  const canUndo = !!(T.view && !T.view.over && !T.spectator && !T.replay && T.view.undo === true);
  undo.hidden = !canUndo;
  const keys = [];
  if (list.length) keys.push("keys: 1–9 play an action · ←/→ or ↑/↓ choose · Enter plays it");
  if (canUndo) keys.push("U takes your move back");
  $("hint").textContent = keys.join(" · ");
  undo.disabled = !live;
  linkCardsToActions();
  if (hadFocus && list.length) focusSelected();
}

function focusSelected() {
  const buttons = $("actions").querySelectorAll("button.action");
  buttons.forEach((b, i) => b.classList.toggle("selected", i === T.selected));
  if (buttons[T.selected]) buttons[T.selected].focus({ preventScroll: true });
}

function act(i) {
  const list = actions();
  const action = list[i];
  if (!action || T.sent) return;
  if (!send({ type: "act", id: action.id, seq: T.view.seq })) return;
  T.sent = true;
  T.selected = i;
  T.baseline = snapshot(T.view);
  saveMemory();
  renderActions();
}

// ---- the keyboard -------------------------------------------------------------------------

function onKey(event) {
  const target = event.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
  // Enter on another focused control (undo, a link, the replay's buttons) is that control's
  const other = target && (target.tagName === "A" || (target.tagName === "BUTTON" && !target.classList.contains("action")));
  if (event.key === "Enter" && other) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (T.replay) {
    if (event.key === "ArrowRight") { event.preventDefault(); replayStep(T.replay.step + 1); }
    if (event.key === "ArrowLeft") { event.preventDefault(); replayStep(T.replay.step - 1); }
    if (event.key === "Escape") { T.replay = null; render(); }
    return;
  }
  if ((event.key === "u" || event.key === "U") && !$("undo").hidden && !$("undo").disabled) {
    event.preventDefault();
    $("undo").click();
    return;
  }
  const list = actions();
  if (!list.length) return;
  if (/^[0-9]$/.test(event.key)) {
    const i = (Number(event.key) + 9) % 10;
    if (i < list.length) { event.preventDefault(); act(i); }
  } else if (event.key === "ArrowRight" || event.key === "ArrowDown") {
    event.preventDefault();
    T.selected = (T.selected + 1) % list.length;
    focusSelected();
  } else if (event.key === "ArrowLeft" || event.key === "ArrowUp") {
    event.preventDefault();
    T.selected = (T.selected - 1 + list.length) % list.length;
    focusSelected();
  } else if (event.key === "Enter") {
    event.preventDefault();
    act(T.selected);
  }
}

document.addEventListener("DOMContentLoaded", () => {
  const match = location.pathname.match(/^\/([ts])\/([^/]+)\/?$/);
  if (!match) {
    setConn("closed", "this is not a table link");
    return;
  }
  T.spectator = match[1] === "s";
  T.token = decodeURIComponent(match[2]);
  loadMemory();
  renderHeader();
  document.addEventListener("keydown", onKey);
  $("undo").addEventListener("click", () => { if (send({ type: "undo" })) { T.sent = true; renderActions(); } });
  window.addEventListener("online", () => { if (!T.ws) { T.retries = 0; connect(); } });
  setTimeout(beat, T.pingMs);
  // back to the tab (after a sleep): check the connection now, not at the next ping
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") heartbeat(); });
  connect();
});

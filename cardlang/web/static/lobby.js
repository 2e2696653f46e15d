// The lobby: the games the server offers, the tables it holds, and a form to create a table.
// Titles, about texts, option names and values come from rule files: text only (see dom.js).
"use strict";

const lobby = { games: [], bots: ["random"] };

function $(id) { return document.getElementById(id); }

function say(text, bad) {
  const status = $("status");
  setText(status, text || "");
  status.classList.toggle("bad", !!bad);
}

// With `cardlang serve --password`, the lobby's API asks for it in a header (docs/web.md); the page
// asks the person once and keeps it for the tab's life.
function password() {
  try { return sessionStorage.getItem("cardlang.password") || ""; } catch (e) { return ""; }
}

async function getJSON(url, init) {
  const options = Object.assign({ credentials: "same-origin" }, init || {});
  options.headers = Object.assign({}, options.headers || {});
  if (password()) options.headers["X-Cardlang-Password"] = password();
  const response = await fetch(url, options);
  if (response.status === 401) {
    askPassword();
    throw new Error("this lobby needs its password");
  }
  let body = null;
  try { body = await response.json(); } catch (e) { body = null; }
  if (!response.ok) {
    const why = body && (body.error || body.message || body.detail);
    throw new Error(why ? String(why) : `${response.status} ${response.statusText}`);
  }
  return body;
}

/** A link of the server (a path such as /t/abc) as a whole address to send to a friend. */
function absolute(link) {
  try { return new URL(String(link), location.origin).href; } catch (e) { return String(link); }
}

function askPassword() {
  const form = $("password-form");
  form.hidden = false;
  $("password").focus();
}

function playable(game) { return !(game.problems && game.problems.length); }

function renderGames() {
  const list = $("games");
  if (!lobby.games.length) return fill(list, el("li", { className: "muted" }, "no games"));
  fill(list, lobby.games.map((game) => {
    const players = game.players || {};
    const range = players.min === undefined ? "" : players.min === players.max ? `${players.min} players`
      : `${players.min}–${players.max} players`;
    return el("li", { className: "game" + (playable(game) ? "" : " broken"), "data-game": game.id },
      el("h3", {}, String(game.title || game.id)),
      range ? el("p", { className: "meta muted" }, range) : null,
      game.about ? el("p", { className: "about" }, suited(game.about)) : null,
      playable(game) ? el("button", { type: "button", className: "small", onclick: () => pick(game.id) }, "set up a table")
        : el("ul", { className: "problems" }, game.problems.map((p) => el("li", {}, typeof p === "string" ? p : valueText(p.message || p)))));
  }));
}

function currentGame() {
  return lobby.games.find((g) => String(g.id) === $("game").value);
}

function pick(id) {
  $("game").value = String(id);
  formForGame();
  $("create-panel").scrollIntoView({ behavior: "smooth", block: "start" });
  $("players").focus();
}

function formForGame() {
  const game = currentGame();
  if (!game) return;
  setText($("game-about"), game.about ? String(game.about) : "", true);
  const players = $("players");
  const min = (game.players && game.players.min) || 1;
  const max = (game.players && game.players.max) || min;
  players.min = String(min);
  players.max = String(max);
  const now = Number(players.value);
  if (!(now >= min && now <= max)) players.value = String(min);
  const options = game.options || [];
  $("options-box").hidden = !options.length;
  fill($("options"), options.map((option) => {
    const label = el("label", { className: "field" }, words(option.name),
      option.help ? el("span", { className: "muted help" }, String(option.help)) : null);
    label.append(optionInput(option));
    return label;
  }));
  seatsForCount();
}

/** The input of an option, from what its `values` says it may be (docs/web.md): "1..20" a number,
 * "yes/no" a choice of two, "a, b" one of a list, anything else typed. Its value is sent as text:
 * the server reads it as the command line's `--set` does. */
function optionInput(option) {
  const values = option.values;
  const name = String(option.name);
  const shown = (v) => (typeof v === "boolean" ? (v ? "yes" : "no") : Array.isArray(v) ? v.join(",") : valueText(v));
  const def = shown(option.default);
  let choices = null;
  if (Array.isArray(values)) choices = values.map(shown);
  else if (values === "yes/no") choices = ["yes", "no"];
  else if (typeof values === "string" && /^-?\d+\.\.-?\d+$/.test(values)) {
    const [low, high] = values.split("..");
    return el("input", { type: "number", min: low, max: high, value: def, "data-option": name, required: true });
  } else if (typeof values === "string" && values.includes(", ")) choices = values.split(", ");
  if (choices) {
    return el("select", { "data-option": name }, choices.map((v) => el("option", { value: v, selected: v === def }, v)));
  }
  return el("input", { type: "text", value: def, "data-option": name, maxLength: 200 });
}

function seatsForCount() {
  const n = Math.max(0, Math.min(Number($("players").value) || 0, 20));
  const list = $("seats");
  const before = Array.from(list.querySelectorAll("select")).map((s) => s.value);
  const game = currentGame();
  const bots = game && Array.isArray(game.bots) && game.bots.length ? game.bots.map(String) : lobby.bots;
  const kinds = ["person"].concat(bots.map((b) => "bot:" + b));
  fill(list, Array.from({ length: n }, (_, i) => {
    // two people by default, bots in the other seats: the usual playtest
    const chosen = (kinds.includes(before[i]) && before[i]) || (i < 2 ? "person" : "bot:" + bots[0]);
    return el("li", {}, el("label", {}, `P${i} `,
      el("select", { name: "seat", "data-seat": i },
        kinds.map((k) => el("option", { value: k, selected: k === chosen }, k === "person" ? "a person" : k.replace("bot:", "bot: "))))));
  }));
}

async function loadGames() {
  const body = await getJSON("/api/games");
  lobby.games = (body && body.games) || [];
  if (body && Array.isArray(body.bots) && body.bots.length) lobby.bots = body.bots.map(String);
  renderGames();
  const select = $("game");
  fill(select, lobby.games.filter(playable).map((g) => el("option", { value: String(g.id) }, String(g.title || g.id))));
  formForGame();
}

async function loadTables() {
  const list = $("tables");
  let body;
  try { body = await getJSON("/api/tables"); } catch (e) { return fill(list, el("li", { className: "bad" }, e.message)); }
  const tables = (body && body.tables) || [];
  if (!tables.length) return fill(list, el("li", { className: "muted" }, "no tables yet"));
  fill(list, tables.map((t) => {
    const state = t.over ? "finished" : (t.state || t.status || "playing");
    const seats = Array.isArray(t.seats) ? t.seats.map((s) => (typeof s === "string" ? s : s.kind)).join(", ") : "";
    return el("li", { className: "table-row", "data-table": t.table || t.id },
      el("span", { className: "name" }, String(t.title || t.game || "")),
      el("span", { className: "muted" }, ` ${t.players ? t.players + " players" : ""} · ${state}`),
      t.created ? el("span", { className: "muted" }, ` · ${when(t.created)}`) : null,
      seats ? el("span", { className: "muted seats-kinds" }, ` · ${seats}`) : null,
      t.spectator ? el("a", { href: String(t.spectator), className: "small-link" }, "watch") : null,
      t.replay ? el("a", { href: String(t.replay), className: "small-link" }, "replay") : null);
  }));
}

/** A table's creation time, as the person's clock reads it. */
function when(iso) {
  const date = new Date(String(iso));
  if (isNaN(date.getTime())) return "";
  const today = new Date().toDateString() === date.toDateString();
  return today ? date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : date.toLocaleDateString();
}

function linkRow(label, link) {
  const address = absolute(link);
  const input = el("input", { type: "text", readOnly: true, value: address, className: "link", "aria-label": label });
  input.addEventListener("focus", () => input.select());
  const copy = el("button", { type: "button", className: "small", onclick: async () => {
    try { await navigator.clipboard.writeText(address); copy.textContent = "copied"; } catch (e) { input.select(); }
  } }, "copy");
  return el("li", {}, el("span", { className: "link-label" }, label), input, copy,
    el("a", { href: address, target: "_blank", rel: "noopener", className: "small-link" }, "open"));
}

async function create(event) {
  event.preventDefault();
  const options = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    options[input.getAttribute("data-option")] = input.value;
  }
  const request = {
    game: $("game").value,
    players: Number($("players").value),
    options,
    seats: Array.from($("seats").querySelectorAll("select")).map((s) => s.value),
    undo: $("undo").checked,
    idle_seconds: Number($("idle").value) || 120,
  };
  if ($("seed").value.trim() !== "") request.seed = Number($("seed").value);
  const button = $("create-button");
  button.disabled = true;
  say("creating…");
  try {
    const made = await getJSON("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request) });
    const box = $("created");
    const seats = (made.seats || []).filter((s) => s.link);
    fill(box,
      el("h3", {}, "Table ready"),
      el("p", { className: "muted" }, "Each seat's link is its only key: send each person their own."),
      el("ul", { className: "links", id: "seat-links" },
        seats.map((s) => linkRow(`P${s.seat}${s.kind && s.kind !== "person" ? " (" + s.kind + ")" : ""}`, s.link)),
        made.spectator ? linkRow("spectator", made.spectator) : null));
    box.hidden = false;
    say("");
    box.scrollIntoView({ behavior: "smooth", block: "nearest" });
    loadTables();
  } catch (e) {
    say(e.message, true);
  } finally {
    button.disabled = false;
  }
}

document.addEventListener("DOMContentLoaded", () => {
  $("game").addEventListener("change", formForGame);
  $("players").addEventListener("input", seatsForCount);
  $("create").addEventListener("submit", create);
  $("refresh").addEventListener("click", loadTables);
  $("password-form").addEventListener("submit", (event) => {
    event.preventDefault();
    try { sessionStorage.setItem("cardlang.password", $("password").value); } catch (e) { /* ignore */ }
    $("password-form").hidden = true;
    say("");
    loadGames().catch((e) => say(e.message, true));
    loadTables();
  });
  loadGames().catch((e) => { say(e.message, true); fill($("games"), el("li", { className: "bad" }, e.message)); });
  loadTables();
  // the tables change as friends play: refreshed while the lobby is in view
  setInterval(() => { if (document.visibilityState === "visible" && $("password-form").hidden) loadTables(); }, 15000);
});

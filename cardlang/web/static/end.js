// The end of a game at the table: the result, the rating form, and the replay of the finished game
// (GET /api/replay/{token}), stepped through with the table's own drawing (table.js's `render`).
// Texts go through dom.js's text-only builders, like everything else.
"use strict";

function resultEl(result) {
  if (result === null || result === undefined) return null;
  if (typeof result !== "object") return el("p", { className: "result-text" }, suited(String(result)));
  const box = el("div", { className: "result" });
  const winners = result.winners;
  const seat = T.view && T.view.seat;
  if (Array.isArray(winners) && !T.spectator && typeof seat === "number") {
    box.append(el("p", { className: "verdict" }, winners.includes(seat) ? (winners.length > 1 ? "You share the win!" : "You won!") : "You did not win this time."));
  }
  if (Array.isArray(winners)) {
    box.append(el("p", { className: "winners" }, winners.length ? `Winner${winners.length > 1 ? "s" : ""}: ${winners.map(seatName).join(", ")}` : "No winner"));
  }
  const rows = [];
  for (const key of ["scores", "returns", "payoffs"]) {
    if (Array.isArray(result[key])) rows.push([key, result[key]]);
  }
  if (rows.length) {
    const n = rows[0][1].length;
    box.append(el("table", { className: "scores" },
      el("thead", {}, el("tr", {}, el("th", {}, ""), Array.from({ length: n }, (_, p) => el("th", {}, seatName(p))))),
      el("tbody", {}, rows.map(([key, values]) => el("tr", {}, el("th", {}, key), values.map((v) => el("td", {}, valueText(v))))))));
  }
  if (result.order === "highest" || result.order === "lowest") {
    box.append(el("p", { className: "muted" }, `the ${result.order} score wins`));
  }
  for (const [key, value] of Object.entries(result)) {
    if (key === "winners" || key === "order" || value === null || value === undefined || rows.some(([k]) => k === key)) continue;
    box.append(el("p", { className: "muted" }, `${words(key)}: ${valueText(value)}`));
  }
  return box;
}

function ratingForm() {
  if (T.rated) return el("p", { className: "thanks" }, "Thank you for rating this game.");
  const stars = el("div", { className: "stars", role: "radiogroup", "aria-label": "stars" },
    [1, 2, 3, 4, 5].map((k) => el("label", { className: "star", title: `${k} star${k > 1 ? "s" : ""}` },
      el("input", { type: "radio", name: "stars", value: String(k), required: true }), el("span", { "aria-hidden": "true" }, "★"),
      el("span", { className: "visually-hidden" }, `${k}`))));
  const comment = el("textarea", { name: "comment", rows: 3, maxLength: 2000, placeholder: "what worked, what did not (optional)" });
  const form = el("form", { className: "rate", id: "rate" },
    el("p", {}, "How was this game?"), stars, comment,
    el("button", { type: "submit", className: "primary" }, "send the rating"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const picked = form.querySelector("input[name=stars]:checked");
    if (!picked) return showError("pick 1 to 5 stars");
    if (send({ type: "rate", stars: Number(picked.value), comment: comment.value.slice(0, 2000) })) {
      T.rated = true;
      saveMemory();
      renderOver();
    }
  });
  return form;
}

function renderOver() {
  const box = $("over");
  const view = T.view;
  if (!view || !view.over) { box.hidden = true; return; }
  if (T.replay) {
    fill(box, replayControls());
    box.hidden = false;
    return;
  }
  const mySeat = typeof view.seat === "number" && !T.spectator;
  fill(box, el("h2", {}, "Game over"), resultEl(view.result !== undefined ? view.result : { winners: observation(view).winners }),
    T.spectator ? null : ratingForm(),
    el("p", { className: "replay-buttons" }, "Replay: ",
      mySeat ? el("button", { type: "button", className: "small", id: "replay-seat", onclick: () => openReplay(String(view.seat)) }, "as I saw it") : null,
      el("button", { type: "button", className: "small", id: "replay-all", onclick: () => openReplay("all") }, "the whole game")));
  box.hidden = false;
}

// ---- the replay of a finished game (GET /api/replay/{token}) ---------------------------------

async function openReplay(which) {
  let data;
  try {
    const response = await fetch(`/api/replay/${encodeURIComponent(T.token)}?seat=${encodeURIComponent(which)}`);
    data = await response.json();
    if (!response.ok) throw new Error((data && data.error) || `${response.status}`);
  } catch (e) {
    return showError(`no replay: ${e.message}`);
  }
  if (!data || !Array.isArray(data.steps) || !data.steps.length) return showError("no replay: the game has no moves");
  T.replay = { data, which, step: 0, view: null, base: null, who: which === "all" ? "the whole game" : `${seatName(Number(which))}'s view` };
  replayStep(0);
}

/** Step `k` of the replay drawn, its changes from the step before highlighted. */
function replayStep(k) {
  const r = T.replay;
  const steps = r.data.steps;
  r.step = Math.max(0, Math.min(k, steps.length - 1));
  r.view = replayView(steps[r.step]);
  r.base = snapshot(r.step > 0 ? replayView(steps[r.step - 1]) : r.view);
  render();
}

/** The view of a step: the one seat's, or for the whole game every seat's cards put together (the
 * game is over: nothing is secret any more) over the spectator's view. */
function replayView(step) {
  const views = (step && step.views) || [];
  if (T.replay.which !== "all") return views[0] || {};
  const spectator = views.find((v) => v.seat === null || v.seat === undefined) || views[0] || {};
  const merged = JSON.parse(JSON.stringify(spectator));
  merged.seat = null;
  const obs = observation(merged);
  const zones = obs.zones || {};
  for (const v of views) {
    const theirs = observation(v).zones || {};
    for (const [name, cards] of Object.entries(theirs)) {
      if (!Array.isArray(cards) || !Array.isArray(zones[name])) continue;
      zones[name] = zones[name].map((mine, i) => {
        if (Array.isArray(mine) && Array.isArray(cards[i])) {
          return mine.map((c, j) => (c === null && cards[i][j] !== undefined ? cards[i][j] : c));
        }
        return mine === null && cards[i] !== undefined ? cards[i] : mine;
      });
    }
  }
  return merged;
}

function replayControls() {
  const r = T.replay;
  const last = r.data.steps.length - 1;
  return el("div", { className: "replay-bar", role: "group", "aria-label": "replay" },
    el("button", { type: "button", className: "small", onclick: () => replayStep(0), disabled: r.step === 0, title: "first" }, "«"),
    el("button", { type: "button", className: "small", id: "replay-prev", onclick: () => replayStep(r.step - 1), disabled: r.step === 0, title: "back" }, "◀"),
    el("span", { className: "replay-pos" }, `${r.step + 1} / ${last + 1}`),
    el("button", { type: "button", className: "small", id: "replay-next", onclick: () => replayStep(r.step + 1), disabled: r.step === last, title: "forward" }, "▶"),
    el("button", { type: "button", className: "small", onclick: () => replayStep(last), disabled: r.step === last, title: "last" }, "»"),
    el("button", { type: "button", className: "small", id: "replay-close", onclick: () => { T.replay = null; render(); } }, "back to the table"));
}

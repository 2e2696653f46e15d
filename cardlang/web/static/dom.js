// Shared by the lobby and the table: building the page from data.
// Every text that comes from a rule file (titles, labels, log lines, options) is untrusted: it is
// only ever set with textContent or as a text node, never parsed as HTML.
"use strict";

const SUIT_COLOUR = { "♥": "red", "♦": "red", "♠": "dark", "♣": "dark" };
// Suits alternate in colour in a sorted hand, so that neighbouring suits are told apart at a glance.
const SUIT_ORDER = ["♠", "♥", "♣", "♦"];
const RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];

// What a text must not do even as text: a bidi override (U+202E) turns the rest of a line around,
// a zero-width or control character hides in a label. As the terminal does (lang/untrusted.py's
// `visible`), every character that is not shown as itself is written as its escape: `\u202e`.
const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/gu;
const NAMED = { "\n": "\\n", "\t": "\\t", "\r": "\\r" };

/** `text` with its invisible and control characters written as escapes (`newlines` keeps line ends). */
function visible(text, newlines) {
  return String(text).replace(HIDDEN, (c) => {
    if (newlines && c === "\n") return c;
    if (NAMED[c]) return NAMED[c];
    const o = c.codePointAt(0);
    const hex = (width) => o.toString(16).padStart(width, "0");
    return o < 0x100 ? "\\x" + hex(2) : o < 0x10000 ? "\\u" + hex(4) : "\\U" + hex(8);
  });
}

/** Sets `node`'s text (never HTML), its invisible characters shown. */
function setText(node, text, newlines) {
  node.textContent = visible(text, newlines);
  return node;
}

/** An element: `attrs` sets properties (className, href, type, …) or `data-*`/aria attributes;
 * `children` are nodes or strings (strings become text nodes). */
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("data-") || key.startsWith("aria-") || key === "role" || key === "for") {
      node.setAttribute(key, String(value));
    } else if (key === "onclick" || key === "onchange" || key === "onsubmit" || key === "oninput") {
      node.addEventListener(key.slice(2), value);
    } else {
      node[key] = value;
    }
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number" ? document.createTextNode(visible(child)) : child);
  }
  return node;
}

/** Empties `node` and puts `children` in it. */
function fill(node, ...children) {
  node.replaceChildren();
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(typeof child === "string" ? document.createTextNode(visible(child)) : child);
  }
  return node;
}

/** A card's label split in rank and suit: "10♥" → {rank: "10", suit: "♥"}; a card without a
 * suit symbol (a joker, a card of a custom deck) keeps its whole label as its rank. */
function parseCard(label) {
  const text = String(label);
  const last = text.slice(-1);
  if (SUIT_COLOUR[last] && text.length > 1) return { rank: text.slice(0, -1), suit: last };
  return { rank: text, suit: "" };
}

/** A text with its suit symbols coloured: spans around ♥♦ (red) and ♠♣ (dark), the rest as text. */
function suited(text) {
  const frag = document.createDocumentFragment();
  let run = "";
  for (const ch of visible(text)) {
    if (SUIT_COLOUR[ch]) {
      if (run) frag.append(document.createTextNode(run));
      run = "";
      frag.append(el("span", { className: "suit-" + SUIT_COLOUR[ch] }, ch));
    } else {
      run += ch;
    }
  }
  if (run) frag.append(document.createTextNode(run));
  return frag;
}

/** A card: its face when `label` is a string, its back when the seat does not know it (null). */
function cardEl(label, extraClass) {
  if (label === null || label === undefined) {
    return el("span", { className: "card back" + (extraClass ? " " + extraClass : ""), title: "a card you do not see",
      role: "img", "aria-label": "a card you do not see" });
  }
  const { rank, suit } = parseCard(label);
  const colour = suit ? SUIT_COLOUR[suit] : "plain";
  return el("span", { className: "card face " + colour + (extraClass ? " " + extraClass : ""), title: visible(label),
    "data-card": String(label), role: "img", "aria-label": visible(label) },
    el("span", { className: "rank" }, rank), suit ? el("span", { className: "suit" }, suit) : null);
}

/** The sort key of a card in a hand: by suit, then by rank (`order`, the deck's order when the
 * server gives it, else the usual one with the ace high); unseen cards last. */
function cardSortKey(label, order) {
  if (label === null || label === undefined) return [9, 0, ""];
  if (order && order.length) {
    const at = order.indexOf(String(label));
    if (at >= 0) return [0, at, ""];
  }
  const { rank, suit } = parseCard(label);
  const s = SUIT_ORDER.indexOf(suit);
  const r = RANK_ORDER.indexOf(rank);
  return [1, (s < 0 ? 4 : s) * 100 + (r < 0 ? 50 : r), String(label)];
}

/** `cards` sorted for a hand (a copy). */
function sortCards(cards, order) {
  return cards.slice().sort((a, b) => {
    const ka = cardSortKey(a, order), kb = cardSortKey(b, order);
    for (let i = 0; i < 3; i++) {
      if (ka[i] < kb[i]) return -1;
      if (ka[i] > kb[i]) return 1;
    }
    return 0;
  });
}

/** A value of the observation as short text (lists joined, null as a dash). */
function valueText(value) {
  if (value === null || value === undefined) return "–";
  if (value === true) return "yes";
  if (value === false) return "no";
  if (Array.isArray(value)) return value.map(valueText).join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** "tokens_left" → "tokens left": names of the rule file read as words. */
function words(name) {
  return String(name).replace(/_/g, " ");
}

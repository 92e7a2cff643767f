// Tiles, cards and dominoes drawn as inline SVG: no fonts beyond Latin letters and digits,
// and never colour alone to tell two faces apart (suits differ by shape).
import { html } from "./vendor/preact-htm.js";

const RED = "#c62828", GREEN = "#2e7d32", BLUE = "#1f4f9a", INK = "#1b1b1b";

/** A drawn face: a button when it can be clicked, else an image. ``data`` holds the
 * data-* attributes (the face's code), ``name`` the words a screen reader says. */
function piece({ cls, data, name, title, svg, onClick, disabled, pressed }) {
  if (onClick) {
    return html`<button class=${cls} ...${data} aria-pressed=${pressed} aria-label=${title || name} title=${title || name}
      disabled=${disabled} onClick=${onClick}>${svg}</button>`;
  }
  return html`<span class=${cls} ...${data} role="img" aria-label=${name} title=${title || name}>${svg}</span>`;
}

// ---------------------------------------------------------------- MCR tiles
// Botzone codes: W characters (m), T bamboo (s), B dots (p), F1-F4 winds, J1-J3 dragons,
// H1-H8 flowers (H1-H4 seasons, H5-H8 flowers).
const WINDS = ["E", "S", "W", "N"];
const DRAGON_LABEL = ["C", "F", "P"];
const DRAGON_NAME = ["red dragon", "green dragon", "white dragon"];

export function tileLabel(code) {
  const k = code[0], n = +code.slice(1);
  if (k === "W") return n + "m";
  if (k === "T") return n + "s";
  if (k === "B") return n + "p";
  if (k === "F") return WINDS[n - 1];
  if (k === "J") return DRAGON_LABEL[n - 1];
  return (n > 4 ? "F" : "S") + (((n - 1) % 4) + 1);
}

export function tileName(code) {
  const k = code[0], n = +code.slice(1);
  if (k === "W") return `${n} characters`;
  if (k === "T") return `${n} bamboo`;
  if (k === "B") return `${n} dots`;
  if (k === "F") return ["East", "South", "West", "North"][n - 1] + " wind";
  if (k === "J") return DRAGON_NAME[n - 1];
  return (n > 4 ? "flower " : "season ") + (((n - 1) % 4) + 1);
}

// Pip centres inside the 30x40 tile, below the corner label.
const DOTS = [
  [],
  [[15, 24]],
  [[15, 16], [15, 32]],
  [[8, 13], [15, 23], [22, 33]],
  [[9, 16], [21, 16], [9, 31], [21, 31]],
  [[9, 14], [21, 14], [15, 23], [9, 32], [21, 32]],
  [[9, 13], [21, 13], [9, 23], [21, 23], [9, 33], [21, 33]],
  [[7, 11], [15, 14], [23, 17], [9, 26], [21, 26], [9, 34], [21, 34]],
  [[9, 12], [21, 12], [9, 19], [21, 19], [9, 27], [21, 27], [9, 34], [21, 34]],
  [[7, 13], [15, 13], [23, 13], [7, 23], [15, 23], [23, 23], [7, 33], [15, 33], [23, 33]],
];
const DOT_COLOURS = [BLUE, GREEN, RED];

function dots(n) {
  const r = n === 1 ? 7 : n > 6 ? 3.1 : 3.6;
  return DOTS[n].map(([x, y], i) => {
    const c = n === 1 ? RED : DOT_COLOURS[(i + n) % 3];
    return html`<circle cx=${x} cy=${y} r=${r} fill=${c} /><circle cx=${x} cy=${y} r=${r * 0.5} fill="none" stroke="#fff" stroke-width="0.9" />`;
  });
}

// Bamboo: [x, y, red] stick centres; a stick is 3.2 wide and 9 tall with a node.
const STICKS = [
  [],
  [],
  [[15, 16], [15, 31]],
  [[15, 16], [9, 31], [21, 31]],
  [[9, 16], [21, 16], [9, 31], [21, 31]],
  [[8, 16], [22, 16], [15, 23, 1], [8, 31], [22, 31]],
  [[7, 16], [15, 16], [23, 16], [7, 31], [15, 31], [23, 31]],
  [[15, 12, 1], [7, 23], [15, 23], [23, 23], [7, 34], [15, 34], [23, 34]],
  [[6, 16], [12, 16], [18, 16], [24, 16], [6, 31], [12, 31], [18, 31], [24, 31]],
  [[7, 12], [15, 12, 1], [23, 12], [7, 23], [15, 23, 1], [23, 23], [7, 34], [15, 34, 1], [23, 34]],
];

function stick(x, y, red, h = 9) {
  const c = red ? RED : GREEN;
  return html`<rect x=${x - 1.6} y=${y - h / 2} width="3.2" height=${h} rx="1.4" fill=${c} /><line x1=${x - 1.6} x2=${x + 1.6} y1=${y} y2=${y} stroke="#fff" stroke-width="0.7" />`;
}

function bamboo(n) {
  if (n === 1) {
    // One bamboo: a single tall stick with three nodes under a red crest (the "bird").
    return html`<circle cx="15" cy="11" r="3.4" fill=${RED} />${stick(15, 26, false, 20)}<line x1="13.4" x2="16.6" y1="21" y2="21" stroke="#fff" stroke-width="0.7" /><line x1="13.4" x2="16.6" y1="31" y2="31" stroke="#fff" stroke-width="0.7" />`;
  }
  return STICKS[n].map(([x, y, red]) => stick(x, y, red));
}

function characters(n) {
  // The numeral, and under it a red mark in the shape of 万 drawn with strokes.
  return html`<text x="15" y="21" text-anchor="middle" font-size="14" font-weight="700" fill=${INK}>${n}</text>
    <path d="M7.5 26H22.5M13.5 26C13.5 31 12 35 7.5 37.5M13.5 30.5H21V35.5C21 37.5 19.5 37.8 17.5 36.8" fill="none" stroke=${RED} stroke-width="1.9" stroke-linecap="round" stroke-linejoin="round" />`;
}

function dragon(n) {
  if (n === 1) {
    // Red dragon: the box-and-stroke shape of 中, drawn.
    return html`<rect x="8" y="17" width="14" height="10" rx="1" fill="none" stroke=${RED} stroke-width="2.2" /><line x1="15" x2="15" y1="10" y2="36" stroke=${RED} stroke-width="2.6" stroke-linecap="round" />`;
  }
  if (n === 2) {
    // Green dragon: a green fir of three tiers.
    return html`<path d="M15 9L23 19H18L25 28H19V35H11V28H5L12 19H7Z" fill=${GREEN} />`;
  }
  // White dragon: the traditional blue double frame.
  return html`<rect x="6" y="11" width="18" height="25" rx="1.5" fill="none" stroke=${BLUE} stroke-width="2" /><rect x="9.5" y="14.5" width="11" height="18" fill="none" stroke=${BLUE} stroke-width="1" />`;
}

function flower(n) {
  const season = n <= 4, k = ((n - 1) % 4) + 1;
  const pic = season
    ? html`<circle cx="15" cy="20" r="5" fill="#e39b12" /><path d="M15 10V13M15 27V30M5 20H8M22 20H25M8 13L10 15M20 25L22 27M22 13L20 15M8 27L10 25" stroke="#e39b12" stroke-width="1.6" />`
    : html`${[0, 72, 144, 216, 288].map((a) => html`<ellipse cx="15" cy="15" rx="3" ry="5" fill="#b0418f" transform=${`rotate(${a} 15 20)`} />`)}<circle cx="15" cy="20" r="2.4" fill="#f3c623" />`;
  return html`${pic}<text x="15" y="37.5" text-anchor="middle" font-size="9" font-weight="700" fill=${season ? "#a86b00" : "#7a2263"}>${k}</text>`;
}

function tileFace(code) {
  const k = code[0], n = +code.slice(1);
  if (k === "B") return dots(n);
  if (k === "T") return bamboo(n);
  if (k === "W") return characters(n);
  if (k === "F") return html`<text x="15" y="31" text-anchor="middle" font-size="20" font-weight="700" fill=${INK}>${WINDS[n - 1]}</text>`;
  if (k === "J") return dragon(n);
  return flower(n);
}

/** One MCR tile. code null: face down. */
export function Tile({ code, cls = "", onClick, title, disabled, sideways, marked, pos }) {
  const label = code ? tileLabel(code) : "";
  const svg = code
    ? html`<svg viewBox="0 0 30 40" aria-hidden="true"><rect x="0.6" y="0.6" width="28.8" height="38.8" rx="3.2" class="face" />${tileFace(code)}<text x="2.2" y="7.4" font-size="6.6" font-weight="700" fill="#444">${label}</text></svg>`
    : html`<svg viewBox="0 0 30 40" aria-hidden="true"><rect x="0.6" y="0.6" width="28.8" height="38.8" rx="3.2" class="back" /></svg>`;
  const name = code ? `${tileName(code)} (${label})` : "face-down tile";
  const data = code ? { "data-tile": code, "data-pos": pos } : {};
  return piece({ cls: `tile ${cls}${sideways ? " sideways" : ""}${marked ? " marked" : ""}`, data, name, title, svg, onClick, disabled });
}

// ---------------------------------------------------------------- playing cards
// Suit shapes in a 100x100 box centred on 0,0.
const SUIT_PATH = {
  H: "M0 45C-60 5-52-44-24-44C-10-44 0-34 0-24C0-34 10-44 24-44C52-44 60 5 0 45Z",
  D: "M0-50L36 0L0 50L-36 0Z",
  S: "M0-50C60-5 52 32 24 32C12 32 4 26 2 18L10 50H-10L-2 18C-4 26-12 32-24 32C-52 32-60-5 0-50Z",
  C: "M-7 2C-16 14-44 22-44-2C-44-20-24-26-12-14C-24-30-14-48 0-48C14-48 24-30 12-14C24-26 44-20 44-2C44 22 16 14 7 2L12 50H-12Z",
};
const SUIT_NAME = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAME = { J: "jack", Q: "queen", K: "king", A: "ace" };

export function suitShape(suit, x, y, size) {
  const fill = suit === "H" || suit === "D" ? RED : INK;
  return html`<path d=${SUIT_PATH[suit]} fill=${fill} transform=${`translate(${x} ${y}) scale(${size / 100})`} />`;
}

/** Parse "S10", "HA", "BJ", "LJ" (shengji) or poker54 "S1".."D13" (diu, ace = 1). */
export function cardParts(card) {
  if (card === "BJ" || card === "LJ") return { joker: card };
  let rank = card.slice(1);
  if (/^\d+$/.test(rank) && (+rank === 1 || +rank > 10)) rank = { 1: "A", 11: "J", 12: "Q", 13: "K" }[+rank];
  return { suit: card[0], rank };
}

export function cardName(card) {
  const p = cardParts(card);
  if (p.joker) return p.joker === "BJ" ? "big joker" : "small joker";
  return `${RANK_NAME[p.rank] || p.rank} of ${SUIT_NAME[p.suit]}`;
}

const STAR = "M0-46L12-14L46-14L18 6L28 40L0 20L-28 40L-18 6L-46-14L-12-14Z";

function cardFace(card, points) {
  const p = cardParts(card);
  if (p.joker) {
    const big = p.joker === "BJ", c = big ? RED : INK;
    return html`<text x="3" y="13" font-size="10" font-weight="800" fill=${c}>${big ? "BIG" : "SML"}</text>
      <text x="3" y="24" font-size="8" font-weight="700" fill=${c}>JKR</text>
      <path d=${STAR} transform="translate(27 44) scale(0.34)" fill=${big ? c : "none"} stroke=${c} stroke-width="7" />`;
  }
  const red = p.suit === "H" || p.suit === "D";
  const face = "JQK".includes(p.rank);
  return html`<text x=${p.rank === "10" ? 1.5 : 3} y="14" font-size="13" font-weight="800" letter-spacing=${p.rank === "10" ? -1.5 : 0} fill=${red ? RED : INK}>${p.rank}</text>
    ${suitShape(p.suit, 8, 23, 11)}
    ${face ? html`<rect x="15" y="16" width="30" height="46" rx="2" fill="none" stroke=${red ? RED : INK} stroke-width="1" /><text x="30" y="50" text-anchor="middle" font-size="15" font-weight="700" fill=${red ? RED : INK}>${p.rank}</text>${suitShape(p.suit, 30, 28, 13)}` : suitShape(p.suit, 30, 44, 26)}
    ${points ? html`<circle cx="44" cy="7" r="3" fill="#d4a017" stroke="#8a6500" stroke-width="0.6" />` : null}`;
}

export const POINT_RANKS = new Set(["5", "10", "K"]);

/** One playing card. trump: highlight; points: mark 5/10/K; selected: raised. */
export function Card({ card, trump, points, selected, onClick, disabled, cls = "", pos }) {
  const name = cardName(card) + (trump ? ", trump" : "");
  const svg = html`<svg viewBox="0 0 50 70" aria-hidden="true"><rect x="0.6" y="0.6" width="48.8" height="68.8" rx="4" class="face" />${cardFace(card, points)}</svg>`;
  const cls2 = `card ${cls}${trump ? " trump" : ""}${selected ? " selected" : ""}`;
  return piece({ cls: cls2, data: { "data-card": card, "data-pos": pos }, name, svg, onClick, disabled, pressed: onClick ? !!selected : undefined });
}

// ---------------------------------------------------------------- dominoes
// Pips of one half in a 30x30 square: 1 and 4 red, the 6 half red (one column of three).
const PIPS = [
  [],
  [[15, 15]],
  [[9, 9], [21, 9]],
  [[7, 7], [15, 15], [23, 23]],
  [[9, 9], [21, 9], [9, 21], [21, 21]],
  [[8, 8], [22, 8], [15, 15], [8, 22], [22, 22]],
  [[9, 6], [9, 15], [9, 24], [21, 6], [21, 15], [21, 24]],
];

function half(n, dx, dy, flip) {
  return PIPS[n].map(([x, y], i) => {
    const red = n === 1 || n === 4 || (n === 6 && i < 3);
    const px = dx + (flip ? 30 - x : x), py = dy + (flip ? 30 - y : y);
    return html`<circle cx=${px} cy=${py} r=${n === 1 ? 5 : 3.2} fill=${red ? RED : INK} />`;
  });
}

/** A domino showing a|b (a first: top, or left when horizontal). */
export function Domino({ a, b, horizontal, cls = "", title, onClick, disabled }) {
  const w = horizontal ? 60 : 30, h = horizontal ? 30 : 60;
  const name = title || `domino ${a}-${b}`;
  const svg = html`<svg viewBox=${`0 0 ${w} ${h}`} aria-hidden="true"><rect x="0.6" y="0.6" width=${w - 1.2} height=${h - 1.2} rx="4" class="face" />
    ${half(a, 0, 0, false)}${half(b, horizontal ? 30 : 0, horizontal ? 0 : 30, true)}
    <line x1=${horizontal ? 30 : 4} x2=${horizontal ? 30 : 26} y1=${horizontal ? 4 : 30} y2=${horizontal ? 26 : 30} stroke="#c8bfa8" stroke-width="0.8" /></svg>`;
  return piece({ cls: `domino ${horizontal ? "h" : "v"} ${cls}`, data: { "data-domino": `${a}${b}` }, name, svg, onClick, disabled });
}

// ---------------------------------------------------------------- 字牌 (diu)
// s1..s10 small-case (小写), b1..b10 big-case (大写), W the 听用 wild card. Case differs by
// shape: small = rounded card with a round badge; big = square card, double frame, square badge.
export function zipaiName(card) {
  if (card === "W") return "wild (听用)";
  return `${card[0] === "s" ? "small" : "big"} ${card.slice(1)}`;
}

function zipaiFace(card) {
  // Everything that tells two cards apart sits in the left half, which stays visible when the
  // cards of a hand overlap; the right half repeats the number small.
  if (card === "W") {
    return html`<path d=${STAR} transform="translate(11 20) scale(0.2)" fill="#7b1fa2" /><text x="3" y="44" font-size="7.5" font-weight="800" fill="#7b1fa2">WILD</text>`;
  }
  const big = card[0] === "b", n = +card.slice(1);
  const c = n === 2 || n === 7 || n === 10 ? RED : INK;
  const badge = big
    ? html`<rect x="4" y="27" width="12" height="12" fill="none" stroke=${c} stroke-width="2.2" /><rect x="7.5" y="30.5" width="5" height="5" fill=${c} />`
    : html`<circle cx="10" cy="33" r="5.5" fill="none" stroke=${c} stroke-width="1.2" />`;
  return html`<text x="10" y="21" text-anchor="middle" font-size=${n === 10 ? 12 : 16} font-weight=${big ? 900 : 400} fill=${c}>${n}</text>${badge}
    <text x="23" y="56" text-anchor="middle" font-size="8" font-weight=${big ? 900 : 400} fill=${c}>${n}</text>
    ${big ? html`<rect x="2.5" y="2.5" width="25" height="59" rx="0.5" fill="none" stroke=${INK} stroke-width="0.8" />` : null}`;
}

/** A diu card of any deck profile (字牌, 川牌 dominoes, poker cards, 听用). */
export function DiuCard({ card, onClick, disabled, selected, cls = "", pos }) {
  if (card[0] === "p") {
    return html`<span class=${`dcard dom ${cls}${selected ? " selected" : ""}`} data-card=${card}>${Domino({ a: +card[1], b: +card[2], onClick, disabled })}</span>`;
  }
  if (card !== "W" && "SHCD".includes(card[0])) return Card({ card, onClick, disabled, selected, cls, pos });
  const big = card[0] === "b";
  const name = zipaiName(card);
  const svg = html`<svg viewBox="0 0 30 64" aria-hidden="true"><rect x="0.6" y="0.6" width="28.8" height="62.8" rx=${big ? 1 : 6} class="face" />${zipaiFace(card)}<text x="3.5" y="60" font-size="5.5" font-weight="700" fill="#666">${card}</text></svg>`;
  return piece({ cls: `dcard ${cls}${selected ? " selected" : ""}`, data: { "data-card": card, "data-pos": pos }, name, svg, onClick, disabled });
}

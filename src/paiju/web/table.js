// Pieces every table screen shares: where each seat sits, the seat headers with the turn
// highlight and the countdown, the keyboard, the hand-result frame and the totals.
import { html, useEffect, useState, useRef } from "./vendor/preact-htm.js";
import { S, waitingOnMe, act } from "./client.js";
import { DealCheck } from "./fairness.js";

export const myTurn = waitingOnMe;

// ---------------------------------------------------------------- keyboard
let keyHandler = null;
window.addEventListener("keydown", (e) => {
  const t = e.target;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
  if (keyHandler && keyHandler(e) === true) e.preventDefault();
});

/** Register the screen's key handler (it returns true for a key it used). */
export function useKeys(handler) {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    const f = (e) => ref.current(e);
    keyHandler = f;
    return () => {
      if (keyHandler === f) keyHandler = null;
    };
  }, []);
}

/** "1".."9", "0", "-", "=" -> 0..11; else -1. */
export function positionKey(key) {
  return "1234567890-=".indexOf(key);
}

/** Arrow keys move the focus along the buttons of the element ``box``. */
export function arrowFocus(e, box) {
  if (!box || (e.key !== "ArrowLeft" && e.key !== "ArrowRight")) return false;
  const items = [...box.querySelectorAll("button:not([disabled])")];
  if (!items.length) return false;
  const at = items.indexOf(document.activeElement);
  const step = e.key === "ArrowRight" ? 1 : -1;
  const next = at < 0 ? (step > 0 ? 0 : items.length - 1) : (at + step + items.length) % items.length;
  items[next].focus();
  return true;
}

/** Space or P: pass, when pass is legal. */
export function passKey(e, legal) {
  if ((e.key === " " || e.key === "p" || e.key === "P") && legal.includes("pass")) {
    act("pass");
    return true;
  }
  return false;
}

// ---------------------------------------------------------------- seats
/** Seats in turn order (MCR plays along the wind order of the hand). */
export function turnOrder(st) {
  if (st.variant === "mcr" && st.view) return st.view.order;
  return st.seats.map((s) => s.seat);
}

const PLACES = { 2: ["bottom", "top"], 3: ["bottom", "right", "left"], 4: ["bottom", "right", "top", "left"] };

/** seat -> "bottom" | "right" | "top" | "left": you at the bottom, the next seat to play
 * (下家) on the right, counter-clockwise in turn order. Spectators see seat 0 at the bottom. */
export function places(st) {
  const order = turnOrder(st);
  const me = st.you ?? 0;
  const i0 = Math.max(0, order.indexOf(me));
  const names = PLACES[order.length] || PLACES[4];
  const out = {};
  order.forEach((seat, i) => (out[seat] = names[(i - i0 + order.length) % order.length]));
  return out;
}

/** The hand on view, counted from 1 (a finished match shows its last hand). */
export const handNumber = (st) => (st.phase === "finished" ? st.hand : st.hand + 1);

export function seatName(st, seat) {
  const s = st.seats[seat];
  if (!s) return `seat ${seat}`;
  return s.name || (s.kind === "empty" ? "empty" : `seat ${seat}`);
}

export function Countdown({ st }) {
  const [, tick] = useState(0);
  useEffect(() => {
    const t = setInterval(() => tick((x) => x + 1), 250);
    return () => clearInterval(t);
  }, []);
  if (st.deadline_ms === null || st.deadline_ms === undefined) return null;
  const left = Math.max(0, st.deadline_ms - (performance.now() - S.stateAt));
  const secs = Math.ceil(left / 1000);
  const text = secs >= 60 ? `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}` : `${secs}s`;
  return html`<span class=${`timer${secs <= 5 ? " urgent" : ""}`} role="timer" data-seconds=${secs} aria-label=${`${secs} seconds left`}>${text}</span>`;
}

/** The name plate of a seat: name, badges, turn highlight and (for you) the countdown. */
export function SeatHead({ st, seat, badges = [], children }) {
  const info = st.seats[seat] || {};
  const turn = st.to_act.includes(seat);
  const you = seat === st.you;
  return html`<div class=${`plate${turn ? " turn" : ""}${you ? " you" : ""}`} data-seat=${seat} data-turn=${turn}>
    <span class="name">${seatName(st, seat)}</span>
    ${info.kind === "bot" ? html`<span class="badge bot">bot</span>` : null}
    ${info.program ? html`<span class="badge bot" title="a program plays this seat for its player">program</span>` : null}
    ${info.kind === "human" && !info.connected && !you ? html`<span class="badge off" title="disconnected">away</span>` : null}
    ${you ? html`<span class="badge me">you</span>` : null}
    ${badges.filter(Boolean).map((b) => html`<span class="badge">${b}</span>`)}
    ${children}
    ${turn ? html`<span class="turnmark">${you ? "your turn" : "to play"}</span>` : null}
    ${you && turn ? html`<${Countdown} st=${st} />` : null}
    <span class="total" title="match total">${st.totals[seat] > 0 ? "+" : ""}${st.totals[seat]}</span>
  </div>`;
}

/** The table: the other seats around the centre, yours (``mine``) below. */
export function Felt({ st, variant, other, center, mine }) {
  const at = places(st);
  const cell = (pos) => {
    const seat = Object.keys(at).find((s) => at[s] === pos);
    if (seat === undefined || pos === "bottom") return null;
    return html`<section class=${`seat ${pos}`} data-place=${pos} data-seat=${seat}>${other(+seat, pos)}</section>`;
  };
  return html`<div class=${`felt v-${variant}`}>
    ${cell("top")}${cell("left")}
    <section class="center">${center}</section>
    ${cell("right")}
    <section class="seat bottom mine" data-place="bottom" data-seat=${st.you ?? 0}>${mine}</section>
  </div>`;
}

/** The result frame after a hand or at the end of the match. */
export function ResultFrame({ st, title, children }) {
  const finished = st.phase === "finished";
  const scored = S.scored;
  return html`<section class="result" data-result=${st.phase} aria-label="hand result">
    <h2>${finished ? "Match over" : title || `Hand ${handNumber(st)} result`}</h2>
    ${children}
    <${Totals} st=${st} scores=${scored && (scored.hand === st.hand || finished) ? scored.scores : null} />
    <${DealCheck} st=${st} />
    ${finished ? null : html`<p class="next">The next hand starts in a moment…</p>`}
  </section>`;
}

export function Totals({ st, scores }) {
  return html`<table class="totals">
    <thead><tr><th>seat</th>${scores ? html`<th>this hand</th>` : null}<th>total</th></tr></thead>
    <tbody>${st.seats.map((s) => html`<tr data-seat=${s.seat}>
      <td>${seatName(st, s.seat)}${s.seat === st.you ? " (you)" : ""}</td>
      ${scores ? html`<td class="num">${fmt(scores[s.seat])}</td>` : null}
      <td class="num">${fmt(st.totals[s.seat])}</td></tr>`)}</tbody>
  </table>`;
}

export const fmt = (n) => (n > 0 ? `+${n}` : `${n}`);

/** One line of what each seat won or paid this hand. */
export function Payments({ st, scores, label = "Payments" }) {
  return html`<p class="pay">${label}: ${scores.map((s, i) => html`<span class="payment">${seatName(st, i)} ${fmt(s)}</span>`)}</p>`;
}

/** Buttons for the given legal actions; ``label`` renders each, number keys pick them. */
export function Choices({ actions, label, onPick, cls = "" }) {
  let n = 0;
  return html`<div class=${`choices ${cls}`}>
    ${actions.map((a) => html`<button class=${`choice${a === "pass" ? " pass" : ""}`} data-action=${a} disabled=${!!S.pending}
      onClick=${() => (onPick ? onPick(a) : act(a))}><kbd>${a === "pass" ? "Space" : ++n}</kbd> ${label(a)}</button>`)}
  </div>`;
}

/** Number keys 1-9 pick among ``actions`` (pass excluded). */
export function choiceKey(e, actions) {
  const i = "123456789".indexOf(e.key);
  const list = actions.filter((a) => a !== "pass");
  if (i >= 0 && i < list.length) {
    act(list[i]);
    return true;
  }
  return false;
}

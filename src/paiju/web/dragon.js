// Dragon (牌九接龙) table: your eight dominoes, the legal arrangements drawn as chains with
// the best one marked, who has submitted, and the showdown with every chain and leftover.
import { html, useState } from "./vendor/preact-htm.js";
import { S, act } from "./client.js";
import { Domino } from "./draw.js";
import { SeatHead, ResultFrame, useKeys, seatName, fmt, handNumber } from "./table.js";

// Single-tile ranks (1 = highest) and the pai gow pairs, best first (docs/rules/dragon.md).
const RANK = { 66: 1, 11: 2, 44: 3, 13: 4, 55: 5, 33: 6, 22: 7, 56: 8, 46: 9, 16: 10, 15: 11, 45: 12, 36: 12, 35: 13, 26: 13, 34: 14, 25: 14, 24: 15, 14: 16, 23: 16, 12: 17 };
const PAIRS = ["12+24", "66+66", "11+11", "44+44", "13+13", "55+55", "33+33", "22+22", "56+56", "46+46", "16+16", "15+15", "36+45", "26+35", "25+34", "14+23"];
const NAMES = { 66: "Teen", 11: "Day", 44: "Yun", 13: "Gor", 55: "Mooy", 33: "Chong", 22: "Bon", 56: "Foo", 46: "Ping", 16: "Tit", 15: "Look" };

/** "chain 16 66 64 | 11 22" -> {chain: [[1,6],[6,6],[6,4]], leftover: ["11","22"]}. */
function parseArrangement(text) {
  if (text === "bust") return { bust: true, chain: [], leftover: [] };
  const [line, rest] = text.replace(/^chain /, "").split("|");
  return {
    chain: line.trim().split(/\s+/).map((t) => [+t[0], +t[1]]),
    leftover: rest.trim().split(/\s+/).filter(Boolean),
  };
}

const pips = (t) => +t[0] + +t[1];

/** A default-scoring estimate of the leftover, higher is better: [2, pair] or [1, points,
 * best tile]. Only labels and orders the list; the server names the best arrangement. */
function leftoverKey(leftover) {
  if (leftover.length === 2) {
    const pair = PAIRS.indexOf([...leftover].sort().join("+"));
    if (pair >= 0) return [2, -pair, 0];
  }
  if (!leftover.length) return [0, 0, 0];
  const points = leftover.reduce((s, t) => s + pips(t), 0) % 10;
  const best = Math.min(...leftover.map((t) => RANK[t]));
  return [1, points, points ? -best : 0];
}

function better(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return false;
}

function leftoverText(leftover) {
  const key = leftoverKey(leftover);
  if (key[0] === 2) {
    const t = leftover[0];
    return key[1] === 0 ? "Supreme pair" : NAMES[t] && leftover[0] === leftover[1] ? `pair of ${NAMES[t]}` : `mixed pair (${pips(leftover[0])})`;
  }
  if (key[0] === 0) return "bust";
  return `${key[1]} point${key[1] === 1 ? "" : "s"}`;
}

function Chain({ text, small }) {
  const a = parseArrangement(text);
  if (a.bust) return html`<span class="chain bust">bust (no line of six)</span>`;
  return html`<span class=${`chain${small ? " small" : ""}`}>${a.chain.map(([x, y]) => html`<${Domino} a=${x} b=${y} horizontal />`)}
    <span class="leftover">${a.leftover.map((t) => html`<${Domino} a=${+t[0]} b=${+t[1]} />`)}</span></span>`;
}

export function Other({ st, seat }) {
  const v = st.view, p = v.players[seat];
  const shown = v.result && v.result.seats[seat];
  return html`<${SeatHead} st=${st} seat=${seat} badges=${[p.submitted ? "submitted" : v.result ? null : "arranging…"]} />
    ${shown ? html`<${Showdown} entry=${shown} /> ` : html`<div class="count">${p.tiles} tiles</div>`}`;
}

function Showdown({ entry }) {
  return html`<div class="showdown" data-showdown=${entry.seat}><${Chain} text=${entry.submitted.text} small />
    <div class="hint">${entry.category}${entry.points !== null ? ` · ${entry.points} points` : ""} · <b>${fmt(entry.score)}</b></div></div>`;
}

/** The legal arrangements, the server's best first; under the default scoring the others are
 * sorted by what their leftover would score, with that score as a label (display only). */
function Arrangements({ legal, best, labels }) {
  const [chosen, setChosen] = useState(null);
  const [all, setAll] = useState(false);
  const pick = legal.includes(chosen) ? chosen : null;
  const key = (a) => leftoverKey(parseArrangement(a).leftover);
  const rest = legal.filter((a) => a !== best);
  if (labels) rest.sort((a, b) => (better(key(a), key(b)) ? -1 : better(key(b), key(a)) ? 1 : 0));
  const ordered = best ? [best, ...rest] : rest;
  const shown = all ? ordered : ordered.slice(0, 8);
  useKeys((e) => {
    const i = "12345678".indexOf(e.key);
    if (i >= 0 && i < shown.length) {
      setChosen(shown[i]);
      return true;
    }
    if (e.key === "Enter" && pick) return act(pick);
    return false;
  });
  return html`<div class="prompt arrangements" data-prompt="arrange">
    <button class="primary" data-submit disabled=${!pick || !!S.pending} onClick=${() => act(pick)}>Submit</button>
    <span class="hint">Choose how to lay your dragon (6 or 7 in a line, the rest score), then submit. ${legal.length} ways.</span>
    <ol>${shown.map((a, i) => html`<li class=${`arr${a === pick ? " chosen" : ""}${a === best ? " best" : ""}`}>
      <button class="arrbtn" data-arrangement=${a} aria-pressed=${a === pick} onClick=${() => setChosen(a)}><kbd>${i + 1}</kbd>
        <${Chain} text=${a} small /><span class="score">${labels ? leftoverText(parseArrangement(a).leftover) : ""}${a === best ? html` <b class="bestmark">★ best</b>` : null}</span></button></li>`)}</ol>
    ${legal.length > shown.length ? html`<button class="small" onClick=${() => setAll(true)}>Show all ${legal.length}</button>` : null}
  </div>`;
}

// The scoring the client's own labels (leftoverKey) assume; other tables get no labels.
const DEFAULT_SCORING = { specials: false, pair_set: "paigow", single_points: "mod10", single_rank: "wikipedia", zero_tiebreak: false, gee_joon_wild: false };
const plainScoring = (v) => Object.entries(DEFAULT_SCORING).every(([k, d]) => v.options[k] === undefined || v.options[k] === d);

export function Mine({ st }) {
  const v = st.view, me = st.you ?? 0;
  const legal = st.you === null ? [] : v.legal;
  const shown = v.result && v.result.seats[me];
  return html`<${SeatHead} st=${st} seat=${me} badges=${[v.players[me] && v.players[me].submitted && !v.result ? "submitted" : null]} />
    ${shown ? html`<${Showdown} entry=${shown} />` : null}
    ${!shown && v.hand.length ? html`<div class="tiles8" aria-label="your tiles">${v.hand.map((t) => html`<${Domino} a=${+t[0]} b=${+t[1]} />`)}</div>` : null}
    ${!shown && st.you === null ? html`<div class="count">${v.players[me].tiles} tiles</div>` : null}
    ${legal.length ? html`<${Arrangements} legal=${legal} best=${v.best} labels=${plainScoring(v)} key=${st.hand} />` : null}
    ${v.my_submission && !shown ? html`<div class="submitted">Submitted: <${Chain} text=${v.my_submission} small /> — waiting for the others.</div>` : null}`;
}

export function Center({ st }) {
  return html`<div class="info">hand <b>${handNumber(st)}</b> of ${st.view.options.hands}</div>`;
}

export function Result({ st }) {
  const r = st.view.result;
  return html`<${ResultFrame} st=${st} title=${`Hand ${handNumber(st)}: showdown`}>
    <table class="showdowns"><tbody>${r.seats.map((e) => html`<tr data-seat=${e.seat}><td>${seatName(st, e.seat)}</td>
      <td><${Chain} text=${e.submitted.text} small /></td><td>${e.category}${e.points !== null ? ` ${e.points}` : ""}</td><td class="num">${fmt(e.score)}</td></tr>`)}</tbody></table>
  </${ResultFrame}>`;
}

/** A timed-out action in words. */
export function describeAction(action) {
  return action === "bust"
    ? "your hand was declared bust for you"
    : "your tiles were arranged for you, in the best arrangement";
}

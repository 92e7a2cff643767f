// Diu (绥江-丢) table: your hand, the polled card with its drawer or discarder and the
// polling order, the claim ladder (吃 < 筷 < 筷水 < 硬对/硬水 < 丢) as buttons, laying a won
// card, picking the two 丢 cards, every seat's melds, dead cards, stock and scores.
import { html, useRef } from "./vendor/preact-htm.js";
import { S, act } from "./client.js";
import { DiuCard, zipaiName } from "./draw.js";
import { SeatHead, ResultFrame, Choices, useKeys, positionKey, arrowFocus, passKey, choiceKey, seatName, Payments } from "./table.js";

// The ladder, low to high (硬水 ranks with 硬对).
const CALLS = [
  ["chi", "吃", "chi", "a chi (run) with the card"],
  ["kuai", "筷", "kuai", "one same card + a wild"],
  ["kuai_shui", "筷水", "kuai shui", "one same card + two wilds"],
  ["hard_dui", "硬对", "hard pair", "two same cards"],
  ["ying_shui", "硬水", "ying shui", "two same + a wild, or three same"],
  ["diu", "丢", "diu", "go out: ends the hand"],
];
const ROLE_TEXT = { A: "A · head", B: "B", C: "C", D: "D · idle" };

function Row({ cards, small }) {
  return html`<div class=${`cards gapped${small ? " small" : ""}`}>${cards.map((c) => html`<${DiuCard} card=${c} />`)}</div>`;
}

function Melds({ melds }) {
  if (!melds.length) return null;
  return html`<div class="melds">${melds.map((m, i) => html`<span class="meld" data-meld=${i}><${Row} cards=${m} small /></span>`)}</div>`;
}

/** Who the poll of the current card asks, in order (public: it follows from the rules). */
function pollOrder(v) {
  if (!v.card) return [];
  const a = v.active, i = a.indexOf(v.card.by), n = a.length;
  const next = [a[(i + 1) % n], a[(i + 2) % n]];
  return v.card.source === "draw" ? [v.card.by, ...next] : next;
}

export function Other({ st, seat }) {
  const v = st.view;
  return html`<${SeatHead} st=${st} seat=${seat} badges=${[ROLE_TEXT[v.roles[seat]]]} />
    <${Melds} melds=${v.melds[seat]} />
    ${v.result ? html`<div class="revealed"><${Row} cards=${v.result.hands[seat]} small /></div>` : html`<div class="count">${v.hand_counts[seat]} cards</div>`}`;
}

export function Center({ st }) {
  const v = st.view;
  const order = pollOrder(v);
  return html`<div class="info diu-info">
    <div data-stock=${v.stock_count}>stock <b>${v.stock_count}</b></div>
    ${v.card ? html`<div class="polled" data-polled=${v.card.card}>
        <div><${DiuCard} card=${v.card.card} cls="big" /></div>
        <div>${v.card.source === "draw" ? "drawn by" : "discarded by"} <b>${seatName(st, v.card.by)}</b></div>
        <div class="order">asks: ${order.map((s, i) => html`${i ? " → " : ""}<b class=${st.to_act.includes(s) ? "asked" : ""}>${seatName(st, s)}</b>`)}</div></div>`
      : null}
    ${v.dead && v.dead.length ? html`<div class="dead">dead (${v.dead_count}): <${Row} cards=${v.dead.slice(-8)} small /></div>` : v.dead_count ? html`<div>dead ${v.dead_count}</div>` : null}
  </div>`;
}

function callLabel(a) {
  if (a === "pass") return "Pass";
  const c = CALLS.find(([k]) => `call ${k}` === a);
  return c ? html`<span lang="zh" class="zh">${c[1]}</span> ${c[2]} <small>${c[3]}</small>` : a;
}

function ladder(legal) {
  const rank = (a) => CALLS.findIndex(([k]) => `call ${k}` === a);
  return [...legal].sort((a, b) => (a === "pass") - (b === "pass") || rank(a) - rank(b));
}

function cardsLabel(word) {
  return (a) => {
    if (a === "pass") return word;
    const [kind, ...rest] = a.split(" ");
    if (kind === "take" && rest[0][0] === "m") return `add to your meld ${+rest[0].slice(1) + 1}`;
    return html`${kind === "diu" ? "diu with" : "with"} <${Row} cards=${rest} small />`;
  };
}

const PROMPTS = {
  call: ["call", "Call the card?", callLabel],
  reask: ["call", "A call stands after you: go out (diu) now?", callLabel],
  take: ["take", "You won the card: lay it with…", cardsLabel("Give the card up")],
  diu_pick: ["diu", "Pick the two cards you go out (diu) with", cardsLabel("Do not go out")],
};

export function Mine({ st }) {
  const v = st.view, me = st.you ?? 0;
  const legal = st.you === null ? [] : v.legal;
  const handRef = useRef(null);
  const discard = legal.some((a) => a.startsWith("discard "));
  const prompt = PROMPTS[v.asked];
  const options = prompt && legal.length ? (v.asked === "call" || v.asked === "reask" ? ladder(legal) : legal) : [];
  const hand = v.hand || [];
  const can = (c) => discard && legal.includes(`discard ${c}`) && !S.pending;
  useKeys((e) => {
    if (options.length) return passKey(e, options) || choiceKey(e, options);
    const i = positionKey(e.key);
    if (i >= 0 && i < hand.length && can(hand[i])) return act(`discard ${hand[i]}`);
    return arrowFocus(e, handRef.current);
  });
  return html`<${SeatHead} st=${st} seat=${me} badges=${[ROLE_TEXT[v.roles[me]]]} />
    <${Melds} melds=${v.melds[me]} />
    ${st.you === null
      ? html`<div class="count">${v.hand_counts[me]} cards</div>`
      : html`<div class="cards hand-cards diu-hand" ref=${handRef} aria-label="your hand">${hand.map((c, i) => html`<${DiuCard} card=${c} pos=${i + 1}
          disabled=${!can(c)} onClick=${() => act(`discard ${c}`)} />`)}</div>`}
    ${discard ? html`<div class="prompt" data-prompt="discard"><span class="hint">Your turn: click a card to discard it (keys 1-9, 0, -, = or arrows and Enter).</span></div>` : null}
    ${options.length ? html`<div class="prompt" data-prompt=${v.asked}><span>${prompt[1]}</span><${Choices} actions=${options} label=${prompt[2]} /></div>` : null}
    ${v.my_call && !options.length ? html`<div class="hint">Your call: <b>${v.my_call}</b> — waiting for the poll.</div>` : null}`;
}

export function Result({ st }) {
  const v = st.view, r = v.result;
  return html`<${ResultFrame} st=${st}>
    ${r.winner === null
      ? html`<p>Nobody went out: the stock ran out (a draw). Nobody pays.</p>`
      : html`<p><b>${seatName(st, r.winner)}</b> went out (diu) on <${DiuCard} card=${r.card} /> with <${Row} cards=${r.diu_cards || []} small /></p>`}
    <${Payments} st=${st} scores=${r.scores} label="Scores" />
  </${ResultFrame}>`;
}

/** A timed-out action in words. */
export function describeAction(action) {
  const [kind, ...cards] = action.split(" ");
  if (kind === "discard") return `${zipaiName(cards[0])} was discarded for you`;
  if (kind === "take") return "the card was laid with your first meld for you";
  return `the server played "${action}" for you`;
}

// Shengji table: hand sorted by suit (alternating colours) with trumps together at the right,
// bidding with the legal bids, burying the kitty by selecting cards, friend calling, plays
// of one or many selected cards, the trick in front of each player, points, levels.
import { html, useState, useRef } from "./vendor/preact-htm.js";
import { S, act, actAll, notify } from "./client.js";
import { Card, POINT_RANKS, cardName, suitShape } from "./draw.js";
import { SeatHead, ResultFrame, Choices, useKeys, passKey, choiceKey, arrowFocus, seatName, Payments } from "./table.js";

const SUIT_ORDER = ["S", "H", "C", "D", "T"]; // black, red, black, red, then trumps
const SUIT_WORD = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

function rankOf(card) {
  return card === "BJ" || card === "LJ" ? card : card.slice(1);
}

/** Whether ``card`` is a trump in this hand (for highlighting and grouping only). */
export function isTrump(card, v) {
  if (card === "BJ" || card === "LJ") return true;
  const noTrump = v.trump_suit === null || v.trump_suit === undefined;
  const levelCards = !(noTrump && v.trump_set && v.options.nt_trumps === "jokers_only");
  if (levelCards && rankOf(card) === v.level) return true;
  return card[0] === v.trump_suit;
}

/** The hand in display order: plain suits grouped in alternating colours, trumps last
 * (the server's order is kept inside each group: low to high). */
function displayOrder(hand, v) {
  const groups = {};
  for (const c of hand) {
    const g = isTrump(c, v) ? "T" : c[0];
    (groups[g] = groups[g] || []).push(c);
  }
  return SUIT_ORDER.flatMap((g) => groups[g] || []);
}

const sameCards = (a, b) => a.length === b.length && [...a].sort().join(" ") === [...b].sort().join(" ");
const cardsOf = (action) => action.split(" ").slice(1);

function Cards({ cards, v, small, cls = "" }) {
  return html`<div class=${`cards gapped${small ? " small" : ""} ${cls}`}>${cards.map((c) => html`<${Card} card=${c} trump=${isTrump(c, v)} points=${POINT_RANKS.has(rankOf(c))} />`)}</div>`;
}

function trumpText(v) {
  if (!v.trump_set && !v.trump_suit) return `level ${v.level}, trump not set`;
  if (!v.trump_suit) return html`<b>no trump</b> · level ${v.level}`;
  return html`<span class="suitword">${svgSuit(v.trump_suit)} <b>${SUIT_WORD[v.trump_suit]}</b></span> · level <b>${v.level}</b>`;
}

function svgSuit(s) {
  return html`<svg class="suiticon" viewBox="-50 -50 100 100" aria-hidden="true">${suitShape(s, 0, 0, 90)}</svg>`;
}

function teamOf(v, seat) {
  if (v.landlord === null || v.landlord === undefined) return null;
  return v.landlord_team.includes(seat) ? "declarer" : "attacker";
}

function badges(v, seat) {
  const out = [];
  if (v.landlord === seat) out.push("landlord");
  else if (teamOf(v, seat) === "declarer") out.push(v.friend ? "friend" : "partner");
  if (v.leader === seat && v.phase === "play") out.push("leads");
  return out;
}

function trickPlay(v, seat) {
  const p = v.trick.find((x) => x.seat === seat);
  return p ? html`<${Cards} cards=${p.cards} v=${v} small cls="played" />` : null;
}

export function Other({ st, seat }) {
  const v = st.view;
  return html`<${SeatHead} st=${st} seat=${seat} badges=${badges(v, seat)} />
    <div class="count">${v.hand_counts[seat]} cards</div>
    <div class="trickspot" data-trick-seat=${seat}>${trickPlay(v, seat)}</div>`;
}

/** Levels per team (tractor) or per seat (Finding Friends), from your side of the table. */
function levelsText(st, levels) {
  if (levels.length === 2) {
    const us = st.you === null ? null : st.you % 2; // team 0: seats 1 and 3 (0 and 2)
    if (us === null) return `seats 1+3: ${levels[0]} · seats 2+4: ${levels[1]}`;
    return `your team ${levels[us]} · opponents ${levels[1 - us]}`;
  }
  return levels.map((l, i) => `${seatName(st, i)} ${l}`).join(" · ");
}

export function Center({ st }) {
  const v = st.view;
  const [showLast, setShowLast] = useState(false);
  const last = v.tricks.length ? v.tricks[v.tricks.length - 1] : null;
  return html`<div class="info sj-info">
    <div>${trumpText(v)}</div>
    <div>landlord <b>${v.landlord === null ? "—" : seatName(st, v.landlord)}</b></div>
    <div data-points=${v.attacker_points}>attackers' points <b>${v.attacker_points}</b>${v.penalty ? ` (penalty ${v.penalty})` : ""}</div>
    <div class="levels">levels: ${levelsText(st, v.levels)}</div>
    ${v.friend ? html`<div>friend: ${v.friend.cards.length === 2 ? "2nd" : "1st"} ${cardName(v.friend.cards[0])}${v.friend.seat !== null ? ` — ${seatName(st, v.friend.seat)}` : ""}</div>` : null}
    ${v.phase === "deal" ? html`<div>dealt ${v.dealt} / 100</div>` : null}
    ${v.bids.length ? html`<div class="bids">bids: ${v.bids.map((b) => html`<span>${seatName(st, b.seat)} <${Cards} cards=${b.cards} v=${v} small /></span>`)}</div>` : null}
    ${v.flipped.length ? html`<div>kitty turned up: <${Cards} cards=${v.flipped} v=${v} small /></div>` : null}
    ${last ? html`<button class="small" aria-expanded=${showLast} onClick=${() => setShowLast(!showLast)}>${showLast ? "Hide" : "Show"} last trick</button>` : null}
    ${showLast && last ? html`<div class="lasttrick">${last.plays.map((p) => html`<div>${seatName(st, p.seat)}${p.seat === last.winner ? " (won)" : ""} <${Cards} cards=${p.cards} v=${v} small /></div>`)}</div>` : null}
  </div>`;
}

function bidLabel(v) {
  return (a) => (a === "pass" ? "Pass" : html`Bid <${Cards} cards=${cardsOf(a)} v=${v} small />`);
}

function PlayBar({ v, selected, setSelected, legal }) {
  const plays = legal.filter((a) => a.startsWith("play "));
  const complete = v.legal_complete;
  const ok = selected.length > 0 && (!complete || plays.some((a) => sameCards(cardsOf(a), selected)));
  const need = v.trick.length ? v.trick[0].cards.length : 0;
  const play = () => act(`play ${[...selected].join(" ")}`);
  const [open, setOpen] = useState(false);
  return html`<div class="prompt" data-prompt="play" data-lead=${!need}>
    <button class="primary" data-play disabled=${!ok || !!S.pending} onClick=${play}>Play ${selected.length || ""}</button>
    <button onClick=${() => setSelected([])} disabled=${!selected.length}>Clear</button>
    <span class="hint">${need ? `Follow with ${need} card${need > 1 ? "s" : ""}.` : "Lead: select one card, a pair, a tractor or a throw of one suit."}
      ${complete ? "" : " The server judges a throw when you play it."}</span>
    <button class="small" data-legal-list aria-expanded=${open} onClick=${() => setOpen(!open)}>${open ? "Hide" : "Show"} legal plays</button>
    ${open ? html`<div class="legalplays">${plays.slice(0, 12).map((a) => html`<button class="small" data-suggest=${a} onClick=${() => setSelected(cardsOf(a))}><${Cards} cards=${cardsOf(a)} v=${v} small /></button>`)}
      ${plays.length > 12 ? html`<span class="hint">…and ${plays.length - 12} more</span>` : null}</div>` : null}
  </div>`;
}

function BuryBar({ v, selected, legal }) {
  const left = 8 - v.buried_count;
  const ok = selected.length === left && selected.every((c) => legal.includes(`bury ${c}`));
  return html`<div class="prompt" data-prompt="bury">
    <span>Select ${left} card${left > 1 ? "s" : ""} to bury (the kitty cards are marked).</span>
    <button class="primary" data-bury disabled=${!ok || !!S.pending} onClick=${() => actAll(selected.map((c) => `bury ${c}`))}>Bury ${selected.length}/${left}</button>
  </div>`;
}

/** Friend calling: one row per suit, each card with "1st" / "2nd" (which copy played). */
function FriendPicker({ friend }) {
  const order = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
  const cards = [...new Set(friend.map((a) => cardsOf(a)[0]))].sort((x, y) => order.indexOf(x.slice(1)) - order.indexOf(y.slice(1)));
  const suits = [...new Set(cards.map((c) => c[0]))];
  return html`<div class="prompt" data-prompt="friend"><span>Call your friend: whoever plays the first (or second) copy of a card joins you.</span>
    <div class="friends">${suits.map((suit) => html`<div class="frow">${svgSuit(suit)}
      ${cards.filter((c) => c[0] === suit).map((c) => html`<span class="fcard" title=${cardName(c)}><b>${c.slice(1)}</b>
        ${[1, 2].map((n) => {
          const a = `friend ${Array(n).fill(c).join(" ")}`;
          return friend.includes(a) ? html`<button class="choice small" data-action=${a} disabled=${!!S.pending} onClick=${() => act(a)}>${n === 1 ? "1st" : "2nd"}</button>` : null;
        })}</span>`)}</div>`)}</div></div>`;
}

export function Mine({ st }) {
  const v = st.view, me = st.you ?? 0;
  const legal = st.you === null ? [] : v.legal;
  const key = `${st.hand}|${v.phase}|${v.hand.length}|${v.trick.length}`;
  const handRef = useRef(null);
  const hand = displayOrder(v.hand, v);
  const playing = v.phase === "play" && legal.some((a) => a.startsWith("play "));
  const burying = v.phase === "bury" && legal.some((a) => a.startsWith("bury "));
  const bidding = legal.some((a) => a.startsWith("bid ")) || (legal.length === 1 && legal[0] === "pass");
  const friend = legal.filter((a) => a.startsWith("friend "));
  const selectable = (c) => (playing ? true : burying ? legal.includes(`bury ${c}`) : false);
  // Selected by position: two decks hold two copies of every card.
  const [picked, setPicked] = useState({ key, at: [] });
  const at = picked.key === key ? picked.at : [];
  const selected = at.map((k) => hand[k]);
  const toggle = (i) => setPicked({ key, at: at.includes(i) ? at.filter((x) => x !== i) : [...at, i] });
  const choose = (cards) => {
    const used = [];
    for (const c of cards) {
      const i = hand.findIndex((h, k) => h === c && !used.includes(k));
      if (i >= 0) used.push(i);
    }
    setPicked({ key, at: used });
  };
  // Mark the kitty cards the landlord picked up (as many copies as the kitty has).
  const kittyLeft = [...(v.kitty || [])];
  const fromKitty = hand.map((c) => {
    const i = burying ? kittyLeft.indexOf(c) : -1;
    if (i >= 0) kittyLeft.splice(i, 1);
    return i >= 0;
  });
  useKeys((e) => {
    if (bidding && passKey(e, legal)) return true;
    if (bidding) return choiceKey(e, legal);
    if (friend.length) return choiceKey(e, friend);
    if ((playing || burying) && e.key === "Enter" && document.activeElement && !document.activeElement.closest(".cards")) {
      const b = document.querySelector(playing ? "[data-play]" : "[data-bury]");
      if (b && !b.disabled) b.click();
      return true;
    }
    return arrowFocus(e, handRef.current);
  });
  return html`<${SeatHead} st=${st} seat=${me} badges=${badges(v, me)} />
    <div class="trickspot mine" data-trick-seat=${me}>${trickPlay(v, me)}</div>
    ${st.you === null
      ? html`<div class="count">${v.hand_counts[me]} cards</div>`
      : html`<div class="cards hand-cards" ref=${handRef} aria-label="your hand">${hand.map((c, i) => html`<${Card} card=${c} pos=${i + 1}
          trump=${isTrump(c, v)} points=${POINT_RANKS.has(rankOf(c))} selected=${at.includes(i)} cls=${fromKitty[i] ? "kitty" : ""}
          disabled=${!selectable(c)} onClick=${() => toggle(i)} />`)}</div>`}
    ${bidding ? html`<div class="prompt" data-prompt="bid"><span>Bid for trump?</span><${Choices} actions=${legal} label=${bidLabel(v)} /></div>` : null}
    ${burying ? html`<${BuryBar} v=${v} selected=${selected} legal=${legal} />` : null}
    ${friend.length ? html`<${FriendPicker} friend=${friend} />` : null}
    ${playing ? html`<${PlayBar} v=${v} selected=${selected} setSelected=${choose} legal=${legal} />` : null}`;
}

export function Result({ st }) {
  const v = st.view, r = v.result;
  return html`<${ResultFrame} st=${st}>
    <p>Attackers took <b data-attacker-points=${r.attacker_points}>${r.attacker_points}</b> points${r.kitty_bonus ? html` (kitty bonus <b>${r.kitty_bonus}</b>)` : ""}.</p>
    <div>Kitty buried: <${Cards} cards=${v.buried || []} v=${v} small /></div>
    <p>Levels now: ${levelsText(st, r.levels_after)}; next landlord ${r.next_landlord === null ? "—" : seatName(st, r.next_landlord)}.
      ${r.match_winner !== null && r.match_winner !== undefined ? html` <b>The match is won.</b>` : null}</p>
    <${Payments} st=${st} scores=${r.scores} label="Hand score" />
  </${ResultFrame}>`;
}

/** A timed-out action in words. */
export function describeAction(action) {
  const [kind, ...cards] = action.split(" ");
  const names = cards.map(cardName).join(", ");
  if (kind === "play") return `${names} ${cards.length > 1 ? "were" : "was"} played for you`;
  if (kind === "bury") return `${names} was buried for you`;
  return `the server played "${action}" for you`;
}

export function onEvent(ev, st) {
  if (ev.kind === "throw_failed") {
    const d = ev.data;
    const who = d.seat === st.you ? "Your" : `${seatName(st, d.seat)}'s`;
    notify(`${who} throw (${d.attempted.join(" ")}) was blocked: a higher card is out. Played ${d.forced.join(" ")} instead.`, "info", 15000);
  }
}

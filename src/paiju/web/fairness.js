// Fair deals in the browser (docs/fairness.md): send a random client seed once the hand's
// commitment is on screen, remember the commitment and your starting hand, and at the hand's
// result fetch its signed history and check, with WebCrypto, that the revealed seed is the
// committed one and that the seeds deal you the hand you were shown.
import { html, useEffect, useState } from "./vendor/preact-htm.js";
import { send, onStateMessage } from "./client.js";

const seen = new Map(); // "room/hand" -> {commitment, hand (tokens), seed (ours)}
const note = (room, hand) => {
  const key = `${room}/${hand}`;
  if (!seen.has(key)) seen.set(key, {});
  return seen.get(key);
};

/** With every state: send our seed, keep the commitment and our starting hand. */
function noteState(st) {
  const deal = st.deal;
  if (!deal || deal.scheme !== "fair-v1") return;
  if (deal.hand !== null && deal.commitment) note(st.room, deal.hand).commitment ??= deal.commitment;
  const mine = st.you !== null && deal.seed_hand !== null && deal.seed_hand === deal.hand;
  if (mine && deal.seed === null && !note(st.room, deal.seed_hand).seed) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    const seed = hex(bytes);
    note(st.room, deal.seed_hand).seed = seed;
    send({ type: "seed", hand: deal.seed_hand, seed });
  }
  if (st.you !== null && st.phase === "playing" && st.view && Array.isArray(st.view.hand)) {
    const at = note(st.room, st.hand);
    at.dealt ??= [...st.view.hand];
  }
}

onStateMessage(noteState);

// ---------------------------------------------------------------- bytes and WebCrypto
const utf8 = new TextEncoder();
const hex = (bytes) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
const unhex = (text) => new Uint8Array(text.match(/../g).map((h) => parseInt(h, 16)));
const uint = (n, size) => Uint8Array.from({ length: size }, (_, i) => Math.floor(n / 256 ** (size - 1 - i)) % 256);
function cat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function hmac(key, message) {
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, message));
}

/** The keyed stream: HMAC-SHA256 blocks, rejection sampling, Fisher–Yates from the back. */
class Stream {
  constructor(key) {
    this.key = key;
    this.block = 0;
    this.buffer = new Uint8Array(0);
  }

  async take(count) {
    while (this.buffer.length < count) {
      const block = await hmac(this.key, cat(utf8.encode("block"), uint(this.block++, 8)));
      this.buffer = cat(this.buffer, block);
    }
    const out = this.buffer.slice(0, count);
    this.buffer = this.buffer.slice(count);
    return out;
  }

  async randbelow(n) {
    const bits = (n - 1).toString(2).replace(/^0$/, "").length;
    if (bits === 0) return 0;
    const size = Math.ceil(bits / 8);
    for (;;) {
      const bytes = await this.take(size);
      const value = bytes.reduce((v, b) => v * 256 + b, 0) % 2 ** bits;
      if (value < n) return value;
    }
  }

  async shuffle(items) {
    for (let i = items.length - 1; i > 0; i--) {
      const j = await this.randbelow(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }
}

async function dealStream(handSeed, hand, seeds) {
  const parts = [utf8.encode("paiju-deal-v1"), new Uint8Array([0]), uint(hand, 4), uint(seeds.length, 2)];
  for (const seed of seeds) {
    const bytes = utf8.encode(seed);
    parts.push(uint(bytes.length, 2), bytes);
  }
  return new Stream(await hmac(handSeed, cat(...parts)));
}

async function serverSeed(handSeed, seat) {
  return hex(await hmac(handSeed, cat(utf8.encode("paiju-client-seed-v1"), new Uint8Array([0]), uint(seat, 2)))).slice(0, 32);
}

// ---------------------------------------------------------------- the variants' decks
const times = (list, n) => list.flatMap((x) => Array(n).fill(x));
const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
const DIU_FACES = {
  zipai80: [4, [...range(1, 10).map((n) => `s${n}`), ...range(1, 10).map((n) => `b${n}`)]],
  chuanpai84: [4, "11 12 13 14 15 16 22 23 24 25 26 33 34 35 36 44 45 46 55 56 66".split(" ").map((p) => `p${p}`)],
  poker54: [1, "SHCD".split("").flatMap((s) => range(1, 13).map((n) => `${s}${n}`))],
};

function canonical(variant, options) {
  if (variant === "mcr") {
    const kinds = ["W", "T", "B"].flatMap((s) => range(1, 9).map((n) => s + n));
    return [...times([...kinds, "F1", "F2", "F3", "F4", "J1", "J2", "J3"], 4), ...range(1, 8).map((n) => `H${n}`)];
  }
  if (variant === "shengji") {
    const ranks = [...range(2, 10).map(String), "J", "Q", "K", "A"];
    return times([..."SHDC".split("").flatMap((s) => ranks.map((r) => s + r)), "LJ", "BJ"], 2);
  }
  if (variant === "dragon") {
    return "66 66 11 11 44 44 13 13 55 55 33 33 22 22 56 56 46 46 16 16 15 15 45 36 35 26 34 25 24 14 23 12".split(" ");
  }
  if (variant === "diu") {
    const [copies, faces] = DIU_FACES[options.deck_profile];
    return [...times(faces, copies), ...Array(options.wild_count).fill("W")];
  }
  return null;
}

const PLACES = [[0, 1, 2, 3], [1, 0, 3, 2], [2, 3, 1, 0], [3, 2, 0, 1]];

/** Your starting hand as the page says the shuffled deck lays out (``seen``: how many cards
 * you were shown, for shengji, which deals a round at a time). */
function startingHand(variant, deck, seat, history, seen) {
  const carry = history.start.carry || {};
  if (variant === "dragon") return deck.slice(8 * seat, 8 * seat + 8);
  if (variant === "shengji") {
    const i = (seat - (carry.landlord ?? 0) + 4) % 4;
    return range(0, seen - 1).map((r) => deck[4 * r + i]);
  }
  if (variant === "diu") {
    const n = history.options.players;
    const role = (seat - (carry.head ?? 0) + n) % n;
    const sizes = history.options.deal_sizes;
    const hands = [[], [], []];
    let pos = 0;
    for (let r = 0; r < Math.max(...sizes); r++) for (let k = 0; k < 3; k++) if (r < sizes[k]) hands[k].push(deck[pos++]);
    return role < 3 ? hands[role] : [];
  }
  // MCR: 13 each in wind order from the front, the dealer a 14th; flowers replaced from the back
  const n = history.hand;
  const order = range(0, 3).map((j) => PLACES[Math.floor(n / 4) % 4][(n % 4 + j) % 4]);
  const hands = {};
  order.forEach((s, i) => (hands[s] = deck.slice(13 * i, 13 * i + 13)));
  hands[order[0]].push(deck[52]);
  const rest = deck.slice(53);
  while (order.some((s) => hands[s].some((t) => t.startsWith("H")))) {
    for (const s of order) {
      for (const t of hands[s].filter((x) => x.startsWith("H"))) {
        hands[s].splice(hands[s].indexOf(t), 1);
        hands[s].push(rest.pop());
      }
    }
  }
  return hands[seat];
}

async function riffle(cards, stream, passes, maxOffset) {
  let out = [...cards];
  for (let p = 0; p < passes; p++) {
    const offset = await stream.randbelow(maxOffset + 1);
    const sign = (await stream.randbelow(2)) ? 1 : -1;
    const cut = Math.min(Math.max(Math.floor(out.length / 2) + sign * offset, 1), out.length - 1);
    const [left, right] = [out.slice(0, cut), out.slice(cut)];
    const next = [];
    let [li, ri] = [0, 0];
    while (li < left.length || ri < right.length) {
      const takeLeft = ri >= right.length || (li < left.length && (await stream.randbelow(2)) === 0);
      next.push(takeLeft ? left[li++] : right[ri++]);
    }
    out = next;
  }
  return out;
}

const same = (a, b) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

/** Check hand ``hand`` of ``room`` for seat ``you``: [verdict, lines]. */
export async function checkDeal(room, hand, you) {
  const answer = await fetch(`/history/${room}/${hand}`);
  if (!answer.ok) return ["unavailable", ["The server has no signed history of this hand."]];
  const history = (await answer.json()).history;
  const deal = history.deal;
  if (deal.scheme !== "fair-v1") return ["unavailable", ["This room was made before fair deals: its deals are not committed."]];
  const lines = [];
  const fail = (text) => ["failed", [...lines, text]];
  const mine = seen.get(`${room}/${hand}`) || {};
  const seed = unhex(deal.hand_seed);
  if (hex(await crypto.subtle.digest("SHA-256", seed)) !== deal.commitment) return fail("The revealed seed does not match its commitment.");
  if (mine.commitment && mine.commitment !== deal.commitment) return fail("The commitment is not the one shown before the deal.");
  lines.push(mine.commitment ? "The seed matches the commitment shown before the deal." : "The seed matches its commitment.");
  for (const item of deal.client_seeds) {
    if (item.origin === "server" && item.seed !== (await serverSeed(seed, item.seat))) return fail(`Seat ${item.seat}'s seed was not derived from the hand seed.`);
  }
  if (mine.seed && deal.client_seeds[you]?.seed !== mine.seed) return fail("Your seed is not the one this deal used.");
  if (mine.seed) lines.push("Your own seed was mixed into the deal.");
  const stream = await dealStream(seed, hand, deal.client_seeds.map((s) => s.seed));
  let deck = canonical(history.variant, history.options);
  if (!deck) return ["unavailable", lines];
  if (history.options.shuffle === "seed_riffle") deck = await riffle(deck, stream, history.options.riffle_passes, history.options.riffle_max_offset);
  else await stream.shuffle(deck);
  if (!mine.dealt) return ["verified", [...lines, "The deal was made again from the seeds (your starting hand was not seen on this page)."]];
  if (!same(startingHand(history.variant, deck, you, history, mine.dealt.length), mine.dealt)) return fail("Your starting hand is not the one these seeds deal.");
  return ["verified", [...lines, "Your starting hand is the one the seeds deal."]];
}

/** The deal check on a hand's result screen. */
export function DealCheck({ st }) {
  const [result, setResult] = useState(["pending", ["Checking the deal…"]]);
  const you = st.you;
  const hand = st.phase === "finished" ? st.hand - 1 : st.hand; // a finished match: its last
  useEffect(() => {
    let live = true;
    if (you === null || !st.deal || st.deal.scheme !== "fair-v1") {
      setResult(["unavailable", [st.deal && st.deal.scheme !== "fair-v1" ? "This room was made before fair deals." : "Checked by each player's own page."]]);
      return undefined;
    }
    checkDeal(st.room, hand, you).then(
      (r) => live && setResult(r),
      (e) => live && setResult(["failed", [`The check could not run: ${e}`]])
    );
    return () => (live = false);
  }, [st.room, hand, you]);
  const [verdict, lines] = result;
  const title = { verified: "Deal verified", failed: "Deal NOT verified", pending: "Checking the deal…", unavailable: "Deal verification" }[verdict];
  return html`<section class=${`verify ${verdict}`} data-fair-deal=${verdict}>
    <h3>${title}</h3>
    ${lines.map((l) => html`<p>${l}</p>`)}
    ${verdict === "verified" || verdict === "failed" ? html`<p class="how"><a href=${`/history/${st.room}/${hand}`} target="_blank" rel="noopener">Signed history</a> — check it with <code>paiju verify</code>.</p>` : null}
  </section>`;
}

// MCR mahjong table: hand with the drawn tile apart, claim prompts, melds, flowers, rivers
// in rows of six with the last discard marked, winds, dealer, wall, and the fan breakdown.
import { html, useRef } from "./vendor/preact-htm.js";
import { S, act } from "./client.js";
import { Tile, tileLabel, tileName } from "./draw.js";
import { SeatHead, ResultFrame, Choices, useKeys, positionKey, arrowFocus, passKey, choiceKey, seatName, Payments } from "./table.js";

const WIND = { F1: "East", F2: "South", F3: "West", F4: "North" };
const CLAIM_ORDER = ["hu", "gang", "peng", "chi", "pass"];

/** The tile codes of the chow named by its middle tile ("W4" -> W3 W4 W5). */
function chow(middle) {
  const n = +middle.slice(1);
  return [n - 1, n, n + 1].map((k) => middle[0] + k);
}

function Meld({ meld, owner, order }) {
  if (meld.hidden) return html`<span class="meld kong hidden" title="concealed kong">${[0, 1, 2, 3].map(() => html`<${Tile} code=${null} />`)}</span>`;
  // Which tile was claimed: chow -> offer is its index (1..3); pung/kong -> offer is where the
  // giver sits (1 left, 2 opposite, 3 right), shown by turning that tile sideways.
  const n = meld.tiles.length;
  let turned = -1;
  if (meld.kind === "chi") turned = meld.offer - 1;
  else if (meld.kind !== "angang") turned = meld.offer === 1 ? 0 : meld.offer === 2 ? 1 : n - 1;
  const giver = meld.kind === "angang" ? null : order[(order.indexOf(owner) - meld.offer + 4) % 4];
  const title = meld.kind === "angang" ? "concealed kong" : `${meld.kind} (from seat ${giver + 1})`;
  return html`<span class=${`meld ${meld.kind}`} title=${title}>${meld.tiles.map((t, i) => html`<${Tile} code=${t} sideways=${i === turned} cls=${meld.kind === "angang" ? "concealed" : ""} />`)}</span>`;
}

function Melds({ p, order }) {
  if (!p.melds.length && !p.flowers.length) return null;
  return html`<div class="melds">${p.melds.map((m) => html`<${Meld} meld=${m} owner=${p.seat} order=${order} />`)}
    ${p.flowers.length ? html`<span class="flowers" title="flowers">${p.flowers.map((f) => html`<${Tile} code=${f} cls="small" />`)}</span>` : null}</div>`;
}

function River({ p, lastSeat, lastCount }) {
  const marked = lastSeat === p.seat && p.discards.length === lastCount ? p.discards.length - 1 : -1;
  return html`<div class="river" data-river=${p.seat} aria-label=${`discards of seat ${p.seat + 1}`}>
    ${p.discards.map((t, i) => html`<${Tile} code=${t} cls="small" marked=${i === marked} />`)}</div>`;
}

function badges(v, seat) {
  const p = v.players[seat];
  return [WIND[p.wind], v.dealer === seat ? "dealer" : null];
}

export function Other({ st, seat }) {
  const v = st.view, p = v.players[seat], last = lastDiscard(v);
  return html`<${SeatHead} st=${st} seat=${seat} badges=${badges(v, seat)} />
    <${Melds} p=${p} order=${v.order} />
    ${p.hand
      ? html`<div class="hand small revealed">${p.hand.map((t) => html`<${Tile} code=${t} cls="small" />`)}</div>`
      : html`<div class="count">${p.concealed_count} tiles</div>`}
    <${River} p=${p} lastSeat=${last.seat} lastCount=${last.count} />`;
}

/** The discard to mark (the server names it: the claimable one, or the newest in a river). */
function lastDiscard(v) {
  const ld = v.last_discard;
  return ld ? { seat: ld.seat, count: v.players[ld.seat].discards.length } : { seat: -1 };
}

export function Center({ st }) {
  const v = st.view;
  return html`<div class="info">
    <div><b>${WIND[v.prevalent_wind]}</b> round</div>
    <div data-wall=${v.wall_count}>wall <b>${v.wall_count}</b></div>
    <div>dealer <b>${seatName(st, v.dealer)}</b></div>
  </div>`;
}

function claimLabel(action, tile) {
  const [kind, t] = action.split(" ");
  if (kind === "chi") return html`chow ${chow(t).map((c) => html`<${Tile} code=${c} cls=${`small${c === tile ? " claimed" : ""}`} />`)}`;
  return { hu: "Hu (win)", gang: "Kong", peng: "Pung", pass: "Pass" }[kind] || action;
}

function sortClaims(legal) {
  return [...legal].sort((a, b) => CLAIM_ORDER.indexOf(a.split(" ")[0]) - CLAIM_ORDER.indexOf(b.split(" ")[0]) || a.localeCompare(b));
}

function turnLabel(action) {
  const [kind, t] = action.split(" ");
  if (kind === "hu") return "Hu (self-drawn win)";
  if (kind === "angang") return html`Concealed kong <${Tile} code=${t} cls="small" />`;
  if (kind === "bugang") return html`Add to kong <${Tile} code=${t} cls="small" />`;
  return action;
}

export function Mine({ st }) {
  const v = st.view, me = st.you ?? 0, p = v.players[me];
  const legal = st.you === null ? [] : v.legal;
  const handRef = useRef(null);
  const claimOpen = v.claim && legal.length > 0 && v.claim.from !== me;
  const discards = legal.filter((a) => a.startsWith("discard "));
  const others = claimOpen ? sortClaims(legal) : legal.filter((a) => !a.startsWith("discard "));
  // Your tiles in order, the drawn one apart at the end.
  let tiles = st.you === null ? [] : [...(v.hand || [])];
  let drawn = null;
  if (v.drawn) {
    tiles.splice(tiles.lastIndexOf(v.drawn), 1);
    drawn = v.drawn;
  }
  const all = drawn ? [...tiles, drawn] : tiles;
  const canDiscard = (t) => discards.includes(`discard ${t}`) && !S.pending;
  useKeys((e) => {
    if (passKey(e, legal)) return true;
    if (claimOpen) return choiceKey(e, others);
    const i = positionKey(e.key);
    if (i >= 0 && i < all.length && canDiscard(all[i])) return act(`discard ${all[i]}`);
    if (e.key === "h" && legal.includes("hu")) return act("hu");
    return arrowFocus(e, handRef.current);
  });
  const tileButton = (t, i, cls = "") => html`<${Tile} code=${t} pos=${i + 1} cls=${cls} disabled=${!canDiscard(t)}
    title=${`${tileName(t)} (${tileLabel(t)})${canDiscard(t) ? " — discard" : ""}`} onClick=${() => act(`discard ${t}`)} />`;
  const last = lastDiscard(v);
  return html`<${SeatHead} st=${st} seat=${me} badges=${badges(v, me)} />
    <${River} p=${p} lastSeat=${last.seat} lastCount=${last.count} />
    <${Melds} p=${p} order=${v.order} />
    ${st.you === null
      ? (p.hand ? html`<div class="hand revealed">${p.hand.map((t) => html`<${Tile} code=${t} />`)}</div>` : html`<div class="count">${p.concealed_count} tiles</div>`)
      : html`<div class="hand mcr-hand" ref=${handRef} aria-label="your hand">
          ${tiles.map((t, i) => tileButton(t, i))}
          ${drawn ? html`<span class="gap"></span>${tileButton(drawn, tiles.length, "drawn")}` : null}
        </div>`}
    ${claimOpen
      ? html`<div class="prompt" data-prompt="claim">
          <span>Claim <${Tile} code=${v.claim.tile} cls="small" /> from ${seatName(st, v.claim.from)}${v.claim.kind === "rob" ? " (robbing the kong)" : ""}?</span>
          <${Choices} actions=${others} label=${(a) => claimLabel(a, v.claim.tile)} /></div>`
      : others.length
        ? html`<div class="prompt" data-prompt="turn"><${Choices} actions=${others} label=${turnLabel} />
            ${discards.length ? html`<span class="hint">or click a tile to discard it (keys 1-9, 0, -, =)</span>` : null}</div>`
        : discards.length
          ? html`<div class="prompt" data-prompt="discard"><span class="hint">Your turn: click a tile to discard it (keys 1-9, 0, -, = or arrows and Enter).</span></div>`
          : null}
    ${v.claim && v.claim.answered ? html`<div class="hint">You answered <b>${v.claim.answered}</b>; waiting for the others.</div>` : null}
    ${v.winning_tiles && v.winning_tiles.length ? html`<div class="waits">Waiting on ${v.winning_tiles.map((t) => html`<${Tile} code=${t} cls="small" />`)}</div>` : null}`;
}

export function Result({ st }) {
  const v = st.view, r = v.result;
  return html`<${ResultFrame} st=${st}>
    ${r.exhaustive_draw ? html`<p>Exhaustive draw: the wall is empty and nobody won. Nobody pays.</p>` : null}
    ${r.wins.map((w) => html`<div class="win" data-winner=${w.seat}>
      <h3>${seatName(st, w.seat)} wins on <${Tile} code=${w.tile} cls="small" />
        ${w.self_drawn ? " self-drawn" : ` from ${seatName(st, w.from)}`}${w.robbed_kong ? " (robbing the kong)" : ""}</h3>
      <table class="fans"><thead><tr><th>fan</th><th>points</th></tr></thead><tbody>
        ${w.fans.map(([name, points, count]) => html`<tr><td>${name}${count > 1 ? ` ×${count}` : ""}</td><td class="num">${points * count}</td></tr>`)}
        <tr class="sum"><td>total (flowers included)</td><td class="num">${w.total}</td></tr></tbody></table></div>`)}
    <${Payments} st=${st} scores=${r.scores} />
  </${ResultFrame}>`;
}

/** A timed-out action in words. */
export function describeAction(action) {
  const [kind, t] = action.split(" ");
  if (kind === "discard") return `${tileName(t)} (${tileLabel(t)}) was discarded for you`;
  return `the server played "${action}" for you`;
}

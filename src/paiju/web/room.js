// A room: the waiting room (seats, bots, ready, invite link), the table of its variant
// while it plays, and the end of the match (result, rematch).
import { html, useEffect } from "./vendor/preact-htm.js";
import { S, send, takeSeat, leaveRoom, enterRoom, reconnect, playerName, forgetRoom, setDescriber, notify } from "./client.js";
import { seatName, Totals, Felt, handNumber } from "./table.js";
import { NameField } from "./lobby.js";
import * as mcr from "./mcr.js";
import * as shengji from "./shengji.js";
import * as diu from "./diu.js";
import * as dragon from "./dragon.js";

const VARIANTS = { mcr, shengji, diu, dragon };
export const TITLES = { mcr: "MCR mahjong", shengji: "Shengji", diu: "Suijiang diu", dragon: "Pai gow dragon" };

setDescriber(
  (action, st) => {
    const v = VARIANTS[st.variant];
    return action === "pass" ? "the server passed for you" : v && v.describeAction ? v.describeAction(action) : `the server played ${action} for you`;
  },
  (ev, st) => {
    const v = VARIANTS[st.variant];
    if (v && v.onEvent) v.onEvent(ev, st);
  },
);

export function inviteLink(room) {
  return `${location.origin}/#/room/${room}`;
}

function copy(text) {
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(() => notify("Link copied.", "info", 3000), () => notify(text, "info"));
  } else notify(`Invite link: ${text}`, "info", 20000);
}

function Invite({ room }) {
  const link = inviteLink(room);
  return html`<div class="invite"><label>Invite link <input readonly value=${link} data-invite onFocus=${(e) => e.target.select()} /></label>
    <button onClick=${() => copy(link)}>Copy</button></div>`;
}

function Waiting({ st }) {
  const seated = st.you !== null;
  const me = seated ? st.seats[st.you] : null;
  return html`<section class="waiting">
    <h2>${TITLES[st.variant] || st.variant}${st.preset && st.preset !== st.variant ? ` · ${st.preset}` : ""} — waiting for players</h2>
    <${Invite} room=${st.room} />
    <ol class="seats">${st.seats.map((s) => html`<li data-seat=${s.seat} data-kind=${s.kind}>
      <span class="seatno">seat ${s.seat + 1}</span>
      <span class="who">${s.kind === "empty" ? "empty" : seatName(st, s.seat)}</span>
      ${s.kind === "bot" ? html`<span class="badge bot">bot</span>` : null}
      ${s.program ? html`<span class="badge bot" title="a program plays this seat for its player">program</span>` : null}
      ${s.kind === "human" ? html`<span class=${`badge ${s.ready ? "ready" : "notready"}`}>${s.ready ? "ready" : "not ready"}</span>` : null}
      ${s.seat === st.you ? html`<span class="badge me">you</span>` : null}
      ${seated && s.kind === "empty" ? html`<button data-add-bot=${s.seat} onClick=${() => send({ type: "add_bot", seat: s.seat, level: 1 })}>Add bot</button>` : null}
      ${seated && s.kind === "bot" ? html`<button data-remove-bot=${s.seat} onClick=${() => send({ type: "remove_bot", seat: s.seat })}>Remove bot</button>` : null}
      ${!seated && s.kind === "empty" ? html`<button data-take-seat=${s.seat} onClick=${() => (playerName() ? takeSeat(s.seat) : notify("Enter your name first."))}>Take seat ${s.seat + 1}</button>` : null}
    </li>`)}</ol>
    ${seated
      ? html`<div class="row">
          <button class="primary" data-ready=${!me.ready} onClick=${() => send({ type: "ready", ready: !me.ready })}>${me.ready ? "Not ready" : "Ready"}</button>
          <button onClick=${() => leaveRoom(() => (location.hash = "#/"))}>Leave seat</button></div>
          <p class="hint">The match starts when every seat is taken (bots count) and everyone is ready.</p>`
      : html`<${NameField} /><p class="hint">You are watching. Enter your name and take a free seat to play.</p>`}
  </section>`;
}

function Finished({ st }) {
  const seated = st.you !== null && st.seats[st.you].kind === "human";
  return html`<div class="row rematch">
    ${seated ? html`<button class="primary" data-rematch onClick=${() => send({ type: "rematch" })}>${st.rematch ? "Join the rematch" : "Rematch"}</button>` : null}
    ${st.rematch && !seated ? html`<a href=${`#/room/${st.rematch}`}>Watch the rematch</a>` : null}
    <a class="button" href="#/" onClick=${() => forgetRoom(st.room)}>Back to the lobby</a>
  </div>`;
}

function Gone({ id }) {
  return html`<section class="waiting"><h2>No room ${id}</h2><p>The room does not exist (or no longer).</p><a href="#/">Back to the lobby</a></section>`;
}

export function Room({ id }) {
  useEffect(() => enterRoom(id), [id]);
  const st = S.state && S.state.room === id ? S.state : null;
  if (S.missing === id) return html`<${Gone} id=${id} />`;
  if (S.takenOver) {
    return html`<section class="waiting" data-taken-over><h2>Your seat is open elsewhere</h2>
      <p>Another tab or device resumed this seat, so this page let it go.</p>
      <button class="primary" data-play-here onClick=${() => reconnect()}>Play here</button> <a href="#/">Lobby</a></section>`;
  }
  if (S.enterError && S.enterError.room === id) {
    return html`<section class="waiting"><h2>Cannot open room ${id}</h2><p>${S.enterError.text}</p>
      <button onClick=${() => reconnect()}>Try again</button> <a href="#/">Lobby</a></section>`;
  }
  if (!st) return html`<p class="loading">Opening room ${id}…</p>`;
  if (st.phase === "closed") return html`<section class="waiting"><h2>The room was closed</h2><a href="#/">Back to the lobby</a></section>`;
  if (st.phase === "waiting" || !st.view) return html`<${Waiting} st=${st} />`;
  const v = VARIANTS[st.variant];
  if (!v) return html`<section class="waiting"><h2>This page cannot show ${st.variant} tables.</h2><${Totals} st=${st} /></section>`;
  return html`<div class="room" data-variant=${st.variant} data-phase=${st.phase} data-hand=${st.hand} data-pending=${S.pending ? "true" : undefined}>
    <div class="roombar"><span>${TITLES[st.variant]}</span><span>hand ${handNumber(st)}</span>
      ${st.you === null ? html`<span class="badge">watching</span>` : null}
      <span class="spacer"></span>
      <button class="small" onClick=${() => copy(inviteLink(st.room))}>Invite link</button>
      <a class="button small" href="#/">Lobby</a></div>
    <${Felt} st=${st} variant=${st.variant}
      other=${(seat) => html`<${v.Other} st=${st} seat=${seat} />`}
      center=${html`<${v.Center} st=${st} />`}
      mine=${html`<${v.Mine} st=${st} />`} />
    ${st.view.result && st.phase !== "playing" ? html`<${v.Result} st=${st} />` : null}
    ${st.phase === "finished" ? html`<${Finished} st=${st} />` : null}
  </div>`;
}

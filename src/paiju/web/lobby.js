// The lobby: your name, "play now against bots" per variant, a private room from a preset,
// the open rooms (join a free seat, watch, share), and the rooms you hold a seat in.
import { html, useEffect, useState } from "./vendor/preact-htm.js";
import { S, send, setting, setSetting, myRooms, forgetRoom, notify, createRoom, joinRoom } from "./client.js";

const VARIANT_TITLES = { mcr: "MCR mahjong", shengji: "Shengji", diu: "Diu", dragon: "Dragon" };
const ORDER = Object.keys(VARIANT_TITLES);

/** A preset title without its Chinese part where no font can show it (empty boxes). */
function title(p) {
  const t = p.title || p.name;
  if (!document.documentElement.classList.contains("no-cjk")) return t;
  return t.replace(/\s*\([^)]*[\u2e80-\u9fff][^)]*\)/g, "").replace(/[\u2e80-\u9fff]/g, "").trim() || p.name;
}

/** The player's name, kept in localStorage; the server checks it (1-24 characters). */
export function NameField() {
  return html`<label class="namefield">Your name
    <input name="name" maxlength="24" autocomplete="nickname" value=${setting("name", "")}
      onInput=${(e) => setSetting("name", e.target.value)} placeholder="e.g. Mei" /></label>`;
}

function needName() {
  const name = setting("name", "").trim();
  if (!name) {
    notify("Enter your name first.");
    const input = document.querySelector("input[name=name]");
    if (input) input.focus();
  }
  return name;
}

function playNow(preset) {
  const name = needName();
  if (!name) return;
  createRoom({ type: "create_room", preset: preset.name, options: {}, bots: preset.seats - 1, bot_level: 1, private: false, name }, true);
}

function PlayNow({ presets, allowed }) {
  const byVariant = {};
  for (const p of presets) if (!byVariant[p.variant] || p.name === p.variant) byVariant[p.variant] = p;
  const shown = Object.values(byVariant).sort((a, b) => ORDER.indexOf(a.variant) - ORDER.indexOf(b.variant));
  return html`<section class="panel playnow"><h2>Play now against bots</h2>
    ${allowed ? null : html`<p class="hint">The operator has turned off rooms made by players on this server.</p>`}
    <div class="row wrap">${shown.map((p) => html`<button class="primary big" data-play-now=${p.variant}
      disabled=${!allowed} onClick=${() => playNow(p)}>${VARIANT_TITLES[p.variant] || title(p)}<small>${p.seats} seats</small></button>`)}</div>
  </section>`;
}

function PrivateRoom({ presets, allowed }) {
  const [name, setName] = useState(presets.length ? presets[0].name : "");
  const [opts, setOpts] = useState({});
  const [listed, setListed] = useState(false);
  const preset = presets.find((p) => p.name === name) || presets[0];
  if (!preset) return null;
  const choices = preset.choices || {};
  const create = () => {
    const who = needName();
    if (!who) return;
    const options = {};
    for (const key of Object.keys(choices)) if (opts[key] !== undefined) options[key] = opts[key];
    createRoom({ type: "create_room", preset: preset.name, options, bots: 0, bot_level: 1, private: !listed, name: who }, false);
  };
  return html`<section class="panel"><h2>Open a room for friends</h2>
    <div class="form">
      <label>Game <select data-preset value=${preset.name} onChange=${(e) => { setName(e.target.value); setOpts({}); }}>
        ${presets.map((p) => html`<option value=${p.name}>${title(p)}</option>`)}</select></label>
      ${Object.entries(choices).map(([key, values]) => html`<label>${key.replace(/_/g, " ")}
        <select data-choice=${key} value=${JSON.stringify(opts[key] ?? preset.options[key])} onChange=${(e) => setOpts({ ...opts, [key]: JSON.parse(e.target.value) })}>
          ${values.map((v) => html`<option value=${JSON.stringify(v)}>${String(v)}</option>`)}</select></label>`)}
      <label class="check"><input type="checkbox" checked=${listed} onChange=${(e) => setListed(e.target.checked)} /> list it in the lobby</label>
      <button class="primary" data-create disabled=${!allowed} onClick=${create}>Create room</button>
    </div>
    <p class="hint">You get a link to invite others; empty seats can take bots while you wait.</p>
  </section>`;
}

function seatsText(row) {
  return row.seats.map((s) => (s.kind === "empty" ? "—" : s.kind === "bot" ? "bot" : s.name)).join(", ");
}

function Rooms({ rooms }) {
  if (!rooms.length) return html`<section class="panel"><h2>Open rooms</h2><p class="hint">No open rooms right now.</p></section>`;
  return html`<section class="panel"><h2>Open rooms</h2>
    <table class="rooms"><thead><tr><th>game</th><th>players</th><th>free</th><th>phase</th><th></th></tr></thead>
    <tbody>${rooms.map((r) => html`<tr data-room=${r.room}>
      <td>${VARIANT_TITLES[r.variant] || r.variant}${r.preset && r.preset !== r.variant ? ` (${r.preset})` : ""}</td>
      <td class="names">${seatsText(r)}</td>
      <td>${r.free.length}</td>
      <td>${r.phase}${r.phase === "waiting" ? "" : `, hand ${r.hand + 1}`}${r.spectators ? `, ${r.spectators} watching` : ""}</td>
      <td class="acts">
        ${r.phase === "waiting" && r.free.length ? html`<button data-join=${r.room} onClick=${() => needName() && joinRoom(r.room, r.free[0])}>Join</button>` : null}
        <a class="button" data-watch=${r.room} href=${`#/room/${r.room}`}>Watch</a></td>
    </tr>`)}</tbody></table></section>`;
}

function MyRooms() {
  const rooms = myRooms();
  if (!rooms.length) return null;
  return html`<section class="panel"><h2>Your seats</h2><ul class="mine">
    ${rooms.map((id) => html`<li><a href=${`#/room/${id}`} data-resume=${id}>Room ${id}</a>
      <button class="small" onClick=${() => forgetRoom(id)}>Forget</button></li>`)}</ul></section>`;
}

export function Lobby() {
  useEffect(() => {
    const t = setInterval(() => S.status === "connected" && !S.room && send({ type: "lobby" }), 4000);
    return () => clearInterval(t);
  }, []);
  const lobby = S.lobby;
  const allowed = lobby ? lobby.player_rooms !== false : false;
  return html`<div class="lobby">
    <section class="panel"><${NameField} /></section>
    <${MyRooms} />
    ${lobby ? html`<${PlayNow} presets=${lobby.presets} allowed=${allowed} />
      <${PrivateRoom} presets=${lobby.presets} allowed=${allowed} />
      <${Rooms} rooms=${lobby.rooms} />` : html`<p class="loading">Loading the lobby…</p>`}
  </div>`;
}

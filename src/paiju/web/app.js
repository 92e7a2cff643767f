// The page: header, notices, and the lobby or a room, chosen by the location hash
// (#/ the lobby, #/room/<id> a room).
import { html, render, useEffect, useState } from "./vendor/preact-htm.js";
import { S, subscribe, connect, enterRoom, reconnect, send, onYourTurn, setting, setSetting, dismiss, notify } from "./client.js";
import { Lobby } from "./lobby.js";
import { Room } from "./room.js";
import { myTurn } from "./table.js";

function routeRoom() {
  const m = location.hash.match(/^#\/room\/([\w-]+)/);
  return m ? m[1] : null;
}

function useClient() {
  const [, tick] = useState(0);
  useEffect(() => subscribe(() => tick((x) => x + 1)), []);
}

// ---------------------------------------------------------------- your-turn signals
let audio = null;
function unlockAudio() {
  // Browsers start audio only after a gesture; make the context on the first one.
  if (audio || !window.AudioContext) return;
  try {
    audio = new AudioContext();
  } catch {
    audio = null;
  }
}
window.addEventListener("pointerdown", unlockAudio, { capture: true });
window.addEventListener("keydown", unlockAudio, { capture: true });

function tone() {
  if (!audio || !setting("sound", true)) return;
  try {
    const osc = audio.createOscillator(), gain = audio.createGain(), t = audio.currentTime;
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.2, t + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start(t);
    osc.stop(t + 0.3);
    document.body.dataset.tones = String(+(document.body.dataset.tones || 0) + 1); // counted
  } catch {
    // no sound is better than a broken page
  }
}

onYourTurn((st) => {
  const legal = st.view.legal;
  if (!(legal.length === 1 && legal[0] === "pass")) tone();
});

function updateTitle() {
  const st = S.state;
  const mark = st && myTurn(st) ? "● Your turn · " : "";
  const where = st ? `${st.variant} ${st.room}` : "lobby";
  const title = `${mark}paiju · ${where}`;
  if (document.title !== title) document.title = title;
}

// ---------------------------------------------------------------- page
const STATUS_TEXT = { connecting: "connecting…", connected: "connected", reconnecting: "reconnecting…", offline: "offline", elsewhere: "open elsewhere" };

function Header() {
  const sound = setting("sound", true);
  const autopass = setting("autopass", true);
  return html`<header class="top">
    <a class="brand" href="#/">paiju</a>
    <span class=${`status ${S.status}`} data-status=${S.status} role="status">${STATUS_TEXT[S.status]}</span>
    <span class="spacer"></span>
    <label class="toggle" title="A short tone when it becomes your turn"><input type="checkbox" checked=${sound} onChange=${(e) => setSetting("sound", e.target.checked)} /> sound</label>
    <label class="toggle" title="When pass is the only thing you can do, pass after a moment by yourself"><input type="checkbox" data-setting="autopass" checked=${autopass} onChange=${(e) => setSetting("autopass", e.target.checked)} /> auto-pass</label>
  </header>`;
}

function Notices() {
  return html`<div class="notices" aria-live="polite">
    ${S.notices.map((n) => html`<div class=${`notice ${n.kind}`} key=${n.id} role=${n.kind === "error" ? "alert" : "status"}>
      <span>${n.text}</span><button class="x" aria-label="dismiss" onClick=${() => dismiss(n.id)}>×</button></div>`)}
  </div>`;
}

function App() {
  useClient();
  const [room, setRoom] = useState(routeRoom());
  useEffect(() => {
    const onHash = () => {
      const next = routeRoom();
      setRoom(next);
      if (next) enterRoom(next);
      else if (S.room || S.takenOver) reconnect(); // the seat stays ours; the lobby needs a free connection
      else send({ type: "lobby" });
    };
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  updateTitle();
  return html`<${Header} /><${Notices} />
    <main>${room ? html`<${Room} id=${room} />` : html`<${Lobby} />`}</main>`;
}

// Chinese appears only as an extra label: hide it where no installed font has the glyphs
// (they would show as empty boxes), so the page never depends on a CJK font.
function hasCjkFont() {
  const ctx = document.createElement("canvas").getContext("2d");
  if (!ctx) return true;
  ctx.font = "32px sans-serif";
  const w = (t) => ctx.measureText(t).width;
  return w("丢麻") !== w("\uffff\uffff");
}
if (!hasCjkFont()) document.documentElement.classList.add("no-cjk");

window.addEventListener("error", (e) => notify(`The page failed: ${e.message}`));
connect();
const root = document.getElementById("app");
root.textContent = "";
render(html`<${App} />`, root);

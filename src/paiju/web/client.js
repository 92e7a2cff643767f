// The session: one WebSocket to the page's own origin, the protocol of docs/protocol.md,
// and the little state the screens render from. Screens subscribe and re-render on change.

const listeners = new Set();
let scheduled = false;

/** Everything the screens read. Mutated here only; screens call the functions below. */
export const S = {
  status: "connecting", // connecting | connected | reconnecting | offline | elsewhere
  lobby: null,
  room: null, // the room this connection is in
  seat: null, // our seat (null: watching)
  state: null, // the last `state` message
  stateAt: 0, // performance.now() when it arrived (deadline_ms counts from there)
  notices: [], // {id, text, kind}: errors and "played for you" messages
  pending: null, // the action sent and not yet answered
  queue: [], // actions to send one after another (shengji burial)
  scored: null, // the last hand_scored data
  missing: null, // a room that does not exist
  enterError: null, // {room, text}: why a room could not be opened
  takenOver: null, // {room}: another connection resumed our seat; wait for the player
  entering: null, // the room being opened ("new": one being created)
  joinIntent: null, // {room, seat}: the lobby's Join, carried out when the room opens
  readyOnJoin: false, // "Play now": say ready as soon as we are seated
};

export function subscribe(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function changed() {
  if (scheduled) return;
  scheduled = true;
  queueMicrotask(() => {
    scheduled = false;
    listeners.forEach((fn) => fn());
  });
}

// ---------------------------------------------------------------- storage
const store = window.localStorage;
export const tokenKey = (room) => `paiju.token.${room}`;

export function savedToken(room) {
  try {
    return JSON.parse(store.getItem(tokenKey(room)) || "null");
  } catch {
    return null;
  }
}

export function myRooms() {
  const out = [];
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (key && key.startsWith("paiju.token.")) out.push(key.slice(12));
  }
  return out.sort();
}

export function forgetRoom(room) {
  store.removeItem(tokenKey(room));
  changed();
}

export const setting = (name, fallback) => {
  const v = store.getItem(`paiju.${name}`);
  return v === null ? fallback : JSON.parse(v);
};
export const setSetting = (name, value) => {
  store.setItem(`paiju.${name}`, JSON.stringify(value));
  changed();
};

// ---------------------------------------------------------------- notices
let noticeId = 0;
export function notify(text, kind = "error", ms = 9000) {
  const id = ++noticeId;
  S.notices = [...S.notices.slice(-3), { id, text, kind }];
  changed();
  if (ms) setTimeout(() => dismiss(id), ms);
}
export function dismiss(id) {
  S.notices = S.notices.filter((n) => n.id !== id);
  changed();
}

// ---------------------------------------------------------------- connection
let ws = null;
let attempt = 0;
const TAKEN_OVER = 4001; // close code: another connection resumed this seat
let onLeft = null;
let afterWelcome = null;
// Cluster mode (docs/cluster.md): the node a `redirect` named (null: the page's own origin),
// and the join or resume sent last, which is sent again there.
let target = null;
let lastEnter = null;

export function connect() {
  if (ws) return; // already connected or connecting (a retry and an "online" event can meet)
  const origin = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/";
  const sock = new WebSocket(target || origin);
  ws = sock;
  sock.onopen = () => send({ type: "hello", protocol_version: 1, client: "paiju-web 1" });
  sock.onmessage = (e) => receive(JSON.parse(e.data));
  sock.onclose = (e) => {
    if (ws !== sock) return; // replaced on purpose
    ws = null;
    target = null; // a node that went away: the page's origin finds the room's owner again
    if (e.code === TAKEN_OVER || S.takenOver) {
      // Another tab or device resumed our seat: never take it back without asking the player.
      S.takenOver = S.takenOver || { room: S.room };
      S.status = "elsewhere";
      S.room = S.seat = S.entering = null;
      changed();
      return;
    }
    S.status = navigator.onLine === false ? "offline" : "reconnecting";
    S.room = S.seat = S.entering = null; // the table stays on view until the state is back
    S.pending = null;
    S.queue = [];
    changed();
    attempt += 1;
    setTimeout(connect, Math.min(5000, 250 * 2 ** Math.min(attempt, 5)));
  };
}

/** Start over on a fresh connection (leaving a room's messages behind without `leave`). */
export function reconnect(then) {
  afterWelcome = then || null;
  S.takenOver = null;
  const old = ws;
  ws = null;
  if (old) old.close();
  S.room = S.seat = S.state = null;
  S.status = "connecting";
  changed();
  connect();
}

window.addEventListener("online", () => {
  if (!ws) connect();
});

export function send(msg) {
  if (!ws || ws.readyState !== WebSocket.OPEN) {
    notify("Not connected: the message was not sent. Reconnecting…");
    return false;
  }
  if (msg.type === "join" || msg.type === "resume") lastEnter = msg;
  ws.send(JSON.stringify(msg));
  return true;
}

/** The room is served by another node (or is between owners: no url). Connect there and
 * send the same join or resume again; the seat token stays valid. */
function redirected(msg) {
  target = msg.url || null;
  const again = lastEnter && lastEnter.room === msg.room ? lastEnter : null;
  const old = ws;
  ws = null;
  if (old) old.close();
  S.room = S.seat = null;
  S.entering = msg.room;
  S.status = "connecting";
  afterWelcome = () => {
    S.entering = null;
    if (again) {
      send(again);
      S.entering = msg.room;
    } else enterRoom(msg.room);
  };
  setTimeout(connect, msg.url ? 0 : 500);
}

// ---------------------------------------------------------------- rooms
/** Open room ``id``: resume a stored seat, take the seat the lobby asked for, or watch. */
export function enterRoom(id) {
  if (S.status !== "connected") return; // done on welcome
  if (S.room && S.room !== id) {
    reconnect();
    return;
  }
  if (S.room === id || S.entering === id) return;
  S.missing = S.enterError = null;
  const saved = savedToken(id);
  const wanted = S.joinIntent && S.joinIntent.room === id ? S.joinIntent : null;
  S.joinIntent = null;
  if (saved && saved.token) send({ type: "resume", room: id, token: saved.token });
  else if (wanted) joinSeat(id, wanted.seat);
  else send({ type: "join", room: id, name: "spectator", spectate: true });
  S.entering = id;
}

/** Make a room from a preset (``create_room``); ``ready``: say ready at once (play now). */
export function createRoom(msg, ready) {
  if (S.room) {
    reconnect(() => createRoom(msg, ready));
    return;
  }
  S.readyOnJoin = ready;
  S.entering = "new";
  send(msg);
}

/** The lobby's Join: open the room and take ``seat`` there. */
export function joinRoom(room, seat) {
  S.joinIntent = { room, seat };
  location.hash = `#/room/${room}`;
}

export function joinSeat(room, seat) {
  S.entering = room;
  send({ type: "join", room, name: playerName(), seat, spectate: false });
}

/** From watching to a seat: leave the spectators, then join. */
export function takeSeat(seat) {
  const room = S.room;
  onLeft = () => joinSeat(room, seat);
  send({ type: "leave" });
}

export function leaveRoom(then) {
  onLeft = then || null;
  if (S.room) send({ type: "leave" });
  else if (then) then();
}

export const playerName = () => setting("name", "");

function currentRoute() {
  const m = location.hash.match(/^#\/room\/([\w-]+)/);
  return m ? m[1] : null;
}

// ---------------------------------------------------------------- acting
/** Send ``action`` (verbatim from view.legal) for the state on screen. */
export function act(action) {
  const st = S.state;
  if (!st || S.pending) return false;
  S.pending = { action, version: st.version };
  send({ type: "act", version: st.version, action });
  changed();
  return true;
}

/** Send several actions, each after the state that the previous one led to. */
export function actAll(actions) {
  if (!actions.length) return;
  S.queue = actions.slice(1);
  act(actions[0]);
}

// ---------------------------------------------------------------- receiving
const yourTurnListeners = new Set();
const stateHooks = [];
/** ``hook(state)`` runs on every state message, before anything is sent in reply. */
export const onStateMessage = (hook) => stateHooks.push(hook);
export const onYourTurn = (fn) => yourTurnListeners.add(fn);
let describeAction = (action) => action;
let eventHook = () => null;
/** ``describe(action, state)``: an action in words; ``hook(event, state)``: variant events. */
export const setDescriber = (describe, hook) => {
  describeAction = describe;
  eventHook = hook;
};

function receive(msg) {
  switch (msg.type) {
    case "welcome":
      S.status = "connected";
      attempt = 0;
      if (afterWelcome) {
        const f = afterWelcome;
        afterWelcome = null;
        f();
      } else if (currentRoute()) enterRoom(currentRoute());
      else send({ type: "lobby" });
      break;
    case "lobby":
      S.lobby = msg;
      break;
    case "joined":
      S.room = msg.room;
      S.seat = msg.seat;
      S.entering = null;
      if (msg.token) store.setItem(tokenKey(msg.room), JSON.stringify({ seat: msg.seat, token: msg.token }));
      if (currentRoute() !== msg.room) {
        location.hash = `#/room/${msg.room}`;
      }
      break;
    case "state":
      onState(msg);
      stateHooks.forEach((hook) => hook(msg)); // before "ready": a client seed goes first
      if (S.readyOnJoin && msg.phase === "waiting" && msg.you !== null) {
        S.readyOnJoin = false;
        send({ type: "ready", ready: true });
      }
      break;
    case "event":
      onEvent(msg.event);
      break;
    case "left":
      if (onLeft) {
        const f = onLeft;
        onLeft = null;
        S.room = S.seat = S.state = null;
        f();
      } else {
        // Unasked: a finished room left the server's memory. Its result stays on screen.
        S.room = S.seat = null;
        notify("This room has closed; its result stays on this page.", "info");
      }
      break;
    case "taken_over":
      // The seat is already someone else's: say so now, not only once the socket closes.
      S.takenOver = { room: msg.room };
      S.status = "elsewhere";
      break;
    case "redirect":
      redirected(msg);
      break;
    case "error":
      onError(msg);
      break;
    default:
      break; // pong and anything newer than this client
  }
  changed();
}

function onError(msg) {
  if (msg.code === "seed_refused") return; // our seed raced the deal: the server drew one
  const wasPending = S.pending;
  S.pending = null;
  S.queue = [];
  if (S.entering && (msg.code === "bad_token" || msg.code === "unknown_room")) {
    const id = S.entering;
    S.entering = null;
    store.removeItem(tokenKey(id));
    if (msg.code === "bad_token") {
      notify("Your seat in this room is no longer yours; watching instead.", "info");
      send({ type: "join", room: id, name: "spectator", spectate: true });
      S.entering = id;
    } else S.missing = id;
    return;
  }
  if (S.entering && S.entering !== "new") S.enterError = { room: S.entering, text: msg.message };
  S.entering = null;
  S.readyOnJoin = false;
  const what = wasPending ? ` (${wasPending.action})` : "";
  notify(`${msg.message}${what} [${msg.code}]`);
}

function onEvent(ev) {
  const st = S.state;
  if (ev.kind === "timed_out" && st && ev.data.seat === st.you) {
    // The server played for us: say what, in the variant's words.
    notify(`Time ran out: ${describeAction(ev.data.action, st)}.`, "info", 15000);
  }
  if (ev.kind === "hand_started") {
    S.scored = null;
  }
  if (ev.kind === "hand_scored") S.scored = ev.data;
  if (S.state) eventHook(ev, S.state);
}

export function waitingOnMe(st) {
  return !!st && st.you !== null && st.to_act.includes(st.you) && !!st.view && (st.view.legal || []).length > 0;
}

function onState(msg) {
  const prev = S.state;
  S.state = msg;
  S.stateAt = performance.now();
  S.pending = null;
  if (waitingOnMe(msg) && (!waitingOnMe(prev) || prev.decision_version !== msg.decision_version)) {
    yourTurnListeners.forEach((fn) => fn(msg));
  }
  const legal = waitingOnMe(msg) ? msg.view.legal : [];
  if (legal.length === 1 && legal[0] === "pass" && setting("autopass", true)) {
    // Not at once: the speed of an answer would tell the table the seat had nothing.
    const decision = msg.decision_version;
    setTimeout(() => {
      const now = S.state;
      if (now && now.decision_version === decision && waitingOnMe(now) && !S.pending) act("pass");
    }, 600 + Math.random() * 900);
  }
  if (S.queue.length && waitingOnMe(msg)) {
    const next = S.queue.shift();
    if (msg.view.legal.includes(next)) act(next);
    else S.queue = [];
  }
}

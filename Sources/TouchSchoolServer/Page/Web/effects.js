// The effects update.js asks for, run against the world, and the world's news as messages for
// it: the storage (and what it holds, read into the news that needs it), the sound and vibration,
// the server (socket, board stream, fetches), which tab plays (election.js's rules without Web
// Locks), the address, the drawing's pace, and timers. main.js runs each effect with the function
// of its name.
import { isValidBattleID } from './rules.js';
import { battleKey, speedFallsAt } from './state.js';
import { SEARCH_LIMIT } from './update.js';
import { initialTab, elect, TAB_HEARTBEAT_MS } from './election.js';

// ---------------------------------------------------------------- storage
// localStorage, under 'touchschool.', as JSON, shared by the browser's tabs: any tab reads; only
// the one that plays writes (update.js says when).
const KEY = 'touchschool.';

function get(name, fallback) {
  try { const text = localStorage.getItem(KEY + name); return text === null ? fallback : JSON.parse(text); } catch { return fallback; }
}

/** False when the value could not be stored (full or disabled: play on). */
function set(name, value) {
  try { localStorage.setItem(KEY + name, JSON.stringify(value)); return true; } catch { return false; }
}

function remove(name) {
  try { localStorage.removeItem(KEY + name); } catch { /* no storage */ }
}

/** The record of the battle last played (or of none before any welcome): {battle, box, open, player}. */
function record(battle = remembered()) {
  return {
    battle,
    box: get(battleKey('outbox', battle), { nextSeq: 1, batches: [] }),
    open: get(battleKey('open', battle), null),
    player: get(battleKey('player', battle), { school: null, taps: 0, best: 0 }),
  };
}

function remembered() {
  const battle = get('battle', null);
  return isValidBattleID(battle) ? battle : null;
}

/** Runs a `store` or `remove` effect. */
function run(effect) {
  if (effect.type === 'remove') remove(effect.name);
  else if (!set(effect.name, effect.value) && effect.orRemove) remove(effect.name);
}

/**
 * The world's news with what the storage holds read into it, for the messages that need it
 * (update.js reads no storage): the record when the device is granted (the tab that played until
 * then wrote its last: read now, not at the page's start), waited for or stored anew by the
 * playing tab, and at a welcome, of its battle. `freshDevice()`: a new device key, should the
 * stored one be missing or invalid.
 */
function readInto(message, freshDevice) {
  const { type } = message;
  if (type === 'granted') return { type, record: record(), device: get('device', null), freshDevice: freshDevice(), school: get('school', null) };
  if (type === 'waiting' || type === 'storedRecord') return { type, record: record() };
  if (type === 'server' && message.message.type === 'welcome') return { ...message, record: record(message.message.battle) };
  return message;
}

export const storage = { get, set, remove, record, run, readInto };

// The teacher's token in sessionStorage: this tab's only, gone with it, never in an address.
const ADMIN_KEY = `${KEY}admin`;

export const session = {
  admin() { try { return sessionStorage.getItem(ADMIN_KEY); } catch { return null; } },
  keepAdmin({ token }) { try { sessionStorage.setItem(ADMIN_KEY, token); } catch { /* no storage: kept until a reload */ } },
};

// ---------------------------------------------------------------- the browser
/** A mark on the page's timeline (the tests and benchmarks read them), once. */
export function mark({ name }) { if (performance.getEntriesByName(name).length === 0) performance.mark(name); }

export function fullscreen() {
  if (document.fullscreenElement) document.exitFullscreen();
  else document.documentElement.requestFullscreen().catch(() => {});
}

/** The address without its fragment (the token was there), in place: no new history entry, no reload. */
export function forgetHash() { history.replaceState(history.state, '', location.pathname + location.search); }

// ---------------------------------------------------------------- sound and vibration
// A tap's click and a refusal's low double buzz from Web Audio oscillators (no sound files), and
// a tick of vibration where the phone has it.
/** A tap's click and buzz at most this often: a burst of taps is one rattle, not hundreds of voices. */
const TAP_FEEDBACK_MS = 40;
const TAP_VIBRATION_MS = 8;
const WARNING_VIBRATION = [120, 80, 120];

let context = null, lastTap = -Infinity;

/**
 * The audio context, made at the first sound: browsers let a page start audio only after a
 * user gesture, and the first tap is one. A context the browser suspended is resumed.
 */
function audio() {
  if (!context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === 'suspended') context.resume().catch(() => {});
  return context;
}

/** One tone: `type` wave at `frequency` Hz from `at` seconds for `length` seconds, fading out. */
function tone(audioContext, type, frequency, at, length, volume) {
  const oscillator = audioContext.createOscillator();
  const gain = audioContext.createGain();
  oscillator.type = type;
  oscillator.frequency.value = frequency;
  gain.gain.setValueAtTime(volume, at);
  gain.gain.exponentialRampToValueAtTime(0.001, at + length);
  oscillator.connect(gain).connect(audioContext.destination);
  oscillator.start(at);
  oscillator.stop(at + length);
}

function vibrate(pattern) {
  if (typeof navigator.vibrate === 'function') navigator.vibrate(pattern);
}

function tap(muted) {
  const now = performance.now();
  if (now - lastTap < TAP_FEEDBACK_MS) return;
  lastTap = now;
  vibrate(TAP_VIBRATION_MS);
  const audioContext = !muted && audio();
  if (audioContext) tone(audioContext, 'triangle', 880, audioContext.currentTime, 0.06, 0.25);
}

function warning(muted) {
  vibrate(WARNING_VIBRATION);
  const audioContext = !muted && audio();
  if (!audioContext) return;
  const at = audioContext.currentTime;
  tone(audioContext, 'square', 196, at, 0.18, 0.2);
  tone(audioContext, 'square', 147, at + 0.22, 0.3, 0.2);
}

/** A round's result: a rising arpeggio and its chord (C E G C), and a long buzz. */
function fanfare(muted) {
  vibrate([80, 60, 80, 60, 300]);
  const audioContext = !muted && audio();
  if (!audioContext) return;
  const at = audioContext.currentTime;
  [523.25, 659.25, 783.99].forEach((frequency, i) => tone(audioContext, 'triangle', frequency, at + i * 0.13, 0.16, 0.3));
  for (const frequency of [523.25, 659.25, 783.99, 1046.5]) tone(audioContext, 'triangle', frequency, at + 0.42, 0.9, 0.18);
}

export const feedback = { tap, warning, fanfare };

// ---------------------------------------------------------------- the server
// The server, as effects: the play socket (/v1/play), the page stream of a tab that does not play
// (`GET /v1/board?count=…`, Server-Sent Events), the school directory, the search and the join addresses.

export function net(dispatch) {
  let socket = null, source = null, searching = null;
  const json = (text) => { try { return JSON.parse(text); } catch { return null; } };
  const get = (url, options) => fetch(url, options).then((response) => {
    if (!response.ok) throw new Error(String(response.status));
    return response.json();
  });
  return {
    connect() {
      const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/v1/play');
      socket = ws;
      ws.onopen = () => dispatch({ type: 'socketOpen' });
      ws.onmessage = (event) => {
        const message = json(event.data);
        if (message) dispatch({ type: 'server', message });
      };
      ws.onclose = (event) => {
        if (socket !== ws) return;
        socket = null;
        dispatch({ type: 'socketClosed', code: event.code, reason: event.reason });
      };
    },
    send({ message }) { if (socket) socket.send(JSON.stringify(message)); },
    close() { if (socket) socket.close(); },

    /** The stream of one page (`url`, from update.js), replacing the one open: its `page` events. */
    watchBoard({ url }) {
      if (source) source.close();
      const stream = new EventSource(url);
      source = stream;
      stream.addEventListener('page', (event) => {
        const page = json(event.data);
        if (page && source === stream) dispatch({ type: 'boardPage', page });
      });
      stream.addEventListener('map', (event) => {
        const message = json(event.data);
        if (message && source === stream) dispatch({ type: 'mapEvent', message });
      });
      stream.addEventListener('round', (event) => {
        const round = json(event.data);
        if (round && source === stream) dispatch({ type: 'boardRound', round });
      });
      stream.addEventListener('season', (event) => {
        const message = json(event.data);
        if (message && source === stream) dispatch({ type: 'boardSeason', season: message.season ?? null });
      });
      stream.onerror = () => {
        if (source !== stream) return;
        const closed = stream.readyState === EventSource.CLOSED;
        if (closed) source = null;
        dispatch({ type: 'boardError', closed });
      };
    },
    unwatchBoard() {
      if (source) source.close();
      source = null;
    },

    loadDirectory() {
      get('/v1/schools', { cache: 'no-cache' })
        .then((directory) => dispatch({ type: 'directory', directory }), () => { /* offline: the next welcome tries again */ });
    },
    search({ text }) {
      if (searching) searching.abort();
      if (!text) return;
      const abort = new AbortController();
      searching = abort;
      get(`/v1/search?limit=${SEARCH_LIMIT + 1}&q=${encodeURIComponent(text)}`, { signal: abort.signal })
        .then((answer) => { if (!abort.signal.aborted) dispatch({ type: 'searchAnswer', answer }); },
              () => { if (!abort.signal.aborted) dispatch({ type: 'searchFailed' }); });
    },
    /** The map's grid (`GET /v1/map`), once per catalog. */
    loadMap() {
      get('/v1/map', { cache: 'no-cache' }).then((answer) => dispatch({ type: 'mapLoaded', answer }), () => dispatch({ type: 'mapFailed' }));
    },
    /** A school's view (`GET /v1/view`) of the period shown, for a tab waiting for the device; none when offline. */
    loadView({ school, period }) {
      get(`/v1/view?school=${encodeURIComponent(school)}${period === 'all' ? '&period=all' : ''}`, { cache: 'no-store' })
        .then((view) => dispatch({ type: 'viewLoaded', view }), () => { /* offline: the next poll tries again */ });
    },
    /** The seasons with their national halls of fame (`GET /v1/seasons`), and one season's whole hall (`GET /v1/seasons/ID`). */
    loadSeasons() {
      get('/v1/seasons', { cache: 'no-store' })
        .then((answer) => dispatch({ type: 'seasonsList', answer }), () => dispatch({ type: 'seasonsFailed' }));
    },
    loadSeason({ id }) {
      get(`/v1/seasons/${encodeURIComponent(id)}`, { cache: 'no-store' })
        .then((answer) => dispatch({ type: 'seasonDetail', answer }), () => dispatch({ type: 'seasonsFailed' }));
    },
    loadRounds() {
      get('/v1/rounds', { cache: 'no-store' })
        .then((rounds) => dispatch({ type: 'roundsList', rounds }), () => dispatch({ type: 'roundsFailed' }));
    },
    loadRound({ id }) {
      get(`/v1/rounds/${encodeURIComponent(id)}`, { cache: 'no-store' })
        .then((answer) => dispatch({ type: 'roundDetail', answer }), () => dispatch({ type: 'roundsFailed' }));
    },
    /** The teacher's start or stop: the server's `{"error"}` on a refusal, status 0 without an answer. */
    adminPost({ url, token }) {
      fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, cache: 'no-store' })
        .then(async (response) => {
          if (response.ok) return dispatch({ type: 'adminAnswer', ok: true });
          const answer = await response.json().catch(() => null);
          const error = answer && typeof answer.error === 'string' ? answer.error : response.statusText;
          return dispatch({ type: 'adminAnswer', ok: false, status: response.status, error });
        }, () => dispatch({ type: 'adminAnswer', ok: false, status: 0, error: null }));
    },
    findJoin() {
      get('/v1/join', { cache: 'no-store' })
        .then((answer) => dispatch({ type: 'join', addresses: answer.addresses }), () => { /* offline: the address it was opened at stays */ });
    },
  };
}

// ---------------------------------------------------------------- which tab plays
// Only the tab holding the device's Web Lock plays (docs/protocol.md, "One tab plays").
// Messages: granted, waiting, claiming, lost {to}; effects: claim, release.
const DEVICE_LOCK = 'touchschool-device';

export function tabs(tell, id) {
  let waitingForDevice = null, releaseLock = null;

  function claim(steal) {
    if (!navigator.locks) { claimByChannel(steal); return; }
    if (waitingForDevice) { waitingForDevice.abort(); waitingForDevice = null; }
    navigator.locks.request(DEVICE_LOCK, steal ? { steal: true } : { ifAvailable: true }, (lock) => {
      if (lock) return playHolding();
      waitForDevice();
      return undefined;
    }).catch(lostDevice);
  }

  function waitForDevice() {
    tell({ type: 'waiting' });
    const waiting = new AbortController();
    waitingForDevice = waiting;
    // Given up (`abort`) when this tab takes the lock itself: that ends nothing that played.
    navigator.locks.request(DEVICE_LOCK, { signal: waiting.signal }, playHolding).catch(() => { if (!waiting.signal.aborted) lostDevice(); });
  }

  /** A lock request ended in an error: taken by another tab (stolen) if this tab was playing. */
  function lostDevice() { tell({ type: 'lost' }); }

  /** Plays, holding the lock until the tab ends or another takes it (`release`). */
  function playHolding() {
    waitingForDevice = null;
    return new Promise((resolve) => { releaseLock = resolve; tell({ type: 'granted' }); });
  }

  // ---------------------------------------------------------------- without Web Locks
  // The BroadcastChannel `touchschool-device`, by election.js's rules: this runs its effects.
  let tab = initialTab(id, performance.timeOrigin);
  let channel = null, answerTimer = 0, beatTimer = 0;

  function elected(event) {
    const next = elect(tab, event, performance.now());
    tab = next.tab;
    for (const effect of next.effects) {
      if (effect.type === 'say') channel.postMessage(effect.message);
      else if (effect.type === 'tell') tell(effect.message);
      else if (effect.type === 'answerIn') {
        clearTimeout(answerTimer);
        answerTimer = setTimeout(() => elected({ type: 'answerOver' }), effect.ms);
      } else if (effect.type === 'cancelAnswer') clearTimeout(answerTimer);
      else if (effect.type === 'stopBeating') clearInterval(beatTimer);
      else if (effect.type === 'reload') location.reload();
    }
  }

  function claimByChannel(steal) {
    if (!channel) {
      channel = new BroadcastChannel(DEVICE_LOCK);
      channel.onmessage = (event) => elected({ type: 'heard', message: event.data });
      beatTimer = setInterval(() => elected({ type: 'beat' }), TAB_HEARTBEAT_MS);
      addEventListener('pagehide', () => elected({ type: 'pagehide' }));
      addEventListener('pageshow', (event) => elected({ type: 'pageshow', persisted: event.persisted }));
    }
    elected({ type: 'claim', steal });
  }

  return {
    claim: ({ steal }) => claim(steal),
    release({ to }) {
      if (releaseLock) releaseLock(to);
      else if (channel) elected({ type: 'release', to });
    },
  };
}

// ---------------------------------------------------------------- drawing
/** Ranks and boards are recomputed at most this often, never per tap. */
const RANK_MS = 250;

/**
 * The drawing of `page` (view.js's) with the state `current()`: `now`, or `soon` (at the next
 * frame, once however many messages came within it). My own taps move my rank, so the ranks follow
 * the taps too, at their own pace (RANK_MS); the speed is drawn again until it is back to 0.
 */
export function frames(page, current) {
  let frame = 0, lastRanks = -Infinity, rankTimer = 0, speedTimer = 0;
  function soon() { if (!frame) frame = requestAnimationFrame(now); }
  function now() {
    cancelAnimationFrame(frame);
    frame = 0;
    const state = current();
    const wall = Date.now();
    page.render(state, wall);
    clearTimeout(speedTimer);
    const falls = speedFallsAt(state.recent, wall);
    if (falls !== null) speedTimer = setTimeout(soon, falls - wall + 1);
    const at = performance.now();
    if (at - lastRanks < RANK_MS) {
      if (!rankTimer) rankTimer = setTimeout(() => { rankTimer = 0; soon(); }, RANK_MS - (at - lastRanks));
      return;
    }
    lastRanks = at;
    page.renderRanks(state);
  }
  return { now, soon };
}

// ---------------------------------------------------------------- timers
// Timers as effects: `after` (a named timer; a new one of that name replaces it), `cancel`, `every`.
export function timers(dispatch) {
  const named = new Map();
  return {
    after({ name, ms, message }) {
      clearTimeout(named.get(name));
      named.set(name, setTimeout(() => { named.delete(name); dispatch(message); }, ms));
    },
    cancel({ name }) { clearTimeout(named.get(name)); named.delete(name); },
    every({ ms, message }) { setInterval(() => dispatch(message), ms); },
  };
}

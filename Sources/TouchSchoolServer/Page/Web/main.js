// TouchSchool in a browser, in the Elm architecture: state.js, the pure update.js, view.js; this
// file runs the effects (effects.js) and draws once a frame. Six files, not one a concern: each is
// a request, and twelve made the page interactive 1.6 times as late.
import { initialState, keyboardAtHand } from './state.js';
import { update } from './update.js';
import { view, TEXT } from './view.js';
import { storage, session, forgetHash, feedback, net, tabs, timers } from './effects.js';

/** Ranks and boards are recomputed at most this often, never per tap. */
const RANK_MS = 250;

const params = new URLSearchParams(location.search);
const lang = (params.get('lang') || navigator.language || 'en').toLowerCase().startsWith('ko') ? 'ko' : 'en';
// The keyboard's part of the play hint only where there is a keyboard (`keyboardAtHand`).
const finePointer = matchMedia('(hover: hover) and (pointer: fine)');
let mouseSeen = false;
const keyboardHint = () => keyboardAtHand({ finePointer: finePointer.matches, touchPoints: navigator.maxTouchPoints || 0, mouseSeen });
const asked = params.get('school');
let state = initialState({
  boardOnly: params.has('board'), asked, school: asked || storage.get('school', null), name: storage.get('name', '') || '',
  muted: storage.get('muted', false) === true, defaultPlayer: TEXT[lang].defaultPlayer, join: `${location.origin}/`,
  keyboardHint: keyboardHint(), hash: location.hash, admin: session.admin(),
});

/** `count` random bytes, base64url without padding. */
function randomText(count) {
  const bytes = crypto.getRandomValues(new Uint8Array(count));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function dispatch(message) {
  const was = state;
  const next = update(state, message, Date.now());
  state = next.state;
  for (const effect of next.effects) run[effect.type](effect);
  if (state === was) return;
  // A new view or question is drawn at once (its focus with it), and anything in a hidden tab (no
  // frames there: a stopped or waiting tab says so when it is looked at); else at the next frame.
  if (state.view !== was.view || state.confirm !== was.confirm || document.hidden) render(); else scheduleRender();
}

/** What the storage holds, read into the messages that need it (update reads no storage). */
function read(message) {
  const { type } = message;
  if (type === 'granted') {
    return { type, record: storage.record(), device: storage.get('device', null), freshDevice: randomText(32), school: storage.get('school', null) };
  }
  if (type === 'waiting' || type === 'storedRecord') return { type, record: storage.record() };
  if (type === 'server' && message.message.type === 'welcome') return { ...message, record: storage.record(message.message.battle) };
  return message;
}
const world = (message) => dispatch(read(message));

const page = view(document, lang, dispatch);
const server = net(world);
const device = tabs(world, randomText(16));
const timer = timers(dispatch);
const run = {
  store: storage.run, remove: storage.run,
  send: server.send, connect: server.connect, close: server.close, watchBoard: server.watchBoard, unwatchBoard: server.unwatchBoard,
  loadDirectory: server.loadDirectory, search: server.search, findJoin: server.findJoin,
  loadView: server.loadView, loadRounds: server.loadRounds, loadRound: server.loadRound, adminPost: server.adminPost, keepAdmin: session.keepAdmin, forgetHash,
  claimDevice: device.claim, releaseDevice: device.release,
  after: timer.after, cancel: timer.cancel, every: timer.every,
  feedback: ({ kind, muted }) => feedback[kind](muted),
  mark: ({ name }) => { if (performance.getEntriesByName(name).length === 0) performance.mark(name); },
  fullscreen: () => {
    if (document.fullscreenElement) document.exitFullscreen();
    else document.documentElement.requestFullscreen().catch(() => {});
  },
};

// ---------------------------------------------------------------- drawing
let frame = 0, lastRanks = -Infinity, rankTimer = 0, speedTimer = 0;
function scheduleRender() { if (!frame) frame = requestAnimationFrame(render); }

function render() {
  cancelAnimationFrame(frame);
  frame = 0;
  const wall = Date.now();
  page.render(state, wall);
  // The speed is drawn again until it is back to 0.
  clearTimeout(speedTimer);
  const oldest = state.recent.find((at) => at > wall - 1000);
  if (oldest !== undefined) speedTimer = setTimeout(scheduleRender, oldest + 1000 - wall + 1);
  // My own taps move my rank, so ranks follow the taps too, at their own pace.
  const now = performance.now();
  if (now - lastRanks < RANK_MS) {
    if (!rankTimer) rankTimer = setTimeout(() => { rankTimer = 0; scheduleRender(); }, RANK_MS - (now - lastRanks));
    return;
  }
  lastRanks = now;
  page.renderRanks(state);
}

// ---------------------------------------------------------------- the world, as messages
// A hidden page may be closed without notice: its open batch goes out now.
document.addEventListener('visibilitychange', () => { if (document.hidden) dispatch({ type: 'hidden' }); });
// A tab that does not play shows the player as the playing tab stores them.
addEventListener('storage', () => { if (state.elsewhere) world({ type: 'storedRecord' }); });
addEventListener('hashchange', () => dispatch({ type: 'hashChanged', hash: location.hash }));
const sawMouse = (event) => {
  if (event.pointerType !== 'mouse') return;
  mouseSeen = true;
  dispatch({ type: 'keyboardHint', on: keyboardHint() });
  removeEventListener('pointermove', sawMouse, true);
};
finePointer.addEventListener('change', () => dispatch({ type: 'keyboardHint', on: keyboardHint() }));
addEventListener('pointermove', sawMouse, true);
if (state.boardOnly) {
  // The projector's controls show while the pointer moves; its rows fill the screen's height.
  addEventListener('pointermove', () => dispatch({ type: 'wake' }));
  addEventListener('keydown', () => dispatch({ type: 'wake' }));
  addEventListener('resize', page.fitRows);
}

dispatch({ type: 'start' });
render();
if (state.boardOnly) page.fitRows();
// The page as an app (sw.js), opened without the network next time: only on secure pages
// (https://, localhost); a phone on a classroom's plain http:// plays as before.
if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => {});
performance.mark('touchschool-interactive');
document.body.dataset.ready = 'true';

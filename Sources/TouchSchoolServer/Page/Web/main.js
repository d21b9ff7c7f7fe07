// TouchSchool in a browser, in the Elm architecture: state.js, the pure update.js (its parts in
// update/), view.js (its screens in view/); this file only wires them: each message through
// `update`, its effects run by effects.js, the page drawn by effects.js's `frames`.
import { initialState, keyboardAtHand } from './state.js';
import { update } from './update.js';
import { view } from './view.js';
import { TEXT } from './view/words.js';
import { storage, session, forgetHash, feedback, net, tabs, timers, frames, mark, fullscreen } from './effects.js';

const params = new URLSearchParams(location.search);
const lang = (params.get('lang') || navigator.language || 'en').toLowerCase().startsWith('ko') ? 'ko' : 'en';
// The keyboard's part of the play hint only where there is a keyboard (`keyboardAtHand`).
const finePointer = matchMedia('(hover: hover) and (pointer: fine)');
let mouseSeen = false;
const keyboardHint = () => keyboardAtHand({ finePointer: finePointer.matches, touchPoints: navigator.maxTouchPoints || 0, mouseSeen });
const asked = params.get('school');
let state = initialState({
  projector: params.has('board'), asked, school: asked || storage.get('school', null), name: storage.get('name', '') || '',
  muted: storage.get('muted', false) === true, defaultPlayer: TEXT[lang].defaultPlayer, join: `${location.origin}/`,
  keyboardHint: keyboardHint(), hash: location.hash, admin: session.admin(), period: params.get('period') === 'all' ? 'all' : 'season',
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
  if (state.screen !== was.screen || state.confirm !== was.confirm || document.hidden) drawing.now(); else drawing.soon();
}

const world = (message) => dispatch(storage.readInto(message, () => randomText(32)));

const page = view(document, lang, dispatch);
const drawing = frames(page, () => state);
const server = net(world);
const device = tabs(world, randomText(16));
const timer = timers(dispatch);
const run = {
  store: storage.run, remove: storage.run,
  send: server.send, connect: server.connect, close: server.close, watchBoard: server.watchBoard, unwatchBoard: server.unwatchBoard,
  loadDirectory: server.loadDirectory, search: server.search, findJoin: server.findJoin,
  loadView: server.loadView, loadMap: server.loadMap, loadSeasons: server.loadSeasons, loadSeason: server.loadSeason, loadRounds: server.loadRounds, loadRound: server.loadRound, adminPost: server.adminPost, keepAdmin: session.keepAdmin, forgetHash,
  claimDevice: device.claim, releaseDevice: device.release,
  after: timer.after, cancel: timer.cancel, every: timer.every,
  feedback: ({ kind, muted }) => feedback[kind](muted),
  mark, fullscreen,
};

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
if (state.projector) {
  // The projector's controls show while the pointer moves; its rows fill the screen's height.
  addEventListener('pointermove', () => dispatch({ type: 'wake' }));
  addEventListener('keydown', () => dispatch({ type: 'wake' }));
  addEventListener('resize', page.fitRows);
}

dispatch({ type: 'start' });
drawing.now();
if (state.projector) page.fitRows();
// The page as an app (sw.js), opened without the network next time: only on secure pages
// (https://, localhost); a phone on a classroom's plain http:// plays as before.
if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => {});
performance.mark('touchschool-interactive');
document.body.dataset.ready = 'true';

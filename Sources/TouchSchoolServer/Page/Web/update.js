// `update(state, message, now)` → `{state, effects}`: the next state (the same object when nothing
// changed) and the effects to run in order, plain objects that main.js's `run` knows. Pure: no
// DOM, storage, timers or sockets. Each part of the page handles its own messages (`PARTS`: taps,
// socket, tabs, screens, search, pages, projector, rounds, admin, maps, seasons, in update/*.js, each part's
// handlers an object of its own); this table dispatches to them by the message's type. Tests/Page
// shows what each message does.
import { taps, socket, tabs, PUFFS } from './update/play.js';
import { screens, search, pages, SEARCH_LIMIT, pageStreamURL } from './update/screens.js';
import { projector, rounds, admin, adminTokenIn } from './update/rounds.js';
import { maps } from './update/map.js';
import { seasons } from './update/seasons.js';

export { PUFFS, SEARCH_LIMIT, pageStreamURL, adminTokenIn };

/** The parts, each its handlers by message type. */
export const PARTS = Object.freeze({ screens, taps, socket, tabs, pages, search, projector, rounds, admin, maps, seasons });

/** The handler of each message type: each type is one part's. */
export const HANDLERS = Object.freeze(Object.assign({}, ...Object.values(PARTS)));

export function update(state, message, now) {
  const fx = [];
  const handler = HANDLERS[message.type];
  // `s`: a copy the handler may change (never what it holds); undefined back for "unchanged".
  const s = handler ? handler({ ...state }, message, now, fx) : undefined;
  return { state: s || state, effects: fx };
}

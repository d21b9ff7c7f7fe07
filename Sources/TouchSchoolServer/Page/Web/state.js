// The page's state: one value, replaced (never changed in place, its Maps too) by update.js and
// drawn by view.js; below, pure questions both ask of it.
import * as rules from './rules.js';

/** The state before anything happened, with what the page knows at its start (`options`). */
export function initialState(options) {
  return {
    boardOnly: false, asked: null, school: null, name: '', muted: false, defaultPlayer: '', join: '', keyboardHint: false,
    ...options,
    // The device: held (owner), asked for, another tab's, or given up for good (stopped: why).
    owner: false, claiming: false, elsewhere: false, stopped: null, device: null,
    // The battle (null before any welcome), its outbox, open batch, and player as the server said.
    battle: null, box: { nextSeq: 1, batches: [] }, open: null, serverPlayer: { school: null, taps: 0, best: 0 },
    // By `recount`: taps per school waiting, their sum, the player before the open batch.
    pending: new Map(), waitingTaps: 0, played: { school: null, taps: 0, best: 0 },
    // The last second's taps, the best; the last PUFFS taps' puffs, oldest first.
    recent: [], best: 0, puffs: [], puffCount: 0,
    // The board, and its totals "a moment ago" (for ▲/▼).
    board: { version: 0, scores: new Map() }, baseline: null,
    schools: new Map(), sharedNames: new Set(), provinces: [], directoryTag: null,
    view: 'picker', level: '', province: '', projectorPage: 0, idle: true, firstConnectionOver: false,
    // The socket ('none', 'connecting', 'welcomed'); the board stream ('none', 'connecting', 'live').
    socket: 'none', sentUpTo: 0, retryMs: 500, lastPong: 0, stream: 'none',
    // A warning ({key, arg}), the search, a school change waiting for a yes ({id, taps}).
    warning: null, query: '', results: [], found: null, confirm: null,
  };
}

/** The state with pending, waitingTaps and played worked out again from the outbox and the open batch. */
export function recount(state) {
  const pending = new Map();
  let waitingTaps = 0, played = state.serverPlayer;
  const add = (batch) => {
    for (const [id, n] of Object.entries(batch.taps)) { pending.set(id, (pending.get(id) || 0) + n); waitingTaps += n; }
  };
  for (const batch of state.box.batches) { add(batch); played = rules.player(played, batch); }
  if (state.open) add(state.open);
  return { ...state, pending, waitingTaps, played };
}

/** The player as the server will have them once everything waiting is applied. */
export function me(state) { return state.open ? rules.player(state.played, state.open) : state.played; }

export function myTaps(state) {
  const mine = me(state);
  return state.school && mine.school === state.school ? mine.taps : 0;
}

/** A school's total: the board's and the taps still waiting. */
export function total(state, id) { return (state.board.scores.get(id) || 0) + (state.pending.get(id) || 0); }

/** Calls `visit(id, total)` for every school with taps, and mine: one pass, no allocation. */
export function eachStanding(state, visit) {
  const { board: { scores }, pending, school } = state;
  for (const id of scores.keys()) visit(id, total(state, id));
  for (const id of pending.keys()) if (!scores.has(id)) visit(id, total(state, id));
  if (school && !scores.has(school) && !pending.has(school)) visit(school, total(state, school));
}

/** Every school's total now: the baseline of ▲/▼ for the next MOVEMENT_BASELINE_MS. */
export function totals(state) {
  const all = new Map();
  eachStanding(state, (id, score) => all.set(id, score));
  return all;
}

/** A school's total a moment ago; a school not on the board then had none. Before any baseline, no movement. */
export function before(state, id, now) { return state.baseline ? (state.baseline.get(id) || 0) : now; }

/** The schools with taps (and mine) of a league (level and province, '' for any), with their totals. */
export function standings(state, level, province) {
  const rows = [];
  eachStanding(state, (id, score) => {
    if (score === 0 && id !== state.school) return;
    const row = state.schools.get(id);
    if ((level || province) && !row) return;
    if (level && row.level !== level) return;
    if (province && row.province !== province) return;
    rows.push({ id, score, row });
  });
  return rows;
}

/** The school's place in a province and district, as lists show it. */
export function region(row) { return row.district ? `${row.province} ${row.district}` : row.province; }

/**
 * The storage name of a battle's own record (outbox, open batch, player). Before any welcome (a
 * first game, or a page from before battles had an identity) the record has no battle: the first
 * welcome's battle takes it.
 */
export function battleKey(name, battle) { return battle === null ? name : `${name}:${battle}`; }

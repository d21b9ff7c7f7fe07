// The class's parts of `update`: the projector, the rounds and the teacher's controls (their
// handlers: `projector`, `rounds`, `admin`).
import { PROJECTOR_ROWS, roundScreen, serverNow, roundStage } from '../state.js';
import { after, follow } from './screens.js';
import { CLOCK_SAMPLES } from './play.js';

// The projector (`/?board`): its pages turned, its controls shown while the pointer moves, the
// address phones join at. Handlers: pageTick, wake, idle, firstConnectionOver, join.
export const PROJECTOR_PAGE_MS = 8000; // how long a page of the projector's board stays
export const CONTROLS_IDLE_MS = 3000;  // the projector's controls hide once the pointer has rested this long
export const FIRST_CONNECTION_MS = 3000; // the projector's offline overlay waits this long for the stream's first connection

export function isLoopback(hostname) { return /^(localhost|127\.[0-9.]+|\[::1\])$/.test(hostname); }

export const projector = {
  pageTick(s, m, now, fx) {
    // The next page, once the one shown has come; after the last with taps, the first again
    // (not under a round, which the board's pages would only disturb).
    const page = s.page;
    if (!page || page.from !== s.projectorPage * PROJECTOR_ROWS || roundScreen(s)) return undefined;
    const next = page.rows.length > PROJECTOR_ROWS && page.rows[PROJECTOR_ROWS][2] > 0 ? s.projectorPage + 1 : 0;
    if (next === s.projectorPage) return undefined;
    s.projectorPage = next;
    follow(s, fx);
    return s;
  },
  wake(s, m, now, fx) {
    after(fx, 'idle', CONTROLS_IDLE_MS, 'idle');
    if (!s.idle) return undefined;
    s.idle = false;
    return s;
  },
  idle(s) {
    s.idle = true;
    return s;
  },
  firstConnectionOver(s) {
    s.firstConnectionOver = true;
    return s;
  },
  join(s, m) {
    // None but this machine's loopback: `serve` listens on it only (its default) and no phone
    // can open the address shown, or, on every interface, this machine is on no network.
    const reachable = m.addresses.find((address) => !isLoopback(new URL(address).hostname));
    s.joinWarning = reachable ? null : m.addresses.length > 0 ? 'joinLoopback' : 'joinNoNetwork';
    if (reachable) s.join = reachable;
    return s;
  },
};

/**
 * How many of the projector's pages have taps (zero-total schools are ranked too, all at the
 * place after the last school with taps): exactly, once a page reaches a school without a tap or
 * the league's end; unknown again when a page has taps past the count. A page past the schools
 * with taps (a new battle) turns back to the first.
 */
export function countPages(s, page, fx) {
  const at = page.from / PROJECTOR_ROWS;
  const none = page.rows.find((row) => row[2] === 0);
  const played = none ? none[0] - 1 : page.rows.length <= PROJECTOR_ROWS ? page.from + page.rows.length : null;
  if (played !== null) s.projectorPages = Math.max(1, Math.ceil(played / PROJECTOR_ROWS));
  else if (s.projectorPages < at + 2) s.projectorPages = 0;
  if (at > 0 && played !== null && played <= page.from) {
    s.projectorPage = 0;
    follow(s, fx);
  }
}

// Rounds: a class's timed race, its stages on this page's idea of the server's clock, its result,
// and the projector's previous rounds. Handlers: boardRound, roundTick, roundResultOver,
// dismissRound, reopenRound, showRounds, roundsList, showRound, roundDetail, roundsFailed,
// archiveBack, closeRounds.

const FRESH_FINAL_MS = 5000;           // a final seen this long past the grace is still the race's own: its result and fanfare
const RESULT_MS = 15000;               // the phone's result stays this long

export const rounds = {
  boardRound(s, m, now, fx) { return s.projector ? takeRound(s, m.round, now, fx) : undefined; },
  roundTick(s, m, now, fx) { return stageRound(s, fx, now); },
  roundResultOver(s) {
    if (!s.roundResult) return undefined;
    s.roundResult = null;
    return s;
  },
  dismissRound(s) {
    // The projector back to its board: this round stays closed (its events keep coming), the next opens.
    if (!s.round) return undefined;
    s.roundClosed = s.round.id;
    return s;
  },
  reopenRound(s) {
    if (s.roundClosed === null) return undefined;
    s.roundClosed = null;
    s.archive = null;
    return s;
  },
  showRounds(s, m, now, fx) {
    s.archive = { list: null, detail: null, failed: false };
    fx.push({ type: 'loadRounds' });
    return s;
  },
  roundsList(s, m) {
    if (!s.archive) return undefined;
    s.archive = { ...s.archive, list: m.rounds, failed: false };
    return s;
  },
  showRound(s, m, now, fx) {
    if (!s.archive) return undefined;
    fx.push({ type: 'loadRound', id: m.id });
    return undefined;
  },
  roundDetail(s, m) {
    if (!s.archive) return undefined;
    s.archive = { ...s.archive, detail: m.answer, failed: false };
    return s;
  },
  roundsFailed(s) {
    if (!s.archive) return undefined;
    s.archive = { ...s.archive, failed: true };
    return s;
  },
  archiveBack(s) {
    if (!s.archive) return undefined;
    s.archive = { ...s.archive, detail: null };
    return s;
  },
  closeRounds(s) {
    s.archive = null;
    return s;
  },
};

/**
 * A round from the server (the socket's `round` message, the projector's `round` event): the
 * newest it has sent, a new one or the same one changed (stopped early, standings, final). Its
 * `nowMs` is the server's clock as it was sent: a one-way sample of the offset.
 */
export function takeRound(s, m, now, fx) {
  if (s.round && m.id < s.round.id) return undefined;
  const { type, nowMs, ...round } = m;
  if (typeof nowMs === 'number') s.clock = { ...s.clock, oneWay: s.clock.oneWay.concat(nowMs - now).slice(-CLOCK_SAMPLES) };
  // A new round takes the projector off the board, or the previous rounds, at once.
  if (s.projector && (!s.round || s.round.id !== round.id)) s.archive = null;
  // A player without taps counted has no place: the server leaves it out.
  const taken = { ...round, place: round.place ?? null };
  // New standings are news whether or not the second shown changed (events come many times a
  // second); the same round again keeps the one drawn, and changes only the clock's samples.
  const news = !s.round || JSON.stringify(taken) !== JSON.stringify(s.round);
  if (news) s.round = taken;
  const staged = stageRound(s, fx, now);
  return news || typeof nowMs === 'number' ? s : staged;
}

/** The player's place in the round shown (`roundPlace`), when it changed: taken into the round. */
export function takePlace(s, m, now, fx) {
  if (!s.round || s.round.id !== m.id) return undefined;
  const place = m.place ?? null;
  const { round } = s;
  // `tied`: others have the same place (the server says it only when true).
  const tied = m.tied === true;
  const news = place !== round.place || tied !== (round.tied === true) || m.count !== round.count || m.players !== round.players || m.final !== round.final;
  if (news) s.round = { ...round, place, tied, count: m.count, players: m.players, final: m.final };
  const staged = stageRound(s, fx, now);
  return news ? s : staged;
}

/**
 * The round's stage at the server's time now, and the tick at its next change (each second, to
 * the millisecond: every screen turns 3-2-1 together). Once final, the phone shows the result
 * (for RESULT_MS, or until a tap) with a fanfare for a player with a place, once a round, and
 * only for a race it saw end: not for a round that was over long before the page opened.
 */
export function stageRound(s, fx, now) {
  const t = serverNow(s, now);
  const stage = roundStage(s.round, t);
  if (stage && stage.next !== null) fx.push({ type: 'after', name: 'roundTick', ms: stage.next, message: { type: 'roundTick' } });
  const round = s.round;
  let changed = false;
  if (stage && stage.phase === 'final' && s.finalSeen !== round.id) {
    s.finalSeen = round.id;
    changed = true;
    if (!s.projector && t <= round.endsAtMs + round.graceMs + FRESH_FINAL_MS) {
      s.roundResult = { id: round.id, since: now };
      after(fx, 'roundResult', RESULT_MS, 'roundResultOver');
      if (round.place !== null) fx.push({ type: 'feedback', kind: 'fanfare', muted: s.muted });
    }
  }
  const shown = stage && { id: round.id, phase: stage.phase, n: stage.n };
  const was = s.roundStage;
  if (shown && was && shown.id === was.id && shown.phase === was.phase && shown.n === was.n) return changed ? s : undefined;
  if (!shown && !was) return changed ? s : undefined;
  s.roundStage = shown;
  return s;
}

// The teacher's controls (the projector with the token): the token taken from the address, a round
// started or stopped. Handlers: hashChanged, startRound, stopRound, adminAnswer.
export const admin = {
  hashChanged(s, m, now, fx) {
    // The teacher's link pasted into the projector already open: the browser changes only the
    // fragment, without a reload. Taken as at the start; another fragment is not the page's.
    if (!adminTokenIn(m.hash)) return undefined;
    s.hash = m.hash;
    takeAdmin(s, fx);
    // The controls shown at once, as when the pointer moves (they hide when it rests): the
    // teacher sees the link took, without having to move the mouse first.
    if (s.admin) {
      s.idle = false;
      after(fx, 'idle', CONTROLS_IDLE_MS, 'idle');
    }
    return s;
  },
  startRound(s, m, now, fx) {
    if (!s.admin) return undefined;
    const query = [`seconds=${encodeURIComponent(m.seconds)}`];
    const title = m.title.trim();
    if (title) query.push(`title=${encodeURIComponent(title)}`);
    return adminPost(s, fx, `/v1/admin/rounds?${query.join('&')}`);
  },
  stopRound(s, m, now, fx) { return s.admin ? adminPost(s, fx, '/v1/admin/rounds/stop') : undefined; },
  adminAnswer(s, m) {
    s.adminBusy = false;
    s.adminError = m.ok ? null : { status: m.status, error: m.error };
    return s;
  },
};

/**
 * The teacher's token: from the address's fragment (`#admin=TOKEN`, as the server prints the
 * link), kept for the session and taken out of the address at once (a student must never see
 * it in a URL), or the one the session kept. Only the projector has controls: a phone's page
 * opened with it only drops it.
 */
export function takeAdmin(s, fx) {
  const token = adminTokenIn(s.hash);
  if (token && s.projector) fx.push({ type: 'keepAdmin', token });
  if (token) fx.push({ type: 'forgetHash' });
  s.admin = s.projector ? token || s.admin : null;
}

/** The token of a fragment `#admin=TOKEN`, or null. */
export function adminTokenIn(hash) {
  return new URLSearchParams(hash.replace(/^#/, '')).get('admin') || null;
}

function adminPost(s, fx, url) {
  s.adminBusy = true;
  s.adminError = null;
  fx.push({ type: 'adminPost', url, token: s.admin });
  return s;
}

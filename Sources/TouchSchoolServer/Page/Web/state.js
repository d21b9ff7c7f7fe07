// The page's state: one value, replaced (never changed in place, its Maps too) by update.js and
// drawn by view.js; below, pure questions both ask of it.
import * as rules from './rules.js';
import { NO_MAP } from './map.js';

/** The state before anything happened, with what the page knows at its start (`options`). */
export function initialState(options) {
  return {
    // `projector`: this page is the projector (`/?board`), showing the ranking without the device.
    projector: false, asked: null, school: null, name: '', muted: false, defaultPlayer: '', join: '', keyboardHint: false,
    // Why no phone can open the join address (the key of its words), or null: none known.
    joinWarning: null,
    // The address's fragment, and the teacher's token the session kept (the projector's controls).
    hash: '', admin: null,
    // The period the standings shown count: 'season' (a season's, when one runs) or 'all' (all
    // time: `watch`'s "period", the projector's `?board&period=all`).
    period: 'season',
    ...options,
    // The device: held (owner), asked for, another tab's, or given up for good (stopped: why).
    owner: false, claiming: false, elsewhere: false, stopped: null, device: null,
    // The battle (null before any welcome), its outbox, open batch, and player as the server said.
    battle: null, box: { nextSeq: 1, batches: [] }, open: null, serverPlayer: { school: null, taps: 0, best: 0 },
    // When this tab last sealed a batch (online, the next waits SEAL_ONLINE_MS after it).
    sealedMs: -Infinity,
    // By `recount`: taps per school waiting, their sum, the player before the open batch.
    pending: new Map(), waitingTaps: 0, played: { school: null, taps: 0, best: 0 },
    // The last second's taps, the best; the last PUFFS taps' puffs, oldest first.
    recent: [], best: 0, puffs: [], puffCount: 0,
    // Protocol 2: my school's last `view` (kept offline: frozen, as shown), and the taps for my
    // school acknowledged since, which that view does not count yet.
    schoolView: null, ackedTaps: 0,
    // The last page of the league shown (`page`), and its totals "a moment ago" (for ▲/▼), {key, totals}.
    page: null, baseline: null,
    // The map of the schools (map.js: its grid, glow and marks), and whether the phone's ranking shows it.
    map: NO_MAP, mapShown: false,
    schools: new Map(), sharedNames: new Set(), provinces: [], directoryTag: null,
    // The screen shown ('picker', 'game', 'ranking', as the terminal's screens are named); the
    // projector's page (0-based), and how many of its pages have taps (0: not known yet).
    screen: 'picker', level: '', province: '', projectorPage: 0, projectorPages: 0, idle: true, firstConnectionOver: false,
    // The socket ('none', 'connecting', 'welcomed') and the page it watches (its key, null for none); the
    // board stream ('none', 'connecting', 'live') and its address (null when closed).
    socket: 'none', sentUpTo: 0, retryMs: 500, lastPong: 0, watching: null, stream: 'none', streaming: null,
    // Why the server last refused the device ('bannedAddress', 'battleFull', 'tooManyFromAddress'),
    // until it welcomes it or the socket ends otherwise; null for none.
    refused: null,
    // A warning ({key, arg}), the search, a school change waiting for a yes ({id, taps}).
    warning: null, query: '', results: [], found: null, confirm: null,
    // The server's clock (`clockOffset`): pings out (their local times, in order), pong samples
    // {rtt, offset}, and one-way offsets (the round's own `nowMs` on arrival).
    clock: { out: [], pings: [], oneWay: [] },
    // A round: the last the server sent (its message's fields), its stage as shown ({id, phase, n},
    // by `roundStage`), the round whose final was taken (a fanfare once), the phone's result shown
    // ({id, since}) and the round the projector was taken back to the board from.
    round: null, roundStage: null, finalSeen: null, roundResult: null, roundClosed: null,
    // The projector: previous rounds ({list, detail, failed}, null when not shown); the teacher's
    // start or stop under way, its error ({status, error}: the server's words; status 0: no answer).
    archive: null, adminBusy: false, adminError: null,
    // The season running (the server's `season`: {id, length, startsAtMs, endsAtMs, graceMs}), null
    // for none (or not said yet); the projector's hall of fame of the last season whose hall was
    // taken ({season, national, all: every league's, null until read}), null for none.
    season: null, fame: null,
  };
}

/**
 * Whether the play hint names the keyboard: only where there is one. A fine pointer that hovers
 * (`finePointer`: a computer, not a phone) says so, but not on a touch screen (`touchPoints`),
 * which some phones say of themselves too: there, and where the browser says neither, a mouse
 * used (`mouseSeen`). (Not keys: a phone's on-screen keyboard sends them too, while typing a
 * school's name.)
 */
export function keyboardAtHand({ finePointer, touchPoints, mouseSeen }) { return mouseSeen || (finePointer && touchPoints === 0); }

/** The speed's window: taps per second are the taps of the last second. */
const SECOND_MS = 1000;

/** Of tap times `recent` (oldest first), those of the second up to `now`: as many as the speed shown. */
export function lastSecond(recent, now) {
  const from = recent.findIndex((at) => at > now - SECOND_MS);
  return from === 0 ? recent : from < 0 ? [] : recent.slice(from);
}

/** When the speed shown at `now` next falls (its oldest tap leaves the second), or null: it is 0. */
export function speedFallsAt(recent, now) {
  const [oldest] = lastSecond(recent, now);
  return oldest === undefined ? null : oldest + SECOND_MS;
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

// ---------------------------------------------------------------- what the screens show
/** Rows of the ranking (the play page's list: a phone scrolls it, nothing pages it). */
const BOARD_ROWS = 100;
/** The projector (`?board`): rows on a page, sized to fill the screen's height. */
export const PROJECTOR_ROWS = 10;

/** The league the ranking shows, as `watch` and the page name it: only the members chosen. */
function leagueShown(state) {
  const league = {};
  if (state.level) league.level = state.level;
  if (state.province) league.province = state.province;
  return league;
}

/** A page's identity: its league and first place (a page answers the watch of the same key). */
export function pageKey(league, from) { return JSON.stringify([league.level || '', league.province || '', from]); }

/**
 * The page this screen shows ({league, from, count}), or null: the projector's page, with one row
 * more than it shows to tell whether a next page has taps; the ranking's top rows; for a tab that
 * does not play, the national top, where it reads its school for its header; and for the game,
 * the school to overtake when schools tied with mine hide it from the view's rows (the last
 * school ahead, nationally: the place before the first of my rank).
 */
export function pageWanted(state) {
  if (state.projector) return { league: leagueShown(state), from: state.projectorPage * PROJECTOR_ROWS, count: PROJECTOR_ROWS + 1 };
  if (state.screen === 'ranking') return { league: leagueShown(state), from: 0, count: BOARD_ROWS };
  if (!state.owner) return { league: {}, from: 0, count: BOARD_ROWS };
  const view = state.schoolView;
  if (!view || view.school !== state.school || view.ranks[0][2] === null || view.above.some(([, , score]) => score > view.total)) return null;
  return { league: {}, from: view.ranks[0][0] - 2, count: 1 };
}

/** Whether the screen shows the map: the projector beside its ranking, a phone's ranking when asked. */
export function mapShowing(state) { return state.projector || (state.screen === 'ranking' && state.mapShown); }

/**
 * My school's view: the server's (sent to the playing tab, read every few seconds by a tab that
 * does not play), or, in a tab that does not play, one read off the national page it streams
 * when that holds my school (fresher: pages come as they change); null when neither has it.
 */
function myView(state) {
  const { school, schoolView, page } = state;
  if (!school) return null;
  const served = schoolView && schoolView.school === school ? schoolView : null;
  if (state.owner || !page || page.from !== 0 || page.league.level || page.league.province) return served;
  const at = page.rows.findIndex((row) => row[1] === school);
  if (at < 0) return served;
  const total = page.rows[at][2];
  const ahead = page.rows.slice(0, at).findLast((row) => row[2] > total);
  return { school, total, ranks: [[page.rows[at][0], page.size, ahead ? ahead[2] - total : null]],
           above: page.rows.slice(Math.max(0, at - 2), at), below: page.rows.slice(at + 1, at + 3), top: page.rows.slice(0, 3) };
}

/** My school's total: the view's, with the taps acknowledged since it and those still waiting. */
export function schoolTotal(state) {
  if (!state.school) return 0;
  const view = myView(state);
  return (view ? view.total : 0) + state.ackedTaps + (state.pending.get(state.school) || 0);
}

/**
 * The header's standing: my school's total, its national rank and the school to overtake
 * ({school, taps}: one tap more than the difference) as of my own taps too, which may have passed
 * the schools the view had just above. The rank is null before the view, and for a school without
 * a tap (at a battle's start every school shares the first); the gap null for a leader, and for a
 * school my taps passed beyond the rows the view names. `school` null: schools tied with mine
 * (a crowd without a tap, say) hid the school to overtake from the rows, and the view says only
 * how far it is.
 */
export function standing(state) {
  const total = schoolTotal(state);
  const view = myView(state);
  if (!view) return { total, rank: null, gap: null };
  const [rank, , gap] = view.ranks[0];
  const rows = (list) => list.map(([, school, score]) => [school, score]);
  // The school hidden by a tie, as its page says, is farther than the rows above.
  const hidden = state.owner && state.screen !== 'ranking' && pageShown(state);
  const stands = rules.standing(total, { total: view.total, rank, gap, above: rows(view.above) }, hidden ? rows(hidden.rows) : []);
  return { total, rank: rules.shownRank(stands.rank, total), gap: stands.gap };
}

/**
 * The side list: the national top three and the schools around mine, each once, in order, mine
 * at its total of `standing` (a school it passed moves down a place); as in the ranking, the
 * schools without a tap are left out, but mine. `after`: a break in the places before this row.
 */
export function miniRows(state) {
  const view = myView(state);
  if (!view) return [];
  const { total, rank } = standing(state);
  const rows = [], seen = new Set([view.school]);
  const mine = { rank: rank || view.ranks[0][0], school: view.school, total, mine: true, after: false };
  // The server's rows in its order, mine among them at its place there: of rows tied after the
  // sort, the order the server gave.
  for (const row of [...view.top, ...view.above, null, ...view.below]) {
    if (row === null) { rows.push(mine); continue; }
    const [place, school, score] = row;
    if (seen.has(school) || score === 0) continue;
    seen.add(school);
    // Competition ranks: a school my taps passed has one more ahead of it.
    rows.push({ rank: place + (score >= view.total && score < total ? 1 : 0), school, total: score, mine: false, after: false });
  }
  rows.sort((a, b) => a.rank - b.rank);
  // A break: a row whose rank does not follow the rows of the rank before it (ties share one).
  rows.forEach((row, i) => {
    const before = rows[i - 1];
    row.after = i > 0 && row.rank > before.rank + rows.filter((r) => r.rank === before.rank).length;
  });
  return rows;
}

/**
 * The page shown: the one of the league and places the screen shows (another league's is not
 * shown under its name, even offline, when no other may come); the projector keeps its last page
 * while the next comes, a moment.
 */
export function pageShown(state) {
  const want = pageWanted(state);
  const page = state.page;
  if (state.projector || !page) return page;
  return want && pageKey(page.league, page.from) === pageKey(want.league, want.from) ? page : null;
}

/**
 * The ranking's rows ({rank, school, total, mine}): the page's schools with taps, and mine (of
 * none too, as before); on the play page, mine past the rows shown is added at its place in the
 * league when that is one of mine (the view's ranks: national, level, province, both).
 */
export function listRows(state) {
  const page = pageShown(state);
  if (!page) return [];
  const shown = state.projector ? page.rows.slice(0, PROJECTOR_ROWS) : page.rows;
  const rows = shown.filter(([, school, total]) => total > 0 || school === state.school)
    .map(([rank, school, total]) => ({ rank, school, total, mine: school === state.school }));
  const view = state.schoolView;
  if (state.projector || !view || view.school !== state.school || rows.some((row) => row.mine)) return rows;
  const row = state.schools.get(view.school);
  const { level, province } = page.league;
  if (!row || (level && level !== row.level) || (province && province !== row.province)) return rows;
  const standingIn = view.ranks[(level ? 1 : 0) + (province ? 2 : 0)];
  if (standingIn && view.total > 0) rows.push({ rank: standingIn[0], school: view.school, total: view.total, mine: true });
  return rows;
}

/** A page's rows as [school, total]: the movement's baseline. */
export function totalsOf(page) { return page.rows.map(([, school, total]) => [school, total]); }

/**
 * ▲/▼ of each school on the page shown (a Map): places climbed since the same page "a moment ago"
 * (`baseline`), by the rules the terminal's ranking shows them with (`rules.pageMovements`).
 */
export function movements(state) {
  const page = pageShown(state);
  if (!page) return new Map();
  const then = state.baseline && state.baseline.key === pageKey(page.league, page.from) ? state.baseline.totals : null;
  return new Map(rules.pageMovements(totalsOf(page), page.from, then));
}

/**
 * Where the projector is: {page, pages} (1-based; pages null while it is not known how many have
 * taps), or null with nothing to say (no page yet, or a single one).
 */
export function projectorPosition(state) {
  const page = pageShown(state);
  if (!page) return null;
  const at = page.from / PROJECTOR_ROWS + 1;
  if (state.projectorPages === 1 && at === 1) return null;
  return { page: at, pages: state.projectorPages >= at ? state.projectorPages : null };
}

// ---------------------------------------------------------------- seasons
/**
 * The period the standings shown count, as the words name it: the season's length ('week',
 * 'month'), 'all' for all time chosen while a season runs, or null without a season (both
 * periods are all time then, and nothing is said).
 */
export function periodShown(state) {
  if (!state.season) return null;
  return state.period === 'all' ? 'all' : state.season.length;
}

/** Whether a hall of fame row is of the league {level, province} (the national: neither). */
function ofLeague(row, level, province) { return (row.league.level || '') === level && (row.league.province || '') === province; }

/**
 * The projector's hall of fame as shown ({season, last, national, league}), or null: only while a
 * season runs, between rounds (no round counting down, racing or counting, nor its podium), on the
 * board. `last`: the hall is the season just before the one running. `league`: the first three of
 * the league the projector shows (null when it shows the national ranking, or before its hall is
 * read).
 */
export function fameShown(state) {
  const { fame, season, roundStage: stage } = state;
  if (!state.projector || !season || !fame || projectorScreen(state) !== 'ranking' || (stage && stage.phase !== 'final')) return null;
  const chosen = state.level || state.province;
  return {
    season: fame.season, last: fame.season.endsAtMs === season.startsAtMs, national: fame.national,
    league: chosen && fame.all ? fame.all.filter((row) => ofLeague(row, state.level, state.province)) : null,
  };
}

/** The national rows of a hall of fame. */
export function nationalFame(rows) { return rows.filter((row) => ofLeague(row, '', '')); }

/** The school's place in a province and district, as lists show it. */
export function region(row) { return row.district ? `${row.province} ${row.district}` : row.province; }

/**
 * The storage name of a battle's own record (outbox, open batch, player). Before any welcome (a
 * first game, or a page from before battles had an identity) the record has no battle: the first
 * welcome's battle takes it.
 */
export function battleKey(name, battle) { return battle === null ? name : `${name}:${battle}`; }

// ---------------------------------------------------------------- rounds
/** The race's first second says GO instead of the seconds left. */
const GO_MS = 1000;

/**
 * How far the server's clock is ahead of this one: of the pong samples, the one of the shortest
 * round trip (the server read its clock near the middle of it); before any, the one-way offsets
 * of round messages, each short by the time it travelled: the largest travelled least.
 */
export function clockOffset(clock) {
  if (clock.pings.length > 0) return clock.pings.reduce((best, sample) => (sample.rtt < best.rtt ? sample : best)).offset;
  return clock.oneWay.length > 0 ? Math.max(...clock.oneWay) : 0;
}

/** The server's time at this page's `now`. */
export function serverNow(state, now) { return now + clockOffset(state.clock); }

/**
 * A round's stage at the server's time `t`: `countdown` (n: 3, 2, 1, the seconds to its start),
 * `go` (its first second) and `race` (n: the seconds left, whole, rounded up), `counting` (the
 * window closed, batches may still come) and `final`; `next`: the milliseconds until the stage or
 * its number changes by the clock (null: only a message changes it). Null without a round, and for
 * one stopped before its window opened (it counts nothing).
 */
export function roundStage(round, t) {
  if (!round || round.endsAtMs <= round.startsAtMs) return null;
  // To the next whole second down, fractions of a millisecond too (a pong's midpoint has a half).
  const untilChange = (ms) => ms - (Math.ceil(ms / 1000) - 1) * 1000;
  if (t < round.startsAtMs) {
    const left = round.startsAtMs - t;
    return { phase: 'countdown', n: Math.ceil(left / 1000), next: untilChange(left) };
  }
  if (t < round.endsAtMs) {
    const left = round.endsAtMs - t;
    const go = t - round.startsAtMs < GO_MS;
    return { phase: go ? 'go' : 'race', n: Math.ceil(left / 1000), next: go ? Math.min(untilChange(left), round.startsAtMs + GO_MS - t) : untilChange(left) };
  }
  return { phase: round.final ? 'final' : 'counting', n: 0, next: null };
}

/**
 * What the screen shows of the round ({phase, n, round}), or null: the stage, but once final the
 * phone's `result` only while it is shown (a race it saw end), and the projector's `podium` until
 * it is taken back to the board, as it can be at any stage.
 */
export function roundScreen(state) {
  const { round, roundStage: stage } = state;
  if (!round || !stage || stage.id !== round.id) return null;
  if (state.projector && state.roundClosed === round.id) return null;
  if (stage.phase !== 'final') return { phase: stage.phase, n: stage.n, round };
  if (state.projector) return { phase: 'podium', n: 0, round };
  return state.roundResult && state.roundResult.id === round.id ? { phase: 'result', n: 0, round } : null;
}

/** The projector's screen: the previous rounds, the round on now, or the board. */
export function projectorScreen(state) {
  if (state.archive) return 'archive';
  return roundScreen(state) ? 'round' : 'ranking';
}

/** The places the podium has steps for. */
const PODIUM_PLACES = 3;

/**
 * The podium of standings ({place…}): a step ({place, players}) for each place up to the third,
 * with every player of that place (ties share it: 1, 1, 3 has no second), as steps stand: the
 * second place held, the first, the third; the rest after, in order.
 */
export function podium(places) {
  const sorted = [...places].sort((a, b) => a.place - b.place);
  const held = [];
  for (const row of sorted.filter((p) => p.place <= PODIUM_PLACES)) {
    if (held.at(-1)?.place === row.place) held.at(-1).players.push(row); else held.push({ place: row.place, players: [row] });
  }
  const [first, second, third] = held;
  return { steps: [second, first, third].filter(Boolean), rest: sorted.filter((p) => p.place > PODIUM_PLACES) };
}

/** An English place: 1st, 2nd, 3rd, 4th, 11th, 21st. */
export function ordinal(n) {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' })[n % 10] || 'th';
  return `${n}${suffix}`;
}

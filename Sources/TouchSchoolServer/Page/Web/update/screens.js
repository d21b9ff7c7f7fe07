// The screens' parts of `update`: the page's start and controls, the search, the ranking's pages
// (their handlers: `screens`, `search`, `pages`), and the helpers every part uses.
import * as rules from '../rules.js';
import { battleKey, recount, myTaps, pageWanted, pageKey, totalsOf, mapShowing } from '../state.js';
import { PING_MS, seal, tellSchool } from './play.js';
import { takeAdmin, isLoopback, PROJECTOR_PAGE_MS, FIRST_CONNECTION_MS, countPages } from './rounds.js';
import { askLeagueFame } from './seasons.js';

// What the parts of `update` share: effects by name, and the storage a playing tab writes. Each
// part (taps.js, socket.js, ...) exports its handlers, `(s, m, now, fx)` → the new state `s` (a
// copy the handler may change, never what it holds) or undefined for "unchanged", pushing the
// effects to run on `fx`; update.js dispatches to them by message type.

export function after(fx, name, ms, type) { fx.push({ type: 'after', name, ms, message: { type } }); }
export function every(fx, ms, type) { fx.push({ type: 'every', ms, message: { type } }); }

const WARNING_MS = 4000;

export function warn(s, fx, key, arg) {
  s.warning = { key, arg };
  after(fx, 'warning', WARNING_MS, 'warnOver');
}

/** A write to the storage: only the tab that plays writes (a tab that lost the device, or never had it, cannot put its stale outbox over the live one). */
export function store(s, fx, name, value, orRemove) {
  if (s.owner) fx.push({ type: 'store', name, value, orRemove });
}

/**
 * Stores the outbox; one that cannot be stored is removed rather than left stale: a stale
 * numbering kept over a crash would be renumbered at the next welcome and counted twice,
 * where a lost outbox only loses its taps.
 */
export function saveBox(s, fx) { store(s, fx, battleKey('outbox', s.battle), s.box, true); }

/** A battle's record as stored, taken up as this tab's. */
export function take(s, record) {
  s.battle = record.battle;
  s.box = record.box;
  s.open = record.open;
  s.serverPlayer = record.player;
}

export function readPlayer(s, record) {
  take(s, record);
  Object.assign(s, recount(s));
}

// The page's start and its controls: the screen shown, the ranking's league, the player's name,
// the sound. Handlers: start, show, league, myLeague, name, toggleSound, fullscreen, keyboardHint,
// warnOver.

const SEAL_EVERY_MS = 100;             // how often the open batch is looked at (taps.js's seal decides)

export const screens = {
  start(s, m, now, fx) {
    takeAdmin(s, fx);
    fx.push({ type: 'loadDirectory' });
    every(fx, SEAL_EVERY_MS, 'sealTick');
    every(fx, PING_MS, 'pingTick');
    every(fx, rules.MOVEMENT_BASELINE_MS, 'baselineTick');
    if (!s.projector) {
      s.screen = s.school ? 'game' : 'picker';
      fx.push({ type: 'claimDevice', steal: false });
      return s;
    }
    s.screen = 'ranking';
    // The address this page was opened at reaches the server from the phones too (the one
    // `serve` prints, a school's domain), but for this machine's own loopback: then the
    // server's addresses on its networks instead.
    if (isLoopback(new URL(s.join).hostname)) fx.push({ type: 'findJoin' });
    every(fx, PROJECTOR_PAGE_MS, 'pageTick');
    after(fx, 'first', FIRST_CONNECTION_MS, 'firstConnectionOver');
    follow(s, fx);
    return s;
  },
  show(s, m, now, fx) {
    s.screen = m.screen;
    follow(s, fx);
    return s;
  },
  league(s, m, now, fx) { return chooseLeague(s, fx, m.level, m.province); },
  myLeague(s, m, now, fx) {
    const row = s.school && s.schools.get(s.school);
    return chooseLeague(s, fx, row ? row.level : '', row ? row.province : '');
  },
  name(s, m, now, fx) {
    s.name = m.text.trim();
    store(s, fx, 'name', s.name);
    // The server knows the name from the hello: a new one is said with a new hello.
    if (s.socket === 'welcomed') fx.push({ type: 'close' });
    return s;
  },
  toggleSound(s, m, now, fx) {
    s.muted = !s.muted;
    // Every tab of this browser shares the choice, whichever plays.
    fx.push({ type: 'store', name: 'muted', value: s.muted });
    return s;
  },
  fullscreen(s, m, now, fx) {
    fx.push({ type: 'fullscreen' });
    return undefined;
  },
  keyboardHint(s, m) {
    s.keyboardHint = m.on;
    return s;
  },
  warnOver(s) {
    s.warning = null;
    return s;
  },
};

/** The ranking's league; the projector starts it again from its first page. */
function chooseLeague(s, fx, level, province) {
  s.level = level;
  s.province = province;
  if (s.projector) {
    s.projectorPage = 0;
    s.projectorPages = 0;
  }
  follow(s, fx);
  askLeagueFame(s, fx);
  return s;
}

// Schools: the directory, the search, and choosing a school (asking first when leaving one with
// taps). Handlers: directory, query, searchNow, searchAnswer, searchFailed, chooseFirst, choose,
// confirmYes, confirmNo.

export const SEARCH_LIMIT = 20;        // results a search shows; one more is asked for, to know whether the list stopped there
const SEARCH_MS = 120;
const collator = new Intl.Collator('ko');

export const search = {
  directory(s, m, now, fx) { return takeDirectory(s, m.directory, fx); },
  query(s, m, now, fx) {
    s.query = m.text;
    after(fx, 'search', SEARCH_MS, 'searchNow');
    return s;
  },
  searchNow(s, m, now, fx) {
    const text = s.query.trim();
    fx.push({ type: 'search', text });
    if (text) return undefined;
    s.results = [];
    s.found = null;
    return s;
  },
  searchAnswer(s, m) {
    const shown = m.answer.schools.slice(0, SEARCH_LIMIT);
    // Nothing found: the server's closest names (a typo's guesses), as the terminal's picker
    // offers them, chosen like results.
    const guesses = shown.length === 0 ? (m.answer.suggestions || []) : [];
    s.results = shown.length > 0 ? shown : guesses;
    s.schools = new Map(s.schools);
    for (const row of s.results) s.schools.set(row.id, row);
    s.found = m.answer.schools.length > SEARCH_LIMIT ? { key: 'foundMore', arg: SEARCH_LIMIT }
      : shown.length > 0 ? { key: 'found', arg: shown.length }
        : guesses.length > 0 ? { key: 'didYouMean', arg: guesses[0].name } : { key: 'none' };
    return s;
  },
  searchFailed(s) {
    s.results = [];
    s.found = { key: 'searchFailed' };
    return s;
  },
  chooseFirst(s, m, now, fx) { return s.results.length > 0 ? choose(s, fx, s.results[0].id, now) : undefined; },
  choose(s, m, now, fx) { return choose(s, fx, m.id, now); },
  confirmYes(s, m, now, fx) {
    if (!s.confirm) return undefined;
    const id = s.confirm.id;
    s.confirm = null;
    chooseID(s, fx, id, now);
    s.screen = 'game';
    return s;
  },
  confirmNo(s) {
    if (!s.confirm) return undefined;
    s.confirm = null;
    return s;
  },
};

function takeDirectory(s, directory, fx) {
  const at = {};
  directory.fields.forEach((field, i) => { at[field] = i; });
  const seen = new Set();
  // Names more than one school has (several 금성초등학교): such a school is told by its region
  // wherever a list shows none, as the terminal's ranking and side panel do.
  s.sharedNames = new Set();
  s.schools = new Map(s.schools);
  for (const row of directory.schools) {
    const name = row[at.name];
    s.schools.set(row[at.id], { id: row[at.id], name, level: row[at.level], province: row[at.province], district: row[at.district] });
    if (seen.has(name)) s.sharedNames.add(name); else seen.add(name);
  }
  s.directoryTag = directory.catalog;
  fx.push({ type: 'mark', name: 'touchschool-directory' });
  s.provinces = [...new Set([...s.schools.values()].map((row) => row.province))].sort(collator.compare);
  if (!s.provinces.includes(s.province)) s.province = '';
  if (s.school && !s.schools.has(s.school)) {
    const id = s.school;
    s.school = null;
    store(s, fx, 'school', null);
    s.screen = 'picker';
    warn(s, fx, 'unknownSchool', id);
  }
  // A province the directory does not have is no league any more.
  follow(s, fx);
  return s;
}

/** Goes to the game for school `id`; leaving a school with taps of mine asks first, as the terminal does. */
function choose(s, fx, id, now) {
  const taps = myTaps(s);
  if (!s.school || id === s.school || taps === 0) {
    chooseID(s, fx, id, now);
    s.screen = 'game';
  } else {
    s.confirm = { id, taps };
  }
  return s;
}

/** Chooses the school taps go to; a tab that does not play yet chooses it when it plays. */
export function chooseID(s, fx, id, now) {
  if (!s.owner) s.asked = id;
  if (id === s.school) return;
  // The open batch keeps the school its taps were for.
  seal(s, fx, true, now);
  s.school = id;
  s.ackedTaps = 0;
  store(s, fx, 'school', id);
  tellSchool(s, fx, now);
}

// The page of the ranking a screen shows: asked for on the socket (the tab that plays) or
// streamed (the projector, a tab waiting for the device), and taken when it comes. Handlers:
// boardPage, boardError, watchAgain, baselineTick.

const BOARD_RETRY_MS = 10000;          // the page stream refused: the wait before asking again (the browser does not)

export const pages = {
  boardPage(s, m, now, fx) {
    s.stream = 'live';
    return takePage(s, m.page, fx) || s;
  },
  boardError(s, m, now, fx) {
    // Refused (too many connections from this address) or answered with an error (a proxy with
    // no server behind it), the stream is not tried again by the browser: later, then.
    s.stream = m.closed ? 'none' : 'connecting';
    if (m.closed) {
      s.streaming = null;
      after(fx, 'boardRetry', BOARD_RETRY_MS, 'watchAgain');
    }
    return s;
  },
  watchAgain(s, m, now, fx) {
    if (s.owner) return undefined;
    follow(s, fx);
    return s;
  },
  baselineTick(s) {
    // "A moment ago" for ▲/▼: the totals of the page shown, taken again every
    // MOVEMENT_BASELINE_MS, as the terminal does; the first with the page's first rows.
    if (!s.page) return undefined;
    s.baseline = { key: pageKey(s.page.league, s.page.from), totals: totalsOf(s.page) };
    return s;
  },
};

/**
 * Asks for the page the screen shows (`pageWanted`), when it is not the one asked for already: the
 * tab that plays with `watch` on its socket (`{type: 'watch'}` for none); the projector and a tab
 * waiting for the device with the page's stream, which replaces the one open. A stopped tab and a
 * tab not yet told whether it plays ask for nothing.
 */
export function follow(s, fx) {
  const want = pageWanted(s);
  const map = mapShowing(s);
  if (s.owner) {
    // The phone's map takes the page's place (the server sends a player one or the other). The
    // period is said by a watch, even with no page (the game's view follows it): all time's, or
    // the season's again after all time's (the season is a new connection's own); before the
    // map, as a watch says "no map".
    const all = s.period === 'all';
    const watch = { type: 'watch', ...(map ? {} : want), ...(all ? { period: 'all' } : {}) };
    const periodChanged = all || (s.watching || '').includes('"period":"all"');
    const messages = map ? [...(periodChanged ? [watch] : []), { type: 'map', show: true }] : [watch];
    const key = map || want || all ? JSON.stringify(messages) : null;
    if (s.socket !== 'welcomed' || key === s.watching) return;
    s.watching = key;
    for (const message of messages) fx.push({ type: 'send', message });
    return;
  }
  if (s.stopped || !(s.projector || s.elsewhere)) return;
  const url = want && pageStreamURL(want, map, s.period);
  if (url === s.streaming) return;
  s.streaming = url;
  // The page shown stays until the next one comes: the stream is live as long as pages do.
  if (s.stream === 'none') s.stream = 'connecting';
  fx.push({ type: 'watchBoard', url });
}

/**
 * The address of a page's stream (`GET /v1/board`, Server-Sent Events of `page`), with the map's
 * `map` events when it shows, of all time for `period` 'all' (the season's otherwise).
 */
export function pageStreamURL({ league, from, count }, map = false, period = 'season') {
  return `/v1/board?${new URLSearchParams({ count: String(count), from: String(from), ...league, ...(map ? { map: '1' } : {}),
                                            ...(period === 'all' ? { period: 'all' } : {}) })}`;
}

export function unwatchPages(s, fx) {
  s.stream = 'none';
  s.streaming = null;
  fx.push({ type: 'cancel', name: 'boardRetry' }, { type: 'unwatchBoard' });
}

/**
 * A page (from the socket or the stream), taken when it is the one the screen shows: one asked for
 * before a new league or page was can still come. A page of a league not seen a moment ago is its
 * own baseline for ▲/▼.
 */
export function takePage(s, page, fx) {
  const want = pageWanted(s);
  const key = pageKey(page.league, page.from);
  if (!want || key !== pageKey(want.league, want.from)) return undefined;
  s.page = page;
  if (!s.baseline || s.baseline.key !== key) s.baseline = { key, totals: totalsOf(page) };
  if (s.projector) countPages(s, page, fx);
  return s;
}

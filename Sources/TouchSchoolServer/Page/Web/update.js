// `update(state, message, now)` → `{state, effects}`: the next state (the same object when nothing
// changed) and the effects to run in order, plain objects that main.js's `run` knows. Pure: no
// DOM, storage, timers or sockets. Tests/Page/update.test.mjs, views.test.mjs and rounds.test.mjs show what each message does.
import * as rules from './rules.js';
import { recount, me, myTaps, battleKey, pageWanted, pageKey, totalsOf, PROJECTOR_ROWS, serverNow, roundStage, roundScreen } from './state.js';

/** Protocol 2: the server sends each screen what it shows (its school's `view`, the `page` it watches). */
const PROTOCOL = 2;
export const PUFFS = 30;               // smoke puffs on screen at most: a ring of reused elements
// Online a tap goes out at once when no batch went in the last SEAL_ONLINE_MS, and the taps made
// within it go out together when it ends: others see a tap as soon as the wire allows (holding
// every tap 250 ms put a phone's tap on a terminal's screen 373 ms after it; a terminal's key,
// 90 ms), and a player mashing sends at most four batches a second, no more than the views it
// receives: four acknowledgements of ~100 bytes a second beside four views keep a phone's
// traffic under 2 KiB/s (ten would not). The terminal game's rule too (GameTiming's
// serverSyncIntervalNanoseconds).
const SEAL_ONLINE_MS = 250;
const SEAL_OFFLINE_MS = 5000;          // offline, batches are sealed less often: fewer to keep and send
const SEAL_EVERY_MS = 100;
const PING_MS = 15000, PONG_MS = 40000;
const REFUSED_RETRY_MS = 60000;        // refused by the server (REFUSALS): nothing changes until the operator acts
const BOARD_RETRY_MS = 10000;          // the page stream refused: the wait before asking again (the browser does not)
const VIEW_POLL_MS = 2000;             // a tab waiting for the device reads its school's view this often (GET /v1/view)
export const SEARCH_LIMIT = 20;        // results a search shows; one more is asked for, to know whether the list stopped there
const SEARCH_MS = 120, WARNING_MS = 4000;
const PROJECTOR_PAGE_MS = 8000;        // how long a page of the projector's board stays
const CONTROLS_IDLE_MS = 3000;         // the projector's controls hide once the pointer has rested this long
const FIRST_CONNECTION_MS = 3000;      // the projector's offline overlay waits this long for the stream's first connection
const CLOCK_SAMPLES = 5;               // the server's clock from the last few samples: older ones the clocks may have drifted from
const FRESH_FINAL_MS = 5000;           // a final seen this long past the grace is still the race's own: its result and fanfare
const RESULT_MS = 15000;               // the phone's result stays this long
const RESULT_SEEN_MS = 2000;           // before this, a tap (the race's last burst) does not close the result
const collator = new Intl.Collator('ko');
/** The server's refusals of a device, by close code (docs/protocol.md), as the terminal game names them (`ServerRefusal`). */
const REFUSALS = { 4003: 'bannedAddress', 4007: 'battleFull', 4029: 'tooManyFromAddress' };

export function isLoopback(hostname) { return /^(localhost|127\.[0-9.]+|\[::1\])$/.test(hostname); }

export function update(state, message, now) {
  const fx = [];
  const s = handle({ ...state }, message, now, fx);
  return { state: s || state, effects: fx };
}

/** The new state (`s`, a copy the handlers may change, never what it holds), or undefined for "unchanged". */
function handle(s, m, now, fx) {
  switch (m.type) {
    case 'start':
      takeAdmin(s, fx);
      fx.push({ type: 'loadDirectory' });
      every(fx, SEAL_EVERY_MS, 'sealTick');
      every(fx, PING_MS, 'pingTick');
      every(fx, rules.MOVEMENT_BASELINE_MS, 'baselineTick');
      if (!s.boardOnly) {
        s.view = s.school ? 'game' : 'picker';
        fx.push({ type: 'claimDevice', steal: false });
        return s;
      }
      s.view = 'board';
      // The address this page was opened at reaches the server from the phones too (the one
      // `serve` prints, a school's domain), but for this machine's own loopback: then the
      // server's addresses on its networks instead.
      if (isLoopback(new URL(s.join).hostname)) fx.push({ type: 'findJoin' });
      every(fx, PROJECTOR_PAGE_MS, 'pageTick');
      after(fx, 'first', FIRST_CONNECTION_MS, 'firstConnectionOver');
      follow(s, fx);
      return s;

    // ------------------------------------------------------------ taps
    case 'tap': {
      if (!s.owner || !s.school) return undefined;
      const school = s.school;
      const open = s.open ? { ...s.open, taps: { ...s.open.taps } }
        : { taps: {}, playerTaps: 0, best: s.best, startMs: now, endMs: now };
      // A school other than the one the server (and the outbox) has for me: the batch says so,
      // and my count restarts.
      if (!s.open && s.played.school !== school) open.switchedTo = school;
      open.taps[school] = (open.taps[school] || 0) + 1;
      open.playerTaps += 1;
      open.endMs = Math.max(open.endMs, now);
      const recent = s.recent.concat(now);
      while (recent[0] <= now - 1000) recent.shift();
      s.recent = recent;
      s.best = Math.max(s.best, recent.length);
      open.best = s.best;
      s.open = open;
      s.pending = new Map(s.pending).set(school, (s.pending.get(school) || 0) + 1);
      s.waitingTaps += 1;
      s.puffs = s.puffs.concat({ x: m.x, y: m.y }).slice(-PUFFS);
      s.puffCount += 1;
      if (s.roundResult && now - s.roundResult.since >= RESULT_SEEN_MS) s.roundResult = null;
      // Out at once if its time has come; else kept, so that a closed page loses no tap.
      if (!seal(s, fx, false, now)) store(s, fx, battleKey('open', s.battle), open);
      fx.push({ type: 'feedback', kind: 'tap', muted: s.muted });
      return s;
    }
    case 'sealTick':
      return seal(s, fx, false, now);
    case 'hidden':
      // A hidden page may be closed without notice: its open batch goes out now (it is kept in
      // storage anyway, and sealed at the next start).
      return seal(s, fx, true, now);

    // ------------------------------------------------------------ the socket
    case 'reconnect':
      if (s.stopped) return undefined;
      s.socket = 'connecting';
      fx.push({ type: 'connect' });
      return s;
    case 'socketOpen':
      fx.push({ type: 'send', message: { type: 'hello', protocol: PROTOCOL, device: s.device, player: playerName(s), client: 'web' } });
      return undefined;
    case 'socketClosed': {
      s.socket = 'none';
      s.sentUpTo = 0;
      s.watching = null;
      s.clock = { ...s.clock, out: [] };
      if (s.stopped) return s;
      if (m.code === 1000 && /connected again/.test(m.reason)) return stop(s, fx, 'takenOver');
      if (m.code === 4000) return stop(s, fx, 'versionMismatch');
      // Refused (a banned address, a full battle, too many from this address): said, and asked
      // again in a minute; a protocol error: ten seconds.
      s.refused = REFUSALS[m.code] || null;
      const ms = s.refused ? REFUSED_RETRY_MS : m.code === 1008 ? 10000 : s.retryMs;
      s.retryMs = Math.min(s.retryMs * 2, 8000);
      fx.push({ type: 'after', name: 'retry', ms, message: { type: 'reconnect' } });
      return s;
    }
    case 'pingTick':
      // Pings keep the connection open through proxies and notice a connection that died silently.
      if (s.socket !== 'welcomed') return undefined;
      if (now - s.lastPong > PONG_MS) {
        fx.push({ type: 'close' });
        return undefined;
      }
      ping(s, fx, now);
      return s;
    case 'server':
      return receive(s, m.message, m.record, now, fx);

    // ------------------------------------------------------------ one tab plays
    case 'claiming':
      s.claiming = true;
      return s;
    case 'granted': {
      s.owner = true;
      s.claiming = false;
      s.elsewhere = false;
      unwatchBoard(s, fx);
      fx.push({ type: 'cancel', name: 'viewPoll' });
      // Read now, not at the page's start: the tab that played until now wrote its last.
      s.device = rules.isValidDeviceKey(m.device) ? m.device : m.freshDevice;
      if (s.device !== m.device) store(s, fx, 'device', s.device);
      take(s, m.record);
      s.school = m.school;
      // A batch left open by the page's last life (a reload, a crash) goes out first.
      if (s.open) seal(s, fx, true, now);
      Object.assign(s, recount(s));
      if (s.asked) chooseID(s, fx, s.asked, now);
      if (s.view === 'picker' && s.school) s.view = 'game';
      s.socket = 'connecting';
      fx.push({ type: 'connect' });
      return s;
    }
    case 'waiting':
      // Another tab plays: this one says so, with the button to play here, and streams what it shows.
      s.claiming = false;
      s.elsewhere = true;
      readPlayer(s, m.record);
      follow(s, fx);
      pollView(s, fx);
      return s;
    case 'storedRecord':
      // The player as the playing tab keeps them (read here, never written): "my taps" are the
      // player's wherever they tap. Again whenever that tab stores them.
      if (s.owner || !s.elsewhere) return undefined;
      readPlayer(s, m.record);
      return s;
    case 'lost':
      return s.owner ? stop(s, fx, 'deviceLost', m.to) : undefined;
    case 'playHere':
      fx.push({ type: 'claimDevice', steal: true });
      return undefined;

    case 'pollView':
      return pollView(s, fx) ? s : undefined;
    case 'viewLoaded':
      // Its school's view, read over HTTP: the header's rank wherever the school stands, not only
      // when the national page streamed holds it. The playing tab has its socket's.
      if (s.owner || !m.view || m.view.school !== s.school) return undefined;
      s.schoolView = m.view;
      return s;

    // ------------------------------------------------------------ the page stream (a tab that does not play)
    case 'boardPage':
      s.stream = 'live';
      return takePage(s, m.page, fx) || s;
    case 'boardError':
      // Refused (too many connections from this address) or answered with an error (a proxy with
      // no server behind it), the stream is not tried again by the browser: later, then.
      s.stream = m.closed ? 'none' : 'connecting';
      if (m.closed) {
        s.streaming = null;
        after(fx, 'boardRetry', BOARD_RETRY_MS, 'watchAgain');
      }
      return s;
    case 'watchAgain':
      if (s.owner) return undefined;
      follow(s, fx);
      return s;

    // ------------------------------------------------------------ schools
    case 'directory':
      return takeDirectory(s, m.directory, now, fx);
    case 'query':
      s.query = m.text;
      after(fx, 'search', SEARCH_MS, 'searchNow');
      return s;
    case 'searchNow': {
      const text = s.query.trim();
      fx.push({ type: 'search', text });
      if (text) return undefined;
      s.results = [];
      s.found = null;
      return s;
    }
    case 'searchAnswer': {
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
    }
    case 'searchFailed':
      s.results = [];
      s.found = { key: 'searchFailed' };
      return s;
    case 'chooseFirst':
      return s.results.length > 0 ? choose(s, fx, s.results[0].id, now) : undefined;
    case 'choose':
      return choose(s, fx, m.id, now);
    case 'confirmYes': {
      if (!s.confirm) return undefined;
      const id = s.confirm.id;
      s.confirm = null;
      chooseID(s, fx, id, now);
      s.view = 'game';
      return s;
    }
    case 'confirmNo':
      if (!s.confirm) return undefined;
      s.confirm = null;
      return s;

    // ------------------------------------------------------------ the page's controls
    case 'show':
      s.view = m.view;
      follow(s, fx);
      return s;
    case 'league':
      return chooseLeague(s, fx, m.level, m.province);
    case 'myLeague': {
      const row = s.school && s.schools.get(s.school);
      return chooseLeague(s, fx, row ? row.level : '', row ? row.province : '');
    }
    case 'name':
      s.name = m.text.trim();
      store(s, fx, 'name', s.name);
      // The server knows the name from the hello: a new one is said with a new hello.
      if (s.socket === 'welcomed') fx.push({ type: 'close' });
      return s;
    case 'toggleSound':
      s.muted = !s.muted;
      // Every tab of this browser shares the choice, whichever plays.
      fx.push({ type: 'store', name: 'muted', value: s.muted });
      return s;
    case 'fullscreen':
      fx.push({ type: 'fullscreen' });
      return undefined;
    case 'hashChanged':
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
    case 'keyboardHint':
      s.keyboardHint = m.on;
      return s;
    case 'warnOver':
      s.warning = null;
      return s;

    // ------------------------------------------------------------ movement and the projector
    case 'baselineTick':
      // "A moment ago" for ▲/▼: the totals of the page shown, taken again every
      // MOVEMENT_BASELINE_MS, as the terminal does; the first with the page's first rows.
      if (!s.page) return undefined;
      s.baseline = { key: pageKey(s.page.league, s.page.from), totals: totalsOf(s.page) };
      return s;
    case 'pageTick': {
      // The next page, once the one shown has come; after the last with taps, the first again
      // (not under a round, which the board's pages would only disturb).
      const page = s.page;
      if (!page || page.from !== s.projectorPage * PROJECTOR_ROWS || roundScreen(s)) return undefined;
      const next = page.rows.length > PROJECTOR_ROWS && page.rows[PROJECTOR_ROWS][2] > 0 ? s.projectorPage + 1 : 0;
      if (next === s.projectorPage) return undefined;
      s.projectorPage = next;
      follow(s, fx);
      return s;
    }
    case 'wake':
      after(fx, 'idle', CONTROLS_IDLE_MS, 'idle');
      if (!s.idle) return undefined;
      s.idle = false;
      return s;
    case 'idle':
      s.idle = true;
      return s;
    case 'firstConnectionOver':
      s.firstConnectionOver = true;
      return s;

    // ------------------------------------------------------------ rounds
    case 'boardRound':
      return s.boardOnly ? takeRound(s, m.round, now, fx) : undefined;
    case 'roundTick':
      return stageRound(s, fx, now);
    case 'roundResultOver':
      if (!s.roundResult) return undefined;
      s.roundResult = null;
      return s;
    case 'dismissRound':
      // The projector back to its board: this round stays closed (its events keep coming), the next opens.
      if (!s.round) return undefined;
      s.roundClosed = s.round.id;
      return s;
    case 'reopenRound':
      if (s.roundClosed === null) return undefined;
      s.roundClosed = null;
      s.archive = null;
      return s;
    case 'showRounds':
      s.archive = { list: null, detail: null, failed: false };
      fx.push({ type: 'loadRounds' });
      return s;
    case 'roundsList':
      if (!s.archive) return undefined;
      s.archive = { ...s.archive, list: m.rounds, failed: false };
      return s;
    case 'showRound':
      if (!s.archive) return undefined;
      fx.push({ type: 'loadRound', id: m.id });
      return undefined;
    case 'roundDetail':
      if (!s.archive) return undefined;
      s.archive = { ...s.archive, detail: m.answer, failed: false };
      return s;
    case 'roundsFailed':
      if (!s.archive) return undefined;
      s.archive = { ...s.archive, failed: true };
      return s;
    case 'archiveBack':
      if (!s.archive) return undefined;
      s.archive = { ...s.archive, detail: null };
      return s;
    case 'closeRounds':
      s.archive = null;
      return s;

    // ------------------------------------------------------------ the teacher's controls (the projector with the token)
    case 'startRound': {
      if (!s.admin) return undefined;
      const query = [`seconds=${encodeURIComponent(m.seconds)}`];
      const title = m.title.trim();
      if (title) query.push(`title=${encodeURIComponent(title)}`);
      return adminPost(s, fx, `/v1/admin/rounds?${query.join('&')}`);
    }
    case 'stopRound':
      return s.admin ? adminPost(s, fx, '/v1/admin/rounds/stop') : undefined;
    case 'adminAnswer':
      s.adminBusy = false;
      s.adminError = m.ok ? null : { status: m.status, error: m.error };
      return s;

    case 'join': {
      // None but this machine's loopback: `serve` listens on it only (its default) and no phone
      // can open the address shown, or, on every interface, this machine is on no network.
      const reachable = m.addresses.find((address) => !isLoopback(new URL(address).hostname));
      s.joinWarning = reachable ? null : m.addresses.length > 0 ? 'joinLoopback' : 'joinNoNetwork';
      if (reachable) s.join = reachable;
      return s;
    }
    default:
      return undefined;
  }
}

function after(fx, name, ms, type) { fx.push({ type: 'after', name, ms, message: { type } }); }
function every(fx, ms, type) { fx.push({ type: 'every', ms, message: { type } }); }

function playerName(s) { return s.name || s.defaultPlayer; }

/** A ping, its time kept to measure the server's clock by its pong. */
function ping(s, fx, now) {
  s.clock = { ...s.clock, out: s.clock.out.concat(now).slice(-CLOCK_SAMPLES) };
  fx.push({ type: 'send', message: { type: 'ping' } });
}

/** A pong: with the server's clock (`nowMs`), a sample of the offset, read at the middle of the round trip. */
function pong(s, m, now, fx) {
  s.lastPong = now;
  const [sentAt, ...out] = s.clock.out;
  s.clock = { ...s.clock, out };
  if (sentAt === undefined || typeof m.nowMs !== 'number') return s;
  const sample = { rtt: now - sentAt, offset: m.nowMs - (sentAt + now) / 2 };
  s.clock = { ...s.clock, pings: s.clock.pings.concat(sample).slice(-CLOCK_SAMPLES) };
  // A round on screen follows the better clock.
  if (s.round) stageRound(s, fx, now);
  return s;
}

/**
 * A round from the server (the socket's `round` message, the projector's `round` event): the
 * newest it has sent, a new one or the same one changed (stopped early, standings, final). Its
 * `nowMs` is the server's clock as it was sent: a one-way sample of the offset.
 */
function takeRound(s, m, now, fx) {
  if (s.round && m.id < s.round.id) return undefined;
  const { type, nowMs, ...round } = m;
  if (typeof nowMs === 'number') s.clock = { ...s.clock, oneWay: s.clock.oneWay.concat(nowMs - now).slice(-CLOCK_SAMPLES) };
  // A new round takes the projector off the board, or the previous rounds, at once.
  if (s.boardOnly && (!s.round || s.round.id !== round.id)) s.archive = null;
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
function takePlace(s, m, now, fx) {
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
function stageRound(s, fx, now) {
  const t = serverNow(s, now);
  const stage = roundStage(s.round, t);
  if (stage && stage.next !== null) fx.push({ type: 'after', name: 'roundTick', ms: stage.next, message: { type: 'roundTick' } });
  const round = s.round;
  let changed = false;
  if (stage && stage.phase === 'final' && s.finalSeen !== round.id) {
    s.finalSeen = round.id;
    changed = true;
    if (!s.boardOnly && t <= round.endsAtMs + round.graceMs + FRESH_FINAL_MS) {
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

/**
 * The teacher's token: from the address's fragment (`#admin=TOKEN`, as the server prints the
 * link), kept for the session and taken out of the address at once (a student must never see
 * it in a URL), or the one the session kept. Only the projector has controls: a phone's page
 * opened with it only drops it.
 */
function takeAdmin(s, fx) {
  const token = adminTokenIn(s.hash);
  if (token && s.boardOnly) fx.push({ type: 'keepAdmin', token });
  if (token) fx.push({ type: 'forgetHash' });
  s.admin = s.boardOnly ? token || s.admin : null;
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

/** A write to the storage: only the tab that plays writes (a tab that lost the device, or never had it, cannot put its stale outbox over the live one). */
function store(s, fx, name, value, orRemove) {
  if (s.owner) fx.push({ type: 'store', name, value, orRemove });
}

/**
 * Stores the outbox; one that cannot be stored is removed rather than left stale: a stale
 * numbering kept over a crash would be renumbered at the next welcome and counted twice,
 * where a lost outbox only loses its taps.
 */
function saveBox(s, fx) { store(s, fx, battleKey('outbox', s.battle), s.box, true); }

/** A battle's record as stored, taken up as this tab's. */
function take(s, record) {
  s.battle = record.battle;
  s.box = record.box;
  s.open = record.open;
  s.serverPlayer = record.player;
}

function readPlayer(s, record) {
  take(s, record);
  Object.assign(s, recount(s));
}

/**
 * The open batch sealed into the outbox and sent if the socket is welcomed: when `force`d; online,
 * once SEAL_ONLINE_MS have passed since the last seal; offline, once the batch is SEAL_OFFLINE_MS old.
 */
function seal(s, fx, force, now) {
  if (!s.open || !s.owner) return undefined;
  const open = s.open;
  const online = s.socket === 'welcomed';
  if (!force && (online ? now - s.sealedMs < SEAL_ONLINE_MS : now - open.startMs < SEAL_OFFLINE_MS)) return undefined;
  s.sealedMs = now;
  const batch = { seq: s.box.nextSeq, taps: open.taps, playerTaps: open.playerTaps, best: open.best,
                  startMs: claimedMs(s, open.startMs), endMs: claimedMs(s, open.endMs) };
  if (open.switchedTo) batch.switchedTo = open.switchedTo;
  s.box = { nextSeq: s.box.nextSeq + 1, batches: s.box.batches.concat([batch]) };
  saveBox(s, fx);
  s.open = null;
  store(s, fx, battleKey('open', s.battle), null);
  Object.assign(s, recount(s));
  sendWaiting(s, fx);
  return s;
}

/**
 * A time of this page's clock as a batch claims it: on the server's clock (`serverNow`), which
 * counts a round by the times claimed (a phone 3 s slow would lose its race's first 3 s), in
 * whole milliseconds.
 */
function claimedMs(s, now) { return Math.round(serverNow(s, now)); }

function sendWaiting(s, fx) {
  if (s.socket !== 'welcomed') return;
  for (const batch of s.box.batches) {
    if (batch.seq <= s.sentUpTo) continue;
    fx.push({ type: 'send', message: { type: 'taps', ...batch } });
    s.sentUpTo = batch.seq;
  }
}

/**
 * This tab plays no more (another tab or window has the device, or the page does not match the
 * server): it closes its socket, writes nothing more and says why; the device, if it still has
 * it, goes to the tab `to` that takes it, or else to a tab waiting for it.
 */
function stop(s, fx, reason, to) {
  if (s.stopped) return undefined;
  s.stopped = reason;
  s.owner = false;
  fx.push({ type: 'cancel', name: 'retry' });
  if (s.socket !== 'none') fx.push({ type: 'close' });
  fx.push({ type: 'releaseDevice', to });
  return s;
}

/** A tab waiting for the device asks for its school's view now and again in `VIEW_POLL_MS`; false once it plays or stopped. */
function pollView(s, fx) {
  if (s.owner || !s.elsewhere || s.stopped) return false;
  if (s.school) fx.push({ type: 'loadView', school: s.school });
  after(fx, 'viewPoll', VIEW_POLL_MS, 'pollView');
  return true;
}

function warn(s, fx, key, arg) {
  s.warning = { key, arg };
  after(fx, 'warning', WARNING_MS, 'warnOver');
}

/**
 * Asks for the page the screen shows (`pageWanted`), when it is not the one asked for already: the
 * tab that plays with `watch` on its socket (`{type: 'watch'}` for none); the projector and a tab
 * waiting for the device with the page's stream, which replaces the one open. A stopped tab and a
 * tab not yet told whether it plays ask for nothing.
 */
function follow(s, fx) {
  const want = pageWanted(s);
  if (s.owner) {
    const key = want && JSON.stringify(want);
    if (s.socket !== 'welcomed' || key === s.watching) return;
    s.watching = key;
    fx.push({ type: 'send', message: want ? { type: 'watch', ...want } : { type: 'watch' } });
    return;
  }
  if (s.stopped || !(s.boardOnly || s.elsewhere)) return;
  const url = want && pageStreamURL(want);
  if (url === s.streaming) return;
  s.streaming = url;
  // The page shown stays until the next one comes: the stream is live as long as pages do.
  if (s.stream === 'none') s.stream = 'connecting';
  fx.push({ type: 'watchBoard', url });
}

/** The address of a page's stream (`GET /v1/board`, Server-Sent Events of `page`). */
export function pageStreamURL({ league, from, count }) {
  return `/v1/board?${new URLSearchParams({ count: String(count), from: String(from), ...league })}`;
}

function unwatchBoard(s, fx) {
  s.stream = 'none';
  s.streaming = null;
  fx.push({ type: 'cancel', name: 'boardRetry' }, { type: 'unwatchBoard' });
}

/** The ranking's league; the projector starts it again from its first page. */
function chooseLeague(s, fx, level, province) {
  s.level = level;
  s.province = province;
  if (s.boardOnly) {
    s.projectorPage = 0;
    s.projectorPages = 0;
  }
  follow(s, fx);
  return s;
}

/**
 * A page (from the socket or the stream), taken when it is the one the screen shows: one asked for
 * before a new league or page was can still come. A page of a league not seen a moment ago is its
 * own baseline for ▲/▼.
 */
function takePage(s, page, fx) {
  const want = pageWanted(s);
  const key = pageKey(page.league, page.from);
  if (!want || key !== pageKey(want.league, want.from)) return undefined;
  s.page = page;
  if (!s.baseline || s.baseline.key !== key) s.baseline = { key, totals: totalsOf(page) };
  if (s.boardOnly) countPages(s, page, fx);
  return s;
}

/**
 * How many of the projector's pages have taps (zero-total schools are ranked too, all at the
 * place after the last school with taps): exactly, once a page reaches a school without a tap or
 * the league's end; unknown again when a page has taps past the count. A page past the schools
 * with taps (a new battle) turns back to the first.
 */
function countPages(s, page, fx) {
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

function receive(s, m, record, now, fx) {
  switch (m.type) {
    case 'welcome': {
      if (!rules.isValidBattleID(m.battle)) return stop(s, fx, 'versionMismatch');
      if (m.battle !== s.battle) enterBattle(s, m.battle, record, now, fx);
      if (s.socket !== 'welcomed') fx.push({ type: 'mark', name: 'touchschool-online' });
      s.socket = 'welcomed';
      s.refused = null;
      s.retryMs = 500;
      s.lastPong = now;
      // As the terminal's outbox: what the server applied is dropped, the rest numbered on
      // from the server's last, and stored before any of it is sent.
      const numbers = rules.welcome({ nextSeq: s.box.nextSeq, waiting: s.box.batches.map((b) => b.seq) }, m.lastSeq);
      const kept = s.box.batches.filter((b) => b.seq > m.lastSeq);
      s.box = { nextSeq: numbers.nextSeq, batches: kept.map((b, i) => ({ ...b, seq: numbers.waiting[i] })) };
      saveBox(s, fx);
      s.serverPlayer = m.player;
      store(s, fx, battleKey('player', s.battle), m.player);
      if (!s.school && m.player.school) {
        s.school = m.player.school;
        store(s, fx, 'school', s.school);
        if (s.view === 'picker') s.view = 'game';
      }
      Object.assign(s, recount(s));
      if (m.catalog !== s.directoryTag) fx.push({ type: 'loadDirectory' });
      s.sentUpTo = 0;
      sendWaiting(s, fx);
      // A new battle (or a record without the school) learns the school chosen.
      tellSchool(s, fx, now);
      // A new connection watches nothing yet: the page shown is asked for again.
      s.watching = null;
      follow(s, fx);
      // The server's clock, for the rounds: a first sample now rather than at the next ping.
      ping(s, fx, now);
      return s;
    }
    case 'ack': {
      const done = s.box.batches.find((b) => b.seq === m.seq);
      s.box = { nextSeq: s.box.nextSeq, batches: s.box.batches.filter((b) => b.seq > m.seq) };
      saveBox(s, fx);
      s.serverPlayer = m.player;
      store(s, fx, battleKey('player', s.battle), m.player);
      // Its taps leave the outbox now, so they go on the school's total now, until the next view
      // of the school (sent after this acknowledgement) counts them.
      if (done && m.refused === 0) s.ackedTaps += done.taps[s.school] || 0;
      // Banned by the operator: said as such, not as tapping too fast.
      if (m.banned || m.refused > 0) {
        warn(s, fx, m.banned ? 'banned' : 'abnormal');
        fx.push({ type: 'feedback', kind: 'warning', muted: s.muted });
      }
      return recount(s);
    }
    case 'view':
      s.schoolView = m;
      if (m.school === s.school) s.ackedTaps = 0;
      // The school to overtake may be hidden from the view's rows, or named again.
      follow(s, fx);
      return s;
    case 'page':
      return takePage(s, m, fx);
    case 'pong':
      return pong(s, m, now, fx);
    case 'round':
      return takeRound(s, m, now, fx);
    case 'roundPlace':
      return takePlace(s, m, now, fx);
    default:
      return undefined;
  }
}

/**
 * The welcome names a battle other than the one played. The record kept before any battle was
 * known becomes this battle's; otherwise this battle's own outbox, open batch and player are
 * taken up, and the other battle's stay stored, for when its server is met again.
 */
function enterBattle(s, id, record, now, fx) {
  if (s.battle === null) {
    s.battle = id;
    saveBox(s, fx);
    store(s, fx, battleKey('open', id), s.open);
    store(s, fx, battleKey('player', id), s.serverPlayer);
    // (`switchTo`: an earlier version's school chosen but not yet told, now worked out from the player.)
    for (const name of ['outbox', 'open', 'player', 'switchTo']) if (s.owner) fx.push({ type: 'remove', name });
  } else {
    take(s, { ...record, battle: id });
    // Another battle's standings are not this one's, nor its rounds.
    s.schoolView = null;
    s.page = null;
    s.round = null;
    s.roundStage = null;
    // Its batch left open when the page last played it (not sent: the socket is not welcomed yet).
    if (s.open) seal(s, fx, true, now);
  }
  store(s, fx, 'battle', id);
}

function takeDirectory(s, directory, now, fx) {
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
    s.view = 'picker';
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
    s.view = 'game';
  } else {
    s.confirm = { id, taps };
  }
  return s;
}

/** Chooses the school taps go to; a tab that does not play yet chooses it when it plays. */
function chooseID(s, fx, id, now) {
  if (!s.owner) s.asked = id;
  if (id === s.school) return;
  // The open batch keeps the school its taps were for.
  seal(s, fx, true, now);
  s.school = id;
  s.ackedTaps = 0;
  store(s, fx, 'school', id);
  tellSchool(s, fx, now);
}

/**
 * Tells the server the school chosen, by a batch of no taps saying the switch, as the terminal
 * does: the server learns a player's school from batches, and sends that school's view once it
 * has (without it, a player would see no rank until their first tap). An open batch's taps say
 * it themselves.
 */
function tellSchool(s, fx, now) {
  if (!s.owner || !s.school || s.open || me(s).school === s.school) return;
  const batch = { seq: s.box.nextSeq, taps: {}, playerTaps: 0, best: s.best, startMs: claimedMs(s, now), endMs: claimedMs(s, now),
                  switchedTo: s.school };
  s.box = { nextSeq: s.box.nextSeq + 1, batches: s.box.batches.concat([batch]) };
  saveBox(s, fx);
  Object.assign(s, recount(s));
  sendWaiting(s, fx);
}

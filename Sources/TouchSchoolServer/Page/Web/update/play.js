// The playing parts of `update`: taps, the play socket and which tab plays (their handlers:
// `taps`, `socket`, `tabs`). Three parts in one file: each module is a request the page waits for
// before it is interactive (twenty files took it from 82 to 118 ms on loopback).
import * as rules from '../rules.js';
import { recount, me, battleKey, serverNow, lastSecond } from '../state.js';
import { store, saveBox, warn, take, follow, takePage, after, readPlayer, unwatchPages, chooseID } from './screens.js';
import { takeRound, takePlace, stageRound } from './rounds.js';
import { takeMap } from './map.js';
import { takeSeason } from './seasons.js';

// Taps: the open batch, sealed into the outbox and sent. Handlers: tap, sealTick, hidden.
export const PUFFS = 30;               // smoke puffs on screen at most: a ring of reused elements
// Online a tap goes out at once when no batch went in the last SEAL_ONLINE_MS, and the taps made
// within it go out together when it ends: others see a tap as soon as the wire allows (holding
// every tap 250 ms put a phone's tap on a terminal's screen 373 ms after it; a terminal's key,
// 90 ms), and a player mashing sends at most four batches a second, no more than the views it
// receives: four acknowledgements of ~100 bytes a second beside four views keep a phone's
// traffic under 2 KiB/s (ten would not). The terminal game's rule too (GameTiming's
// serverSyncIntervalNanoseconds).
const SEAL_ONLINE_MS = 250;
const CLOCK_WAIT_MS = 2000;            // online, the taps wait this long at most for the first measure of the server's clock
const SEAL_OFFLINE_MS = 5000;          // offline, batches are sealed less often: fewer to keep and send
const RESULT_SEEN_MS = 2000;           // before this, a tap (the race's last burst) does not close the round's result

export const taps = {
  tap(s, m, now, fx) {
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
    s.recent = lastSecond(s.recent.concat(now), now);
    s.best = Math.max(s.best, s.recent.length);
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
  },
  sealTick(s, m, now, fx) { return seal(s, fx, false, now); },
  // A hidden page may be closed without notice: its open batch goes out now (it is kept in
  // storage anyway, and sealed at the next start).
  hidden(s, m, now, fx) { return seal(s, fx, true, now); },
};

/**
 * The open batch sealed into the outbox and sent if the socket is welcomed: when `force`d; online,
 * once SEAL_ONLINE_MS have passed since the last seal; offline, once the batch is SEAL_OFFLINE_MS old.
 */
export function seal(s, fx, force, now) {
  if (!s.open || !s.owner) return undefined;
  const open = s.open;
  const online = s.socket === 'welcomed';
  if (!force && (online ? now - s.sealedMs < SEAL_ONLINE_MS : now - open.startMs < SEAL_OFFLINE_MS)) return undefined;
  if (!force && online && measuringClock(s, now)) return undefined;
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
 * Whether the server's clock is being measured for the first time (the welcome's ping not yet
 * answered, for at most CLOCK_WAIT_MS): a batch sealed now would claim this page's own clock,
 * which may be minutes off (a batch made across a season's boundary would count in the wrong
 * season), so the taps wait for the pong, a round trip.
 */
function measuringClock(s, now) {
  return s.clock.pings.length === 0 && s.clock.oneWay.length === 0 && s.clock.out.length > 0 && now - s.clock.out[0] < CLOCK_WAIT_MS;
}

/**
 * A time of this page's clock as a batch claims it: on the server's clock (`serverNow`), which
 * counts a round by the times claimed (a phone 3 s slow would lose its race's first 3 s), in
 * whole milliseconds.
 */
function claimedMs(s, now) { return Math.round(serverNow(s, now)); }

export function sendWaiting(s, fx) {
  if (s.socket !== 'welcomed') return;
  for (const batch of s.box.batches) {
    if (batch.seq <= s.sentUpTo) continue;
    fx.push({ type: 'send', message: { type: 'taps', ...batch } });
    s.sentUpTo = batch.seq;
  }
}

/**
 * Tells the server the school chosen, by a batch of no taps saying the switch, as the terminal
 * does: the server learns a player's school from batches, and sends that school's view once it
 * has (without it, a player would see no rank until their first tap). An open batch's taps say
 * it themselves.
 */
export function tellSchool(s, fx, now) {
  if (!s.owner || !s.school || s.open || me(s).school === s.school) return;
  const batch = { seq: s.box.nextSeq, taps: {}, playerTaps: 0, best: s.best, startMs: claimedMs(s, now), endMs: claimedMs(s, now),
                  switchedTo: s.school };
  s.box = { nextSeq: s.box.nextSeq + 1, batches: s.box.batches.concat([batch]) };
  saveBox(s, fx);
  Object.assign(s, recount(s));
  sendWaiting(s, fx);
}

// The play socket: connecting, the hello, the server's messages, pings and the server's clock.
// Handlers: reconnect, socketOpen, socketClosed, pingTick, server.
/** Protocol 2: the server sends each screen what it shows (its school's `view`, the `page` it watches). */
const PROTOCOL = 2;
export const PING_MS = 15000;
const PONG_MS = 40000;
const REFUSED_RETRY_MS = 60000;        // refused by the server (REFUSALS): nothing changes until the operator acts
export const CLOCK_SAMPLES = 5;               // the server's clock from the last few samples: older ones the clocks may have drifted from
/** The server's refusals of a device, by close code (docs/protocol.md), as the terminal game names them (`ServerRefusal`). */
const REFUSALS = { 4003: 'bannedAddress', 4007: 'battleFull', 4029: 'tooManyFromAddress' };

export const socket = {
  reconnect(s, m, now, fx) {
    if (s.stopped) return undefined;
    s.socket = 'connecting';
    fx.push({ type: 'connect' });
    return s;
  },
  socketOpen(s, m, now, fx) {
    fx.push({ type: 'send', message: { type: 'hello', protocol: PROTOCOL, device: s.device, player: s.name || s.defaultPlayer, client: 'web' } });
    return undefined;
  },
  socketClosed(s, m, now, fx) {
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
  },
  pingTick(s, m, now, fx) {
    // Pings keep the connection open through proxies and notice a connection that died silently.
    if (s.socket !== 'welcomed') return undefined;
    if (now - s.lastPong > PONG_MS) {
      fx.push({ type: 'close' });
      return undefined;
    }
    ping(s, fx, now);
    return s;
  },
  server(s, m, now, fx) {
    const handler = received[m.message.type];
    return handler ? handler(s, m.message, now, fx, m.record) : undefined;
  },
};

/** The server's messages on the socket, by type. */
const received = {
  map(s, m, now, fx) { return takeMap(s, m, fx); },
  season(s, m, now, fx) { return takeSeason(s, m.season, fx); },
  welcome(s, m, now, fx, record) {
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
      if (s.screen === 'picker') s.screen = 'game';
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
  },
  ack(s, m, now, fx) {
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
  },
  view(s, m, now, fx) {
    s.schoolView = m;
    if (m.school === s.school) s.ackedTaps = 0;
    // The school to overtake may be hidden from the view's rows, or named again.
    follow(s, fx);
    return s;
  },
  page(s, m, now, fx) { return takePage(s, m, fx); },
  pong(s, m, now, fx) { return pong(s, m, now, fx); },
  round(s, m, now, fx) { return takeRound(s, m, now, fx); },
  roundPlace(s, m, now, fx) { return takePlace(s, m, now, fx); },
};

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

// One tab plays: the device granted to this tab, waited for, lost, or taken here; a tab that does
// not play reads the player the playing tab stores and its school's view. Handlers: claiming,
// granted, waiting, storedRecord, lost, playHere, pollView, viewLoaded.

const VIEW_POLL_MS = 2000;             // a tab waiting for the device reads its school's view this often (GET /v1/view)

export const tabs = {
  claiming(s) {
    s.claiming = true;
    return s;
  },
  granted(s, m, now, fx) {
    s.owner = true;
    s.claiming = false;
    s.elsewhere = false;
    unwatchPages(s, fx);
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
    if (s.screen === 'picker' && s.school) s.screen = 'game';
    s.socket = 'connecting';
    fx.push({ type: 'connect' });
    return s;
  },
  waiting(s, m, now, fx) {
    // Another tab plays: this one says so, with the button to play here, and streams what it shows.
    s.claiming = false;
    s.elsewhere = true;
    readPlayer(s, m.record);
    follow(s, fx);
    pollView(s, fx);
    return s;
  },
  storedRecord(s, m) {
    // The player as the playing tab keeps them (read here, never written): "my taps" are the
    // player's wherever they tap. Again whenever that tab stores them.
    if (s.owner || !s.elsewhere) return undefined;
    readPlayer(s, m.record);
    return s;
  },
  lost(s, m, now, fx) { return s.owner ? stop(s, fx, 'deviceLost', m.to) : undefined; },
  playHere(s, m, now, fx) {
    fx.push({ type: 'claimDevice', steal: true });
    return undefined;
  },
  pollView(s, m, now, fx) { return pollView(s, fx) ? s : undefined; },
  viewLoaded(s, m) {
    // Its school's view, read over HTTP: the header's rank wherever the school stands, not only
    // when the national page streamed holds it. The playing tab has its socket's.
    if (s.owner || !m.view || m.view.school !== s.school) return undefined;
    s.schoolView = m.view;
    return s;
  },
};

/**
 * This tab plays no more (another tab or window has the device, or the page does not match the
 * server): it closes its socket, writes nothing more and says why; the device, if it still has
 * it, goes to the tab `to` that takes it, or else to a tab waiting for it.
 */
export function stop(s, fx, reason, to) {
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
  if (s.school) fx.push({ type: 'loadView', school: s.school, ...(s.period === 'all' ? { period: 'all' } : {}) });
  after(fx, 'viewPoll', VIEW_POLL_MS, 'pollView');
  return true;
}

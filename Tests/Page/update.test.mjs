// The page's `update` (Web/update.js): what each message does to the state and which effects it
// asks for. The expectations are written out by hand. `node --test Tests/Page`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { update } from '../../Sources/TouchSchoolServer/Page/Web/update.js';
import { initialState, myTaps, schoolTotal } from '../../Sources/TouchSchoolServer/Page/Web/state.js';

const BATTLE = 'battleAAAAAAAAAAAAAA';
const OTHER = 'battleBBBBBBBBBBBBBB';
const DEVICE = 'q3R8sU0vW1xY2zA3bC4dE5fG6hI7jK8lM9nO0pQ1rS2';
const EMPTY = { battle: null, box: { nextSeq: 1, batches: [] }, open: null, player: { school: null, taps: 0, best: 0 } };
const PLAYER = { school: null, taps: 0, best: 0 };

/** Messages applied in turn: [state, effects of the last]. */
function run(state, ...messages) {
  let effects = [];
  for (const [message, now] of messages) ({ state, effects } = update(state, message, now ?? 0));
  return [state, effects];
}
const types = (effects) => effects.map((effect) => effect.type);
const stores = (effects) => effects.filter((e) => e.type === 'store' || e.type === 'remove').map((e) => e.type === 'remove' ? `-${e.name}` : e.name);
const sent = (effects) => effects.filter((e) => e.type === 'send').map((e) => e.message);

function fresh(options = {}) { return initialState({ defaultPlayer: 'web player', join: 'http://192.168.0.10:8080/', ...options }); }

/** A tab that plays, for school S1 unless told, with the record given. */
function playing(record = EMPTY, school = 'S1') {
  return run(fresh(), [{ type: 'granted', record, device: DEVICE, freshDevice: 'x', school }])[0];
}
/**
 * The same, welcomed by the server of BATTLE (protocol 2: no board) for that school, its clock
 * measured (the welcome's ping answered: the same clock as this page's), and shown S1's view: at
 * 10, second.
 */
function welcomed(record = EMPTY, school = 'S1', extra = {}) {
  return run(playing(record, school), [{ type: 'socketOpen' }],
             [{ type: 'server', message: { type: 'welcome', protocol: 2, battle: BATTLE, lastSeq: 0, player: { ...PLAYER, school }, catalog: 'c1', ...extra },
                record: EMPTY }],
             [{ type: 'server', message: { type: 'pong', nowMs: 0 } }],
             [{ type: 'server', message: { type: 'view', version: 1, school: 'S1', total: 10, ranks: [[2, 2, 10]], above: [[1, 'S2', 20]],
                                             below: [], top: [[1, 'S2', 20], [2, 'S1', 10]] } }])[0];
}
const tap = (x = 1, y = 2) => ({ type: 'tap', x, y });

test('the state starts in the picker, playing nothing, with an empty outbox', () => {
  const state = fresh();
  assert.equal(state.screen, 'picker');
  assert.equal(state.owner, false);
  assert.deepEqual(state.box, { nextSeq: 1, batches: [] });
  assert.equal(state.open, null);
  assert.deepEqual(state.puffs, []);
  assert.equal(state.socket, 'none');
});

test('start: a player\'s page asks for the device and the directory; with a school it opens the game', () => {
  const [state, effects] = run(fresh({ school: 'S1' }), [{ type: 'start' }]);
  assert.equal(state.screen, 'game');
  assert.deepEqual(effects.find((e) => e.type === 'claimDevice'), { type: 'claimDevice', steal: false });
  assert.ok(types(effects).includes('loadDirectory'));
  assert.deepEqual(effects.filter((e) => e.type === 'every').map((e) => [e.ms, e.message.type]),
                   [[100, 'sealTick'], [15000, 'pingTick'], [10000, 'baselineTick']]);
  assert.equal(run(fresh(), [{ type: 'start' }])[0].screen, 'picker');
});

test('start: the projector watches the board, never claims the device, and asks for the join address only on loopback', () => {
  const [state, effects] = run(fresh({ projector: true, join: 'http://127.0.0.1:8080/' }), [{ type: 'start' }]);
  assert.equal(state.screen, 'ranking');
  assert.equal(state.stream, 'connecting');
  assert.ok(types(effects).includes('watchBoard') && types(effects).includes('findJoin'));
  assert.ok(!types(effects).includes('claimDevice'));
  assert.ok(effects.some((e) => e.type === 'every' && e.ms === 8000 && e.message.type === 'pageTick'));
  assert.ok(!types(run(fresh({ projector: true }), [{ type: 'start' }])[1]).includes('findJoin'));
});

test('a tap in a tab that does not play, or without a school, changes nothing', () => {
  const state = fresh({ school: 'S1' });
  assert.deepEqual(update(state, tap(), 5), { state, effects: [] });
  const noSchool = playing(EMPTY, null);
  assert.equal(update(noSchool, tap(), 5).state, noSchool);
});

test('a tap opens a batch, stored at once, counted as waiting, with a puff and a click', () => {
  const [state, effects] = run(playing(), [tap(10, 20), 1000]);
  assert.deepEqual(state.open, { taps: { S1: 1 }, playerTaps: 1, best: 1, startMs: 1000, endMs: 1000, switchedTo: 'S1' });
  assert.deepEqual(effects, [
    { type: 'store', name: 'open', value: state.open, orRemove: undefined },
    { type: 'feedback', kind: 'tap', muted: false },
  ]);
  assert.equal(state.pending.get('S1'), 1);
  assert.equal(state.waitingTaps, 1);
  assert.deepEqual(state.puffs, [{ x: 10, y: 20 }]);
  assert.equal(myTaps(state), 1);
});

test('a batch for the school the server already has for the player says no switch', () => {
  const record = { ...EMPTY, player: { school: 'S1', taps: 40, best: 3 } };
  const [state] = run(playing(record), [tap(), 1000], [tap(), 1100]);
  assert.deepEqual(state.open, { taps: { S1: 2 }, playerTaps: 2, best: 2, startMs: 1000, endMs: 1100 });
  assert.equal(myTaps(state), 42);
});

test('the best speed is the most taps within a second, kept when the taps slow down', () => {
  const [state] = run(playing(), [tap(), 0], [tap(), 100], [tap(), 200], [tap(), 1150]);
  assert.deepEqual(state.recent, [200, 1150]);
  assert.equal(state.best, 3);
  assert.equal(state.open.best, 3);
});

test('the puffs are a ring of the last 30 taps, oldest first', () => {
  let state = playing();
  for (let i = 0; i < 35; i++) state = update(state, tap(i, 100 + i), i * 50).state;
  assert.equal(state.puffs.length, 30);
  assert.deepEqual(state.puffs[0], { x: 5, y: 105 });
  assert.deepEqual(state.puffs[29], { x: 34, y: 134 });
  assert.equal(state.puffCount, 35);
});

test('online a tap goes out at once, and the taps of the next 250 ms together as they end; offline a batch is sealed after 5 s', () => {
  const [online, effects] = run(welcomed(), [tap(), 1000]);
  const first = { seq: 1, taps: { S1: 1 }, playerTaps: 1, best: 1, startMs: 1000, endMs: 1000 };
  assert.deepEqual(online.box, { nextSeq: 2, batches: [first] });
  assert.equal(online.open, null);
  assert.deepEqual(stores(effects), [`outbox:${BATTLE}`, `open:${BATTLE}`]);
  assert.deepEqual(sent(effects), [{ type: 'taps', ...first }]);
  assert.equal(online.sentUpTo, 1);
  assert.equal(online.waitingTaps, 1, 'waiting until acknowledged');

  const [held, heldEffects] = run(online, [tap(), 1050]);
  assert.deepEqual(held.open.taps, { S1: 1 }, 'within 250 ms of the last batch: held');
  assert.deepEqual(stores(heldEffects), [`open:${BATTLE}`], 'and kept');
  assert.deepEqual(sent(heldEffects), []);
  assert.equal(update(held, { type: 'sealTick' }, 1249).state, held);
  const [second, secondEffects] = run(held, [{ type: 'sealTick' }, 1250]);
  assert.deepEqual(sent(secondEffects), [{ type: 'taps', seq: 2, taps: { S1: 1 }, playerTaps: 1, best: 2, startMs: 1050, endMs: 1050 }]);

  const [third, thirdEffects] = run(second, [tap(), 1300], [tap(), 1500]);
  assert.deepEqual(sent(thirdEffects).map((m) => [m.seq, m.playerTaps]), [[3, 2]], 'the tap 250 ms after the last batch takes the held one with it');
  assert.equal(third.open, null);

  // Mashing, twenty taps a second for two seconds: no more than four batches a second.
  let mashing = online;
  let batches = 0;
  for (let at = 1050; at < 3050; at += 50) {
    for (const [message, now] of [[tap(), at], [{ type: 'sealTick' }, at + 25]]) {
      const next = update(mashing, message, now);
      batches += sent(next.effects).length;
      mashing = next.state;
    }
  }
  assert.equal(batches, 8);

  const offline = run(playing(), [tap(), 1000])[0];
  assert.equal(update(offline, { type: 'sealTick' }, 5999).state, offline, 'offline, held 5 s');
  const [sealedOffline, offlineEffects] = run(offline, [{ type: 'sealTick' }, 6000]);
  assert.equal(sealedOffline.box.batches.length, 1);
  assert.deepEqual(sent(offlineEffects), []);
});

test('a hidden page seals its batch at once', () => {
  const [state] = run(playing(), [tap(), 1000], [{ type: 'hidden' }, 1001]);
  assert.equal(state.box.batches.length, 1);
  assert.equal(state.open, null);
});

test('taps made before the server\'s clock is first measured wait for the pong (2 s at most), then claim its time', () => {
  // Welcomed at 0 (its ping sent then), the pong not yet come: the page's clock is 7 minutes slow.
  const [waiting, effects] = run(playing(), [{ type: 'socketOpen' }],
    [{ type: 'server', message: { type: 'welcome', protocol: 2, battle: BATTLE, lastSeq: 0, player: { ...PLAYER, school: 'S1' }, catalog: 'c1' },
       record: EMPTY }], [tap(), 100]);
  assert.deepEqual(sent(effects), [], 'not claimed on this page\'s clock');
  assert.deepEqual(waiting.open.taps, { S1: 1 });
  assert.equal(update(waiting, { type: 'sealTick' }, 400).state.open, waiting.open, 'still waiting at the tick');
  const later = 420_000;
  const [ponged] = run(waiting, [{ type: 'server', message: { type: 'pong', nowMs: 200 + later } }, 400], [{ type: 'sealTick' }, 500]);
  assert.deepEqual(ponged.box.batches, [{ seq: 1, taps: { S1: 1 }, playerTaps: 1, best: 1, startMs: 100 + later, endMs: 100 + later }]);
  // A server that never answers: the taps go after 2 s, on this page's clock.
  const [unanswered, late] = run(waiting, [tap(), 1900], [{ type: 'sealTick' }, 2100]);
  assert.equal(unanswered.open, null);
  assert.deepEqual(sent(late).map((m) => [m.startMs, m.endMs]), [[100, 1900]]);
});

test('an acknowledgement removes its batch and keeps its taps on the school\'s total', () => {
  // The first tap goes at once; the next two, held, at the tick.
  const [sealed] = run(welcomed(), [tap(), 1000], [tap(), 1001], [tap(), 1002], [{ type: 'sealTick' }, 1300]);
  assert.deepEqual(sealed.box.batches.map((b) => [b.seq, b.playerTaps]), [[1, 1], [2, 2]]);
  const player = { school: 'S1', taps: 1, best: 3 };
  const [state, effects] = run(sealed, [{ type: 'server', message: { type: 'ack', seq: 1, refused: 0, player } }]);
  assert.deepEqual(state.box.batches.map((b) => b.seq), [2]);
  assert.equal(state.box.nextSeq, 3);
  assert.equal(state.ackedTaps, 1);
  assert.equal(state.pending.get('S1'), 2);
  assert.equal(schoolTotal(state), 13);
  assert.equal(state.waitingTaps, 2);
  assert.deepEqual(state.serverPlayer, player);
  assert.deepEqual(stores(effects), [`outbox:${BATTLE}`, `player:${BATTLE}`]);
  assert.equal(state.warning, null);
});

test('a refused batch warns of abnormal tapping; a ban says so instead', () => {
  const [sealed] = run(welcomed(), [tap(), 1000], [{ type: 'sealTick' }, 1300]);
  const [refused, effects] = run(sealed, [{ type: 'server', message: { type: 'ack', seq: 1, refused: 1, player: PLAYER } }]);
  assert.deepEqual(refused.warning, { key: 'abnormal', arg: undefined });
  assert.equal(schoolTotal(refused), 10, 'a refused batch adds nothing');
  assert.ok(effects.some((e) => e.type === 'feedback' && e.kind === 'warning'));
  assert.ok(effects.some((e) => e.type === 'after' && e.ms === 4000 && e.message.type === 'warnOver'));
  const [banned] = run(sealed, [{ type: 'server', message: { type: 'ack', seq: 1, refused: 1, banned: true, player: PLAYER } }]);
  assert.equal(banned.warning.key, 'banned');
  assert.equal(run(banned, [{ type: 'warnOver' }])[0].warning, null);
});

test('a welcome drops what the server applied, numbers the rest on from its last, stores and sends them', () => {
  const batch = (seq) => ({ seq, taps: { S1: seq }, playerTaps: seq, best: 1, startMs: 0, endMs: 0 });
  const record = { battle: BATTLE, box: { nextSeq: 7, batches: [batch(3), batch(5), batch(6)] }, open: null, player: PLAYER };
  const opened = run(playing(record), [{ type: 'socketOpen' }]);
  assert.deepEqual(sent(opened[1]), [{ type: 'hello', protocol: 2, device: DEVICE, player: 'web player', client: 'web' }]);
  const [state, effects] = run(opened[0], [{ type: 'server', message: { type: 'welcome', protocol: 2, battle: BATTLE, lastSeq: 3,
    player: { school: 'S1', taps: 3, best: 1 }, catalog: 'c2' }, record }, 9000]);
  assert.deepEqual(state.box.batches.map((b) => [b.seq, b.playerTaps]), [[4, 5], [5, 6]]);
  assert.equal(state.box.nextSeq, 6);
  assert.equal(state.socket, 'welcomed');
  assert.equal(state.lastPong, 9000);
  assert.deepEqual(sent(effects).map((m) => [m.type, m.seq]), [['taps', 4], ['taps', 5], ['ping', undefined]], 'a ping last: the server\'s clock');
  assert.deepEqual(stores(effects), [`outbox:${BATTLE}`, `player:${BATTLE}`]);
  assert.ok(types(effects).indexOf('store') < types(effects).indexOf('send'), 'stored before sent');
  assert.ok(types(effects).includes('loadDirectory'), 'a catalog the page has not read');
  assert.deepEqual(effects.find((e) => e.type === 'mark'), { type: 'mark', name: 'touchschool-online' });
  assert.equal(state.pending.get('S1'), 11);
});

test('a first welcome gives the record kept before any battle to the battle, and remembers it', () => {
  const [state, effects] = run(playing(), [tap(), 5], [{ type: 'server', message: { type: 'welcome', battle: BATTLE, lastSeq: 0,
    player: PLAYER, catalog: 'c' }, record: EMPTY }, 10]);
  assert.equal(state.battle, BATTLE);
  assert.deepEqual(stores(effects).slice(0, 8), [`outbox:${BATTLE}`, `open:${BATTLE}`, `player:${BATTLE}`,
                                                 '-outbox', '-open', '-player', '-switchTo', 'battle']);
  assert.deepEqual(state.open.taps, { S1: 1 }, 'the open batch stays open');
});

test('a welcome from another battle takes up that battle\'s own record and seals its open batch', () => {
  const theirs = { battle: OTHER, box: { nextSeq: 3, batches: [] }, open: { taps: { S9: 4 }, playerTaps: 4, best: 2, startMs: 1, endMs: 2 },
                   player: { school: 'S9', taps: 50, best: 2 } };
  const [state] = run(welcomed(), [{ type: 'server', message: { type: 'welcome', battle: OTHER, lastSeq: 2, player: theirs.player,
    catalog: 'c1' }, record: theirs }, 50]);
  assert.equal(state.battle, OTHER);
  assert.equal(state.schoolView, null, 'the other battle\'s standing is not this one\'s');
  assert.equal(state.open, null);
  assert.deepEqual(state.box.batches.map((b) => [b.seq, b.taps, b.switchedTo]), [[3, { S9: 4 }, undefined], [4, {}, 'S1']],
                   'the school played here is told to that battle');
});

test('a welcome with a battle that is no identity stops the page: it does not match the server', () => {
  const [state, effects] = run(playing(), [{ type: 'server', message: { type: 'welcome', battle: 'short', lastSeq: 0, player: PLAYER } }]);
  assert.equal(state.stopped, 'versionMismatch');
  assert.equal(state.owner, false);
  assert.deepEqual(types(effects), ['cancel', 'close', 'releaseDevice']);
  assert.equal(update(state, tap(), 1).state, state, 'a stopped tab takes no taps');
});

test('offline: a closed socket waits 0.5 s, then twice as long each time; refused by the server, a minute', () => {
  const [closed, effects] = run(welcomed(), [{ type: 'socketClosed', code: 1006, reason: '' }]);
  assert.equal(closed.socket, 'none');
  assert.deepEqual(effects, [{ type: 'after', name: 'retry', ms: 500, message: { type: 'reconnect' } }]);
  const [again, connect] = run(closed, [{ type: 'reconnect' }]);
  assert.equal(again.socket, 'connecting');
  assert.deepEqual(connect, [{ type: 'connect' }]);
  assert.equal(run(again, [{ type: 'socketClosed', code: 1006, reason: '' }])[1][0].ms, 1000);
  assert.equal(run(welcomed(), [{ type: 'socketClosed', code: 4029, reason: '' }])[1][0].ms, 60000);
  assert.equal(run(welcomed(), [{ type: 'socketClosed', code: 1008, reason: '' }])[1][0].ms, 10000);
});

test('offline taps wait in the outbox and go out once online', () => {
  const [offline] = run(playing(), [tap(), 0], [tap(), 10], [{ type: 'sealTick' }, 5000]);
  assert.equal(offline.waitingTaps, 2);
  assert.equal(offline.box.batches.length, 1);
  const [, effects] = run(offline, [{ type: 'server', message: { type: 'welcome', battle: BATTLE, lastSeq: 0, player: PLAYER,
    catalog: 'c' }, record: EMPTY }]);
  assert.deepEqual(sent(effects).map((m) => [m.type, m.seq, m.playerTaps]), [['taps', 1, 2], ['ping', undefined, undefined]]);
});

test('connected again elsewhere, or a page that does not match the server, stops for good', () => {
  const [taken] = run(welcomed(), [{ type: 'socketClosed', code: 1000, reason: 'connected again' }]);
  assert.equal(taken.stopped, 'takenOver');
  assert.equal(run(welcomed(), [{ type: 'socketClosed', code: 4000, reason: '' }])[0].stopped, 'versionMismatch');
  assert.equal(update(taken, { type: 'reconnect' }, 0).state, taken);
});

test('pings every 15 s; a server silent for 40 s is closed', () => {
  const state = welcomed();
  assert.deepEqual(update(state, { type: 'pingTick' }, 30000).effects, [{ type: 'send', message: { type: 'ping' } }]);
  assert.deepEqual(update(state, { type: 'pingTick' }, 40001).effects, [{ type: 'close' }]);
  assert.deepEqual(update(playing(), { type: 'pingTick' }, 0).effects, [], 'not before the welcome');
});

test('granted the device: the tab reads the record, seals a batch left open, and connects', () => {
  const record = { ...EMPTY, open: { taps: { S1: 3 }, playerTaps: 3, best: 3, startMs: 1, endMs: 2, switchedTo: 'S1' } };
  const [state, effects] = run(fresh({ school: 'S1' }), [{ type: 'granted', record, device: 'bad', freshDevice: DEVICE, school: 'S1' }]);
  assert.equal(state.owner, true);
  assert.equal(state.device, DEVICE);
  assert.deepEqual(state.box.batches.map((b) => [b.seq, b.taps]), [[1, { S1: 3 }]]);
  assert.equal(state.open, null);
  assert.equal(state.screen, 'game');
  assert.deepEqual(types(effects), ['cancel', 'unwatchBoard', 'cancel', 'store', 'store', 'store', 'connect']);
  assert.deepEqual(stores(effects), ['device', 'outbox', 'open']);
  assert.equal(run(fresh(), [{ type: 'granted', record: EMPTY, device: DEVICE, freshDevice: 'new', school: null }])[0].device, DEVICE);
});

test('granted the device, a school asked for (?school=) is chosen', () => {
  const [state, effects] = run(fresh({ asked: 'S7', school: 'S7' }), [{ type: 'granted', record: EMPTY, device: DEVICE, freshDevice: 'x', school: 'S1' }]);
  assert.equal(state.school, 'S7');
  assert.ok(effects.some((e) => e.type === 'store' && e.name === 'school' && e.value === 'S7'));
});

test('waiting for the device: the tab says another plays, shows its player and streams the national page', () => {
  const record = { battle: BATTLE, box: { nextSeq: 2, batches: [{ seq: 1, taps: { S1: 4 }, playerTaps: 4, best: 1, startMs: 0, endMs: 0 }] },
                   open: { taps: { S1: 2 }, playerTaps: 2, best: 1, startMs: 0, endMs: 0 }, player: { school: 'S1', taps: 10, best: 1 } };
  const [state, effects] = run(fresh({ school: 'S1' }), [{ type: 'claiming' }], [{ type: 'waiting', record }]);
  assert.equal(state.elsewhere, true);
  assert.equal(state.claiming, false);
  assert.deepEqual(effects, [{ type: 'watchBoard', url: '/v1/board?count=100&from=0' }, { type: 'loadView', school: 'S1' },
                             { type: 'after', name: 'viewPoll', ms: 2000, message: { type: 'pollView' } }]);
  assert.equal(myTaps(state), 16);
  assert.equal(state.waitingTaps, 6);
  const later = { ...record, open: { ...record.open, taps: { S1: 5 }, playerTaps: 5 } };
  assert.equal(myTaps(run(state, [{ type: 'storedRecord', record: later }])[0]), 19);
  assert.deepEqual(run(state, [{ type: 'playHere' }])[1], [{ type: 'claimDevice', steal: true }]);
});

test('the device lost to another tab stops this one, which gives it to that tab', () => {
  const [state, effects] = run(welcomed(), [{ type: 'lost', to: 'tab2' }]);
  assert.equal(state.stopped, 'deviceLost');
  assert.equal(state.owner, false);
  assert.deepEqual(effects, [{ type: 'cancel', name: 'retry' }, { type: 'close' }, { type: 'releaseDevice', to: 'tab2' }]);
  const waiting = fresh();
  assert.equal(update(waiting, { type: 'lost' }, 0).state, waiting, 'a tab that did not play has nothing to lose');
});

test('a tab that does not play writes nothing to the storage', () => {
  const [, effects] = run(fresh({ school: 'S1' }), [{ type: 'name', text: '  김하늘 ' }]);
  assert.deepEqual(effects, []);
  const [named, stored] = run(welcomed(), [{ type: 'name', text: '  김하늘 ' }]);
  assert.equal(named.name, '김하늘');
  assert.deepEqual(stored, [{ type: 'store', name: 'name', value: '김하늘', orRemove: undefined }, { type: 'close' }]);
});

test('the search waits 120 ms after typing; its answer shows 20 results at most', () => {
  const [typed, effects] = run(fresh(), [{ type: 'query', text: ' 민사 ' }]);
  assert.deepEqual(effects, [{ type: 'after', name: 'search', ms: 120, message: { type: 'searchNow' } }]);
  assert.deepEqual(run(typed, [{ type: 'searchNow' }])[1], [{ type: 'search', text: '민사' }]);
  const row = (i) => ({ id: `S${i}`, name: `학교${i}`, level: 'high', province: '서울특별시' });
  const many = Array.from({ length: 21 }, (_, i) => row(i));
  const [answered] = run(typed, [{ type: 'searchAnswer', answer: { schools: many } }]);
  assert.equal(answered.results.length, 20);
  assert.deepEqual(answered.found, { key: 'foundMore', arg: 20 });
  assert.equal(answered.schools.get('S3').name, '학교3');
  assert.deepEqual(run(typed, [{ type: 'searchAnswer', answer: { schools: [row(1)] } }])[0].found, { key: 'found', arg: 1 });
  const [guessed] = run(typed, [{ type: 'searchAnswer', answer: { schools: [], suggestions: [row(5)] } }]);
  assert.deepEqual(guessed.found, { key: 'didYouMean', arg: '학교5' });
  assert.deepEqual(guessed.results, [row(5)]);
  assert.deepEqual(run(typed, [{ type: 'searchAnswer', answer: { schools: [] } }])[0].found, { key: 'none' });
  assert.deepEqual(run(answered, [{ type: 'searchFailed' }])[0].results, []);
  const [cleared] = run(answered, [{ type: 'query', text: '' }], [{ type: 'searchNow' }]);
  assert.deepEqual([cleared.results, cleared.found], [[], null]);
});

test('choosing a school: at once without taps of mine, after a yes with them', () => {
  const [chosen] = run(playing(EMPTY, null), [{ type: 'choose', id: 'S2' }]);
  assert.equal(chosen.school, 'S2');
  assert.equal(chosen.screen, 'game');
  const [tapped] = run(playing(), [tap(), 0], [tap(), 1], [{ type: 'show', screen: 'picker' }]);
  const [asking] = run(tapped, [{ type: 'choose', id: 'S2' }, 5]);
  assert.deepEqual(asking.confirm, { id: 'S2', taps: 2 });
  assert.equal(asking.school, 'S1');
  assert.equal(run(asking, [{ type: 'confirmNo' }])[0].confirm, null);
  const [changed, effects] = run(asking, [{ type: 'confirmYes' }, 6]);
  assert.equal(changed.school, 'S2');
  assert.equal(changed.screen, 'game');
  assert.deepEqual(changed.box.batches.map((b) => [b.taps, b.playerTaps, b.switchedTo]), [[{ S1: 2 }, 2, 'S1'], [{}, 0, 'S2']],
                   'the open batch keeps its school; the switch is told at once, by a batch of no taps');
  assert.ok(effects.some((e) => e.type === 'store' && e.name === 'school' && e.value === 'S2'));
  assert.equal(myTaps(changed), 0, 'my count restarts');
  const [next] = run(changed, [tap(), 10]);
  assert.equal(next.open.switchedTo, undefined, 'said already');
  assert.equal(myTaps(next), 1);
});

test('welcomed by a battle whose player has no school (a new battle), the page tells it the school it plays for', () => {
  const [state, effects] = run(playing(), [{ type: 'socketOpen' }],
                               [{ type: 'server', message: { type: 'welcome', protocol: 2, battle: BATTLE, lastSeq: 0, player: PLAYER, catalog: 'c' },
                                  record: EMPTY }]);
  assert.deepEqual(sent(effects), [{ type: 'taps', seq: 1, taps: {}, playerTaps: 0, best: 0, startMs: 0, endMs: 0, switchedTo: 'S1' }, { type: 'ping' }]);
  assert.deepEqual(state.played, { school: 'S1', taps: 0, best: 0 });
});

test('Enter in the search chooses the first result', () => {
  const [answered] = run(playing(EMPTY, null), [{ type: 'searchAnswer', answer: { schools: [{ id: 'S4', name: 'a', level: 'high', province: 'p' }] } }]);
  assert.equal(run(answered, [{ type: 'chooseFirst' }])[0].school, 'S4');
  const none = fresh();
  assert.equal(update(none, { type: 'chooseFirst' }, 0).state, none);
});

test('the directory: schools, names more than one school has, provinces in Korean order; an unknown school is forgotten', () => {
  const directory = { catalog: 'c9', fields: ['id', 'name', 'level', 'province', 'district'], schools: [
    ['A', '금성초등학교', 'elementary', '전라남도', '나주시'], ['B', '금성초등학교', 'elementary', '경상북도', null],
    ['C', '서울고등학교', 'high', '서울특별시', '서초구']] };
  const [state, effects] = run(welcomed(EMPTY, 'Z'), [{ type: 'league', level: '', province: '제주특별자치도' }], [{ type: 'directory', directory }]);
  assert.equal(state.schools.get('C').district, '서초구');
  assert.deepEqual([...state.sharedNames], ['금성초등학교']);
  assert.deepEqual(state.provinces, ['경상북도', '서울특별시', '전라남도']);
  assert.equal(state.province, '', 'a province the directory does not have');
  assert.equal(state.directoryTag, 'c9');
  assert.equal(state.school, null);
  assert.equal(state.screen, 'picker');
  assert.deepEqual(state.warning, { key: 'unknownSchool', arg: 'Z' });
  assert.ok(effects.some((e) => e.type === 'store' && e.name === 'school' && e.value === null));
  const [mine] = run(state, [{ type: 'choose', id: 'A' }], [{ type: 'myLeague' }]);
  assert.deepEqual([mine.level, mine.province], ['elementary', '전라남도']);
});

test('the projector turns its pages, and hides its controls 3 s after the pointer rests', () => {
  const [started] = run(fresh({ projector: true }), [{ type: 'start' }]);
  assert.equal(update(started, { type: 'pageTick' }, 0).state, started, 'no page shown yet: nothing to turn');
  const rows = Array.from({ length: 11 }, (_, i) => [i + 1, `S${i + 1}`, 100 - i]);
  const [shown] = run(started, [{ type: 'boardPage', page: { type: 'page', version: 1, league: {}, from: 0, size: 50, rows } }]);
  assert.equal(run(shown, [{ type: 'pageTick' }])[0].projectorPage, 1);
  const [awake, effects] = run(started, [{ type: 'wake' }]);
  assert.equal(awake.idle, false);
  assert.deepEqual(effects, [{ type: 'after', name: 'idle', ms: 3000, message: { type: 'idle' } }]);
  assert.equal(update(awake, { type: 'wake' }, 0).state, awake, 'awake already: only the timer starts again');
  assert.equal(run(awake, [{ type: 'idle' }])[0].idle, true);
  assert.equal(run(started, [{ type: 'join', addresses: ['http://127.0.0.1:8080/', 'http://10.0.0.5:8080/'] }])[0].join, 'http://10.0.0.5:8080/');
});

test('the mute is stored for every tab, playing or not', () => {
  const [state, effects] = run(fresh(), [{ type: 'toggleSound' }]);
  assert.equal(state.muted, true);
  assert.deepEqual(effects, [{ type: 'store', name: 'muted', value: true }]);
  const [, tapped] = run(playing(), [{ type: 'toggleSound' }], [tap(), 0]);
  assert.deepEqual(tapped.at(-1), { type: 'feedback', kind: 'tap', muted: true });
});

test('update changes nothing it was given', () => {
  const state = welcomed();
  const [tapped] = run(state, [tap(), 1000]);
  const copy = structuredClone(tapped);
  for (const message of [{ type: 'sealTick' }, { type: 'server', message: { type: 'view', version: 9, school: 'S1', total: 99, ranks: [[1, 2, null]],
                                                                            above: [], below: [], top: [] } },
    { type: 'show', screen: 'ranking' }, { type: 'server', message: { type: 'page', version: 9, league: {}, from: 0, size: 2, rows: [[1, 'S1', 99]] } },
    { type: 'server', message: { type: 'ack', seq: 0, refused: 0, player: PLAYER } }, tap(), { type: 'baselineTick' }]) {
    update(tapped, message, 5000);
    assert.deepEqual(tapped, copy, message.type);
  }
});

// Protocol 2 in the page (Web/update.js, Web/state.js): each screen receives only what it shows.
// The playing tab's header and side list come from its school's `view`; the ranking asks for the
// page of its league with `watch`; the projector and a tab waiting for the device stream the page
// they show (`GET /v1/board?count=…`). The expectations are written out by hand. `node --test Tests/Page`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { update, pageStreamURL } from '../../Sources/TouchSchoolServer/Page/Web/update.js';
import { initialState, standing, miniRows, listRows, movements, schoolTotal, projectorPosition, keyboardAtHand }
  from '../../Sources/TouchSchoolServer/Page/Web/state.js';
import { runningPage } from './dom.mjs';
import { TEXT } from '../../Sources/TouchSchoolServer/Page/Web/view/words.js';

const BATTLE = 'battleAAAAAAAAAAAAAA';
const DEVICE = 'q3R8sU0vW1xY2zA3bC4dE5fG6hI7jK8lM9nO0pQ1rS2';
const EMPTY = { battle: null, box: { nextSeq: 1, batches: [] }, open: null, player: { school: null, taps: 0, best: 0 } };
const PLAYER = { school: 'S3', taps: 0, best: 0 };

function run(state, ...messages) {
  let effects = [];
  for (const [message, now] of messages) ({ state, effects } = update(state, message, now ?? 0));
  return [state, effects];
}
const sent = (effects) => effects.filter((e) => e.type === 'send').map((e) => e.message);
const server = (message) => [{ type: 'server', message }];

/** A school directory: S1…S6, high schools of 서울특별시 but S5 (부산광역시) and S6 (middle). */
const DIRECTORY = { catalog: 'c1', fields: ['id', 'name', 'level', 'province', 'district'], schools: [
  ['S1', '한국과학영재학교', 'high', '서울특별시', null], ['S2', '휘문고등학교', 'high', '서울특별시', '강남구'],
  ['S3', '민족사관고등학교', 'high', '서울특별시', null], ['S4', '서울고등학교', 'high', '서울특별시', '서초구'],
  ['S5', '부산고등학교', 'high', '부산광역시', null], ['S6', '대치중학교', 'middle', '서울특별시', '강남구']] };

/** The view of S3: third nationally at 20, 5 behind S2, with S1 on top. */
const VIEW = { type: 'view', version: 7, school: 'S3', total: 20,
  ranks: [[3, 6, 5], [3, 5, 5], [3, 5, 5], [3, 4, 5]],
  above: [[1, 'S1', 40], [2, 'S2', 25]], below: [[4, 'S4', 12], [5, 'S5', 8]], top: [[1, 'S1', 40], [2, 'S2', 25], [3, 'S3', 20]] };

/** A tab that plays for S3, welcomed (protocol 2: no board), with the directory read. */
function welcomed(record = EMPTY) {
  return run(initialState({ defaultPlayer: 'web player', join: 'http://192.168.0.10:8080/' }),
             [{ type: 'granted', record, device: DEVICE, freshDevice: 'x', school: 'S3' }],
             [{ type: 'directory', directory: DIRECTORY }], [{ type: 'socketOpen' }],
             server({ type: 'welcome', protocol: 2, battle: BATTLE, lastSeq: 0, player: PLAYER, catalog: 'c1' }),
             // The welcome's ping answered: the server's clock measured, taps go out as made.
             server({ type: 'pong', nowMs: 0 }))[0];
}
const tap = [{ type: 'tap', x: 1, y: 1 }, 1000];

test('the page says hello with protocol 2 and takes a welcome without a board', () => {
  const [opened, effects] = run(initialState({ defaultPlayer: 'web player' }),
                                [{ type: 'granted', record: EMPTY, device: DEVICE, freshDevice: 'x', school: 'S3' }], [{ type: 'socketOpen' }]);
  assert.deepEqual(sent(effects), [{ type: 'hello', protocol: 2, device: DEVICE, player: 'web player', client: 'web' }]);
  const state = welcomed();
  assert.equal(state.socket, 'welcomed');
  assert.equal(state.schoolView, null, 'nothing to show before the view');
  assert.deepEqual(standing(state), { total: 0, rank: null, gap: null });
  assert.deepEqual(miniRows(state), []);
  assert.ok(opened.owner);
});

test('the view: the school\'s total, national rank, the school to overtake and the side list', () => {
  const [state] = run(welcomed(), server(VIEW));
  assert.equal(state.schoolView, VIEW);
  assert.equal(schoolTotal(state), 20);
  assert.deepEqual(standing(state), { total: 20, rank: 3, gap: { school: 'S2', taps: 6 } });
  assert.deepEqual(miniRows(state), [
    { rank: 1, school: 'S1', total: 40, mine: false, after: false }, { rank: 2, school: 'S2', total: 25, mine: false, after: false },
    { rank: 3, school: 'S3', total: 20, mine: true, after: false }, { rank: 4, school: 'S4', total: 12, mine: false, after: false },
    { rank: 5, school: 'S5', total: 8, mine: false, after: false }]);
});

test('the side list: the top three, then the neighbours after a break in the places', () => {
  const far = { ...VIEW, total: 3, ranks: [[9, 12, 1]], above: [[7, 'S5', 5], [8, 'S4', 4]], below: [[10, 'S6', 2]],
                top: [[1, 'S1', 40], [2, 'S2', 25], [3, 'S7', 20]] };
  const [state] = run(welcomed(), server(far));
  assert.deepEqual(miniRows(state).map((r) => [r.rank, r.school, r.after]),
                   [[1, 'S1', false], [2, 'S2', false], [3, 'S7', false], [7, 'S5', true], [8, 'S4', false], [9, 'S3', false], [10, 'S6', false]]);
});

test('my taps not yet sent count at once: the total grows, and passing the school above moves me up', () => {
  const [viewed] = run(welcomed(), server(VIEW));
  let state = viewed;
  for (let i = 0; i < 5; i++) state = update(state, tap[0], 1000 + i).state;
  assert.equal(schoolTotal(state), 25);
  assert.deepEqual(standing(state), { total: 25, rank: 2, gap: { school: 'S1', taps: 16 } }, 'a tie shares the place');
  assert.deepEqual(miniRows(state).slice(0, 3).map((r) => [r.rank, r.school]), [[1, 'S1'], [2, 'S2'], [2, 'S3']]);
  state = update(state, tap[0], 1010).state;
  assert.deepEqual(standing(state), { total: 26, rank: 2, gap: { school: 'S1', taps: 15 } });
  assert.deepEqual(miniRows(state).slice(0, 3).map((r) => [r.rank, r.school, r.total]), [[1, 'S1', 40], [2, 'S3', 26], [3, 'S2', 25]]);
});

test('acknowledged taps stay on the total until the next view counts them', () => {
  const [sealed] = run(welcomed(), server(VIEW), tap, tap, [{ type: 'sealTick' }, 1300]);
  // The first tap went at once, the second at the tick: two batches.
  assert.deepEqual(sealed.box.batches.map((b) => b.playerTaps), [1, 1]);
  const [acked] = run(sealed, server({ type: 'ack', seq: 1, refused: 0, player: { school: 'S3', taps: 1, best: 2 } }),
                      server({ type: 'ack', seq: 2, refused: 0, player: { school: 'S3', taps: 2, best: 2 } }));
  assert.equal(acked.waitingTaps, 0);
  assert.equal(schoolTotal(acked), 22);
  const [next] = run(acked, server({ ...VIEW, version: 8, total: 22, ranks: [[3, 6, 3], [3, 5, 3], [3, 5, 3], [3, 4, 3]] }));
  assert.equal(schoolTotal(next), 22, 'counted once');
  const [refused] = run(sealed, server({ type: 'ack', seq: 1, refused: 1, player: PLAYER }), server({ type: 'ack', seq: 2, refused: 1, player: PLAYER }));
  assert.equal(schoolTotal(refused), 20, 'a refused batch adds nothing');
});

test('offline the last view stays, with the taps made since', () => {
  const [state] = run(welcomed(), server(VIEW), [{ type: 'socketClosed', code: 1006, reason: '' }], tap);
  assert.equal(state.socket, 'none');
  assert.deepEqual(standing(state), { total: 21, rank: 3, gap: { school: 'S2', taps: 5 } });
});

test('the leader, and a school without a tap yet', () => {
  const lead = { ...VIEW, total: 50, ranks: [[1, 6, null]], above: [], top: [[1, 'S3', 50], [2, 'S1', 40], [3, 'S2', 25]] };
  assert.deepEqual(standing(run(welcomed(), server(lead))[0]), { total: 50, rank: 1, gap: null });
  const none = { ...VIEW, total: 0, ranks: [[6, 6, 8]], above: [[4, 'S4', 12], [5, 'S5', 8]], below: [] };
  assert.deepEqual(standing(run(welcomed(), server(none))[0]), { total: 0, rank: null, gap: { school: 'S5', taps: 9 } });
  const start = { ...VIEW, total: 0, ranks: [[1, 6, null]], above: [[1, 'S1', 0]], below: [[1, 'S4', 0]], top: [[1, 'S1', 0], [1, 'S3', 0]] };
  assert.deepEqual(standing(run(welcomed(), server(start))[0]), { total: 0, rank: null, gap: null }, 'a battle\'s start');
  assert.deepEqual(standing(run(welcomed(), server(start), tap)[0]), { total: 1, rank: 1, gap: null });
});

test('schools tied with mine hide the school to overtake: the view says how far, and my taps count down', () => {
  const crowd = { ...VIEW, total: 0, ranks: [[5, 6, 8]], above: [[5, 'S4', 0], [5, 'S6', 0]], below: [] };
  const [state, effects] = run(welcomed(), server(crowd));
  assert.deepEqual(standing(state), { total: 0, rank: null, gap: { school: null, taps: 9 } });
  assert.deepEqual(standing(run(state, tap, tap)[0]), { total: 2, rank: 5, gap: { school: null, taps: 7 } });
  // The game asks for the place before the first of my rank: the school to overtake, by name.
  assert.deepEqual(sent(effects), [{ type: 'watch', league: {}, from: 3, count: 1 }]);
  const [named] = run(state, server({ type: 'page', version: 7, league: {}, from: 3, size: 6, rows: [[4, 'S5', 8]] }));
  assert.deepEqual(standing(named), { total: 0, rank: null, gap: { school: 'S5', taps: 9 } });
  assert.deepEqual(sent(run(named, server(VIEW))[1]), [{ type: 'watch' }], 'the view\'s rows name it again');
});

test('the view of another school (before a switch is acknowledged) is not mine', () => {
  const [state] = run(welcomed(), server({ ...VIEW, school: 'S9' }));
  assert.deepEqual(standing(state), { total: 0, rank: null, gap: null });
});

test('the ranking shown watches its league\'s top rows; a new league watches again; leaving it stops', () => {
  const [shown, effects] = run(welcomed(), [{ type: 'show', screen: 'ranking' }]);
  assert.deepEqual(sent(effects), [{ type: 'watch', league: {}, from: 0, count: 100 }]);
  const [high, again] = run(shown, [{ type: 'league', level: 'high', province: '' }]);
  assert.deepEqual(sent(again), [{ type: 'watch', league: { level: 'high' }, from: 0, count: 100 }]);
  const [mine, mineFx] = run(high, [{ type: 'myLeague' }]);
  assert.deepEqual(sent(mineFx), [{ type: 'watch', league: { level: 'high', province: '서울특별시' }, from: 0, count: 100 }]);
  assert.deepEqual(sent(run(mine, [{ type: 'myLeague' }])[1]), [], 'the same league: nothing new to ask');
  assert.deepEqual(sent(run(mine, [{ type: 'show', screen: 'game' }])[1]), [{ type: 'watch' }]);
});

test('the ranking is asked for again on a new connection, not while offline', () => {
  const [shown] = run(welcomed(), [{ type: 'show', screen: 'ranking' }], [{ type: 'socketClosed', code: 1006, reason: '' }]);
  const [, offline] = run(shown, [{ type: 'league', level: 'middle', province: '' }]);
  assert.deepEqual(sent(offline), []);
  const [, effects] = run(shown, [{ type: 'socketOpen' }],
                          server({ type: 'welcome', protocol: 2, battle: BATTLE, lastSeq: 0, player: PLAYER, catalog: 'c1' }));
  assert.deepEqual(sent(effects), [{ type: 'watch', league: {}, from: 0, count: 100 }, { type: 'ping' }]);
});

const PAGE = { type: 'page', version: 7, league: {}, from: 0, size: 6,
  rows: [[1, 'S1', 40], [2, 'S2', 25], [3, 'S3', 20], [4, 'S4', 12], [5, 'S5', 0], [5, 'S6', 0]] };

test('a page replaces the rows; the schools without a tap are left out but mine', () => {
  const [shown] = run(welcomed(), [{ type: 'show', screen: 'ranking' }]);
  const [state] = run(shown, server(PAGE));
  assert.equal(state.page, PAGE);
  assert.deepEqual(listRows(state).map((r) => [r.rank, r.school, r.total, r.mine]),
                   [[1, 'S1', 40, false], [2, 'S2', 25, false], [3, 'S3', 20, true], [4, 'S4', 12, false]]);
  const next = { ...PAGE, version: 8, rows: [[1, 'S2', 45], [2, 'S1', 40], [3, 'S3', 20], [4, 'S4', 12], [5, 'S5', 0], [5, 'S6', 0]] };
  const [replaced] = run(state, server(next));
  assert.deepEqual(listRows(replaced).map((r) => r.school), ['S2', 'S1', 'S3', 'S4']);
  assert.equal(update(replaced, server({ ...PAGE, league: { level: 'middle' } })[0], 0).state, replaced, 'a page not asked for');
});

test('my school past the rows shown is added at its place in the league, from the view', () => {
  const [shown] = run(welcomed(), server(VIEW), [{ type: 'show', screen: 'ranking' }], [{ type: 'league', level: 'high', province: '' }]);
  const [state] = run(shown, server({ ...PAGE, league: { level: 'high' }, rows: [[1, 'S1', 40], [2, 'S2', 25]] }));
  assert.deepEqual(listRows(state).map((r) => [r.rank, r.school, r.total, r.mine]),
                   [[1, 'S1', 40, false], [2, 'S2', 25, false], [3, 'S3', 20, true]]);
  const [middle] = run(shown, [{ type: 'league', level: 'middle', province: '' }], server({ ...PAGE, league: { level: 'middle' }, rows: [[1, 'S6', 2]] }));
  assert.deepEqual(listRows(middle).map((r) => r.school), ['S6'], 'not a league of mine');
});

test('▲/▼: against the same page a moment ago, taken again every 10 s', () => {
  const [shown] = run(welcomed(), [{ type: 'show', screen: 'ranking' }], server(PAGE));
  assert.deepEqual([...movements(shown)].filter(([, moved]) => moved !== 0), []);
  const [passed] = run(shown, server({ ...PAGE, rows: [[1, 'S3', 50], [2, 'S1', 40], [3, 'S2', 25], [4, 'S4', 12], [5, 'S5', 1], [6, 'S6', 0]] }));
  assert.deepEqual(Object.fromEntries(movements(passed)), { S3: 2, S1: -1, S2: -1, S4: 0, S5: 0, S6: 0 });
  const [later] = run(passed, [{ type: 'baselineTick' }]);
  assert.deepEqual([...movements(later)].filter(([, moved]) => moved !== 0), []);
  const [other] = run(passed, [{ type: 'league', level: 'high', province: '' }], server({ ...PAGE, league: { level: 'high' } }));
  assert.deepEqual([...movements(other)].filter(([, moved]) => moved !== 0), [], 'another league starts again');
});

test('the page stream\'s address names the league and the places', () => {
  assert.equal(pageStreamURL({ league: {}, from: 0, count: 11 }), '/v1/board?count=11&from=0');
  assert.equal(pageStreamURL({ league: { level: 'high', province: '서울특별시' }, from: 20, count: 11 }),
               '/v1/board?count=11&from=20&level=high&province=%EC%84%9C%EC%9A%B8%ED%8A%B9%EB%B3%84%EC%8B%9C');
});

/** The projector, its stream connected, shown `rows` for the page from `from`: [rank, id, total]. */
function projector(from, rows, state = run(initialState({ projector: true, join: 'http://10.0.0.5:8080/' }), [{ type: 'start' }])[0]) {
  return run(state, [{ type: 'boardPage', page: { type: 'page', version: 1, league: {}, from, size: 500, rows } }]);
}
const ranked = (from, count, played) => Array.from({ length: count }, (_, i) => [from + i + 1 > played ? played + 1 : from + i + 1, `S${from + i + 1}`,
                                                                                   from + i + 1 > played ? 0 : 1000 - from - i]);

test('the projector streams a page of ten rows and one more, which says whether a next page has taps', () => {
  const [started, effects] = run(initialState({ projector: true, join: 'http://10.0.0.5:8080/' }), [{ type: 'start' }]);
  assert.deepEqual(effects.filter((e) => e.type === 'watchBoard'), [{ type: 'watchBoard', url: '/v1/board?count=11&from=0&map=1' }]);
  assert.equal(started.stream, 'connecting');
  const [first] = projector(0, ranked(0, 11, 25), started);
  assert.equal(first.stream, 'live');
  assert.equal(listRows(first).length, 10, 'the eleventh row is not shown');
  assert.deepEqual(projectorPosition(first), { page: 1, pages: null }, 'how many pages, not known yet');
  const [second, turned] = run(first, [{ type: 'pageTick' }]);
  assert.equal(second.projectorPage, 1);
  assert.deepEqual(turned, [{ type: 'watchBoard', url: '/v1/board?count=11&from=10&map=1' }]);
  assert.equal(second.stream, 'live', 'the last page stays shown until the next comes');
  const [third] = projector(20, ranked(20, 11, 25), run(second, [{ type: 'boardPage', page: { type: 'page', version: 1, league: {}, from: 10, size: 500, rows: ranked(10, 11, 25) } }],
                                                    [{ type: 'pageTick' }])[0]);
  assert.deepEqual(listRows(third).map((r) => r.school), ['S21', 'S22', 'S23', 'S24', 'S25']);
  assert.deepEqual(projectorPosition(third), { page: 3, pages: 3 }, 'the first school without a tap tells how many have');
  const [back, again] = run(third, [{ type: 'pageTick' }]);
  assert.equal(back.projectorPage, 0);
  assert.deepEqual(again, [{ type: 'watchBoard', url: '/v1/board?count=11&from=0&map=1' }]);
  assert.deepEqual(projectorPosition(projector(0, ranked(0, 11, 25), back)[0]), { page: 1, pages: 3 });
});

test('the projector with a single page stays on it; a league chosen starts again from its first page', () => {
  const [one] = projector(0, ranked(0, 11, 4));
  assert.deepEqual(run(one, [{ type: 'pageTick' }])[1], []);
  assert.equal(projectorPosition(one), null);
  const [turned] = run(projector(0, ranked(0, 11, 40))[0], [{ type: 'pageTick' }]);
  const [high, effects] = run(turned, [{ type: 'league', level: 'high', province: '' }]);
  assert.equal(high.projectorPage, 0);
  assert.deepEqual(effects, [{ type: 'watchBoard', url: '/v1/board?count=11&from=0&level=high&map=1' }]);
  assert.equal(high.projectorPages, 0, 'nothing known of the new league');
});

test('a tab waiting for the device streams the national page, and its header reads the school there', () => {
  const record = { ...EMPTY, battle: BATTLE, player: { school: 'S3', taps: 8, best: 1 } };
  const [waiting, effects] = run(initialState({ school: 'S3' }), [{ type: 'directory', directory: DIRECTORY }], [{ type: 'waiting', record }]);
  assert.deepEqual(effects, [{ type: 'watchBoard', url: '/v1/board?count=100&from=0' }, { type: 'loadView', school: 'S3' },
                             { type: 'after', name: 'viewPoll', ms: 2000, message: { type: 'pollView' } }]);
  const [state] = run(waiting, [{ type: 'boardPage', page: PAGE }]);
  assert.deepEqual(standing(state), { total: 20, rank: 3, gap: { school: 'S2', taps: 6 } });
  assert.deepEqual(miniRows(state).map((r) => r.school), ['S1', 'S2', 'S3', 'S4'], 'S5 has no tap');
  const [board, shown] = run(state, [{ type: 'show', screen: 'ranking' }], [{ type: 'league', level: 'middle', province: '' }]);
  assert.deepEqual(shown, [{ type: 'watchBoard', url: '/v1/board?count=100&from=0&level=middle' }]);
  assert.equal(board.stream, 'live');
  const [playing, granted] = run(board, [{ type: 'granted', record, device: DEVICE, freshDevice: 'x', school: 'S3' }]);
  assert.deepEqual(granted.slice(0, 3), [{ type: 'cancel', name: 'boardRetry' }, { type: 'unwatchBoard' }, { type: 'cancel', name: 'viewPoll' }]);
  assert.equal(playing.stream, 'none');
});

test('a tab waiting for the device reads its school\'s view every 2 s: its rank where the streamed page does not reach', () => {
  const record = { ...EMPTY, battle: BATTLE, player: { school: 'S6', taps: 8, best: 1 } };
  const [waiting] = run(initialState({ school: 'S6' }), [{ type: 'directory', directory: DIRECTORY }], [{ type: 'waiting', record }],
                        [{ type: 'boardPage', page: { ...PAGE, size: 2000, rows: PAGE.rows.slice(0, 4) } }]);
  assert.deepEqual(standing(waiting), { total: 0, rank: null, gap: null }, 'S6 is not on the page');
  // The view of S6, 140th of 2,000 nationally, 3 taps behind S9.
  const view = { type: 'view', version: 9, school: 'S6', total: 57, ranks: [[140, 2000, 3], [12, 600, 3], [30, 500, 3], [5, 80, 3]],
                 above: [[139, 'S9', 60]], below: [[141, 'S8', 50]], top: [[1, 'S1', 40]] };
  const [read] = run(waiting, [{ type: 'viewLoaded', view }]);
  assert.deepEqual(standing(read), { total: 57, rank: 140, gap: { school: 'S9', taps: 4 } });
  assert.equal(run(read, [{ type: 'viewLoaded', view: { ...view, school: 'S5' } }])[0], read, 'another school\'s view is not mine');
  // Again 2 s later, for as long as it waits.
  assert.deepEqual(run(read, [{ type: 'pollView' }])[1],
                   [{ type: 'loadView', school: 'S6' }, { type: 'after', name: 'viewPoll', ms: 2000, message: { type: 'pollView' } }]);
  // Once it plays, its socket's views: a late answer and a late alarm change nothing.
  const [playing] = run(read, [{ type: 'granted', record, device: DEVICE, freshDevice: 'x', school: 'S6' }]);
  assert.equal(run(playing, [{ type: 'viewLoaded', view: { ...view, total: 99 } }])[0], playing);
  assert.deepEqual(run(playing, [{ type: 'pollView' }]), [playing, []]);
});

test('the page stream closed is asked again in 10 s', () => {
  const [live] = projector(0, ranked(0, 11, 4));
  const [closed, effects] = run(live, [{ type: 'boardError', closed: true }]);
  assert.equal(closed.stream, 'none');
  assert.deepEqual(effects, [{ type: 'after', name: 'boardRetry', ms: 10000, message: { type: 'watchAgain' } }]);
  assert.deepEqual(run(closed, [{ type: 'watchAgain' }])[1], [{ type: 'watchBoard', url: '/v1/board?count=11&from=0&map=1' }]);
  assert.equal(run(live, [{ type: 'boardError', closed: false }])[0].stream, 'connecting');
});

test('the projector says, beside its code, when no phone can open the address it shows, and what to run instead', () => {
  // `touchschool serve` on 127.0.0.1: the server's join addresses are this machine's loopback only.
  const opened = (join) => runningPage(run(initialState({ projector: true, join }), [{ type: 'start' }])[0]);
  const ko = opened('http://127.0.0.1:8080/');
  assert.equal(ko.shown('join-warning'), false, 'nothing said before the server answered');
  ko.send({ type: 'join', addresses: ['http://127.0.0.1:8080/'] });
  assert.equal(ko.text('join-url'), 'http://127.0.0.1:8080/');
  assert.equal(ko.text('join-warning'),
               '휴대폰에서는 이 주소를 열 수 없습니다. 이 컴퓨터에서만 접속할 수 있습니다. 다른 기기도 들어오게 하려면: touchschool serve --host 0.0.0.0');
  assert.ok(ko.shown('join-warning'));
  const en = runningPage(run(initialState({ projector: true, join: 'http://localhost:8080/' }), [{ type: 'start' }])[0], 'en');
  en.send({ type: 'join', addresses: ['http://localhost:8080/'] });
  assert.equal(en.text('join-warning'),
               'Phones cannot open this address. Only this machine can join. To let other devices in: touchschool serve --host 0.0.0.0');
  // On every interface of a machine on no network: nothing to run, a network to join.
  en.send({ type: 'join', addresses: [] });
  assert.equal(en.text('join-warning'), 'Phones cannot open this address: this computer is on no network.');
  // A server phones reach: its address, and nothing to warn of.
  const lan = opened('http://127.0.0.1:8080/').send({ type: 'join', addresses: ['http://127.0.0.1:8080/', 'http://10.0.0.5:8080/'] });
  assert.equal(lan.text('join-url'), 'http://10.0.0.5:8080/');
  assert.equal(lan.shown('join-warning'), false);
  // Opened at the address phones use (a school's domain, behind a proxy): no question asked, nothing said.
  const [domain, effects] = run(initialState({ projector: true, join: 'https://touch.school.kr/' }), [{ type: 'start' }]);
  assert.ok(!effects.some((e) => e.type === 'findJoin'));
  assert.equal(runningPage(domain).shown('join-warning'), false);
});

test('the header names the player once: the name chosen after its label, the default name alone (it says "player" itself)', () => {
  const ko = runningPage(initialState({ defaultPlayer: '웹 플레이어' }));
  assert.equal(ko.text('player'), '웹 플레이어');
  ko.send({ type: 'name', text: ' 김하늘 ' });
  assert.equal(ko.text('player'), '플레이어 김하늘');
  const en = runningPage(initialState({ defaultPlayer: 'web player' }), 'en');
  assert.equal(en.text('player'), 'web player');
  en.send({ type: 'name', text: 'Kim' });
  assert.equal(en.text('player'), 'player Kim');
  assert.equal(runningPage(initialState({ projector: true, defaultPlayer: '웹 플레이어' })).text('player'), '', 'the projector plays as nobody');
});

test('the play hint names the keyboard only where there is one: not on a touch screen, even one that says its pointer is fine', () => {
  // Some phones (and every touch laptop) say they have a fine pointer that hovers: a touch
  // screen waits for a mouse actually used.
  assert.equal(keyboardAtHand({ finePointer: true, touchPoints: 5, mouseSeen: false }), false);
  assert.equal(keyboardAtHand({ finePointer: true, touchPoints: 5, mouseSeen: true }), true);
  assert.equal(keyboardAtHand({ finePointer: true, touchPoints: 0, mouseSeen: false }), true, 'a computer');
  assert.equal(keyboardAtHand({ finePointer: false, touchPoints: 0, mouseSeen: false }), false, 'nothing said: not until a mouse is used');
  assert.equal(keyboardAtHand({ finePointer: false, touchPoints: 1, mouseSeen: false }), false, 'a phone');
  const phone = runningPage(initialState({ school: 'S3', keyboardHint: false })).send({ type: 'start' });
  assert.equal(phone.text('play-hint'), '화면을 마구 터치하세요!');
  assert.equal(phone.send({ type: 'keyboardHint', on: true }).text('play-hint'), '화면을 마구 터치하세요! (키보드: Space 또는 Enter)');
});

test('a school without a tap has no rank on the side list, as on the terminal and in `rank`: "-", not the first place it shares', () => {
  const page = runningPage(welcomed());
  const start = { ...VIEW, total: 0, ranks: [[1, 6, null]], above: [[1, 'S1', 0]], below: [[1, 'S4', 0]], top: [[1, 'S1', 0], [1, 'S3', 0]] };
  page.send(server(start)[0]);
  const ranks = () => page.element('mini-list').children.map((row) => row.children[0].text);
  assert.ok(ranks().length > 0);
  assert.ok(ranks().every((rank) => rank === '-'), `ranks shown: ${ranks()}`);
  page.send(...tap);
  assert.equal(ranks()[0], '1', 'my first tap gives my school the first place');
  assert.ok(ranks().slice(1).every((rank) => rank === '-'));
});

// Every refusal a player can meet says what to do first, then why (the terminal's words,
// Sources/TouchSchoolView/Strings.swift `refusal(_:)`), in the page's language; the taps wait.
const REFUSALS = [
  [4003, '운영자에게 문의하세요: 이 주소는 차단되어 서버가 받지 않습니다. 터치 2번 대기 중, 계속 터치하세요',
    'Ask the operator: this address is banned, so the server refuses it. 2 taps waiting; keep tapping'],
  [4007, '운영자에게 자리를 요청하세요: 대항전이 가득 차서 새 기기를 받지 않습니다. 터치 2번 대기 중, 계속 터치하세요',
    'Ask the operator for room: the battle is full and takes no new device. 2 taps waiting; keep tapping'],
  [4029, '운영자에게 문의하세요: 이 주소에서 서버가 받는 것보다 많이 접속합니다. 터치 2번 대기 중, 계속 터치하세요',
    'Ask the operator: too many devices connect from this address for the server. 2 taps waiting; keep tapping'],
];

test('a server that refuses the device (4003, 4007, 4029) is said as such, what to do first, until it welcomes it', () => {
  for (const [code, ko, en] of REFUSALS) {
    for (const [lang, said] of [['ko', ko], ['en', en]]) {
      const page = runningPage(welcomed(), lang).send(...tap).send(...tap).send({ type: 'socketClosed', code, reason: '' }, 1100);
      assert.equal(page.text('status'), said, `${code} ${lang}`);
      assert.equal(page.element('status').className, 'offline');
      // Asked again a minute later: while it connects, the refusal still stands.
      assert.deepEqual(page.effects, [{ type: 'after', name: 'retry', ms: 60000, message: { type: 'reconnect' } }], `${code}`);
      assert.equal(page.send({ type: 'reconnect' }, 61100).text('status'), said, `${code} ${lang} reconnecting`);
      page.send({ type: 'server', message: { type: 'welcome', protocol: 2, battle: BATTLE, lastSeq: 0, player: PLAYER, catalog: 'c1' } }, 61200);
      assert.equal(page.text('status'), lang === 'ko' ? '연결됨' : 'Online', 'welcomed: the refusal is over');
    }
  }
  // A server gone after a refusal is offline, not refused.
  const gone = runningPage(welcomed(), 'en').send({ type: 'socketClosed', code: 4007, reason: '' }).send({ type: 'reconnect' })
    .send({ type: 'socketClosed', code: 1006, reason: '' });
  assert.equal(gone.text('status'), 'Offline');
});

test('the other ends the server can give a playing page say what to do first: reload, ask the operator', () => {
  const stopped = (message, lang) => runningPage(welcomed(), lang).send(message).text('status');
  const version = { type: 'socketClosed', code: 4000, reason: '' };
  assert.equal(stopped(version, 'ko'), '새로 고침하세요: 이 페이지는 서버의 프로토콜 버전과 맞지 않습니다.');
  assert.equal(stopped(version, 'en'), 'Reload the page: it does not speak the server\'s protocol version.');
  const again = { type: 'socketClosed', code: 1000, reason: 'this device connected again' };
  assert.equal(stopped(again, 'ko'), '여기서 하려면 새로 고침하세요: 다른 창에서 플레이 중입니다.');
  assert.equal(stopped(again, 'en'), 'Reload to play here: the game is playing in another window.');
  const lost = { type: 'lost', to: 'x' };
  assert.equal(stopped(lost, 'ko'), '여기서 하려면 새로 고침하세요: 다른 탭이 플레이를 가져갔습니다.');
  assert.equal(stopped(lost, 'en'), 'Reload to play here: another tab took over the game.');
  // A banned device is not closed: each refused batch's acknowledgement says so.
  const banned = (lang) => runningPage(welcomed(), lang).send(...tap)
    .send({ type: 'sealTick' }, 2000).send(server({ type: 'ack', seq: 1, refused: 1, banned: true, player: PLAYER })[0], 2100).text('warning');
  assert.equal(banned('ko'), '운영자에게 문의하세요: 차단된 기기라 터치가 세지 않습니다.');
  assert.equal(banned('en'), 'Ask the operator: this device is banned; its taps do not count.');
});

test('the taps waiting are counted in the status from the thousands too, grouped, refused or offline', () => {
  const closed = (code, lang) => runningPage({ ...welcomed(), waitingTaps: 1200 }, lang).send({ type: 'socketClosed', code, reason: '' }).text('status');
  assert.equal(closed(4007, 'en'), 'Ask the operator for room: the battle is full and takes no new device. 1,200 taps waiting; keep tapping');
  assert.equal(closed(4029, 'ko'), '운영자에게 문의하세요: 이 주소에서 서버가 받는 것보다 많이 접속합니다. 터치 1,200번 대기 중, 계속 터치하세요');
  assert.equal(closed(1006, 'en'), 'Offline · 1,200 taps waiting');
  assert.equal(closed(1006, 'ko'), '오프라인 · 1,200번 대기 중');
});

test('English counts read as a person reads them: "1 tap", "2 taps", in the header, the status and every count', () => {
  const page = runningPage(welcomed(), 'en').send(server(VIEW)[0], 900);
  // Six taps overtake S2 (25 against 20); each tap counts down.
  for (let i = 0; i < 4; i++) page.send({ type: 'tap', x: 1, y: 1 }, 1000 + 300 * i);
  assert.equal(page.text('gap'), '2 taps to overtake 휘문고등학교');
  // A school by name is always 2 taps away or more (a tie only shares the place); a crowd tied with mine hides it.
  const crowd = { ...VIEW, total: 0, ranks: [[5, 6, 0]], above: [[5, 'S4', 0], [5, 'S6', 0]], below: [] };
  assert.equal(runningPage(welcomed(), 'en').send(server(crowd)[0], 900).text('gap'), '1 tap to climb a place');
  const closed = (code, waitingTaps) => runningPage({ ...welcomed(), waitingTaps }, 'en').send({ type: 'socketClosed', code, reason: '' }).text('status');
  assert.equal(closed(1006, 1), 'Offline · 1 tap waiting');
  assert.equal(closed(1006, 2), 'Offline · 2 taps waiting');
  assert.equal(closed(4007, 1), 'Ask the operator for room: the battle is full and takes no new device. 1 tap waiting; keep tapping');
  const en = TEXT.en;
  assert.deepEqual([en.gapOnly(1), en.gapOnly(1234), en.speed(1, 1), en.confirmKeeps(1), en.roundResultDetail(1, 4), en.found(1), en.foundMore(1)],
                   ['1 tap to climb a place', '1,234 taps to climb a place', '1 tap/s · best 1', 'Your 1 tap stays in your current school\'s total.',
                    '1 tap · of 4', '1 school', 'More than 1 school']);
  // Korean has no plural: the same words for one and for many, grouped all the same.
  assert.deepEqual([TEXT.ko.gapOnly(1), TEXT.ko.gapOnly(1234), TEXT.ko.offline(1)], ['1번 더 터치하면 한 계단 위', '1,234번 더 터치하면 한 계단 위', '오프라인 · 1번 대기 중']);
});

// Protocol 2 in the page (Web/update.js, Web/state.js): each screen receives only what it shows.
// The playing tab's header and side list come from its school's `view`; the ranking asks for the
// page of its league with `watch`; the projector and a tab waiting for the device stream the page
// they show (`GET /v1/board?count=…`). The expectations are written out by hand. `node --test Tests/Page`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { update, pageStreamURL } from '../../Sources/TouchSchoolServer/Page/Web/update.js';
import { initialState, standing, miniRows, listRows, movements, schoolTotal, projectorPosition }
  from '../../Sources/TouchSchoolServer/Page/Web/state.js';

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
             server({ type: 'welcome', protocol: 2, battle: BATTLE, lastSeq: 0, player: PLAYER, catalog: 'c1' }))[0];
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
  const [shown, effects] = run(welcomed(), [{ type: 'show', view: 'board' }]);
  assert.deepEqual(sent(effects), [{ type: 'watch', league: {}, from: 0, count: 100 }]);
  const [high, again] = run(shown, [{ type: 'league', level: 'high', province: '' }]);
  assert.deepEqual(sent(again), [{ type: 'watch', league: { level: 'high' }, from: 0, count: 100 }]);
  const [mine, mineFx] = run(high, [{ type: 'myLeague' }]);
  assert.deepEqual(sent(mineFx), [{ type: 'watch', league: { level: 'high', province: '서울특별시' }, from: 0, count: 100 }]);
  assert.deepEqual(sent(run(mine, [{ type: 'myLeague' }])[1]), [], 'the same league: nothing new to ask');
  assert.deepEqual(sent(run(mine, [{ type: 'show', view: 'game' }])[1]), [{ type: 'watch' }]);
});

test('the ranking is asked for again on a new connection, not while offline', () => {
  const [shown] = run(welcomed(), [{ type: 'show', view: 'board' }], [{ type: 'socketClosed', code: 1006, reason: '' }]);
  const [, offline] = run(shown, [{ type: 'league', level: 'middle', province: '' }]);
  assert.deepEqual(sent(offline), []);
  const [, effects] = run(shown, [{ type: 'socketOpen' }],
                          server({ type: 'welcome', protocol: 2, battle: BATTLE, lastSeq: 0, player: PLAYER, catalog: 'c1' }));
  assert.deepEqual(sent(effects), [{ type: 'watch', league: {}, from: 0, count: 100 }, { type: 'ping' }]);
});

const PAGE = { type: 'page', version: 7, league: {}, from: 0, size: 6,
  rows: [[1, 'S1', 40], [2, 'S2', 25], [3, 'S3', 20], [4, 'S4', 12], [5, 'S5', 0], [5, 'S6', 0]] };

test('a page replaces the rows; the schools without a tap are left out but mine', () => {
  const [shown] = run(welcomed(), [{ type: 'show', view: 'board' }]);
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
  const [shown] = run(welcomed(), server(VIEW), [{ type: 'show', view: 'board' }], [{ type: 'league', level: 'high', province: '' }]);
  const [state] = run(shown, server({ ...PAGE, league: { level: 'high' }, rows: [[1, 'S1', 40], [2, 'S2', 25]] }));
  assert.deepEqual(listRows(state).map((r) => [r.rank, r.school, r.total, r.mine]),
                   [[1, 'S1', 40, false], [2, 'S2', 25, false], [3, 'S3', 20, true]]);
  const [middle] = run(shown, [{ type: 'league', level: 'middle', province: '' }], server({ ...PAGE, league: { level: 'middle' }, rows: [[1, 'S6', 2]] }));
  assert.deepEqual(listRows(middle).map((r) => r.school), ['S6'], 'not a league of mine');
});

test('▲/▼: against the same page a moment ago, taken again every 10 s', () => {
  const [shown] = run(welcomed(), [{ type: 'show', view: 'board' }], server(PAGE));
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
function projector(from, rows, state = run(initialState({ boardOnly: true, join: 'http://10.0.0.5:8080/' }), [{ type: 'start' }])[0]) {
  return run(state, [{ type: 'boardPage', page: { type: 'page', version: 1, league: {}, from, size: 500, rows } }]);
}
const ranked = (from, count, played) => Array.from({ length: count }, (_, i) => [from + i + 1 > played ? played + 1 : from + i + 1, `S${from + i + 1}`,
                                                                                   from + i + 1 > played ? 0 : 1000 - from - i]);

test('the projector streams a page of ten rows and one more, which says whether a next page has taps', () => {
  const [started, effects] = run(initialState({ boardOnly: true, join: 'http://10.0.0.5:8080/' }), [{ type: 'start' }]);
  assert.deepEqual(effects.filter((e) => e.type === 'watchBoard'), [{ type: 'watchBoard', url: '/v1/board?count=11&from=0' }]);
  assert.equal(started.stream, 'connecting');
  const [first] = projector(0, ranked(0, 11, 25), started);
  assert.equal(first.stream, 'live');
  assert.equal(listRows(first).length, 10, 'the eleventh row is not shown');
  assert.deepEqual(projectorPosition(first), { page: 1, pages: null }, 'how many pages, not known yet');
  const [second, turned] = run(first, [{ type: 'pageTick' }]);
  assert.equal(second.projectorPage, 1);
  assert.deepEqual(turned, [{ type: 'watchBoard', url: '/v1/board?count=11&from=10' }]);
  assert.equal(second.stream, 'live', 'the last page stays shown until the next comes');
  const [third] = projector(20, ranked(20, 11, 25), run(second, [{ type: 'boardPage', page: { type: 'page', version: 1, league: {}, from: 10, size: 500, rows: ranked(10, 11, 25) } }],
                                                    [{ type: 'pageTick' }])[0]);
  assert.deepEqual(listRows(third).map((r) => r.school), ['S21', 'S22', 'S23', 'S24', 'S25']);
  assert.deepEqual(projectorPosition(third), { page: 3, pages: 3 }, 'the first school without a tap tells how many have');
  const [back, again] = run(third, [{ type: 'pageTick' }]);
  assert.equal(back.projectorPage, 0);
  assert.deepEqual(again, [{ type: 'watchBoard', url: '/v1/board?count=11&from=0' }]);
  assert.deepEqual(projectorPosition(projector(0, ranked(0, 11, 25), back)[0]), { page: 1, pages: 3 });
});

test('the projector with a single page stays on it; a league chosen starts again from its first page', () => {
  const [one] = projector(0, ranked(0, 11, 4));
  assert.deepEqual(run(one, [{ type: 'pageTick' }])[1], []);
  assert.equal(projectorPosition(one), null);
  const [turned] = run(projector(0, ranked(0, 11, 40))[0], [{ type: 'pageTick' }]);
  const [high, effects] = run(turned, [{ type: 'league', level: 'high', province: '' }]);
  assert.equal(high.projectorPage, 0);
  assert.deepEqual(effects, [{ type: 'watchBoard', url: '/v1/board?count=11&from=0&level=high' }]);
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
  const [board, shown] = run(state, [{ type: 'show', view: 'board' }], [{ type: 'league', level: 'middle', province: '' }]);
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
  assert.deepEqual(run(closed, [{ type: 'watchAgain' }])[1], [{ type: 'watchBoard', url: '/v1/board?count=11&from=0' }]);
  assert.equal(run(live, [{ type: 'boardError', closed: false }])[0].stream, 'connecting');
});

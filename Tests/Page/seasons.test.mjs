// Seasons on the page (Web/update/seasons.js, Web/view/season.js): the `season` message and the
// projector's `season` event, the period the ranking and the game's rank count (the season by
// default, all time by the toggle or `?board&period=all`), and the projector's hall of fame
// between rounds. The expectations are written out by hand. `node --test Tests/Page`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { update, pageStreamURL } from '../../Sources/TouchSchoolServer/Page/Web/update.js';
import { initialState } from '../../Sources/TouchSchoolServer/Page/Web/state.js';
import { runningPage } from './dom.mjs';

const BATTLE = 'battleAAAAAAAAAAAAAA';
const DEVICE = 'q3R8sU0vW1xY2zA3bC4dE5fG6hI7jK8lM9nO0pQ1rS2';
const EMPTY = { battle: null, box: { nextSeq: 1, batches: [] }, open: null, player: { school: null, taps: 0, best: 0 } };
const DAY = 86400000;

function run(state, ...messages) {
  let effects = [];
  for (const [message, now] of messages) ({ state, effects } = update(state, message, now ?? 0));
  return [state, effects];
}
const sent = (effects) => effects.filter((e) => e.type === 'send').map((e) => e.message);
const server = (message) => [{ type: 'server', message }];
const of = (effects, type) => effects.filter((e) => e.type === type);

/** Korea's week of Monday 23 November 2026 (00:00 in Korea: 15:00 UTC the day before), and the next. */
const WEEK = { id: 'week-2968', length: 'week', number: 2968, startsAtMs: Date.UTC(2026, 10, 22, 15), endsAtMs: Date.UTC(2026, 10, 29, 15), graceMs: 5000 };
const NEXT = { ...WEEK, id: 'week-2969', number: 2969, startsAtMs: WEEK.endsAtMs, endsAtMs: WEEK.endsAtMs + 7 * DAY };
/** December 2026 in Korea. */
const MONTH = { id: 'month-683', length: 'month', number: 683, startsAtMs: Date.UTC(2026, 10, 30, 15), endsAtMs: Date.UTC(2026, 11, 31, 15), graceMs: 5000 };

const DIRECTORY = { catalog: 'c1', fields: ['id', 'name', 'level', 'province', 'district'], schools: [
  ['S1', '한국과학영재학교', 'high', '부산광역시', null], ['S2', '휘문고등학교', 'high', '서울특별시', '강남구'],
  ['S3', '민족사관고등학교', 'high', '강원특별자치도', '횡성군'], ['S4', '서울고등학교', 'high', '서울특별시', '서초구'],
  ['S5', '대치중학교', 'middle', '서울특별시', '강남구']] };

/** S3's view: third at 20 (the season's numbers or all time's: the same shape). */
const VIEW = { type: 'view', version: 7, school: 'S3', total: 20, ranks: [[3, 5, 5]],
  above: [[1, 'S1', 40], [2, 'S2', 25]], below: [[4, 'S4', 12]], top: [[1, 'S1', 40], [2, 'S2', 25], [3, 'S3', 20]] };

/** A tab that plays for S3, welcomed, with the directory read and S3's view shown. */
function welcomed() {
  return run(initialState({ defaultPlayer: 'web player', join: 'http://192.168.0.10:8080/' }),
             [{ type: 'granted', record: EMPTY, device: DEVICE, freshDevice: 'x', school: 'S3' }],
             [{ type: 'directory', directory: DIRECTORY }], [{ type: 'socketOpen' }],
             server({ type: 'welcome', protocol: 2, battle: BATTLE, lastSeq: 0, player: { school: 'S3', taps: 0, best: 0 }, catalog: 'c1' }),
             server(VIEW))[0];
}

/** The projector (`/?board`, or with `period`), started, with the directory read. */
function projector(options = {}) {
  return run(initialState({ defaultPlayer: 'web player', join: 'http://192.168.0.10:8080/', projector: true, ...options }),
             [{ type: 'start' }], [{ type: 'directory', directory: DIRECTORY }]);
}

/** `GET /v1/seasons` at the server's `nowMs`: the current week (no hall yet) and the last, with its national hall. */
const FAME = [{ league: {}, place: 1, rank: 1, school: 'S2', total: 900 }, { league: {}, place: 2, rank: 2, school: 'S4', total: 500 },
              { league: {}, place: 3, rank: 3, school: 'S1', total: 70 }];
const LIST = { length: 'week', nowMs: NEXT.startsAtMs + 60000, seasons: [{ season: NEXT, fame: [] }, { season: WEEK, fame: FAME }] };
/** `GET /v1/seasons/week-2968`: every league's hall (the national one, and 서울특별시's high schools). */
const SEOUL_FAME = [{ league: { level: 'high', province: '서울특별시' }, place: 1, rank: 1, school: 'S2', total: 900 },
                    { league: { level: 'high', province: '서울특별시' }, place: 2, rank: 2, school: 'S4', total: 500 }];
const STANDING = { season: WEEK, nowMs: LIST.nowMs, schoolCount: 3, schools: [], fame: [...FAME, ...SEOUL_FAME] };

test('the `season` message is taken; the same season again changes nothing; null is no season', () => {
  const [state] = run(welcomed(), server({ type: 'season', season: WEEK }));
  assert.deepEqual(state.season, WEEK);
  const again = update(state, { type: 'server', message: { type: 'season', season: { ...WEEK } } }, 0);
  assert.equal(again.state, state);
  assert.equal(run(state, server({ type: 'season', season: null }))[0].season, null);
});

test('the ranking watches the season by default; the toggle asks for all time and back, each time from the first rows', () => {
  const [shown, effects] = run(welcomed(), server({ type: 'season', season: WEEK }), [{ type: 'show', screen: 'ranking' }]);
  assert.deepEqual(sent(effects), [{ type: 'watch', league: {}, from: 0, count: 100 }]);
  const [page] = run(shown, server({ type: 'page', version: 3, league: {}, from: 0, size: 5, rows: [[1, 'S1', 40]] }));
  const [all, allEffects] = run(page, [{ type: 'togglePeriod' }]);
  assert.equal(all.period, 'all');
  assert.deepEqual(sent(allEffects), [{ type: 'watch', league: {}, from: 0, count: 100, period: 'all' }]);
  assert.equal(all.page, null, 'the season\'s page is not shown as all time\'s');
  const [back, backEffects] = run(all, [{ type: 'togglePeriod' }]);
  assert.equal(back.period, 'season');
  assert.deepEqual(sent(backEffects), [{ type: 'watch', league: {}, from: 0, count: 100 }]);
});

test('all time chosen, the game\'s view follows it too: a watch of no league says the period, again on a new connection', () => {
  const [all] = run(welcomed(), server({ type: 'season', season: WEEK }), [{ type: 'show', screen: 'ranking' }], [{ type: 'togglePeriod' }]);
  const [game, effects] = run(all, [{ type: 'show', screen: 'game' }]);
  assert.deepEqual(sent(effects), [{ type: 'watch', period: 'all' }]);
  const [, again] = run(game, [{ type: 'socketClosed', code: 1006, reason: '' }], [{ type: 'socketOpen' }],
                        server({ type: 'welcome', protocol: 2, battle: BATTLE, lastSeq: 0, player: { school: 'S3', taps: 0, best: 0 }, catalog: 'c1' }));
  assert.deepEqual(sent(again).filter((m) => m.type === 'watch'), [{ type: 'watch', period: 'all' }]);
  // The season's (the default): a new connection asks for nothing, as before seasons.
  const [, plain] = run(welcomed(), [{ type: 'socketClosed', code: 1006, reason: '' }], [{ type: 'socketOpen' }],
                        server({ type: 'welcome', protocol: 2, battle: BATTLE, lastSeq: 0, player: { school: 'S3', taps: 0, best: 0 }, catalog: 'c1' }));
  assert.deepEqual(sent(plain).filter((m) => m.type === 'watch'), []);
});

test('the phone\'s map shown with all time: the period is said before the map, again on a new connection (a watch says "no map")', () => {
  const [all] = run(welcomed(), server({ type: 'season', season: WEEK }), [{ type: 'show', screen: 'ranking' }], [{ type: 'togglePeriod' }]);
  const [map, effects] = run(all, [{ type: 'toggleMap' }]);
  assert.deepEqual(sent(effects), [{ type: 'watch', period: 'all' }, { type: 'map', show: true }]);
  const [, again] = run(map, [{ type: 'socketClosed', code: 1006, reason: '' }], [{ type: 'socketOpen' }],
                        server({ type: 'welcome', protocol: 2, battle: BATTLE, lastSeq: 0, player: { school: 'S3', taps: 0, best: 0 }, catalog: 'c1' }));
  assert.deepEqual(sent(again).filter((m) => m.type !== 'ping'), [{ type: 'watch', period: 'all' }, { type: 'map', show: true }]);
  // Back to the season with the map shown: the season said, then the map; on a new connection the map alone, as before seasons.
  const [season, back] = run(map, [{ type: 'togglePeriod' }]);
  assert.deepEqual(sent(back), [{ type: 'watch' }, { type: 'map', show: true }]);
  const [, fresh] = run(season, [{ type: 'socketClosed', code: 1006, reason: '' }], [{ type: 'socketOpen' }],
                        server({ type: 'welcome', protocol: 2, battle: BATTLE, lastSeq: 0, player: { school: 'S3', taps: 0, best: 0 }, catalog: 'c1' }));
  assert.deepEqual(sent(fresh).filter((m) => m.type !== 'ping'), [{ type: 'map', show: true }]);
});

test('the streams and the view read over HTTP name all time; the season is their default', () => {
  assert.equal(pageStreamURL({ league: {}, from: 0, count: 11 }, false, 'all'), '/v1/board?count=11&from=0&period=all');
  assert.equal(pageStreamURL({ league: {}, from: 0, count: 11 }, false, 'season'), '/v1/board?count=11&from=0');
  assert.equal(projector({ period: 'all' })[0].streaming, '/v1/board?count=11&from=0&map=1&period=all');
  const [, started] = run(initialState({ projector: true, period: 'all', join: 'http://192.168.0.10:8080/' }), [{ type: 'start' }]);
  assert.deepEqual(of(started, 'watchBoard').map((e) => e.url), ['/v1/board?count=11&from=0&map=1&period=all']);
  const [waiting, polled] = run(initialState({ school: 'S3', period: 'all' }), [{ type: 'waiting', record: EMPTY }]);
  assert.deepEqual(of(polled, 'loadView'), [{ type: 'loadView', school: 'S3', period: 'all' }]);
  assert.equal(waiting.streaming, '/v1/board?count=100&from=0&period=all');
});

test('the season turned: its ▲/▼ start again from the new season\'s first page', () => {
  const [shown] = run(welcomed(), server({ type: 'season', season: WEEK }), [{ type: 'show', screen: 'ranking' }],
                      server({ type: 'page', version: 3, league: {}, from: 0, size: 5, rows: [[1, 'S1', 40], [2, 'S2', 25]] }));
  assert.ok(shown.baseline);
  const [turned] = run(shown, server({ type: 'season', season: NEXT }));
  assert.equal(turned.baseline, null);
  const [fresh] = run(turned, server({ type: 'page', version: 4, league: {}, from: 0, size: 5, rows: [[1, 'S1', 0], [1, 'S2', 0]] }));
  assert.deepEqual(fresh.baseline.totals, [['S1', 0], ['S2', 0]]);
});

test('the phone says which period it ranks by, with the season\'s days on Korea\'s calendar, and the toggle names the other', () => {
  const ko = runningPage(welcomed()).send({ type: 'server', message: { type: 'season', season: WEEK } }).send({ type: 'show', screen: 'ranking' });
  assert.equal(ko.text('board-period'), '이번 주 (11월 23일–11월 29일)');
  assert.equal(ko.text('period-toggle'), '전체');
  assert.equal(ko.element('period-toggle').getAttribute('aria-pressed'), 'false');
  ko.send({ type: 'togglePeriod' });
  assert.equal(ko.text('board-period'), '전체');
  assert.equal(ko.text('period-toggle'), '이번 주');
  assert.equal(ko.element('period-toggle').getAttribute('aria-pressed'), 'true');
  const en = runningPage(welcomed(), 'en').send({ type: 'server', message: { type: 'season', season: WEEK } }).send({ type: 'show', screen: 'ranking' });
  assert.equal(en.text('board-period'), 'This week (Nov 23 – Nov 29)');
  assert.equal(en.text('period-toggle'), 'All time');
  en.send({ type: 'togglePeriod' });
  assert.equal(en.text('board-period'), 'All time');
  assert.equal(en.text('period-toggle'), 'This week');
  // A month's last day is the one before its end (endsAtMs − 1 ms), across a year's end too.
  const month = runningPage(welcomed()).send({ type: 'server', message: { type: 'season', season: MONTH } }).send({ type: 'show', screen: 'ranking' });
  assert.equal(month.text('board-period'), '이번 달 (12월 1일–12월 31일)');
  assert.equal(runningPage(welcomed(), 'en').send({ type: 'server', message: { type: 'season', season: MONTH } })
    .send({ type: 'show', screen: 'ranking' }).text('board-period'), 'This month (Dec 1 – Dec 31)');
});

test('the game\'s rank says the period, short: "이번 주 3위", "#3 this week", "전체 3위", "#3 all time"', () => {
  const week = (lang) => runningPage(welcomed(), lang).send({ type: 'server', message: { type: 'season', season: WEEK } }).send({ type: 'show', screen: 'game' });
  assert.equal(week('ko').text('school-rank'), '이번 주 3위');
  assert.equal(week('en').text('school-rank'), '#3 this week');
  const all = (lang) => week(lang).send({ type: 'togglePeriod' }).send({ type: 'show', screen: 'game' });
  assert.equal(all('ko').text('school-rank'), '전체 3위');
  assert.equal(all('en').text('school-rank'), '#3 all time');
  const month = runningPage(welcomed()).send({ type: 'server', message: { type: 'season', season: MONTH } }).send({ type: 'show', screen: 'game' });
  assert.equal(month.text('school-rank'), '이번 달 3위');
});

test('no season: no toggle, no period said, the words of before', () => {
  for (const season of [undefined, null]) {
    const page = runningPage(welcomed());
    if (season === null) page.send({ type: 'server', message: { type: 'season', season: null } });
    page.send({ type: 'show', screen: 'game' });
    assert.equal(page.text('school-rank'), '전국 3위');
    page.send({ type: 'show', screen: 'ranking' });
    assert.equal(page.shown('period-toggle'), false);
    assert.equal(page.text('board-period'), '');
    assert.equal(page.text('board-title'), '순위');
  }
  const board = runningPage(projector()[0], 'en');
  assert.equal(board.text('board-title'), 'Ranking');
  assert.equal(board.shown('fame'), false);
  // The season gone (set to none), the projector shows its board as before.
  board.send({ type: 'boardSeason', season: WEEK }).send({ type: 'seasonsList', answer: LIST }).send({ type: 'boardSeason', season: null });
  assert.equal(board.text('board-title'), 'Ranking');
  assert.equal(board.shown('fame'), false);
  assert.equal(board.text('board-period'), '');
});

test('the projector\'s title says the period it shows: the season\'s, with its days, or all time by `?board&period=all`', () => {
  const ko = runningPage(projector()[0]).send({ type: 'boardSeason', season: WEEK });
  assert.equal(ko.text('board-title'), '이번 주 순위');
  assert.equal(ko.text('board-period'), '11월 23일–11월 29일');
  assert.equal(ko.shown('period-toggle'), false, 'the address chooses the projector\'s period');
  const en = runningPage(projector()[0], 'en').send({ type: 'boardSeason', season: WEEK });
  assert.equal(en.text('board-title'), 'This week\'s standings');
  assert.equal(en.text('board-period'), 'Nov 23 – Nov 29');
  const all = runningPage(projector({ period: 'all' })[0], 'en').send({ type: 'boardSeason', season: WEEK });
  assert.equal(all.text('board-title'), 'All-time standings');
  assert.equal(all.text('board-period'), '');
  assert.equal(runningPage(projector({ period: 'all' })[0]).send({ type: 'boardSeason', season: WEEK }).text('board-title'), '전체 순위');
  assert.equal(runningPage(projector()[0]).send({ type: 'boardSeason', season: MONTH }).text('board-title'), '이번 달 순위');
});

test('the projector reads the seasons when a season comes and when it turns; a phone does not', () => {
  const [state, effects] = run(projector()[0], [{ type: 'boardSeason', season: WEEK }]);
  assert.deepEqual(of(effects, 'loadSeasons'), [{ type: 'loadSeasons' }]);
  assert.deepEqual(of(run(state, [{ type: 'boardSeason', season: { ...WEEK } }])[1], 'loadSeasons'), [], 'the same season');
  assert.deepEqual(of(run(state, [{ type: 'boardSeason', season: NEXT }])[1], 'loadSeasons'), [{ type: 'loadSeasons' }], 'the season turned');
  assert.deepEqual(of(run(projector()[0], [{ type: 'boardSeason', season: null }])[1], 'loadSeasons'), [], 'no season, no hall');
  assert.deepEqual(of(run(welcomed(), server({ type: 'season', season: WEEK }))[1], 'loadSeasons'), []);
});

test('the hall shown is the last season\'s whose hall is taken; the national first three, with the directory\'s names', () => {
  const ko = runningPage(projector()[0]).send({ type: 'boardSeason', season: NEXT }).send({ type: 'seasonsList', answer: LIST });
  assert.equal(ko.shown('fame'), true);
  assert.equal(ko.text('fame-title'), '명예의 전당');
  assert.equal(ko.text('fame-season'), '지난 주 (11월 23일–11월 29일)');
  assert.equal(ko.text('fame-national'), '1 휘문고등학교 900 2 서울고등학교 500 3 한국과학영재학교 70');
  assert.equal(ko.shown('fame-league-box'), false, 'no league chosen');
  const en = runningPage(projector()[0], 'en').send({ type: 'boardSeason', season: NEXT }).send({ type: 'seasonsList', answer: LIST });
  assert.equal(en.text('fame-title'), 'Hall of fame');
  assert.equal(en.text('fame-season'), 'Last week (Nov 23 – Nov 29)');
  assert.equal(en.text('fame-national-box'), 'National 1 휘문고등학교 900 2 서울고등학교 500 3 한국과학영재학교 70');
  // A hall older than the season before the current one is named by its length and days.
  const older = { ...LIST, seasons: [{ season: { ...NEXT, id: 'week-2970', number: 2970, startsAtMs: NEXT.endsAtMs, endsAtMs: NEXT.endsAtMs + 7 * DAY }, fame: [] },
                                     { season: WEEK, fame: FAME }], nowMs: NEXT.endsAtMs + 3600000 };
  const later = runningPage(projector()[0]).send({ type: 'boardSeason', season: older.seasons[0].season }).send({ type: 'seasonsList', answer: older });
  assert.equal(later.text('fame-season'), '주간 (11월 23일–11월 29일)');
  // Ties share a rank, as the hall keeps it.
  const tied = { ...LIST, seasons: [{ season: NEXT, fame: [] }, { season: WEEK, fame: [{ ...FAME[0] }, { ...FAME[1], rank: 1, total: 900 }, FAME[2]] }] };
  assert.equal(runningPage(projector()[0]).send({ type: 'boardSeason', season: NEXT }).send({ type: 'seasonsList', answer: tied }).text('fame-national'),
               '1 휘문고등학교 900 1 서울고등학교 900 3 한국과학영재학교 70');
});

test('no hall taken yet: nothing shown; the season just ended is read again until its hall is taken', () => {
  const ended = { length: 'week', nowMs: NEXT.startsAtMs + 1000, seasons: [{ season: NEXT, fame: [] }, { season: WEEK, fame: [] }] };
  const [state, effects] = run(projector()[0], [{ type: 'boardSeason', season: NEXT }], [{ type: 'seasonsList', answer: ended }]);
  assert.equal(state.fame, null);
  assert.deepEqual(of(effects, 'after').map((e) => [e.name, e.ms, e.message.type]), [['fameRetry', 2000, 'fameRetry']]);
  assert.deepEqual(of(run(state, [{ type: 'fameRetry' }])[1], 'loadSeasons'), [{ type: 'loadSeasons' }]);
  const page = runningPage(state);
  assert.equal(page.shown('fame'), false);
  page.send({ type: 'seasonsList', answer: LIST });
  assert.equal(page.shown('fame'), true);
  assert.deepEqual(of(page.effects, 'after'), [], 'taken: no more asking');
  // A season that ended long ago without a hall (every server was down at its end) is not waited for.
  const never = { ...ended, nowMs: NEXT.startsAtMs + 600000 };
  assert.deepEqual(of(run(projector()[0], [{ type: 'boardSeason', season: NEXT }], [{ type: 'seasonsList', answer: never }])[1], 'after'), []);
  // Unreachable: asked again later.
  assert.deepEqual(of(run(state, [{ type: 'seasonsFailed' }])[1], 'after').map((e) => e.name), ['fameRetry']);
});

test('the projector\'s league: its first three beside the national ones, from the season\'s whole hall', () => {
  const [listed, effects] = run(projector()[0], [{ type: 'league', level: 'high', province: '서울특별시' }], [{ type: 'boardSeason', season: NEXT }],
                                [{ type: 'seasonsList', answer: LIST }]);
  assert.deepEqual(of(effects, 'loadSeason'), [{ type: 'loadSeason', id: 'week-2968' }]);
  const ko = runningPage(listed).send({ type: 'seasonDetail', answer: STANDING });
  assert.equal(ko.text('fame-league-box'), '고등학교 · 서울특별시 1 휘문고등학교 900 2 서울고등학교 500');
  assert.equal(ko.text('fame-national'), '1 휘문고등학교 900 2 서울고등학교 500 3 한국과학영재학교 70');
  // Another league chosen: its own rows, from the hall already read.
  ko.send({ type: 'league', level: 'high', province: '부산광역시' });
  assert.equal(ko.shown('fame-league-box'), false, 'no school of 부산광역시 in the hall');
  ko.send({ type: 'league', level: '', province: '' });
  assert.equal(ko.shown('fame-league-box'), false);
  // A league chosen after the list: the whole hall is read then.
  const [, later] = run(projector()[0], [{ type: 'boardSeason', season: NEXT }], [{ type: 'seasonsList', answer: LIST }],
                        [{ type: 'league', level: 'middle', province: '' }]);
  assert.deepEqual(of(later, 'loadSeason'), [{ type: 'loadSeason', id: 'week-2968' }]);
  // Another season's hall (an answer late after the turn) is not taken.
  const [other] = run(listed, [{ type: 'seasonDetail', answer: { ...STANDING, season: NEXT } }]);
  assert.equal(other, listed);
});

test('the hall shows between rounds only: not in the countdown, the race or on the podium, again once the podium is closed', () => {
  const round = { type: 'round', id: 4, title: '', startsAtMs: NEXT.startsAtMs + 100000, endsAtMs: NEXT.startsAtMs + 130000, graceMs: 2000,
                  final: false, nowMs: NEXT.startsAtMs + 97000, playerCount: 1, players: [], schools: [] };
  const page = runningPage(projector()[0]).send({ type: 'boardSeason', season: NEXT }).send({ type: 'seasonsList', answer: LIST });
  assert.equal(page.shown('fame'), true);
  page.send({ type: 'boardRound', round }, 0);
  assert.equal(page.shown('fame'), false, 'the countdown');
  page.send({ type: 'boardRound', round: { ...round, nowMs: round.startsAtMs + 5000 } }, 0);
  assert.equal(page.shown('fame'), false, 'the race');
  page.send({ type: 'boardRound', round: { ...round, final: true, nowMs: round.endsAtMs + 3000 } }, 0);
  assert.equal(page.state.roundStage.phase, 'final');
  assert.equal(page.shown('fame'), false, 'the podium');
  page.send({ type: 'dismissRound' }, 0);
  assert.equal(page.shown('fame'), true, 'back to the board');
  // A round on but taken off the screen by the teacher: still a round on, no hall.
  const racing = runningPage(projector()[0]).send({ type: 'boardSeason', season: NEXT }).send({ type: 'seasonsList', answer: LIST })
    .send({ type: 'boardRound', round: { ...round, nowMs: round.startsAtMs + 5000 } }, 0).send({ type: 'dismissRound' }, 0);
  assert.equal(racing.shown('board'), true);
  assert.equal(racing.shown('fame'), false);
});

test('names from the data reach the hall as text only', () => {
  const directory = { ...DIRECTORY, schools: [['S2', '<b>휘문</b>', 'high', '서울특별시', null]] };
  const page = runningPage(projector()[0]).send({ type: 'directory', directory }).send({ type: 'boardSeason', season: NEXT })
    .send({ type: 'seasonsList', answer: LIST });
  assert.ok(page.text('fame-national').includes('<b>휘문</b>'));
});

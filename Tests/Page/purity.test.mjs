// Every part of `update` (`PARTS`, Web/update/*.js) is pure: each handler, given a message of its type in
// the page's usual states (a fresh page, a tab playing, a tab waiting for the device, the projector
// with the teacher's token), leaves the state it was given as it was, and answers with a state or
// undefined for "unchanged" and effects that are plain data. `node --test Tests/Page`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { update, HANDLERS, PARTS as HANDLERS_OF } from '../../Sources/TouchSchoolServer/Page/Web/update.js';
import { initialState } from '../../Sources/TouchSchoolServer/Page/Web/state.js';

const WEB = new URL('../../Sources/TouchSchoolServer/Page/Web/', import.meta.url);
const BATTLE = 'battleAAAAAAAAAAAAAA';
const DEVICE = 'q3R8sU0vW1xY2zA3bC4dE5fG6hI7jK8lM9nO0pQ1rS2';
const RECORD = { battle: null, box: { nextSeq: 1, batches: [] }, open: { taps: { S1: 2 }, playerTaps: 2, best: 2, startMs: 0, endMs: 5 },
                 player: { school: null, taps: 0, best: 0 } };
const VIEW = { type: 'view', version: 1, school: 'S1', total: 10, ranks: [[2, 2, 10]], above: [[1, 'S2', 20]], below: [], top: [[1, 'S2', 20], [2, 'S1', 10]] };
const PAGE = { type: 'page', version: 2, league: {}, from: 0, size: 12, rows: [[1, 'S2', 20], [2, 'S1', 10], [3, 'S3', 0]] };
const SEASON = { id: 'week-2969', length: 'week', number: 2969, startsAtMs: 1764514800000, endsAtMs: 1765119600000, graceMs: 5000 };
const LAST = { ...SEASON, id: 'week-2968', number: 2968, startsAtMs: 1763910000000, endsAtMs: SEASON.startsAtMs };
const FAME = [{ league: {}, place: 1, rank: 1, school: 'S1', total: 9 }, { league: { level: 'high' }, place: 1, rank: 1, school: 'S1', total: 9 }];
const ROUND = { type: 'round', id: 4, title: 'race', startsAtMs: 1000, endsAtMs: 31000, graceMs: 2000, final: false, nowMs: 500,
                playerCount: 2, players: [], schools: [] };

/** A message of each type the page handles. */
const MESSAGES = {
  start: {}, show: { screen: 'ranking' }, league: { level: 'high', province: '' }, myLeague: {}, name: { text: ' 민수 ' },
  toggleSound: {}, fullscreen: {}, keyboardHint: { on: true }, warnOver: {},
  tap: { x: 1, y: 2 }, sealTick: {}, hidden: {},
  reconnect: {}, socketOpen: {}, socketClosed: { code: 4007, reason: '' }, pingTick: {},
  server: { message: { type: 'welcome', protocol: 2, battle: BATTLE, lastSeq: 0, player: { school: 'S1', taps: 0, best: 0 }, catalog: 'c' }, record: RECORD },
  claiming: {}, granted: { record: RECORD, device: DEVICE, freshDevice: 'x', school: 'S1' }, waiting: { record: RECORD },
  storedRecord: { record: RECORD }, lost: { to: 'other' }, playHere: {}, pollView: {}, viewLoaded: { view: VIEW },
  boardPage: { page: PAGE }, boardError: { closed: true }, watchAgain: {}, baselineTick: {},
  directory: { directory: { catalog: 'c2', fields: ['id', 'name', 'level', 'province', 'district'], schools: [['S1', '서울고', 'high', '서울', '']] } },
  query: { text: '서울' }, searchNow: {}, searchAnswer: { answer: { schools: [{ id: 'S9', name: '휘문고', level: 'high', province: '서울', district: '' }] } },
  searchFailed: {}, chooseFirst: {}, choose: { id: 'S2' }, confirmYes: {}, confirmNo: {},
  pageTick: {}, wake: {}, idle: {}, firstConnectionOver: {}, join: { addresses: ['http://192.168.0.10:8080/'] },
  boardRound: { round: ROUND }, roundTick: {}, roundResultOver: {}, dismissRound: {}, reopenRound: {}, showRounds: {},
  roundsList: { rounds: [] }, showRound: { id: 4 }, roundDetail: { answer: { round: ROUND, players: [], schools: [] } }, roundsFailed: {},
  archiveBack: {}, closeRounds: {}, hashChanged: { hash: '#admin=token' }, startRound: { seconds: 30, title: ' 1반 ' }, stopRound: {},
  adminAnswer: { ok: false, status: 409, error: 'a round is on' },
  mapEvent: { message: { type: 'map', catalog: 'c', marks: [5], cells: 'AAH', whole: true } },
  mapLoaded: { answer: { catalog: 'c', columns: 4, rows: 3, provinces: ['서울특별시'], cells: 'BA.JBA', starter: true } },
  mapFailed: {}, mapRetry: {}, toggleMap: {},
  boardSeason: { season: SEASON }, togglePeriod: {}, seasonsList: { answer: { length: 'week', nowMs: SEASON.startsAtMs + 1000, seasons: [{ season: SEASON, fame: [] }, { season: LAST, fame: FAME }] } },
  seasonDetail: { answer: { season: LAST, nowMs: SEASON.startsAtMs, schoolCount: 1, schools: [], fame: FAME } }, seasonsFailed: {}, fameRetry: {},
};

function run(state, ...messages) {
  for (const message of messages) state = update(state, message, 1000).state;
  return state;
}
const fresh = (options = {}) => initialState({ defaultPlayer: 'web player', join: 'http://127.0.0.1:8080/', ...options });
const STATES = {
  'a fresh page': fresh({ school: 'S1' }),
  'a tab playing': run(fresh(), { type: 'granted', ...MESSAGES.granted }, { type: 'socketOpen' }, { type: 'server', ...MESSAGES.server },
                       { type: 'server', message: VIEW }, { type: 'server', message: ROUND }, { type: 'tap', x: 1, y: 1 }, { type: 'query', text: 'x' },
                       { type: 'searchAnswer', ...MESSAGES.searchAnswer }, { type: 'choose', id: 'S9' }),
  'a tab waiting for the device': run(fresh({ school: 'S1' }), { type: 'waiting', record: RECORD }, { type: 'boardPage', page: PAGE }),
  'the projector with the token': run(fresh({ projector: true, hash: '#admin=token' }), { type: 'start' }, { type: 'boardPage', page: PAGE },
                                      { type: 'boardRound', round: ROUND }, { type: 'showRounds' }, { type: 'boardSeason', season: SEASON },
                                      { type: 'league', level: 'high', province: '' }, { type: 'seasonsList', ...MESSAGES.seasonsList }),
};

test('a message of each type the page handles, and none more', () => {
  assert.deepEqual(Object.keys(MESSAGES).sort(), Object.keys(HANDLERS).sort());
});

const PARTS = Object.entries(HANDLERS_OF);

test('every part with handlers is tested', () => {
  assert.ok(PARTS.length >= 7, PARTS.map(([name]) => name).join(' '));
});

for (const [name, handlers] of PARTS) {
  test(`the ${name} part: every handler leaves the state it is given as it was`, () => {
    for (const type of Object.keys(handlers)) {
      for (const [label, state] of Object.entries(STATES)) {
        const before = structuredClone(state);
        const { state: after, effects } = update(state, { type, ...MESSAGES[type] }, 40000);
        assert.deepEqual(state, before, `${type} in ${label} changed the state it was given`);
        assert.equal(typeof after, 'object', `${type} in ${label}`);
        assert.ok(Array.isArray(effects) && effects.every((effect) => typeof effect.type === 'string'), `${type} in ${label}`);
        assert.doesNotThrow(() => structuredClone(effects), `${type} in ${label}: effects are plain data`);
      }
    }
  });
}

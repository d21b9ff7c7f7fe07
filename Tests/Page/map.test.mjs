// The map of the schools in the page (Web/map.js, update/map.js, view/map.js): the grid of
// `GET /v1/map` decoded, the glow of `map` messages applied, what is drawn and where, the phone's
// map in place of its list and the projector's beside its ranking. The encodings are the server's
// (MapGrid.swift, MapNews.swift); the expectations are written out by hand. `node --test Tests/Page`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeGrid, applyCells, takeMapMessage, takeGrid, drawList, NO_MAP } from '../../Sources/TouchSchoolServer/Page/Web/map.js';
import { update } from '../../Sources/TouchSchoolServer/Page/Web/update.js';
import { initialState } from '../../Sources/TouchSchoolServer/Page/Web/state.js';
import { runningPage } from './dom.mjs';

/**
 * A grid of 4 × 3 cells: cell 0 one school of Seoul (`BA`), five empty (`.E`), cell 6 25 schools
 * of Busan (`ZB`), four empty (`.D`), cell 11 five schools of Busan (`FB`).
 */
const ANSWER = { catalog: 'c1', columns: 4, rows: 3, provinces: ['서울특별시', '부산광역시'], cells: 'BA.EZB.DFB', starter: true };
/** A cell and its glow in three digits: cell × 4 + glow. */
const GLOW = { seoulWarm: 'AAB', busanBlazing: 'AAb', busanDark: 'AAY', southHot: 'AAu' };

test('the grid: its cells with schools where the server put them, runs of empty cells skipped', () => {
  const grid = decodeGrid(ANSWER);
  assert.deepEqual(grid, { catalog: 'c1', columns: 4, rows: 3, starter: true, cells: [
    { cell: 0, x: 0, y: 0, schools: 1, province: '서울특별시' },
    { cell: 6, x: 2, y: 1, schools: 25, province: '부산광역시' },
    { cell: 11, x: 3, y: 2, schools: 5, province: '부산광역시' }] });
  assert.equal(decodeGrid({ ...ANSWER, cells: 'B!' }), null, 'a digit that is none');
  assert.equal(decodeGrid({ ...ANSWER, columns: 0 }), null);
  assert.equal(decodeGrid(null), null);
});

test('the glow: a cell lit by its level, put out at 0', () => {
  const glow = applyCells(new Map(), GLOW.seoulWarm + GLOW.busanBlazing);
  assert.deepEqual([...glow], [[0, 1], [6, 3]]);
  const later = applyCells(glow, GLOW.busanDark);
  assert.deepEqual([...later], [[0, 1]]);
  assert.deepEqual([...glow], [[0, 1], [6, 3]], 'a new Map: the state is never changed in place');
});

test('a map message: the first names the catalog and asks for its grid; the sweep replaces the glow once whole', () => {
  let { map, load } = takeMapMessage(NO_MAP, { type: 'map', catalog: 'c1', marks: [6], cells: GLOW.busanBlazing });
  assert.ok(load, 'no grid of c1 yet');
  assert.deepEqual([...map.glow], [[6, 3]]);
  assert.deepEqual(map.marks, [6]);
  map = takeGrid(map, ANSWER);
  assert.equal(map.grid.columns, 4);
  assert.equal(takeGrid(map, { ...ANSWER, catalog: 'other' }), map, 'a grid of another catalog is not this map\'s');
  map = takeMapMessage(map, { type: 'map', marks: [], cells: GLOW.seoulWarm + GLOW.busanDark, whole: true }).map;
  assert.deepEqual([...map.glow], [[0, 1]]);

  // A new stream (the projector's next page): the map drawn stays while the sweep comes, changes
  // go to both, and the sweep replaces it once whole: Seoul went dark while no stream was open.
  ({ map, load } = takeMapMessage(map, { type: 'map', catalog: 'c1', marks: [], cells: GLOW.busanBlazing }));
  assert.ok(!load, 'the grid is here');
  assert.deepEqual([...map.glow], [[0, 1], [6, 3]], 'still drawn: no dark map between two pages');
  map = takeMapMessage(map, { type: 'map', marks: [], cells: GLOW.southHot, whole: true }).map;
  assert.deepEqual([...map.glow], [[6, 3], [11, 2]]);
  assert.equal(map.sweep, null);

  // Another catalog (an import while the server runs): dark, and its grid asked for.
  ({ map, load } = takeMapMessage(map, { type: 'map', catalog: 'c2', marks: [] }));
  assert.ok(load);
  assert.equal(map.grid, null);
  assert.deepEqual([...map.glow], []);
});

test('what is drawn: every cell with schools, the province chosen lit, the glowing and marked over the rest', () => {
  let map = takeGrid(NO_MAP, ANSWER);
  map = takeMapMessage(map, { type: 'map', catalog: 'c1', marks: [11], mine: 0, cells: GLOW.busanBlazing, whole: true }).map;
  assert.deepEqual(drawList(map, '부산광역시'), [
    { x: 2, y: 1, size: 3, glow: 3, lit: true, mark: null },
    { x: 3, y: 2, size: 2, glow: 0, lit: true, mark: 'leader' },
    { x: 0, y: 0, size: 1, glow: 0, lit: false, mark: 'mine' },
  ]);
  assert.deepEqual(drawList(map, '').map((dot) => dot.lit), [false, false, false], 'the national league lights nothing');
  assert.deepEqual(drawList(NO_MAP, ''), [], 'nothing before the grid');
});

const projector = () => update(initialState({ projector: true, join: 'http://192.168.0.10:8080/' }), { type: 'start' }, 0);

test('the projector streams its page with the map; its map messages ask for the grid once', () => {
  const { state, effects } = projector();
  assert.deepEqual(effects.filter((e) => e.type === 'watchBoard'), [{ type: 'watchBoard', url: '/v1/board?count=11&from=0&map=1' }]);
  const first = update(state, { type: 'mapEvent', message: { type: 'map', catalog: 'c1', marks: [], cells: '' } }, 0);
  assert.deepEqual(first.effects, [{ type: 'loadMap' }]);
  const loaded = update(first.state, { type: 'mapLoaded', answer: ANSWER }, 0).state;
  assert.equal(loaded.map.grid.cells.length, 3);
  const again = update(loaded, { type: 'mapEvent', message: { type: 'map', catalog: 'c1', marks: [], cells: '' } }, 0);
  assert.deepEqual(again.effects, [], 'the grid is here');
  // Not read (a server restarting): asked again a little later.
  const failed = update(first.state, { type: 'mapFailed' }, 0);
  assert.deepEqual(failed.effects.map((e) => e.type), ['after']);
  assert.deepEqual(update(first.state, { type: 'mapRetry' }, 0).effects, [{ type: 'loadMap' }]);
});

test('the projector draws the map beside its ranking: the glowing cell bright, the league\'s province lit, the leader ringed', () => {
  const page = runningPage(projector().state);
  page.send({ type: 'league', level: '', province: '부산광역시' });
  page.send({ type: 'mapLoaded', answer: ANSWER });
  page.send({ type: 'mapEvent', message: { type: 'map', catalog: 'c1', marks: [11], cells: GLOW.busanBlazing, whole: true } });
  assert.ok(page.shown('map') && page.shown('board-list'), 'both: the map beside the ranking');
  assert.ok(!page.shown('map-toggle'), 'the projector always shows it');
  // The fake canvas is 400 × 300: cells of 100 px, dots at their centres.
  const shapes = page.element('map-canvas').drawing.shapes;
  const at = (x, y) => shapes.filter((s) => s.x === x && s.y === y);
  assert.deepEqual(at(50, 50).map((s) => s.fill), ['#5a6478'], 'Seoul: dim, not of the league');
  assert.deepEqual(at(250, 150).map((s) => s.fill), ['rgba(255, 80, 40, 0.85)', '#ff6a3d'], 'Busan blazing: halo and core');
  assert.deepEqual(at(350, 250).map((s) => s.fill || s.stroke), ['#9cc4ff', '#ffcc33'], 'lit, and ringed: a leader');
  assert.ok(at(250, 150)[0].radius > at(350, 250)[0].radius, 'the glow is larger than a dot');
  // The starter list says where its dots are and how to get the real map, in both languages.
  assert.match(page.text('map-note'), /^기본 목록에는 좌표가 없어 .* touchschool import로/);
  assert.equal(page.text('map-legend'), '최근 5초에 터치한 학교 (빠를수록 밝게) · 노란 원: 1~3위', 'no school of its own to ring');
  const en = runningPage(projector().state, 'en').send({ type: 'mapLoaded', answer: ANSWER });
  assert.match(en.text('map-note'), /^The starter list has no coordinates: .* touchschool import\.$/);
  assert.match(en.text('map-legend'), /^Tapped in the last 5 s/);
  assert.ok(!runningPage(projector().state).send({ type: 'mapLoaded', answer: { ...ANSWER, starter: false } }).shown('map-note'),
            'the official list: no note');
});

const BATTLE = 'battleAAAAAAAAAAAAAA';
const DEVICE = 'q3R8sU0vW1xY2zA3bC4dE5fG6hI7jK8lM9nO0pQ1rS2';
const EMPTY = { battle: null, box: { nextSeq: 1, batches: [] }, open: null, player: { school: null, taps: 0, best: 0 } };

/** A phone playing for S3, welcomed, on its ranking. */
function phone() {
  let state = initialState({ defaultPlayer: 'web player', join: 'http://192.168.0.10:8080/' });
  for (const message of [{ type: 'granted', record: EMPTY, device: DEVICE, freshDevice: 'x', school: 'S3' }, { type: 'socketOpen' },
    { type: 'server', message: { type: 'welcome', protocol: 2, battle: BATTLE, lastSeq: 0, player: { school: 'S3', taps: 0, best: 0 }, catalog: 'c1' } },
    { type: 'show', screen: 'ranking' }]) state = update(state, message, 0).state;
  return state;
}
const sent = (effects) => effects.filter((e) => e.type === 'send').map((e) => e.message);

test('the phone\'s ranking shows the map in place of its list when asked, and the list again', () => {
  const page = runningPage(phone());
  assert.ok(page.shown('board-list') && !page.shown('map'));
  assert.equal(page.text('map-toggle'), '지도');
  page.send({ type: 'toggleMap' });
  assert.deepEqual(sent(page.effects), [{ type: 'map', show: true }], 'the map instead of the page: the server sends one or the other');
  assert.ok(page.shown('map') && !page.shown('board-list'));
  assert.equal(page.text('map-toggle'), '순위표');
  page.send({ type: 'server', message: { type: 'map', catalog: 'c1', marks: [], mine: 0, cells: '', whole: true } });
  assert.deepEqual(page.effects, [{ type: 'loadMap' }]);
  page.send({ type: 'mapLoaded', answer: ANSWER });
  const mine = page.element('map-canvas').drawing.shapes.filter((s) => s.stroke);
  assert.deepEqual(mine.map((s) => [s.x, s.y, s.stroke]), [[50, 50, '#5fd35f']], 'my school ringed');
  // A new socket watches nothing: the map is asked for again.
  page.send({ type: 'socketClosed', code: 1006, reason: '' });
  page.send({ type: 'socketOpen' });
  page.send({ type: 'server', message: { type: 'welcome', protocol: 2, battle: BATTLE, lastSeq: 0, player: { school: 'S3', taps: 0, best: 0 }, catalog: 'c1' } });
  assert.deepEqual(sent(page.effects).filter((m) => m.type !== 'ping'), [{ type: 'map', show: true }]);
  page.send({ type: 'toggleMap' });
  assert.deepEqual(sent(page.effects), [{ type: 'watch', league: {}, from: 0, count: 100 }], 'the list\'s page again');
  assert.ok(!page.shown('map') && page.shown('board-list'));
  // The game screen shows no map, whatever the ranking showed.
  page.send({ type: 'toggleMap' });
  page.send({ type: 'show', screen: 'game' });
  assert.ok(!page.shown('map'));
  assert.notDeepEqual(sent(page.effects), [{ type: 'map', show: true }]);
  assert.equal(runningPage(phone(), 'en').text('map-toggle'), 'Map');
  assert.equal(runningPage(phone(), 'en').send({ type: 'toggleMap' }).text('map-legend'),
               'Tapped in the last 5 s (brighter: faster) · yellow ring: top 3 · green ring: my school');
});

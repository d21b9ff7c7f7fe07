// `update` composed of parts (`PARTS`, in Web/update/*.js, each its handlers): every message the page
// sends itself has exactly one part's handler, and the speed ("taps in the last second") is
// counted by one function wherever it is shown or timed. `node --test Tests/Page`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { HANDLERS, PARTS as HANDLERS_OF, update } from '../../Sources/TouchSchoolServer/Page/Web/update.js';
import { initialState, lastSecond, speedFallsAt } from '../../Sources/TouchSchoolServer/Page/Web/state.js';

const WEB = new URL('../../Sources/TouchSchoolServer/Page/Web/', import.meta.url);
const PARTS = readdirSync(new URL('update/', WEB)).filter((name) => name.endsWith('.js'));
const source = (path) => readFileSync(new URL(path, WEB), 'utf8');
const VIEWS = readdirSync(new URL('view/', WEB)).map((name) => `view/${name}`);
const SCRIPTS = ['main.js', 'view.js', 'effects.js', 'election.js', ...VIEWS, ...PARTS.map((name) => `update/${name}`)];

test('no message type is handled by two parts, and the table holds every part\'s handlers', () => {
  const owner = new Map();
  for (const [name, handlers] of Object.entries(HANDLERS_OF)) {
    for (const type of Object.keys(handlers)) {
      assert.ok(!owner.has(type), `${type}: handled by ${owner.get(type)} and ${name}`);
      owner.set(type, name);
      assert.equal(HANDLERS[type], handlers[type], type);
    }
  }
  assert.deepEqual([...owner.keys()].sort(), Object.keys(HANDLERS).sort());
});

test('every message the page sends itself (events, effects\' answers, timers) has a handler', () => {
  const patterns = [
    /dispatch\(\{ type: '(\w+)'/g, /tell\(\{ type: '(\w+)'/g, /tell\(fx, \{ type: '(\w+)'/g, /\(\) => \(\{ type: '(\w+)'/g,
    /ms[^{}]*, message: \{ type: '(\w+)' \}/g, /(?:after|every)\(fx, [^,()]+, (?:[^,()]+, )?'(\w+)'\)/g,
  ];
  const sent = new Set();
  for (const script of SCRIPTS) for (const pattern of patterns) for (const [, type] of source(script).matchAll(pattern)) sent.add(type);
  // The tab election's own messages go to update.js through effects.js's `tell`.
  for (const type of ['granted', 'waiting', 'claiming', 'lost']) sent.add(type);
  assert.ok(sent.size > 40, `only ${sent.size} message types found: the patterns no longer match the page`);
  assert.deepEqual([...sent].filter((type) => !HANDLERS[type]).sort(), []);
});

test('a message of no part changes nothing and asks for nothing', () => {
  const state = initialState({});
  const { state: after, effects } = update(state, { type: 'noSuchMessage' }, 0);
  assert.equal(after, state);
  assert.deepEqual(effects, []);
});

test('the speed: the taps of the second up to now, and when it next falls', () => {
  assert.deepEqual(lastSecond([], 5000), []);
  assert.deepEqual(lastSecond([3000, 4000, 4500, 4999], 5000), [4500, 4999], 'a tap exactly a second old has left it');
  assert.deepEqual(lastSecond([4001, 4500], 5000), [4001, 4500]);
  assert.deepEqual(lastSecond([1000, 2000], 5000), []);
  assert.equal(speedFallsAt([3000, 4500, 4999], 5000), 5500);
  assert.equal(speedFallsAt([3000], 5000), null);
});

test('the speed is counted by lastSecond only: no script counts the last second by itself', () => {
  for (const script of ['main.js', 'view.js', ...VIEWS, ...PARTS.map((name) => `update/${name}`)]) {
    assert.doesNotMatch(source(script), /recent\.(find|filter|shift)\(|of state\.recent\)|- 1000\b/, script);
  }
});

test('every module of the page is preloaded by index.html and kept by the service worker, and nothing else is', () => {
  // main.js is the page's script itself, sw.js the worker: every other script is a module main.js imports.
  const top = readdirSync(WEB).filter((name) => name.endsWith('.js') && !['main.js', 'sw.js'].includes(name));
  const modules = [...top, ...VIEWS, ...PARTS.map((name) => `update/${name}`)].map((name) => `/${name}`).sort();
  const preloaded = [...source('index.html').matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map(([, path]) => path).sort();
  assert.deepEqual(preloaded, modules);
  const kept = [...source('sw.js').match(/const FILES = \[([^\]]*)\]/)[1].matchAll(/'([^']+)'/g)].map(([, path]) => path);
  assert.deepEqual(kept.filter((path) => path.endsWith('.js')).sort(), ['/main.js', ...modules].sort());
});

test('every effect a part asks for has its runner in main.js', () => {
  const run = source('main.js').match(/const run = \{([\s\S]*?)\n\};/)[1];
  const runners = new Set([...run.matchAll(/(\w+)(?=\s*[:,]|\s*$)/gm)].map(([, name]) => name));
  const asked = new Set();
  for (const part of PARTS) {
    // The effects pushed, first or after another: not the messages they carry (`send`'s, `after`'s).
    for (const [, pushed] of source(`update/${part}`).matchAll(/fx\.push\((\{ type: [^;]*)\);/g)) {
      for (const [, type] of pushed.matchAll(/(?:^|\}, )\{ type: '(\w+)'/g)) asked.add(type);
    }
  }
  assert.ok(asked.size > 10, `only ${asked.size} effects found: the pattern no longer matches the parts`);
  assert.deepEqual([...asked].filter((type) => !runners.has(type)).sort(), []);
});

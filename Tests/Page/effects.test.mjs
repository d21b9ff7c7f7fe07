// The effects' adapters that need no browser beyond a few globals (Web/effects.js): the storage read
// into the world's messages, and the drawing's pace (once a frame; ranks at most every 250 ms; the
// speed drawn again until it is 0). `node --test Tests/Page`.
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { storage, frames } from '../../Sources/TouchSchoolServer/Page/Web/effects.js';

const BATTLE = 'b'.repeat(22);
let stored;
beforeEach(() => {
  stored = new Map();
  globalThis.localStorage = {
    getItem: (key) => (stored.has(key) ? stored.get(key) : null),
    setItem: (key, value) => stored.set(key, value),
    removeItem: (key) => stored.delete(key),
  };
});
const keep = (name, value) => stored.set(`touchschool.${name}`, JSON.stringify(value));

test('granted: the record, device and school as stored now, and a fresh device key at hand', () => {
  keep('battle', BATTLE);
  keep(`outbox:${BATTLE}`, { nextSeq: 4, batches: [] });
  keep('device', 'd'.repeat(32));
  keep('school', 'S1');
  const read = storage.readInto({ type: 'granted' }, () => 'fresh');
  assert.deepEqual(read, { type: 'granted', record: { battle: BATTLE, box: { nextSeq: 4, batches: [] }, open: null, player: { school: null, taps: 0, best: 0 } },
                           device: 'd'.repeat(32), freshDevice: 'fresh', school: 'S1' });
});

test('a welcome reads the record of its own battle; a waiting tab the last played; other messages pass as they are', () => {
  keep('battle', BATTLE);
  keep('player:other-battle-id-0000', { school: 'S2', taps: 5, best: 1 });
  const welcome = { type: 'server', message: { type: 'welcome', battle: 'other-battle-id-0000' } };
  assert.deepEqual(storage.readInto(welcome, () => 'x').record.player, { school: 'S2', taps: 5, best: 1 });
  assert.equal(storage.readInto({ type: 'waiting' }, () => 'x').record.battle, BATTLE);
  const tap = { type: 'tap', x: 1, y: 2 };
  assert.equal(storage.readInto(tap, () => 'x'), tap);
  const ack = { type: 'server', message: { type: 'ack' } };
  assert.equal(storage.readInto(ack, () => 'x'), ack);
});

test('frames: one drawing a frame however many ask, ranks at most every 250 ms, the speed again until it is 0', () => {
  let wall = 10000, perf = 0;
  const frameQueue = [], timers = [];
  const { setTimeout: realSetTimeout, clearTimeout: realClearTimeout } = globalThis;
  globalThis.requestAnimationFrame = (f) => { frameQueue.push(f); return frameQueue.length; };
  globalThis.cancelAnimationFrame = () => {};
  globalThis.setTimeout = (f, ms) => { timers.push({ f, at: perf + ms }); return timers.length; };
  globalThis.clearTimeout = () => {};
  const realNow = Date.now, realPerf = performance.now;
  Date.now = () => wall;
  performance.now = () => perf;
  try {
    const drawn = [], ranks = [];
    let state = { recent: [] };
    const drawing = frames({ render: (s, now) => drawn.push(now), renderRanks: (s) => ranks.push(s) }, () => state);
    drawing.now();
    assert.equal(drawn.length, 1);
    assert.equal(ranks.length, 1);
    drawing.soon(); drawing.soon(); drawing.soon();
    assert.equal(frameQueue.length, 1, 'one frame asked for');
    perf = 100; wall += 100;
    frameQueue.shift()();
    assert.equal(drawn.length, 2);
    assert.equal(ranks.length, 1, 'ranks wait out their 250 ms');
    assert.equal(timers.at(-1).at, 250, 'and are drawn when they are up');
    state = { recent: [wall - 300] };
    perf = 300; wall += 200;
    drawing.now();
    assert.equal(ranks.length, 2);
    // The tap leaves the last second 700 ms later (and a millisecond): the speed is drawn again then.
    assert.equal(timers.at(-1).at, 300 + 501);
  } finally {
    Date.now = realNow;
    performance.now = realPerf;
    globalThis.setTimeout = realSetTimeout;
    globalThis.clearTimeout = realClearTimeout;
    delete globalThis.requestAnimationFrame; delete globalThis.cancelAnimationFrame;
  }
});

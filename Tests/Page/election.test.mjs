// Which tab plays without Web Locks (Web/election.js): tabs on one simulated BroadcastChannel, by
// docs/protocol.md's "One tab plays". The channel delivers every message to every other tab, in
// order; timers run on a simulated clock. `node --test Tests/Page`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialTab, elect, outranks, TAB_ANSWER_MS, TAB_SILENT_MS, TAB_HEARTBEAT_MS } from '../../Sources/TouchSchoolServer/Page/Web/election.js';

/** Tabs on one channel: `told[id]` what each told its page, in order. */
function channel() {
  const tabs = new Map(), answers = new Map(), told = {}, queue = [];
  let now = 0;
  const world = {
    get now() { return now; },
    told,
    role: (id) => tabs.get(id).role,
    owners: () => [...tabs.values()].filter((t) => t.role === 'owner').map((t) => t.id),
    open(id, since = now) { tabs.set(id, initialTab(id, since)); told[id] = []; },
    event(id, event) { run(id, event); deliver(); },
    /** Time passes: answer timers due fire, and each tab beats every TAB_HEARTBEAT_MS. */
    advance(ms) {
      const end = now + ms;
      while (now < end) {
        now = Math.min(end, now + TAB_HEARTBEAT_MS / 10);
        for (const [id, at] of [...answers]) if (at <= now) { answers.delete(id); run(id, { type: 'answerOver' }); deliver(); }
        if (now % TAB_HEARTBEAT_MS === 0) for (const id of tabs.keys()) { run(id, { type: 'beat' }); deliver(); }
      }
    },
    closed(id) { tabs.delete(id); answers.delete(id); },
  };
  function run(id, event) {
    if (!tabs.has(id)) return;
    const next = elect(tabs.get(id), event, now);
    tabs.set(id, next.tab);
    for (const effect of next.effects) {
      if (effect.type === 'say') queue.push(effect.message);
      else if (effect.type === 'tell') told[id].push(effect.message);
      else if (effect.type === 'answerIn') answers.set(id, now + effect.ms);
      else if (effect.type === 'cancelAnswer') answers.delete(id);
    }
  }
  function deliver() {
    while (queue.length > 0) {
      const message = queue.shift();
      for (const id of [...tabs.keys()]) if (id !== message.id) run(id, { type: 'heard', message });
    }
  }
  return world;
}

const types = (messages) => messages.map((m) => m.type);

/** Tab a plays (it claimed alone); tab b opened after it and claimed: it waits. */
function ownedByAWithBWaiting() {
  const w = channel();
  w.open('a');
  w.event('a', { type: 'claim', steal: false });
  w.advance(TAB_ANSWER_MS);
  w.open('b');
  w.event('b', { type: 'claim', steal: false });
  return w;
}

test('a tab alone claims, hears no answer, and plays after TAB_ANSWER_MS', () => {
  const w = channel();
  w.open('a');
  w.event('a', { type: 'claim', steal: false });
  assert.deepEqual(types(w.told.a), ['claiming']);
  w.advance(TAB_ANSWER_MS - 100);
  assert.equal(w.role('a'), 'claiming');
  w.advance(100);
  assert.deepEqual(types(w.told.a), ['claiming', 'granted']);
  assert.deepEqual(w.owners(), ['a']);
});

test('a second tab hears the owner answer its claim and waits', () => {
  const w = ownedByAWithBWaiting();
  assert.deepEqual(types(w.told.b), ['claiming', 'waiting']);
  w.advance(10 * TAB_HEARTBEAT_MS);
  assert.deepEqual(w.owners(), ['a'], 'the owner\'s heartbeat keeps the waiting tab waiting');
  assert.deepEqual(types(w.told.b), ['claiming', 'waiting']);
});

test('two tabs claiming at once: one plays, the other gives way before either was granted', () => {
  const w = channel();
  w.open('a', 0);
  w.open('b', 0);
  w.event('a', { type: 'claim', steal: false });
  w.event('b', { type: 'claim', steal: false });
  w.advance(TAB_ANSWER_MS);
  assert.equal(w.owners().length, 1);
  const [owner] = w.owners(), other = owner === 'a' ? 'b' : 'a';
  assert.deepEqual(types(w.told[other]), ['claiming', 'waiting'], 'never granted');
  assert.deepEqual(types(w.told[owner]).filter((type) => type === 'granted'), ['granted']);
});

test('play here: the owner is told it lost the device to the taker, which plays once released to it', () => {
  const w = ownedByAWithBWaiting();
  w.event('b', { type: 'claim', steal: true });
  assert.deepEqual(w.told.a.at(-1), { type: 'lost', to: 'b' });
  assert.equal(w.role('b'), 'taking');
  // update.js stops the tab that lost: its release names the taker.
  w.event('a', { type: 'release', to: 'b' });
  assert.equal(w.role('a'), 'stopped');
  assert.deepEqual(w.owners(), ['b']);
  assert.equal(w.told.b.at(-1).type, 'granted');
});

test('a waiting tab claims at once when the owner releases to no one, and after TAB_SILENT_MS when it crashed', () => {
  const w = ownedByAWithBWaiting();
  w.event('a', { type: 'pagehide' });
  assert.deepEqual(w.told.a.at(-1), { type: 'lost' });
  w.event('a', { type: 'release' });
  assert.equal(w.role('b'), 'claiming', 'a release without `to`: the waiting tab claims');
  w.advance(TAB_ANSWER_MS);
  assert.deepEqual(w.owners(), ['b']);

  w.open('c');
  w.event('c', { type: 'claim', steal: false });
  assert.equal(w.role('c'), 'waiting');
  w.closed('b');
  w.advance(TAB_SILENT_MS);
  assert.equal(w.role('c'), 'waiting', 'silence of TAB_SILENT_MS is not yet more');
  w.advance(TAB_HEARTBEAT_MS + TAB_ANSWER_MS);
  assert.deepEqual(w.owners(), ['c']);
});

test('an owner hearing an owner that outranks it (it did not answer in time) is told it lost', () => {
  const tab = { ...initialTab('a', 0), role: 'owner', epoch: 1, topEpoch: 1 };
  const { tab: after, effects } = elect(tab, { type: 'heard', message: { type: 'owner', id: 'b', since: 5, epoch: 2 } }, 100);
  assert.deepEqual(effects, [{ type: 'tell', message: { type: 'lost', to: 'b' } }]);
  assert.equal(after.topEpoch, 2);
  const lower = elect(tab, { type: 'heard', message: { type: 'owner', id: 'b', since: 5, epoch: 1 } }, 100);
  assert.deepEqual(lower.effects, [{ type: 'say', message: { type: 'owner', id: 'a', since: 0, epoch: 1 } }], 'the lower one hears it again');
});

test('ranks: the higher epoch, then the earlier start, then the smaller id', () => {
  const me = { id: 'm', since: 10, epoch: 2 };
  assert.equal(outranks({ id: 'z', since: 99, epoch: 3 }, me), true);
  assert.equal(outranks({ id: 'a', since: 0, epoch: 1 }, me), false);
  assert.equal(outranks({ id: 'z', since: 9, epoch: 2 }, me), true);
  assert.equal(outranks({ id: 'a', since: 11, epoch: 2 }, me), false);
  assert.equal(outranks({ id: 'a', since: 10, epoch: 2 }, me), true);
  assert.equal(outranks({ id: 'z', since: 10, epoch: 2 }, me), false);
});

test('a stopped tab hears nothing more, and starts again when shown from the back-forward cache', () => {
  const stopped = { ...initialTab('a', 0), role: 'stopped' };
  assert.deepEqual(elect(stopped, { type: 'heard', message: { type: 'release', id: 'b', since: 0, epoch: 1 } }, 0).effects, []);
  assert.deepEqual(elect(stopped, { type: 'pageshow', persisted: true }, 0).effects, [{ type: 'reload' }]);
  assert.deepEqual(elect(stopped, { type: 'pageshow', persisted: false }, 0).effects, []);
  const waiting = initialTab('a', 0);
  assert.deepEqual(elect(waiting, { type: 'pageshow', persisted: true }, 0).effects, []);
  assert.deepEqual(elect(waiting, { type: 'heard', message: { type: 'claim', id: 'a', since: 0, epoch: 1 } }, 0).effects, [], 'its own message');
  assert.deepEqual(elect(waiting, { type: 'heard', message: { type: 'claim', id: 'b' } }, 0).effects, [], 'no epoch: not a tab\'s');
});

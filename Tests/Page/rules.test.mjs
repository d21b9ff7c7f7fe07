// The page's rules (Web/rules.js) against the cases the Swift rules are held to as well,
// Tests/Vectors/battle-rules.json: every case, named when it fails. `node --test Tests/Page`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as rules from '../../Sources/TouchSchoolServer/Page/Web/rules.js';

const vectors = JSON.parse(readFileSync(new URL('../Vectors/battle-rules.json', import.meta.url), 'utf8'));

const groups = {
  player: [(c) => rules.player(c.before, c.batch), 'after'],
  welcome: [(c) => rules.welcome(c.outbox, c.lastSeq), 'after'],
  deviceKey: [(c) => rules.isValidDeviceKey(c.key), 'valid'],
  battleID: [(c) => rules.isValidBattleID(c.id), 'valid'],
  movement: [(c) => rules.movement({ before: c.before[c.school], now: c.now[c.school] },
                                   c.before.map((before, i) => ({ before, now: c.now[i] }))), 'movement'],
  shownRank: [(c) => rules.shownRank(c.rank, c.count), 'shown'],
  standing: [(c) => rules.standing(c.total, c.view, c.hidden), 'standing'],
  pageMovements: [(c) => rules.pageMovements(c.rows, c.from, c.then), 'movements'],
};

for (const [group, [rule, expected]] of Object.entries(groups)) {
  test(`rules.js gives every ${group} case of battle-rules.json`, () => {
    assert.ok(vectors[group].length > 0, `no ${group} cases`);
    for (const c of vectors[group]) assert.deepEqual(rule(c), c[expected], `${group}: ${c.case}`);
  });
}

test('the vectors have no group the page leaves untested', () => {
  assert.deepEqual(Object.keys(vectors).filter((key) => key !== 'about').sort(), Object.keys(groups).sort());
});

test('the baseline of movement is the terminal\'s ten seconds', () => {
  assert.equal(rules.MOVEMENT_BASELINE_MS, 10000);
});

// The battle's rules the page applies, as pure functions: the page's copy of
// Sources/TouchSchoolCore/Battle/BattleRules.swift (and of Leaderboard.swift's movement). Both are run against the same hand-written
// cases, Tests/Vectors/battle-rules.json (in Chromium by Tests/TouchSchoolTUITests/
// WebPageDeviceEndToEndTests.swift, and in Node by Tests/Page/rules.test.mjs); a change to a rule
// changes both and the cases. An ES module: `import * as rules from './rules.js'`.
/** 22 to 64 characters of base64url: what the server accepts as a device key. */
const DEVICE_KEY = /^[A-Za-z0-9_-]{22,64}$/;
/** 16 to 64 characters of base64url: a battle's identity; the page keys its storage by it. */
const BATTLE_ID = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * The player ({school, taps, best}) after a batch of theirs ({playerTaps, switchedTo, best}):
 * choosing a school restarts their count at the batch's taps; without a school their taps
 * count for no one of theirs (the schools' totals are counted apart); the best only grows.
 */
export function player(before, batch) {
  const best = Math.max(before.best, batch.best);
  if (batch.switchedTo != null) return { school: batch.switchedTo, taps: batch.playerTaps, best };
  if (before.school != null) return { school: before.school, taps: before.taps + batch.playerTaps, best };
  return { school: null, taps: before.taps, best };
}

/**
 * The outbox's numbers ({nextSeq, waiting: [seq…]}) after a welcome saying the server applied
 * this device's batches up to lastSeq: those are dropped, the rest numbered lastSeq + 1, + 2, …
 * in order, and the next batch follows them (lastSeq + 1 when none waits). A renumbered outbox
 * must be stored before any of it is sent: sent, then forgotten in a crash, it would be
 * renumbered again and counted twice.
 */
export function welcome(outbox, lastSeq) {
  const kept = outbox.waiting.filter((seq) => seq > lastSeq);
  return { nextSeq: lastSeq + 1 + kept.length, waiting: kept.map((_, i) => lastSeq + 1 + i) };
}

/**
 * Places a school climbed since "a moment ago" (negative: fell), as the terminal's ranking
 * shows it (▲/▼, `Leaderboard.movement`): one for each other school of the league ahead of it
 * then and behind it now, less one for each behind then and ahead now. Counts are
 * {before, now}. Ahead and behind are strict: leaving or joining a tie passes no one.
 */
export function movement(mine, others) {
  let climbed = 0;
  for (const other of others) {
    if (other.before > mine.before && other.now < mine.now) climbed += 1;
    else if (other.before < mine.before && other.now > mine.now) climbed -= 1;
  }
  return climbed;
}

/**
 * The rank a screen shows for a school at `rank` with `count` taps: none (null) without a tap, which
 * would otherwise share the first place with every school of a fresh battle (`RankedSchool.shownRank`).
 */
export function shownRank(rank, count) { return count > 0 ? rank : null; }

export function isValidDeviceKey(key) { return typeof key === 'string' && DEVICE_KEY.test(key); }

export function isValidBattleID(id) { return typeof id === 'string' && BATTLE_ID.test(id); }

/** How long ago "a moment ago" is: the terminal's `GameTiming.movementBaselineNanoseconds`. */
export const MOVEMENT_BASELINE_MS = 10000;

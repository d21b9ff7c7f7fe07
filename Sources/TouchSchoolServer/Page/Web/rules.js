// The battle's rules the page applies, as pure functions: the page's copy of
// Sources/TouchSchoolCore/Battle/BattleRules.swift (and of Leaderboard.swift's movement). Both are run against the same hand-written
// cases, Tests/Vectors/battle-rules.json (in Chromium by Tests/TouchSchoolEndToEndTests/
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
 * ▲/▼ of each school of a page of a league (`rows`: [school, total], the page starting at place
 * `from`, 0-based) since the same page a moment ago (`then`: its rows then; null when none was
 * seen: the page is its own baseline), by `movement`: [school, places climbed] in the page's
 * order. A school not on the page then came from below it when the page starts at the top; on a
 * later page it may have come from either side, and is taken as unmoved.
 */
export function pageMovements(rows, from, then) {
  const before = new Map(then || rows);
  const counts = rows.map(([school, now]) => ({ school, now, before: before.has(school) ? before.get(school) : from === 0 ? -1 : now }));
  return counts.map((mine) => [mine.school, movement(mine, counts)]);
}

/**
 * The rank a screen shows for a school at `rank` with `count` taps: none (null) without a tap, which
 * would otherwise share the first place with every school of a fresh battle (`RankedSchool.shownRank`).
 */
export function shownRank(rank, count) { return count > 0 ? rank : null; }

/**
 * Where my school stands nationally, as its header says it, from the server's last view of it
 * (`view`: {total, rank, gap, above}: its total, rank and the taps to the school above then, nil
 * for a leader; `above`, the rows [school, total] just above it, nearest last) and its `total` now,
 * with my taps since: {rank, gap}. The rank climbs past each school of `above` those taps passed;
 * the school to overtake is the nearest one ahead of that total, of `hidden` (the rows of a page
 * that names a school schools tied with mine hid from `above`) or `above`, one tap more than the
 * difference (a tie only shares the place); with none named, only how far the view said the next
 * place was, less the taps since (`school` null), and nothing once passed.
 */
export function standing(total, view, hidden) {
  const passed = view.above.filter(([, score]) => score > view.total && score <= total).length;
  const rank = view.rank - passed;
  const ahead = [...hidden, ...view.above].findLast(([, score]) => score > total);
  if (ahead) return { rank, gap: { school: ahead[0], taps: ahead[1] - total + 1 } };
  const left = view.gap === null || passed > 0 ? 0 : view.gap - (total - view.total) + 1;
  return { rank, gap: left > 0 ? { school: null, taps: left } : null };
}

export function isValidDeviceKey(key) { return typeof key === 'string' && DEVICE_KEY.test(key); }

export function isValidBattleID(id) { return typeof id === 'string' && BATTLE_ID.test(id); }

/** How long ago "a moment ago" is: the terminal's `GameTiming.movementBaselineNanoseconds`. */
export const MOVEMENT_BASELINE_MS = 10000;

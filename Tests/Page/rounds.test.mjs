// Rounds on the page (Web/update.js, Web/state.js): a class's timed race, started by the teacher.
// The phone's `round` message and the projector's `round` event, both timed by the server's clock
// (the page's own plus an offset, from pongs or, until one comes, from the message itself); the
// teacher's controls, behind the token of the address's fragment. The expectations are written
// out by hand. `node --test Tests/Page`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { update, adminTokenIn } from '../../Sources/TouchSchoolServer/Page/Web/update.js';
import { initialState, clockOffset, serverNow, roundStage, roundScreen, podium, projectorScreen, ordinal }
  from '../../Sources/TouchSchoolServer/Page/Web/state.js';
import { standingsItems } from '../../Sources/TouchSchoolServer/Page/Web/view.js';
import { TEXT } from '../../Sources/TouchSchoolServer/Page/Web/view/words.js';
import { runningPage } from './dom.mjs';

const BATTLE = 'battleAAAAAAAAAAAAAA';
const DEVICE = 'q3R8sU0vW1xY2zA3bC4dE5fG6hI7jK8lM9nO0pQ1rS2';
const EMPTY = { battle: null, box: { nextSeq: 1, batches: [] }, open: null, player: { school: null, taps: 0, best: 0 } };

function run(state, ...messages) {
  let effects = [];
  for (const [message, now] of messages) ({ state, effects } = update(state, message, now ?? 0));
  return [state, effects];
}
const sent = (effects) => effects.filter((e) => e.type === 'send').map((e) => e.message);
const server = (message, now) => [{ type: 'server', message }, now];
const fanfares = (effects) => effects.filter((e) => e.type === 'feedback' && e.kind === 'fanfare');

/** A tab that plays for S1, welcomed at local time `now`. */
function welcomed(now = 0) {
  return run(initialState({ defaultPlayer: 'web player', join: 'http://192.168.0.10:8080/' }),
             [{ type: 'granted', record: EMPTY, device: DEVICE, freshDevice: 'x', school: 'S1' }, now], [{ type: 'socketOpen' }, now],
             server({ type: 'welcome', protocol: 2, battle: BATTLE, lastSeq: 0, player: { school: 'S1', taps: 0, best: 0 }, catalog: 'c1' }, now));
}

// The server's clock runs 50 s ahead of the phone's: the round starts at the server's 100 000,
// the phone's 50 000, and races 30 s.
const AHEAD = 50000;
const ROUND = { type: 'round', id: 3, title: '3반 대항전', startsAtMs: 100000, endsAtMs: 130000, graceMs: 5000, nowMs: 97000,
                final: false, place: null, count: 0, players: 0 };

test('after the welcome a ping goes out at once: the clock offset is known within a round trip', () => {
  const [state, effects] = welcomed(1000);
  assert.deepEqual(sent(effects).at(-1), { type: 'ping' });
  assert.deepEqual(state.clock.out, [1000]);
});

test('the clock offset: of the pong samples, the one of the shortest round trip', () => {
  let [state] = welcomed(1000);
  // Out at 1000, back at 1200 (200 ms): the server said 51150 at the middle, 1100: +50 050.
  [state] = run(state, server({ type: 'pong', nowMs: 51150 }, 1200));
  assert.equal(clockOffset(state.clock), 50050);
  // A quicker trip (20 ms) wins over the slow one, though it came later.
  [state] = run(state, [{ type: 'pingTick' }, 16000], server({ type: 'pong', nowMs: 66010 }, 16020));
  assert.equal(clockOffset(state.clock), 50000);
  // A slower one after it does not move the offset.
  [state] = run(state, [{ type: 'pingTick' }, 31000], server({ type: 'pong', nowMs: 81400 }, 31600));
  assert.equal(clockOffset(state.clock), 50000);
  assert.equal(serverNow(state, 40000), 90000);
  // Only the last few samples: an old quick one is forgotten, the clocks may have drifted since.
  for (let i = 0; i < 5; i++) [state] = run(state, [{ type: 'pingTick' }, 50000 + i * 15000], server({ type: 'pong', nowMs: 100100 + i * 15000 }, 50100 + i * 15000));
  assert.equal(clockOffset(state.clock), 50050);
});

test('a pong without the server\'s clock (an older server) keeps the pings in step and adds no sample', () => {
  const [state] = run(welcomed(1000)[0], server({ type: 'pong' }, 1100));
  assert.deepEqual(state.clock.out, []);
  assert.deepEqual(state.clock.pings, []);
  assert.equal(state.lastPong, 1100);
});

test('until a pong comes, the round message\'s own clock sets the offset', () => {
  // The ping went out at 40 000; the round comes at 40 005 (the server's 89 995 when sent: 49 990 plus its way).
  const [state] = run(welcomed(40000)[0], server({ ...ROUND, nowMs: 89995 }, 40005));
  assert.equal(clockOffset(state.clock), 49990);
  const [ponged] = run(state, server({ type: 'pong', nowMs: 90010 }, 40010));
  assert.equal(clockOffset(ponged.clock), 50005, 'a pong, once there is one, wins');
});

test('the countdown: 3, 2, 1 from the server\'s time, then GO, then the seconds left', () => {
  const round = { startsAtMs: 100000, endsAtMs: 130000, final: false };
  assert.deepEqual(roundStage(round, 97000), { phase: 'countdown', n: 3, next: 1000 });
  assert.deepEqual(roundStage(round, 97001), { phase: 'countdown', n: 3, next: 999 });
  assert.deepEqual(roundStage(round, 98000), { phase: 'countdown', n: 2, next: 1000 });
  assert.deepEqual(roundStage(round, 99999), { phase: 'countdown', n: 1, next: 1 });
  assert.deepEqual(roundStage(round, 100000), { phase: 'go', n: 30, next: 1000 });
  assert.deepEqual(roundStage(round, 100400), { phase: 'go', n: 30, next: 600 });
  assert.deepEqual(roundStage(round, 101000), { phase: 'race', n: 29, next: 1000 });
  assert.deepEqual(roundStage(round, 129500), { phase: 'race', n: 1, next: 500 });
  assert.deepEqual(roundStage(round, 130000), { phase: 'counting', n: 0, next: null });
  assert.deepEqual(roundStage({ ...round, final: true }, 136000), { phase: 'final', n: 0, next: null });
  assert.equal(roundStage({ ...round, endsAtMs: 99000 }, 98500), null, 'stopped in its countdown: nothing to race');
  assert.equal(roundStage(null, 0), null);
});

test('the server\'s time with half a millisecond (a pong\'s midpoint, an odd round trip) ticks at the change of second', () => {
  // Seen before: the next change a second too late (1000.5 ms for 0.5), so a tick a hair early
  // left the phone a second behind, or skipped a second (7, 7, 5), while every other screen ticked.
  const round = { startsAtMs: 100000, endsAtMs: 130000, final: false };
  assert.deepEqual(roundStage(round, 97000.5), { phase: 'countdown', n: 3, next: 999.5 });
  assert.deepEqual(roundStage(round, 97999.5), { phase: 'countdown', n: 3, next: 0.5 });
  assert.deepEqual(roundStage(round, 100999.5), { phase: 'go', n: 30, next: 0.5 });
  assert.deepEqual(roundStage(round, 118999.5), { phase: 'race', n: 12, next: 0.5 });
});

test('the phone shows the countdown by the server\'s time, and ticks at each change of second', () => {
  // Received at the phone's 47 000 (the server's 97 000): 3, the next change in a second.
  const [state, effects] = run(welcomed(40000)[0], server(ROUND, 47000));
  assert.deepEqual(state.roundStage, { id: 3, phase: 'countdown', n: 3 });
  assert.deepEqual(effects.filter((e) => e.type === 'after'), [{ type: 'after', name: 'roundTick', ms: 1000, message: { type: 'roundTick' } }]);
  assert.deepEqual(roundScreen(state), { phase: 'countdown', n: 3, round: state.round });
  const [two] = run(state, [{ type: 'roundTick' }, 48000]);
  assert.equal(two.roundStage.n, 2);
  assert.equal(update(two, { type: 'roundTick' }, 48500).state, two, 'the same second: nothing to draw');
  const [go] = run(two, [{ type: 'roundTick' }, 50000]);
  assert.deepEqual(go.roundStage, { id: 3, phase: 'go', n: 30 });
});

test('two screens with different clocks show the same number at the same moment', () => {
  // The same server moment, 98 500: one phone's clock 50 s behind, the other's 10 s ahead.
  const [behind] = run(welcomed(40000)[0], server({ ...ROUND, nowMs: 97000 }, 47000), [{ type: 'roundTick' }, 48500]);
  const [ahead] = run(welcomed(100000)[0], server({ ...ROUND, nowMs: 97000 }, 107000), [{ type: 'roundTick' }, 108500]);
  assert.deepEqual(behind.roundStage, ahead.roundStage);
  assert.equal(behind.roundStage.n, 2);
});

test('during the race: the time left, the place of the player among the players, the taps counted', () => {
  const [state] = run(welcomed(40000)[0], server(ROUND, 47000), server({ ...ROUND, nowMs: 110000, place: 3, count: 57, players: 12 }, 60000));
  const shown = roundScreen(state);
  assert.equal(shown.phase, 'race');
  assert.equal(shown.n, 20);
  assert.deepEqual([shown.round.place, shown.round.count, shown.round.players, shown.round.title], [3, 57, 12, '3반 대항전']);
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 102].map(ordinal), ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '102nd']);
});

test('taps count as always during a round', () => {
  const [racing] = run(welcomed(40000)[0], server(ROUND, 47000), [{ type: 'roundTick' }, 52000]);
  const [tapped, effects] = run(racing, [{ type: 'tap', x: 1, y: 1 }, 52001]);
  assert.deepEqual(tapped.box.batches.map((b) => b.taps), [{ S1: 1 }]);
  assert.deepEqual(effects.filter((e) => e.type === 'send').map((e) => e.message.taps), [{ S1: 1 }], 'sent at once');
  assert.deepEqual(effects.find((e) => e.type === 'feedback'), { type: 'feedback', kind: 'tap', muted: false });
});

test('a tab joining mid-round sees the race where it is: no countdown', () => {
  const [state, effects] = run(welcomed(40000)[0], server({ ...ROUND, nowMs: 112300, place: 1, count: 90, players: 4 }, 62300));
  assert.deepEqual(state.roundStage, { id: 3, phase: 'race', n: 18 });
  assert.deepEqual(effects.filter((e) => e.type === 'after').map((e) => e.ms), [700]);
});

test('after the window: counting until final; then the result, with one fanfare per round', () => {
  const [raced] = run(welcomed(40000)[0], server(ROUND, 47000), server({ ...ROUND, nowMs: 125000, place: 2, count: 80, players: 9 }, 75000));
  const [counting] = run(raced, [{ type: 'roundTick' }, 80000]);
  assert.equal(roundScreen(counting).phase, 'counting');
  const final = { ...ROUND, nowMs: 135100, final: true, place: 2, count: 81, players: 9 };
  const [result, effects] = run(counting, server(final, 85100));
  assert.equal(roundScreen(result).phase, 'result');
  assert.deepEqual(fanfares(effects), [{ type: 'feedback', kind: 'fanfare', muted: false }]);
  assert.ok(effects.some((e) => e.type === 'after' && e.name === 'roundResult' && e.ms === 15000));
  // The same round again (a repeat, a reconnection): no second fanfare.
  const [again, repeated] = run(result, server({ ...final, nowMs: 136000 }, 86000));
  assert.deepEqual(fanfares(repeated), []);
  assert.equal(roundScreen(again).phase, 'result');
  // Muted, the fanfare says so (effects.js then plays no notes).
  assert.deepEqual(fanfares(run(counting, [{ type: 'toggleSound' }], server(final, 85100))[1]), [{ type: 'feedback', kind: 'fanfare', muted: true }]);
});

test('the result goes after 15 s, or at a tap once it has been seen a moment', () => {
  const final = { ...ROUND, nowMs: 135100, final: true, place: 2, count: 81, players: 9 };
  const [result] = run(welcomed(40000)[0], server(final, 85100));
  assert.equal(roundScreen(run(result, [{ type: 'roundResultOver' }, 100100])[0]), null);
  const [early] = run(result, [{ type: 'tap', x: 1, y: 1 }, 85500]);
  assert.equal(roundScreen(early).phase, 'result', 'a tap of the race\'s last burst does not close it');
  const [closed] = run(result, [{ type: 'tap', x: 1, y: 1 }, 88000]);
  assert.equal(roundScreen(closed), null);
  assert.deepEqual(closed.box.batches.map((b) => b.taps), [{ S1: 1 }], 'the tap counts too');
});

test('a final that comes long after the round (a tab opened later) shows nothing and plays nothing', () => {
  // Ended at 130 000, grace to 135 000; seen at 200 000.
  const [state, effects] = run(welcomed(140000)[0], server({ ...ROUND, nowMs: 200000, final: true, place: 1, count: 99, players: 3 }, 150000));
  assert.equal(roundScreen(state), null);
  assert.deepEqual(fanfares(effects), []);
  // Within 5 s of the grace's end is still the race's own result.
  const [fresh, played] = run(welcomed(40000)[0], server({ ...ROUND, nowMs: 139900, final: true, place: 1, count: 99, players: 3 }, 89900));
  assert.equal(roundScreen(fresh).phase, 'result');
  assert.equal(fanfares(played).length, 1);
});

test('a player who did not tap in the round sees the result without a fanfare', () => {
  const [state, effects] = run(welcomed(40000)[0], server({ ...ROUND, nowMs: 135100, final: true }, 85100));
  assert.equal(roundScreen(state).phase, 'result');
  assert.deepEqual(fanfares(effects), []);
});

test('a round stopped early ends where the server says; a new round replaces the last, an older one is ignored', () => {
  const [racing] = run(welcomed(40000)[0], server(ROUND, 47000), [{ type: 'roundTick' }, 55000]);
  const [stopped] = run(racing, server({ ...ROUND, endsAtMs: 106000, nowMs: 106000 }, 56000));
  assert.equal(roundScreen(stopped).phase, 'counting');
  const [next] = run(stopped, server({ ...ROUND, id: 4, startsAtMs: 110000, endsAtMs: 120000, nowMs: 107000 }, 57000));
  assert.deepEqual(next.roundStage, { id: 4, phase: 'countdown', n: 3 });
  assert.equal(update(next, server(ROUND, 57100)[0], 57100).state.round.id, 4);
});

// ---------------------------------------------------------------- the projector
const PLAYERS = [
  { place: 2, id: 'p2', count: 50, player: '지우', school: 'S2' }, { place: 1, id: 'p1', count: 57, player: '민수', school: 'S1' },
  { place: 4, id: 'p4', count: 20, player: '<script>alert(1)</script>', school: 'S1' }, { place: 3, id: 'p3', count: 31, player: '하늘', school: 'S2' },
  { place: 5, id: 'p5', count: 2, player: 'Kim', school: 'S3' }];
const EVENT = { id: 7, title: '3반 대항전', startsAtMs: 100000, endsAtMs: 130000, graceMs: 5000, nowMs: 97000, final: false,
                playerCount: 5, players: PLAYERS, schools: [{ place: 1, id: 'S1', count: 77 }, { place: 2, id: 'S2', count: 81 }] };

function projector(options = {}) {
  return run(initialState({ projector: true, join: 'http://10.0.0.5:8080/', ...options }), [{ type: 'start' }]);
}

test('the projector\'s round: the event\'s clock, one way; the round replaces the board while it runs', () => {
  const [started] = projector();
  assert.equal(projectorScreen(started), 'ranking');
  const [state, effects] = run(started, [{ type: 'boardRound', round: EVENT }, 47000]);
  assert.equal(clockOffset(state.clock), 50000);
  assert.deepEqual(state.roundStage, { id: 7, phase: 'countdown', n: 3 });
  assert.equal(projectorScreen(state), 'round');
  assert.ok(effects.some((e) => e.type === 'after' && e.name === 'roundTick'));
  // Of the one-way samples, the one that took the least (the largest offset).
  const [later] = run(state, [{ type: 'boardRound', round: { ...EVENT, nowMs: 97900 } }, 48000]);
  assert.equal(clockOffset(later.clock), 50000);
  const [faster] = run(state, [{ type: 'boardRound', round: { ...EVENT, nowMs: 98030 } }, 48000]);
  assert.equal(clockOffset(faster.clock), 50030);
  // The board's pages do not turn under the round (its stream would only be asked again and again).
  const rows = Array.from({ length: 11 }, (_, i) => [i + 1, `S${i + 1}`, 100 - i]);
  const [paged] = run(state, [{ type: 'boardPage', page: { type: 'page', version: 1, league: {}, from: 0, size: 50, rows } }, 47100]);
  assert.equal(update(paged, { type: 'pageTick' }, 48000).state, paged);
  assert.equal(run(paged, [{ type: 'dismissRound' }], [{ type: 'pageTick' }, 48000])[0].projectorPage, 1, 'back on the board, they do');
});

test('the podium: first three on the steps (second, first, third from the left), the rest in order', () => {
  const { steps, rest } = podium(PLAYERS);
  assert.deepEqual(steps.map((step) => [step.place, step.players.map((p) => p.id)]), [[2, ['p2']], [1, ['p1']], [3, ['p3']]]);
  assert.deepEqual(rest.map((p) => p.id), ['p4', 'p5']);
  assert.deepEqual(podium(PLAYERS.slice(1, 2)).steps.map((step) => step.place), [1], 'one player: one step');
  assert.deepEqual(podium([]), { steps: [], rest: [] });
});

test('ties share the place (1, 1, 3): on one step together, said as tied, on the podium and in the lists', () => {
  const tied = [{ place: 1, id: 'a', count: 50, player: '민수', school: 'S1' }, { place: 1, id: 'b', count: 50, player: '지우', school: 'S2' },
                { place: 3, id: 'c', count: 31, player: '하늘', school: 'S2' }, { place: 4, id: 'd', count: 7, player: 'Kim', school: 'S3' },
                { place: 4, id: 'e', count: 7, player: 'Lee', school: 'S3' }];
  const { steps, rest } = podium(tied);
  // No second place: the first's step in the middle, the third's beside it.
  assert.deepEqual(steps.map((step) => [step.place, step.players.map((p) => p.id)]), [[3, ['c']], [1, ['a', 'b']]]);
  assert.deepEqual(rest.map((p) => p.id), ['d', 'e']);
  assert.deepEqual(podium(tied.map((p) => ({ ...p, place: 1 }))).steps.map((step) => step.players.length), [5], 'everyone tied: one step');
  const round = { ...EVENT, final: true, nowMs: 200000, playerCount: 5, players: tied, schools: [{ place: 1, id: 'S1', count: 50 }, { place: 1, id: 'S2', count: 50 }] };
  const ko = runningPage(projector()[0]).send({ type: 'boardRound', round }, 150000);
  assert.equal(ko.text('round-podium'), '3위 하늘 S2 31 공동 1위 민수 S1 지우 S2 50');
  assert.equal(ko.text('round-players'), '4 Kim S3 7 4 Lee S3 7');
  assert.equal(ko.text('round-schools'), '1 S1 50 1 S2 50');
  const en = runningPage(projector()[0], 'en').send({ type: 'boardRound', round }, 150000);
  assert.equal(en.text('round-podium'), '3rd 하늘 S2 31 tied 1st 민수 S1 지우 S2 50');
  // During the race the standings list every place as the server has it, ties and all.
  const live = runningPage(projector()[0]).send({ type: 'boardRound', round: { ...round, final: false, nowMs: 110000 } }, 60000);
  assert.equal(live.text('round-players'), '1 민수 S1 50 1 지우 S2 50 3 하늘 S2 31 4 Kim S3 7 4 Lee S3 7');
});

test('the projector\'s podium stays once final, until the teacher goes back to the board or a next round', () => {
  const [final] = run(projector()[0], [{ type: 'boardRound', round: { ...EVENT, final: true, nowMs: 200000 } }, 150000]);
  assert.deepEqual(roundScreen(final), { phase: 'podium', n: 0, round: final.round });
  assert.deepEqual(run(final, [{ type: 'roundTick' }, 900000])[0].roundStage.phase, 'final', 'no time limit');
  const [board] = run(final, [{ type: 'dismissRound' }]);
  assert.equal(projectorScreen(board), 'ranking');
  assert.equal(projectorScreen(run(board, [{ type: 'showRounds' }], [{ type: 'reopenRound' }])[0]), 'round', 'brought back, over the previous rounds too');
  assert.equal(projectorScreen(run(board, [{ type: 'boardRound', round: { ...EVENT, final: true, nowMs: 200500 } }, 150500])[0]), 'ranking',
               'the same round again stays closed');
  const [next] = run(board, [{ type: 'boardRound', round: { ...EVENT, id: 8, startsAtMs: 210000, endsAtMs: 220000, nowMs: 207000, final: false } }, 157000]);
  assert.equal(projectorScreen(next), 'round');
});

test('previous rounds: the list, one round\'s results, back; a new round closes them', () => {
  const [open, effects] = run(projector()[0], [{ type: 'showRounds' }]);
  assert.deepEqual(effects, [{ type: 'loadRounds' }]);
  assert.equal(projectorScreen(open), 'archive');
  const list = [{ id: 7, title: null, startsAtMs: 100000, endsAtMs: 130000, graceMs: 5000 }];
  const [listed] = run(open, [{ type: 'roundsList', rounds: list }]);
  assert.equal(listed.archive.list, list);
  const [asked, load] = run(listed, [{ type: 'showRound', id: 7 }]);
  assert.deepEqual(load, [{ type: 'loadRound', id: 7 }]);
  const answer = { round: list[0], nowMs: 500000, players: PLAYERS, schools: [] };
  const [detail] = run(asked, [{ type: 'roundDetail', answer }]);
  assert.equal(detail.archive.detail, answer);
  assert.equal(run(detail, [{ type: 'archiveBack' }])[0].archive.detail, null);
  assert.equal(run(detail, [{ type: 'roundsFailed' }])[0].archive.failed, true);
  assert.equal(projectorScreen(run(detail, [{ type: 'closeRounds' }])[0]), 'ranking');
  const [racing] = run(detail, [{ type: 'boardRound', round: EVENT }, 47000]);
  assert.equal(projectorScreen(racing), 'round');
});

// ---------------------------------------------------------------- the teacher's controls
test('the token of the fragment is read, kept for the session, and taken out of the address', () => {
  assert.equal(adminTokenIn('#admin=s3cr3t-TOKEN_x'), 's3cr3t-TOKEN_x');
  assert.equal(adminTokenIn(''), null);
  assert.equal(adminTokenIn('#other=1'), null);
  const [state, effects] = projector({ hash: '#admin=s3cr3t' });
  assert.equal(state.admin, 's3cr3t');
  assert.deepEqual(effects.filter((e) => e.type === 'keepAdmin' || e.type === 'forgetHash'),
                   [{ type: 'keepAdmin', token: 's3cr3t' }, { type: 'forgetHash' }]);
  // Reloaded: the address has no fragment any more, the session keeps the token.
  const [reloaded, again] = projector({ admin: 's3cr3t' });
  assert.equal(reloaded.admin, 's3cr3t');
  assert.deepEqual(again.filter((e) => e.type === 'keepAdmin' || e.type === 'forgetHash'), []);
  // A phone's page opened with it does not keep it either, nor show it.
  const [phone, phoneFx] = run(initialState({ hash: '#admin=s3cr3t' }), [{ type: 'start' }]);
  assert.equal(phone.admin, null);
  assert.deepEqual(phoneFx.filter((e) => e.type === 'keepAdmin' || e.type === 'forgetHash'), [{ type: 'forgetHash' }]);
});

test('without the token the projector has no controls, and asks nothing of the admin API', () => {
  const [state] = projector();
  assert.equal(state.admin, null);
  assert.deepEqual(run(state, [{ type: 'startRound', seconds: 30, title: 'x' }])[1], []);
  assert.deepEqual(run(state, [{ type: 'stopRound' }])[1], []);
});

test('start and stop with the token; the server\'s error shown', () => {
  const [state] = projector({ hash: '#admin=tok' });
  const [starting, effects] = run(state, [{ type: 'startRound', seconds: 30, title: ' 3반 & 4반 ' }]);
  assert.deepEqual(effects, [{ type: 'adminPost', url: '/v1/admin/rounds?seconds=30&title=3%EB%B0%98%20%26%204%EB%B0%98', token: 'tok' }]);
  assert.equal(starting.adminBusy, true);
  assert.deepEqual(run(state, [{ type: 'startRound', seconds: 60, title: '' }])[1],
                   [{ type: 'adminPost', url: '/v1/admin/rounds?seconds=60', token: 'tok' }]);
  assert.deepEqual(run(state, [{ type: 'stopRound' }])[1], [{ type: 'adminPost', url: '/v1/admin/rounds/stop', token: 'tok' }]);
  const [failed] = run(starting, [{ type: 'adminAnswer', ok: false, status: 400, error: '<b>title too long</b>' }]);
  assert.deepEqual([failed.adminBusy, failed.adminError], [false, { status: 400, error: '<b>title too long</b>' }]);
  const [done] = run(failed, [{ type: 'adminAnswer', ok: true }]);
  assert.equal(done.adminError, null);
});

// ---------------------------------------------------------------- text from data
/** A document just big enough for the standings: elements keep text, refuse markup. */
function fakeDocument() {
  const created = [];
  const document = {
    created,
    createElement(tag) {
      const element = { tagName: tag.toUpperCase(), children: [], className: '', text: '',
        set textContent(value) { this.text = String(value); this.children = []; }, get textContent() { return this.text + this.children.map((c) => c.textContent).join(''); },
        set innerHTML(value) { throw new Error(`markup set: ${value}`); },
        append(...nodes) { this.children.push(...nodes); } };
      created.push(element);
      return element;
    },
  };
  return document;
}

test('names and titles from the data reach the page as text only', () => {
  const document = fakeDocument();
  const items = standingsItems(document, PLAYERS, (p) => [String(p.place), p.player, p.school, String(p.count)]);
  assert.deepEqual(items.map((item) => item.children[1].textContent),
                   ['민수', '지우', '하늘', '<script>alert(1)</script>', 'Kim'], 'in place order');
  assert.ok(document.created.every((element) => element.tagName !== 'SCRIPT'));
  // And nowhere else in the page's drawing: view.js and its screens (view/) set no markup at all.
  const web = new URL('../../Sources/TouchSchoolServer/Page/Web/', import.meta.url);
  for (const script of ['view.js', ...readdirSync(new URL('view/', web)).map((name) => `view/${name}`)]) {
    const source = readFileSync(new URL(script, web), 'utf8');
    assert.doesNotMatch(source, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|createContextualFragment/, script);
  }
});

test('the round\'s messages change nothing they were given', () => {
  const [state] = run(welcomed(40000)[0], server(ROUND, 47000));
  const copy = structuredClone(state);
  for (const message of [server({ ...ROUND, nowMs: 135100, final: true, place: 1, count: 9, players: 2 }, 85100)[0], server({ type: 'pong', nowMs: 90000 }, 40010)[0],
    { type: 'roundTick' }, { type: 'pingTick' }, { type: 'tap', x: 1, y: 1 }, { type: 'socketClosed', code: 1006, reason: '' }]) {
    update(state, message, 90000);
    assert.deepEqual(state, copy, message.type);
  }
  const [board] = run(projector({ hash: '#admin=tok' })[0], [{ type: 'boardRound', round: EVENT }, 47000]);
  const boardCopy = structuredClone(board);
  for (const message of [{ type: 'boardRound', round: { ...EVENT, final: true, nowMs: 140000 } }, { type: 'dismissRound' }, { type: 'showRounds' },
    { type: 'startRound', seconds: 30, title: 't' }, { type: 'adminAnswer', ok: false, status: 401, error: 'no' }]) {
    update(board, message, 90000);
    assert.deepEqual(board, boardCopy, message.type);
  }
});

test('the rounds\' words, in Korean and English alike', () => {
  assert.deepEqual(Object.keys(TEXT.ko).sort(), Object.keys(TEXT.en).sort());
  assert.equal(TEXT.ko.roundPlace(TEXT.ko.place(3), '12'), '3위 / 12명');
  assert.equal(TEXT.en.roundPlace(TEXT.en.place(3), '12'), '3rd of 12');
  assert.deepEqual([TEXT.ko.duration(30), TEXT.ko.duration(90), TEXT.en.duration(120)], ['30초', '1분 30초', '2 min']);
  const html = readFileSync(new URL('../../Sources/TouchSchoolServer/Page/Web/index.html', import.meta.url), 'utf8');
  for (const [, key] of html.matchAll(/data-t="([A-Za-z]+)"/g)) assert.ok(key in TEXT.ko, key);
});

test('roundPlace: the player\'s place as it changes, taken into the round shown; another round\'s is ignored', () => {
  // The server leaves `place` out while the player has none.
  const { place, ...noPlace } = ROUND;
  const [told] = run(welcomed(40000)[0], server(noPlace, 47000), [{ type: 'roundTick' }, 52000]);
  assert.equal(told.round.place, null);
  const [placed] = run(told, server({ type: 'roundPlace', id: 3, place: 4, count: 17, players: 9, final: false }, 53000));
  assert.deepEqual([placed.round.place, placed.round.count, placed.round.players, placed.round.final], [4, 17, 9, false]);
  assert.equal(placed.round.title, '3반 대항전', 'the round itself stays');
  const [other, none] = run(placed, server({ type: 'roundPlace', id: 2, place: 1, count: 99, players: 9, final: true }, 54000));
  assert.equal(other.round.place, 4);
  assert.deepEqual(fanfares(none), []);
  // Final through roundPlace: the result, with the fanfare.
  const [counting] = run(placed, [{ type: 'roundTick' }, 81000]);
  const [result, effects] = run(counting, server({ type: 'roundPlace', id: 3, place: 2, count: 81, players: 9, final: true }, 85200));
  assert.equal(roundScreen(result).phase, 'result');
  assert.equal(fanfares(effects).length, 1);
  // Without a place, final brings the result and no fanfare.
  const [quiet, silent] = run(counting, server({ type: 'roundPlace', id: 3, count: 0, players: 9, final: true }, 85200));
  assert.equal(roundScreen(quiet).phase, 'result');
  assert.deepEqual(fanfares(silent), []);
});

// ---------------------------------------------------------------- the race as the class sees it (issue 47)
/** The event of round 7 at the server's `nowMs`: `counts` of 민수 (S1) and 지우 (S2), the leader first. */
function racing(nowMs, [minsu, jiwoo]) {
  const players = [{ id: 'p1', count: minsu, player: '민수', school: 'S1' }, { id: 'p2', count: jiwoo, player: '지우', school: 'S2' }]
    .filter((p) => p.count > 0).sort((a, b) => b.count - a.count).map((p, i) => ({ ...p, place: i + 1 }));
  return { type: 'boardRound', round: { ...EVENT, nowMs, playerCount: players.length, players, schools: [] } };
}

test('the projector\'s race: every event\'s standings are drawn, however many come within one second', () => {
  // The countdown's event (nobody yet), then the race: at the server's 101 200 … 101 900, all within
  // the same second of the clock (29 s left), the counts rise.
  const page = runningPage(projector()[0]).send(racing(97000, [0, 0]), 47000).send({ type: 'roundTick' }, 50000).send({ type: 'roundTick' }, 51000);
  assert.equal(page.text('round-clock'), '29');
  assert.equal(page.text('round-players-count'), '0명 참가');
  page.send(racing(101200, [3, 1]), 51200);
  assert.equal(page.text('round-players-count'), '2명 참가');
  assert.equal(page.text('round-players'), '1 민수 S1 3 2 지우 S2 1');
  page.send(racing(101500, [5, 6]), 51500);
  assert.equal(page.text('round-players'), '1 지우 S2 6 2 민수 S1 5');
  page.send(racing(101900, [9, 6]), 51900);
  assert.equal(page.text('round-players'), '1 민수 S1 9 2 지우 S2 6');
  assert.equal(page.text('round-clock'), '29', 'the same second all along');
  // The same standings again (a repeat): the round drawn stays the same object, nothing redrawn.
  const shown = page.state.round;
  page.send(racing(101950, [9, 6]), 51950);
  assert.equal(page.state.round, shown);
});

test('the projector opened (or reloaded) in the middle of the race shows its standings with the stream\'s first event', () => {
  const page = runningPage(projector()[0]).send(racing(112300, [40, 31]), 62300);
  assert.equal(page.text('round-clock'), '18');
  assert.equal(page.text('round-players-count'), '2명 참가');
  assert.equal(page.text('round-players'), '1 민수 S1 40 2 지우 S2 31');
  page.send(racing(112400, [41, 31]), 62400);
  assert.equal(page.text('round-players'), '1 민수 S1 41 2 지우 S2 31');
});

test('the phone\'s round line follows its place within one second too', () => {
  const [state] = run(welcomed(40000)[0], server(ROUND, 47000), [{ type: 'roundTick' }, 50000], [{ type: 'roundTick' }, 51000]);
  const page = runningPage(state);
  page.send(server({ type: 'roundPlace', id: 3, place: 2, count: 4, players: 3, final: false }, 51100)[0], 51100);
  assert.equal(page.text('round-bar'), '3반 대항전 남은 시간 29초 2위 / 3명 4번');
  page.send(server({ type: 'roundPlace', id: 3, place: 1, count: 9, players: 3, final: false }, 51600)[0], 51600);
  assert.equal(page.text('round-bar'), '3반 대항전 남은 시간 29초 1위 / 3명 9번');
  const shown = page.state.round;
  page.send(server({ type: 'roundPlace', id: 3, place: 1, count: 9, players: 3, final: false }, 51700)[0], 51700);
  assert.equal(page.state.round, shown, 'the same place again: nothing new');
});

test('the teacher\'s link pasted into the projector already open (a change of the fragment, no reload): the controls at once, the token out of the address', () => {
  const page = runningPage(projector()[0]);
  assert.equal(page.shown('admin'), false);
  page.send({ type: 'hashChanged', hash: '#admin=s3cr3t' });
  assert.equal(page.state.admin, 's3cr3t');
  assert.deepEqual(page.effects, [{ type: 'keepAdmin', token: 's3cr3t' }, { type: 'forgetHash' },
                                  { type: 'after', name: 'idle', ms: 3000, message: { type: 'idle' } }]);
  assert.equal(page.shown('admin'), true);
  assert.equal(page.state.idle, false, 'shown without a move of the mouse, until it has rested 3 s');
  // Another fragment is none of the page's business; a phone's page drops the token, as at its start.
  assert.deepEqual(run(page.state, [{ type: 'hashChanged', hash: '#top' }]), [page.state, []]);
  const [phone, effects] = run(initialState({}), [{ type: 'start' }], [{ type: 'hashChanged', hash: '#admin=s3cr3t' }]);
  assert.equal(phone.admin, null);
  assert.deepEqual(effects, [{ type: 'forgetHash' }]);
});

test('previous rounds: each round\'s results to download as CSV, from the list and from the round shown', () => {
  const list = [{ id: 12, title: '3반', startsAtMs: 100000, endsAtMs: 130000, graceMs: 5000 },
                { id: 7, title: null, startsAtMs: 50000, endsAtMs: 60000, graceMs: 5000 }];
  for (const [lang, label] of [['ko', 'CSV 내려받기'], ['en', 'Download CSV']]) {
    const page = runningPage(projector()[0], lang).send({ type: 'showRounds' }).send({ type: 'roundsList', rounds: list });
    const links = page.element('archive-list').querySelectorAll('a');
    assert.deepEqual(links.map((a) => [a.getAttribute('href'), a.textContent, 'download' in a.attributes]),
                     [['/v1/rounds/12/results.csv', label, true], ['/v1/rounds/7/results.csv', label, true]]);
    page.send({ type: 'roundDetail', answer: { round: list[1], nowMs: 500000, players: PLAYERS, schools: [] } });
    const link = page.element('archive-csv');
    assert.ok(page.shown('archive-csv'));
    assert.deepEqual([link.getAttribute('href'), link.textContent], ['/v1/rounds/7/results.csv', label]);
  }
});

test('"집계 중…" / "Counting…": one spelling on the phone and the projector, as the terminal says it, and no "..." anywhere in the words', () => {
  const words = (catalogue) => Object.values(catalogue).flatMap((word) => (typeof word === 'function' ? [word(1, 2)] : typeof word === 'string' ? [word] : Object.values(word)));
  for (const lang of ['ko', 'en']) assert.deepEqual(words(TEXT[lang]).filter((word) => word.includes('...')), [], lang);
  const [counting] = run(welcomed(40000)[0], server(ROUND, 47000), [{ type: 'roundTick' }, 80100]);
  const phone = runningPage(counting);
  assert.equal(phone.text('round-big-text'), '집계 중…');
  const board = runningPage(projector()[0], 'en').send({ type: 'boardRound', round: { ...EVENT, nowMs: 131000 } }, 81000);
  assert.equal(board.text('round-clock'), 'Counting…');
});

test('the phone says a shared place as shared (the server\'s `tied`), in its round line and its result', () => {
  const [state] = run(welcomed(40000)[0], server(ROUND, 47000), [{ type: 'roundTick' }, 51000]);
  const page = runningPage(state);
  page.send(server({ type: 'roundPlace', id: 3, place: 2, tied: true, count: 4, players: 3, final: false }, 51100)[0], 51100);
  assert.equal(page.text('round-place'), '공동 2위 / 3명');
  page.send(server({ type: 'roundPlace', id: 3, place: 2, count: 5, players: 3, final: false }, 51300)[0], 51300);
  assert.equal(page.text('round-place'), '2위 / 3명', 'no longer tied');
  page.send(server({ type: 'roundPlace', id: 3, place: 1, tied: true, count: 5, players: 3, final: false }, 51400)[0], 51400);
  assert.equal(page.text('round-place'), '공동 1위 / 3명', 'only `tied` changed: news all the same');
  page.send(server({ type: 'roundPlace', id: 3, place: 1, tied: true, count: 81, players: 3, final: true }, 85200)[0], 85200);
  assert.equal(page.text('round-big-text'), '공동 1위!');
  const [en] = run(welcomed(40000)[0], server({ ...ROUND, nowMs: 110000, place: 1, tied: true, count: 9, players: 4 }, 60000));
  assert.equal(runningPage(en, 'en').text('round-place'), 'tied 1st of 4');
  assert.equal(runningPage(en, 'en').text('round-count'), '9 taps');
  // One tap is "1 tap", as a person reads it (Korean has no plural: "1번").
  const [one] = run(welcomed(40000)[0], server({ ...ROUND, nowMs: 110000, place: 2, count: 1, players: 4 }, 60000));
  assert.deepEqual([runningPage(one, 'en').text('round-place'), runningPage(one, 'en').text('round-count')], ['2nd of 4', '1 tap']);
  assert.equal(runningPage(one, 'ko').text('round-count'), '1번');
});

test('a batch claims its times on the server\'s clock: a phone whose clock is off counts its race as its screen showed it', () => {
  for (const ahead of [3000, -3000, AHEAD]) {
    let [state] = welcomed(1000);
    // Out at 1000, back at 1020: the server said its 1010 + ahead at the middle.
    [state] = run(state, server({ type: 'pong', nowMs: 1010 + ahead }, 1020));
    assert.equal(clockOffset(state.clock), ahead);
    // A tap at the phone's 2000 goes out at once, claimed at the server's 2000 + ahead.
    let effects;
    [state, effects] = run(state, [{ type: 'tap', x: 1, y: 2 }, 2000]);
    const [batch] = sent(effects).filter((m) => m.type === 'taps');
    assert.deepEqual([batch.startMs, batch.endMs], [2000 + ahead, 2000 + ahead], `the server ${ahead} ms ahead`);
    // Taps held together: their span, moved as a whole.
    [state] = run(state, [{ type: 'tap', x: 1, y: 2 }, 2100], [{ type: 'tap', x: 1, y: 2 }, 2200]);
    [state, effects] = run(state, [{ type: 'sealTick' }, 2300]);
    const [held] = sent(effects).filter((m) => m.type === 'taps');
    assert.deepEqual([held.startMs, held.endMs, held.playerTaps], [2100 + ahead, 2200 + ahead, 2]);
  }
  // An offset of half a millisecond (a round trip of odd length) claims whole milliseconds.
  let [state] = welcomed(1000);
  [state] = run(state, server({ type: 'pong', nowMs: 4010 }, 1021));
  const [batch] = sent(run(state, [{ type: 'tap', x: 1, y: 2 }, 2000])[1]).filter((m) => m.type === 'taps');
  assert.ok(Number.isInteger(batch.startMs) && Number.isInteger(batch.endMs) && Math.abs(batch.endMs - 4999.5) <= 0.5, `${batch.endMs}`);
});

test('every player on the podium: the players\' heading goes with its empty list; more than three, it stays over the rest', () => {
  const two = PLAYERS.slice(0, 2);
  const round = { ...EVENT, final: true, nowMs: 200000, playerCount: 2, players: two, schools: [] };
  const page = runningPage(projector()[0]).send({ type: 'boardRound', round }, 150000);
  assert.equal(page.shown('round-podium'), true);
  assert.equal(page.shown('round-players-box'), false, 'no "선수" over nothing');
  const five = { ...round, playerCount: 5, players: PLAYERS };
  const more = runningPage(projector()[0]).send({ type: 'boardRound', round: five }, 150000);
  assert.equal(more.shown('round-players-box'), true);
  assert.ok(more.text('round-players-box').startsWith('선수'));
  // During the race every player is listed under the heading.
  const live = runningPage(projector()[0]).send({ type: 'boardRound', round: { ...round, final: false, nowMs: 110000 } }, 60000);
  assert.equal(live.shown('round-players-box'), true);
});

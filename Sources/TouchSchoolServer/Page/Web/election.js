// Which tab plays, without Web Locks (plain http:// to another machine: no secure context): the
// tabs agree over the BroadcastChannel `touchschool-device` by the rules of docs/protocol.md ("One
// tab plays"). Pure, as update.js is: `elect(tab, event, now)` → `{tab, effects}`; effects.js
// carries the messages over the channel and runs the timers.
//
// Events: claim {steal} (this page asks for the device: at its start, or "play here"), heard
// {message} (another tab's, from the channel), answerOver (no answer to a claim in TAB_ANSWER_MS),
// beat (every TAB_HEARTBEAT_MS), release {to} (this tab gives the device up: to the tab `to` that
// takes it, or to any), pagehide, pageshow {persisted}.
// Effects: say {message} (on the channel), tell {message} (granted, waiting, claiming, lost {to}:
// for update.js), answerIn {ms}, cancelAnswer, stopBeating, reload.

export const TAB_HEARTBEAT_MS = 1000;
export const TAB_SILENT_MS = 3000;
export const TAB_ANSWER_MS = 500;

/**
 * A tab before it asked for anything: its `id` and start time `since` rank it; `epoch` is its
 * claim's, `topEpoch` the highest heard; `role` 'claiming', 'taking' (play here), 'owner',
 * 'waiting', or 'stopped' (for good); `ownerHeard` when an owner (or a claim run its course) was
 * last heard.
 */
export function initialTab(id, since) {
  return { id, since, epoch: 0, topEpoch: 0, role: 'waiting', ownerHeard: 0 };
}

export function elect(tab, event, now) {
  const fx = [];
  const t = { ...tab };
  const on = EVENTS[event.type];
  if (on) on(t, event, now, fx);
  return { tab: t, effects: fx };
}

function say(t, fx, type, extra) {
  fx.push({ type: 'say', message: { type, id: t.id, since: t.since, epoch: t.epoch, ...extra } });
}

function tell(fx, message) { fx.push({ type: 'tell', message }); }

function ask(t, fx, type) {
  t.role = type === 'take' ? 'taking' : 'claiming';
  t.topEpoch += 1;
  t.epoch = t.topEpoch;
  say(t, fx, type);
  fx.push({ type: 'answerIn', ms: TAB_ANSWER_MS });
  tell(fx, { type: 'claiming' });
}

function own(t, fx) {
  fx.push({ type: 'cancelAnswer' });
  t.role = 'owner';
  say(t, fx, 'owner');
  tell(fx, { type: 'granted' });
}

function giveWay(t, fx, now) {
  fx.push({ type: 'cancelAnswer' });
  t.role = 'waiting';
  t.ownerHeard = now;
  tell(fx, { type: 'waiting' });
}

/** Whether the tab that sent `message` outranks this one: the higher epoch, the earlier start, the smaller id. */
export function outranks(message, t) {
  if (message.epoch !== t.epoch) return message.epoch > t.epoch;
  if (message.since !== t.since) return message.since < t.since;
  return message.id < t.id;
}

/** What a tab does on hearing another's message, by its type. */
const HEARD = {
  claim(t, message, now, fx) {
    // A waiting tab lets that claim run its course rather than outbid it with a newer epoch.
    if (t.role === 'waiting') t.ownerHeard = now;
    else if (t.role === 'owner') say(t, fx, 'owner');
    else if (t.role === 'taking') say(t, fx, 'take');
    // The claim it outranks learns of this one (it may have started before that tab listened).
    else if (t.role === 'claiming') { if (outranks(message, t)) giveWay(t, fx, now); else say(t, fx, 'claim'); }
  },
  owner(t, message, now, fx) {
    t.ownerHeard = now;
    if (t.role === 'claiming') giveWay(t, fx, now);
    else if (t.role === 'owner') { if (outranks(message, t)) tell(fx, { type: 'lost', to: message.id }); else say(t, fx, 'owner'); }
  },
  take(t, message, now, fx) {
    t.ownerHeard = now;
    if (t.role === 'owner') tell(fx, { type: 'lost', to: message.id });
    else if (t.role === 'claiming' || (t.role === 'taking' && outranks(message, t))) giveWay(t, fx, now);
  },
  release(t, message, now, fx) {
    if (message.to === t.id && t.role === 'taking') own(t, fx);
    else if (message.to) t.ownerHeard = now;
    else if (t.role === 'waiting') ask(t, fx, 'claim');
  },
};

const EVENTS = {
  claim(t, { steal }, now, fx) { ask(t, fx, steal ? 'take' : 'claim'); },
  heard(t, { message }, now, fx) {
    if (t.role === 'stopped' || !message || message.id === t.id || typeof message.epoch !== 'number') return;
    t.topEpoch = Math.max(t.topEpoch, message.epoch);
    const heard = HEARD[message.type];
    if (heard) heard(t, message, now, fx);
  },
  answerOver(t, event, now, fx) { if (t.role === 'claiming' || t.role === 'taking') own(t, fx); },
  beat(t, event, now, fx) {
    if (t.role === 'owner') say(t, fx, 'owner');
    else if (t.role === 'waiting' && now - t.ownerHeard > TAB_SILENT_MS) ask(t, fx, 'claim');
  },
  release(t, { to }, now, fx) {
    if (t.role !== 'owner') return;
    t.role = 'stopped';
    fx.push({ type: 'stopBeating' });
    say(t, fx, 'release', to ? { to } : {});
  },
  // Closed or left, the device goes to a waiting tab now rather than after TAB_SILENT_MS.
  pagehide(t, event, now, fx) { if (t.role === 'owner') tell(fx, { type: 'lost' }); },
  // A page shown again from the back-forward cache gave the device up: it starts again.
  pageshow(t, { persisted }, now, fx) { if (persisted && t.role === 'stopped') fx.push({ type: 'reload' }); },
};

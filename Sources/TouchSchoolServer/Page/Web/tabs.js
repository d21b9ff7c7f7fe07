// Which tab plays, as an effect module. The tabs of one browser share the device and its
// storage. Only the tab holding the device's Web Lock plays; another says so and offers to play
// here, which takes the lock from the first: that one stops at once and writes nothing more. The
// lock is held for the tab's life; a tab waiting for it plays as soon as the playing tab is
// closed or reloaded. Messages: granted, waiting, claiming, lost {to}; effects: claim, release.
const DEVICE_LOCK = 'touchschool-device';
// A page without Web Locks (served over plain http to another machine: no secure context) agrees
// with the other tabs over the BroadcastChannel `touchschool-device`, which needs none. Each tab
// has a random `id` and its start time `since`; a tab that asks for the device takes an `epoch`
// one above any it has heard. Ranks order the tabs: the higher epoch, then the earlier start,
// then the smaller id. Every message is {type, id, since, epoch} (and `to` on a release):
//  - claim: "who plays? if no one, I will". The owner answers `owner` at once. A claimant that
//    hears `owner` or `take`, or a claim that outranks its own, waits; one that hears none of
//    them within TAB_ANSWER_MS plays. Two tabs opened at the same instant both claim, and the
//    lower gives way before either has played, read the storage or connected.
//  - owner: the playing tab, in answer to a claim and every TAB_HEARTBEAT_MS. An owner hearing
//    another owner that outranks it stops: with a newer epoch, that one took the device while
//    this one was taken for dead (frozen, or too busy to answer), and only it still plays.
//  - take: "play here". The owner stops at once (socket closed, storage never written again)
//    and answers `release` to the taker, which then reads the storage and plays; with no owner
//    left to answer (closed, crashed) it plays after TAB_ANSWER_MS. A claimant gives way.
//  - release: the owner gave the device up, to a taker (`to`) or to anyone (its page was
//    closed or left, or it stopped): then the waiting tabs claim at once.
// A waiting tab that has heard no owner for TAB_SILENT_MS claims: an owner still there answers
// at once (a background tab's timers, so its heartbeat, may be throttled to one a minute, its
// message events are not); a crashed one does not, and the claimant plays TAB_ANSWER_MS later.
const TAB_HEARTBEAT_MS = 1000;
const TAB_SILENT_MS = 3000;
const TAB_ANSWER_MS = 500;

export function tabs(tell, id) {
  let waitingForDevice = null, releaseDevice = null;

  function claim(steal) {
    if (!navigator.locks) { claimByChannel(steal); return; }
    if (waitingForDevice) { waitingForDevice.abort(); waitingForDevice = null; }
    navigator.locks.request(DEVICE_LOCK, steal ? { steal: true } : { ifAvailable: true }, (lock) => {
      if (lock) return playHolding();
      waitForDevice();
      return undefined;
    }).catch(lostDevice);
  }

  function waitForDevice() {
    tell({ type: 'waiting' });
    const waiting = new AbortController();
    waitingForDevice = waiting;
    // Given up (`abort`) when this tab takes the lock itself: that ends nothing that played.
    navigator.locks.request(DEVICE_LOCK, { signal: waiting.signal }, playHolding).catch(() => { if (!waiting.signal.aborted) lostDevice(); });
  }

  /** A lock request ended in an error: taken by another tab (stolen) if this tab was playing. */
  function lostDevice() { tell({ type: 'lost' }); }

  /** Plays, holding the lock until the tab ends or another takes it (`release`). */
  function playHolding() {
    waitingForDevice = null;
    return new Promise((resolve) => { releaseDevice = resolve; tell({ type: 'granted' }); });
  }

  // ---------------------------------------------------------------- without Web Locks
  const tab = { id, since: performance.timeOrigin, epoch: 0 };
  /** 'claiming', 'taking' (play here), 'owner', 'waiting', or 'stopped' (for good). */
  let role = 'waiting';
  let channel = null, topEpoch = 0, ownerHeard = 0, answerTimer = 0, beatTimer = 0;

  function claimByChannel(steal) {
    if (!channel) {
      channel = new BroadcastChannel(DEVICE_LOCK);
      channel.onmessage = (event) => hear(event.data);
      beatTimer = setInterval(beat, TAB_HEARTBEAT_MS);
      // Closed or left, the device goes to a waiting tab now rather than after TAB_SILENT_MS.
      // A page shown again from the back-forward cache gave it up: it starts again.
      addEventListener('pagehide', () => { if (role === 'owner') tell({ type: 'lost' }); });
      addEventListener('pageshow', (event) => { if (event.persisted && role === 'stopped') location.reload(); });
    }
    ask(steal ? 'take' : 'claim');
  }

  function ask(type) {
    role = type === 'take' ? 'taking' : 'claiming';
    topEpoch += 1;
    tab.epoch = topEpoch;
    say(type);
    clearTimeout(answerTimer);
    answerTimer = setTimeout(own, TAB_ANSWER_MS);
    tell({ type: 'claiming' });
  }

  function own() {
    clearTimeout(answerTimer);
    role = 'owner';
    say('owner');
    releaseDevice = (to) => {
      role = 'stopped';
      clearInterval(beatTimer);
      say('release', to ? { to } : {});
    };
    tell({ type: 'granted' });
  }

  function giveWay() {
    clearTimeout(answerTimer);
    role = 'waiting';
    ownerHeard = performance.now();
    tell({ type: 'waiting' });
  }

  function say(type, extra) {
    channel.postMessage({ type, id: tab.id, since: tab.since, epoch: tab.epoch, ...extra });
  }

  /** Whether the tab that sent `message` outranks this one. */
  function outranks(message) {
    if (message.epoch !== tab.epoch) return message.epoch > tab.epoch;
    if (message.since !== tab.since) return message.since < tab.since;
    return message.id < tab.id;
  }

  function hear(message) {
    if (role === 'stopped' || !message || message.id === tab.id || typeof message.epoch !== 'number') return;
    topEpoch = Math.max(topEpoch, message.epoch);
    switch (message.type) {
      case 'claim':
        // A waiting tab lets that claim run its course rather than outbid it with a newer epoch.
        if (role === 'waiting') ownerHeard = performance.now();
        else if (role === 'owner') say('owner');
        else if (role === 'taking') say('take');
        // The claim it outranks learns of this one (it may have started before that tab listened).
        else if (role === 'claiming') { if (outranks(message)) giveWay(); else say('claim'); }
        break;
      case 'owner':
        ownerHeard = performance.now();
        if (role === 'claiming') giveWay();
        else if (role === 'owner') { if (outranks(message)) tell({ type: 'lost', to: message.id }); else say('owner'); }
        break;
      case 'take':
        ownerHeard = performance.now();
        if (role === 'owner') tell({ type: 'lost', to: message.id });
        else if (role === 'claiming' || (role === 'taking' && outranks(message))) giveWay();
        break;
      case 'release':
        if (message.to === tab.id && role === 'taking') own();
        else if (message.to) ownerHeard = performance.now();
        else if (role === 'waiting') ask('claim');
        break;
      default:
        break;
    }
  }

  function beat() {
    if (role === 'owner') say('owner');
    else if (role === 'waiting' && performance.now() - ownerHeard > TAB_SILENT_MS) ask('claim');
  }

  return {
    claim: ({ steal }) => claim(steal),
    release({ to }) { if (releaseDevice) releaseDevice(to); },
  };
}

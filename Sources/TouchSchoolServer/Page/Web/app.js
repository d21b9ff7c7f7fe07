// TouchSchool in a browser: choose a school, tap, watch the live board. It speaks the play
// protocol of docs/protocol.md over the WebSocket /v1/play, as the terminal game does: taps are
// gathered into numbered batches kept in localStorage until the server acknowledges them, so a
// reload, a closed tab or a dropped connection sends them again and the server counts each once.
// The batches, the batch being filled and the player are kept per battle (the server's identity
// in the welcome): one battle's are never sent to another. Of the tabs of one browser only the
// one holding the device (its Web Lock, or where there are none, by agreement of the tabs over a
// BroadcastChannel) plays; a tab that does not play (the projector's `?board`, a tab
// waiting for the device) reads the board from `GET /v1/board`, which needs no device.
// The battle's rules are rules.js's (`TouchSchoolRules`), loaded before this file.
// Text from the data (school and player names) is only ever set with textContent.
'use strict';
(() => {
  const PROTOCOL = 1;
  const PUFFS = 30;              // smoke puffs on screen at most: a ring of reused elements
  const PUFF_MS = 1000;          // a puff fades over a second
  const SEAL_ONLINE_MS = 250;    // online, the taps of this long go out as one batch
  const SEAL_OFFLINE_MS = 5000;  // offline, batches are sealed less often: fewer to keep and send
  const RANK_MS = 250;           // ranks and boards are recomputed at most this often, never per tap
  const BOARD_ROWS = 100;
  const MINI_ROWS = 5;
  const KEY = 'touchschool.';
  /** The Web Lock of the device: the tab holding it plays. */
  const DEVICE_LOCK = 'touchschool-device';
  /** After the board stream was refused, the wait before asking again (the browser does not). */
  const BOARD_RETRY_MS = 10000;
  /** Results a search shows; one more is asked for, to know whether the list stopped at its limit. */
  const SEARCH_LIMIT = 20;
  /** The projector (`?board`): rows on a page, sized to fill the screen's height, and how long a page stays. */
  const PROJECTOR_ROWS = 10;
  const PROJECTOR_PAGE_MS = 8000;
  /** The projector's controls show while the pointer moves and hide once it has rested this long. */
  const CONTROLS_IDLE_MS = 3000;
  /** The projector's offline overlay waits this long for the stream's first connection. */
  const FIRST_CONNECTION_MS = 3000;
  const rules = TouchSchoolRules;
  const feedback = TouchSchoolFeedback;

  // ---------------------------------------------------------------- text
  const TEXT = {
    ko: {
      title: '학교 대항전', changeSchool: '학교 바꾸기', play: '게임', board: '순위', fullscreen: '전체 화면',
      searchPrompt: '학교를 검색해주세요', playerName: '내 이름', myTaps: '내 터치', schoolTotal: '학교 합계',
      playHint: '화면을 마구 터치하세요!', keyboardHint: '(키보드: Space 또는 Enter)', national: '전국 순위', ranking: '순위',
      level: '학교급', province: '시도', myLeague: '내 리그', rank: '순위', school: '학교', region: '지역', taps: '터치 수',
      boardEmpty: '아직 터치가 없습니다.', all: '전체', playArea: '터치하는 곳',
      levels: { elementary: '초등학교', middle: '중학교', high: '고등학교' },
      found: (n) => `${n}개 학교`, foundMore: (n) => `${n}개 넘는 학교`, didYouMean: (name) => `혹시 ${name}?`,
      none: '찾는 학교가 없습니다.', searchFailed: '검색할 수 없습니다: 서버에 연결되지 않았습니다.',
      abnormal: '비정상적인 터치 수가 감지되었습니다.',
      banned: '운영자가 이 기기를 차단했습니다: 터치가 세지 않습니다.',
      // The terminal's words (Sources/TouchSchoolView/Strings.swift), so that both faces say the same.
      rankIn: (n) => `전국 ${n}위`, first: '1위!', noRank: '아직 순위 없음', firstTap: '첫 터치면 1위!', gap: (school, n) => `${school}까지 ${n}번`,
      speed: (now, best) => `초당 ${now}번 · 최고 ${best}번`, player: (name) => `플레이어 ${name}`,
      confirmQuestion: '학교를 바꾸면 내 터치 수가 0부터 다시 시작합니다. 바꿀까요?',
      confirmFrom: (school) => `지금 학교: ${school}`, confirmTo: (school) => `바꿀 학교: ${school}`,
      confirmKeeps: (n) => `내 터치 수 ${n}번은 지금 학교의 점수에 그대로 남습니다.`, yes: '예', no: '아니오',
      movement: '변동', soundOn: '소리 켜짐', soundOff: '소리 꺼짐',
      joinPrompt: '휴대폰으로 참여하세요', pageOf: (page, pages) => `${page} / ${pages}`,
      boardOffline: '오프라인', boardOfflineDetail: '서버와 연결이 끊겨 순위가 멈춰 있습니다. 다시 연결하는 중…',
      connecting: '연결 중…', online: '연결됨',
      offline: (n) => n > 0 ? `오프라인 · ${n}번 대기 중` : '오프라인',
      takenOver: '다른 창에서 플레이 중입니다. 여기서 하려면 새로 고침하세요.',
      elsewhere: '다른 탭에서 플레이 중입니다.', playHere: '여기서 플레이',
      deviceLost: '다른 탭이 플레이를 가져갔습니다. 여기서 하려면 새로 고침하세요.',
      versionMismatch: '이 페이지는 서버와 맞지 않습니다. 새로 고침하세요.',
      unknownSchool: (id) => `'${id}' 학교가 없습니다. 검색해서 골라 주세요.`,
      defaultPlayer: '웹 플레이어', noSchool: '학교를 고르세요',
    },
    en: {
      title: 'School Battle', changeSchool: 'Change school', play: 'Play', board: 'Ranking', fullscreen: 'Full screen',
      searchPrompt: 'Search for your school', playerName: 'My name', myTaps: 'My taps', schoolTotal: 'School total',
      playHint: 'Tap the screen like crazy!', keyboardHint: '(keyboard: Space or Enter)', national: 'National ranking', ranking: 'Ranking',
      level: 'Level', province: 'Province', myLeague: 'My league', rank: 'Rank', school: 'School', region: 'Region', taps: 'Taps',
      boardEmpty: 'No taps yet.', all: 'All', playArea: 'Tap here',
      levels: { elementary: 'Elementary', middle: 'Middle', high: 'High' },
      found: (n) => (n === 1 ? '1 school' : `${n} schools`), foundMore: (n) => `More than ${n} schools`,
      didYouMean: (name) => `Did you mean ${name}?`,
      none: 'No school matches.', searchFailed: 'Cannot search: the server is not reachable.',
      abnormal: 'Abnormal tapping detected.',
      banned: 'The operator has banned this device: its taps do not count.',
      rankIn: (n) => `#${n} nationally`, first: '#1!', noRank: 'no rank yet', firstTap: 'One tap takes #1!', gap: (school, n) => `${n} taps to overtake ${school}`,
      speed: (now, best) => `${now} taps/s · best ${best}`, player: (name) => `player ${name}`,
      confirmQuestion: 'If you change school, your own tap count starts again from 0. Change?',
      confirmFrom: (school) => `Current school: ${school}`, confirmTo: (school) => `New school: ${school}`,
      confirmKeeps: (n) => `Your ${n} taps stay in your current school's total.`, yes: 'Yes', no: 'No',
      movement: 'Move', soundOn: 'Sound on', soundOff: 'Sound off',
      joinPrompt: 'Join on your phone', pageOf: (page, pages) => `${page} / ${pages}`,
      boardOffline: 'Offline', boardOfflineDetail: 'The connection to the server is lost: the ranking is frozen. Reconnecting…',
      connecting: 'Connecting…', online: 'Online',
      offline: (n) => n > 0 ? `Offline · ${n} taps waiting` : 'Offline',
      takenOver: 'Playing in another window. Reload to play here.',
      elsewhere: 'Playing in another tab.', playHere: 'Play here',
      deviceLost: 'Another tab took over the game. Reload to play here.',
      versionMismatch: 'This page does not match the server. Reload it.',
      unknownSchool: (id) => `No school has the id '${id}'. Search for it instead.`,
      defaultPlayer: 'web player', noSchool: 'Choose a school',
    },
  };
  const params = new URLSearchParams(location.search);
  /** The projector's page: the board only, never the device. */
  const boardOnly = params.has('board');
  const lang = (params.get('lang') || navigator.language || 'en').toLowerCase().startsWith('ko') ? 'ko' : 'en';
  const t = TEXT[lang];
  const number = new Intl.NumberFormat(lang === 'ko' ? 'ko-KR' : 'en-US');
  const collator = new Intl.Collator('ko');

  const $ = (id) => document.getElementById(id);
  const ui = {
    status: $('status'), picker: $('picker'), game: $('game'), board: $('board'), query: $('query'), found: $('found'),
    results: $('results'), playerName: $('player-name'), schoolName: $('school-name'), schoolRegion: $('school-region'),
    schoolRank: $('school-rank'), myTaps: $('my-taps'), schoolTotal: $('school-total'), gap: $('gap'), warning: $('warning'),
    play: $('play'), miniList: $('mini-list'), level: $('league-level'), province: $('league-province'),
    boardRows: $('board-rows'), boardEmpty: $('board-empty'), elsewhere: $('elsewhere'), speed: $('speed'),
    player: $('player'), sound: $('sound'), boardPage: $('board-page'), join: $('join'), offline: $('offline-overlay'),
    confirm: $('confirm'), playHint: $('play-hint'),
  };

  // ---------------------------------------------------------------- storage
  // Any tab reads; only the tab that plays writes (`owner`): a tab that lost the device, or never
  // had it, cannot put its stale outbox over the live one.
  const store = {
    get(name, fallback) {
      try { const text = localStorage.getItem(KEY + name); return text === null ? fallback : JSON.parse(text); } catch { return fallback; }
    },
    /** False when the value could not be stored (full or disabled: play on). */
    set(name, value) {
      if (!owner) return false;
      try { localStorage.setItem(KEY + name, JSON.stringify(value)); return true; } catch { return false; }
    },
    remove(name) {
      if (owner) localStorage.removeItem(KEY + name);
    },
  };

  /**
   * The storage name of the battle's own record (outbox, open batch, player). Before any welcome
   * (a first game, or a page from before battles had an identity) the record has no battle: the
   * first welcome's battle takes it.
   */
  function battleKey(name) { return battle === null ? name : `${name}:${battle}`; }

  function loadBattle() {
    box = store.get(battleKey('outbox'), { nextSeq: 1, batches: [] });
    open = store.get(battleKey('open'), null);
    serverPlayer = store.get(battleKey('player'), { school: null, taps: 0, best: 0 });
  }

  /**
   * Stores the outbox; one that cannot be stored is removed rather than left stale: a stale
   * numbering kept over a crash would be renumbered at the next welcome and counted twice,
   * where a lost outbox only loses its taps.
   */
  function saveBox() {
    if (!store.set(battleKey('outbox'), box)) store.remove(battleKey('outbox'));
  }

  /** `count` random bytes, base64url without padding. */
  function randomText(count) {
    const bytes = crypto.getRandomValues(new Uint8Array(count));
    return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  /** 32 random bytes: the device key of the protocol. */
  function deviceKey() {
    let key = store.get('device', null);
    if (rules.isValidDeviceKey(key)) return key;
    key = randomText(32);
    store.set('device', key);
    return key;
  }

  // ---------------------------------------------------------------- state
  /** Whether this tab holds the device's lock: only then does it play, connect and write the storage. */
  let owner = false;
  /** Read when this tab starts to play. */
  let device = null;
  /** The battle played: the identity its server's welcome gave, remembered; null before any. */
  let battle = null;
  /** Sealed batches not yet acknowledged, in order, and the next number to give. */
  let box = { nextSeq: 1, batches: [] };
  /** The batch taps go into now: kept in storage at every tap, sealed every SEAL_*_MS. */
  let open = null;
  /** The player as the server last said (welcome, ack). */
  let serverPlayer = { school: null, taps: 0, best: 0 };
  /** A school asked for (`?school=`, or chosen in a tab that does not play yet): chosen once it plays. */
  let asked = params.get('school');
  let school = asked || store.get('school', null);
  let best = 0;
  let board = { version: 0, scores: new Map() };
  /** Taps per school still in the outbox or the open batch: shown on the board at once. */
  let pending = new Map();
  let waitingTaps = 0;
  /** The player after the server's record and the outbox, before the open batch. */
  let played = serverPlayer;
  const schools = new Map();     // id → {id, name, level, province, district}
  let directoryTag = null;
  let view = 'picker';
  let socket = null, welcomed = false, sentUpTo = 0, retryMs = 500, retryTimer = 0, stopped = false;
  let lastPong = 0;
  const recent = [];             // times of the last second's taps, for the best speed

  function recount() {
    pending = new Map();
    waitingTaps = 0;
    played = serverPlayer;
    for (const batch of box.batches) {
      for (const [id, n] of Object.entries(batch.taps)) { pending.set(id, (pending.get(id) || 0) + n); waitingTaps += n; }
      played = rules.player(played, batch);
    }
    if (open) {
      for (const [id, n] of Object.entries(open.taps)) { pending.set(id, (pending.get(id) || 0) + n); waitingTaps += n; }
    }
  }

  /** The player as the server will have them once everything waiting is applied. */
  function me() { return open ? rules.player(played, open) : played; }

  function myTaps() {
    const mine = me();
    return school && mine.school === school ? mine.taps : 0;
  }

  function total(id) { return (board.scores.get(id) || 0) + (pending.get(id) || 0); }

  // ---------------------------------------------------------------- taps
  function tap(x, y) {
    if (!owner || !school) return;
    const now = Date.now();
    if (!open) {
      open = { taps: {}, playerTaps: 0, best, startMs: now, endMs: now };
      // A school other than the one the server (and the outbox) has for me: the batch says so,
      // and my count restarts.
      if (played.school !== school) open.switchedTo = school;
    }
    open.taps[school] = (open.taps[school] || 0) + 1;
    open.playerTaps += 1;
    open.endMs = Math.max(open.endMs, now);
    recent.push(now);
    while (recent[0] <= now - 1000) recent.shift();
    if (recent.length > best) best = recent.length;
    open.best = best;
    store.set(battleKey('open'), open);
    pending.set(school, (pending.get(school) || 0) + 1);
    waitingTaps += 1;
    puff(x, y);
    feedback.tap();
    scheduleRender(false);
  }

  function seal(force) {
    if (!open || !owner) return;
    const age = Date.now() - open.startMs;
    if (!force && age < (welcomed ? SEAL_ONLINE_MS : SEAL_OFFLINE_MS)) return;
    const batch = { seq: box.nextSeq, taps: open.taps, playerTaps: open.playerTaps, best: open.best,
                    startMs: open.startMs, endMs: open.endMs };
    if (open.switchedTo) batch.switchedTo = open.switchedTo;
    box = { nextSeq: box.nextSeq + 1, batches: box.batches.concat([batch]) };
    saveBox();
    open = null;
    store.set(battleKey('open'), null);
    recount();
    sendWaiting();
  }

  function sendWaiting() {
    if (!welcomed || !socket) return;
    for (const batch of box.batches) {
      if (batch.seq <= sentUpTo) continue;
      socket.send(JSON.stringify(Object.assign({ type: 'taps' }, batch)));
      sentUpTo = batch.seq;
    }
    scheduleRender(false);
  }

  // ---------------------------------------------------------------- smoke puffs
  const puffs = [], animations = [];
  let nextPuff = 0;
  for (let i = 0; i < PUFFS; i++) {
    const element = document.createElement('div');
    element.className = 'puff';
    element.setAttribute('aria-hidden', 'true');
    ui.play.appendChild(element);
    puffs.push(element);
  }
  function puff(x, y) {
    const i = nextPuff;
    nextPuff = (nextPuff + 1) % PUFFS;
    if (animations[i]) animations[i].cancel();
    const at = `translate(${x}px, ${y}px)`;
    animations[i] = puffs[i].animate(
      [{ opacity: 0.95, transform: `${at} scale(0.45)` }, { opacity: 0, transform: `${at} scale(1.7)` }],
      { duration: PUFF_MS, easing: 'ease-out', fill: 'forwards' });
  }

  let playRect = null;
  new ResizeObserver(() => { playRect = null; }).observe(ui.play);
  addEventListener('scroll', () => { playRect = null; }, { passive: true });
  ui.play.addEventListener('pointerdown', (event) => {
    event.preventDefault();
    if (!playRect) playRect = ui.play.getBoundingClientRect();
    tap(event.clientX - playRect.left, event.clientY - playRect.top);
  });
  ui.play.addEventListener('contextmenu', (event) => event.preventDefault());
  ui.play.addEventListener('keydown', (event) => {
    if ((event.key === ' ' || event.key === 'Enter') && !event.repeat) {
      event.preventDefault();
      if (!playRect) playRect = ui.play.getBoundingClientRect();
      tap(playRect.width * (0.2 + 0.6 * Math.random()), playRect.height * (0.2 + 0.6 * Math.random()));
    } else if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault();   // a held key is no tap (the terminal refuses auto-repeat too)
    }
  });

  // ---------------------------------------------------------------- the socket
  function connect() {
    if (stopped) return;
    clearTimeout(retryTimer);
    setStatus();
    const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/v1/play');
    socket = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: 'hello', protocol: PROTOCOL, device, player: playerName() }));
    };
    ws.onmessage = (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      receive(message);
    };
    ws.onclose = (event) => {
      if (socket !== ws) return;
      socket = null;
      welcomed = false;
      sentUpTo = 0;
      setStatus();
      if (event.code === 1000 && /connected again/.test(event.reason)) { stop(t.takenOver); return; }
      if (event.code === 4000) { stop(t.versionMismatch); return; }
      // Too many from this address, or a full battle: a minute; a protocol error: ten seconds.
      const wait = event.code === 4029 || event.code === 4007 ? 60000 : event.code === 1008 ? 10000 : retryMs;
      retryMs = Math.min(retryMs * 2, 8000);
      retryTimer = setTimeout(connect, wait);
    };
  }

  /**
   * This tab plays no more (another tab or window has the device, or the page does not match the
   * server): it closes its socket, writes nothing more and says why; the device, if it still has
   * it, goes to the tab `to` that takes it, or else to a tab waiting for it.
   */
  function stop(message, to) {
    if (stopped) return;
    stopped = true;
    owner = false;
    clearTimeout(retryTimer);
    if (socket) socket.close();
    if (releaseDevice) releaseDevice(to);
    ui.status.textContent = message;
    ui.status.className = 'offline';
    ui.status.dataset.state = 'stopped';
  }

  function receive(message) {
    switch (message.type) {
      case 'welcome': {
        if (!rules.isValidBattleID(message.battle)) { stop(t.versionMismatch); break; }
        if (message.battle !== battle) enterBattle(message.battle);
        if (!welcomed && performance.getEntriesByName('touchschool-online').length === 0) performance.mark('touchschool-online');
        welcomed = true;
        retryMs = 500;
        lastPong = Date.now();
        // As the terminal's outbox: what the server applied is dropped, the rest numbered on
        // from the server's last, and stored before any of it is sent.
        const lastSeq = message.lastSeq;
        const numbers = rules.welcome({ nextSeq: box.nextSeq, waiting: box.batches.map((b) => b.seq) }, lastSeq);
        const kept = box.batches.filter((b) => b.seq > lastSeq);
        box = { nextSeq: numbers.nextSeq, batches: kept.map((b, i) => Object.assign({}, b, { seq: numbers.waiting[i] })) };
        saveBox();
        serverPlayer = message.player;
        store.set(battleKey('player'), serverPlayer);
        board = { version: message.board.version, scores: new Map(Object.entries(message.board.scores)) };
        if (!baseline) markBaseline();
        if (!school && serverPlayer.school) { school = serverPlayer.school; store.set('school', school); if (view === 'picker') show('game'); }
        recount();
        if (message.catalog !== directoryTag) loadDirectory();
        sentUpTo = 0;
        sendWaiting();
        scheduleRender(true);
        break;
      }
      case 'ack': {
        const done = box.batches.find((b) => b.seq === message.seq);
        box = { nextSeq: box.nextSeq, batches: box.batches.filter((b) => b.seq > message.seq) };
        saveBox();
        serverPlayer = message.player;
        store.set(battleKey('player'), serverPlayer);
        // Its taps leave the outbox now, so they go on the board now, until the next board.
        if (done && message.refused === 0) {
          for (const [id, n] of Object.entries(done.taps)) board.scores.set(id, (board.scores.get(id) || 0) + n);
        }
        // Banned by the operator: said as such, not as tapping too fast.
        if (message.banned) { warn(t.banned); feedback.warning(); }
        else if (message.refused > 0) { warn(t.abnormal); feedback.warning(); }
        recount();
        scheduleRender(true);
        break;
      }
      case 'board':
        takeBoardChanges(message);
        break;
      case 'pong':
        lastPong = Date.now();
        break;
      default:
        break;
    }
  }

  /** New totals of the schools that changed ({version, scores}), unless older than the board held. */
  function takeBoardChanges(changes) {
    if (changes.version < board.version) return;
    board.version = changes.version;
    for (const [id, score] of Object.entries(changes.scores)) board.scores.set(id, score);
    scheduleRender(true);
  }

  /**
   * The welcome names a battle other than the one played. The record kept before any battle was
   * known becomes this battle's; otherwise this battle's own outbox, open batch and player are
   * taken up, and the other battle's stay stored, for when its server is met again.
   */
  function enterBattle(id) {
    if (battle === null) {
      battle = id;
      saveBox();
      store.set(battleKey('open'), open);
      store.set(battleKey('player'), serverPlayer);
      // (`switchTo`: an earlier version's school chosen but not yet told, now worked out from the player.)
      for (const name of ['outbox', 'open', 'player', 'switchTo']) store.remove(name);
    } else {
      battle = id;
      loadBattle();
      // Its batch left open when the page last played it (not sent: the socket is not welcomed yet).
      if (open) seal(true);
    }
    store.set('battle', battle);
  }

  // ---------------------------------------------------------------- one tab plays
  // The tabs of one browser share the device and its storage. Only the tab holding the device's
  // Web Lock plays; another says so and offers to play here, which takes the lock from the
  // first: that one stops at once (`stop`) and writes nothing more. The lock is held for the
  // tab's life; a tab waiting for it plays as soon as the playing tab is closed or reloaded.
  // A page without Web Locks (served over plain http to another machine: no secure context)
  // does the same over a BroadcastChannel (below).
  let waitingForDevice = null, releaseDevice = null;

  function claimDevice(steal) {
    if (!navigator.locks) { claimByChannel(steal); return; }
    if (waitingForDevice) { waitingForDevice.abort(); waitingForDevice = null; }
    navigator.locks.request(DEVICE_LOCK, steal ? { steal: true } : { ifAvailable: true }, (lock) => {
      if (lock) return playHolding();
      waitForDevice();
      return undefined;
    }).catch(lostDevice);
  }

  function waitForDevice() {
    showWaiting();
    const waiting = new AbortController();
    waitingForDevice = waiting;
    // Given up (`abort`) when this tab takes the lock itself: that ends nothing that played.
    navigator.locks.request(DEVICE_LOCK, { signal: waiting.signal }, playHolding).catch(() => { if (!waiting.signal.aborted) lostDevice(); });
  }

  /** A lock request ended in an error: taken by another tab (stolen) if this tab was playing. */
  function lostDevice() {
    if (owner) stop(t.deviceLost);
  }

  /** Plays, holding the lock until the tab ends or another takes it (`stop`). */
  function playHolding() {
    return new Promise((resolve) => { releaseDevice = resolve; play(); });
  }

  /** Another tab plays: this one says so, with the button to play here, and shows the board. */
  function showWaiting() {
    ui.elsewhere.hidden = false;
    readPlayer();
    watchBoard();
  }

  /**
   * The player as the playing tab keeps them (read here, never written): "my taps" are the
   * player's wherever they tap (a second tab read 0). Again whenever that tab stores them.
   */
  function readPlayer() {
    const remembered = store.get('battle', null);
    battle = rules.isValidBattleID(remembered) ? remembered : null;
    loadBattle();
    recount();
    scheduleRender(true);
  }
  addEventListener('storage', () => { if (!owner && !ui.elsewhere.hidden) readPlayer(); });

  function play() {
    waitingForDevice = null;
    owner = true;
    ui.elsewhere.hidden = true;
    unwatchBoard();
    // Read now, not at the page's start: the tab that played until now wrote its last.
    device = deviceKey();
    const remembered = store.get('battle', null);
    battle = rules.isValidBattleID(remembered) ? remembered : null;
    loadBattle();
    school = store.get('school', null);
    // A batch left open by the page's last life (a reload, a crash) goes out first.
    if (open) seal(true);
    recount();
    if (asked) chooseID(asked);
    showSchool();
    if (view === 'picker' && school) show('game'); else scheduleRender(true);
    connect();
  }

  // ---------------------------------------------------------------- one tab plays, without Web Locks
  // Without a secure context there are no Web Locks, so the tabs agree among themselves over the
  // BroadcastChannel `touchschool-device`, which needs none. Each tab has a random `id` and its
  // start time `since`; a tab that asks for the device takes an `epoch` one above any it has
  // heard. Ranks order the tabs: the higher epoch, then the earlier start, then the smaller id.
  // Every message is {type, id, since, epoch} (and `to` on a release):
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
  const tab = { id: randomText(16), since: performance.timeOrigin, epoch: 0 };
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
      addEventListener('pagehide', () => { if (role === 'owner') stop(t.deviceLost); });
      addEventListener('pageshow', (event) => { if (event.persisted && stopped) location.reload(); });
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
    setStatus();
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
    play();
  }

  function giveWay() {
    clearTimeout(answerTimer);
    role = 'waiting';
    ownerHeard = performance.now();
    showWaiting();
  }

  function say(type, extra) {
    channel.postMessage(Object.assign({ type, id: tab.id, since: tab.since, epoch: tab.epoch }, extra));
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
        else if (role === 'owner') { if (outranks(message)) stop(t.deviceLost, message.id); else say('owner'); }
        break;
      case 'take':
        ownerHeard = performance.now();
        if (role === 'owner') stop(t.deviceLost, message.id);
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
  $('play-here').addEventListener('click', () => claimDevice(true));

  // ---------------------------------------------------------------- the board without the device
  // A tab that does not play reads the board from GET /v1/board (Server-Sent Events): the whole
  // board, then the changes as they are saved. It needs no device, so it never takes the
  // playing tab's place. The browser reconnects a dropped stream by itself.
  let boardSource = null, boardRetryTimer = 0, boardLive = false;

  function watchBoard() {
    if (boardSource) return;
    const source = new EventSource('/v1/board');
    boardSource = source;
    const read = (event) => { try { return JSON.parse(event.data); } catch { return null; } };
    source.addEventListener('board', (event) => {
      const whole = read(event);
      if (!whole) return;
      board = { version: whole.version, scores: new Map(Object.entries(whole.scores)) };
      boardLive = true;
      if (!baseline) markBaseline();
      scheduleRender(true);
    });
    source.addEventListener('changes', (event) => {
      const changes = read(event);
      if (changes) takeBoardChanges(changes);
    });
    source.onerror = () => {
      boardLive = false;
      setStatus();
      // Refused (too many connections from this address) or answered with an error (a proxy with
      // no server behind it), the stream is not tried again by the browser: later, then.
      if (source.readyState === EventSource.CLOSED && boardSource === source) {
        boardSource = null;
        boardRetryTimer = setTimeout(watchBoard, BOARD_RETRY_MS);
      }
    };
  }

  function unwatchBoard() {
    clearTimeout(boardRetryTimer);
    if (boardSource) boardSource.close();
    boardSource = null;
    boardLive = false;
  }

  // Pings keep the connection open through proxies and notice a connection that died silently.
  setInterval(() => {
    if (!socket || !welcomed) return;
    if (Date.now() - lastPong > 40000) { socket.close(); return; }
    socket.send('{"type":"ping"}');
  }, 15000);

  setInterval(() => seal(false), 100);
  // A hidden page may be closed without notice: its open batch goes out now (it is kept in
  // storage anyway, and sealed at the next start).
  document.addEventListener('visibilitychange', () => { if (document.hidden) seal(true); });

  let warnTimer = 0;
  function warn(text) {
    ui.warning.textContent = text;
    ui.warning.hidden = false;
    clearTimeout(warnTimer);
    warnTimer = setTimeout(() => { ui.warning.hidden = true; }, 4000);
  }

  function setStatus() {
    if (stopped) return;
    let text, state;
    // Online, taps in flight are not news (they are acknowledged within a moment); offline, the
    // count says what waits to be sent. A tab that does not play is online with its board stream;
    // one asking the other tabs for the device (without Web Locks) is connecting until they answer.
    if (owner ? welcomed : boardLive) { state = 'online'; text = t.online; }
    else if (owner ? socket : boardSource || role === 'claiming' || role === 'taking') { state = 'connecting'; text = t.connecting; }
    else { state = 'offline'; text = t.offline(number.format(waitingTaps)); }
    if (ui.status.textContent !== text) ui.status.textContent = text;
    ui.status.className = state === 'offline' ? 'offline' : '';
    ui.status.dataset.state = state;
    ui.status.dataset.waiting = String(waitingTaps);
    // The projector cannot be read up close: a frozen board says so across the whole screen
    // (after its first connection has had its moment).
    if (boardOnly) ui.offline.hidden = boardLive || performance.now() < FIRST_CONNECTION_MS;
  }

  // ---------------------------------------------------------------- schools
  function levelName(level) { return t.levels[level] || level; }
  function region(row) { return row.district ? `${row.province} ${row.district}` : row.province; }
  function remember(row) { schools.set(row.id, row); }
  // Names more than one school has (several 금성초등학교): where such a school is told after its
  // name wherever a list shows no region, as the terminal's ranking and side panel do.
  let sharedNames = new Set();
  /** A small, dim "where" after a shared name's cell; nothing for a name of its own. */
  function tellApart(cell, id, className = 'where') {
    const row = schools.get(id);
    if (!row || !sharedNames.has(row.name)) return;
    const where = document.createElement('span');
    where.className = className;
    where.textContent = ` ${region(row)}`;
    cell.append(where);
  }

  async function loadDirectory() {
    try {
      const response = await fetch('/v1/schools', { cache: 'no-cache' });
      if (!response.ok) return;
      const directory = await response.json();
      const at = directory.fields.reduce((map, field, i) => { map[field] = i; return map; }, {});
      const seen = new Set();
      sharedNames = new Set();
      for (const row of directory.schools) {
        remember({ id: row[at.id], name: row[at.name], level: row[at.level], province: row[at.province], district: row[at.district] });
        if (seen.has(row[at.name])) sharedNames.add(row[at.name]); else seen.add(row[at.name]);
      }
      directoryTag = directory.catalog;
      if (performance.getEntriesByName('touchschool-directory').length === 0) performance.mark('touchschool-directory');
      fillProvinces();
      if (school && !schools.has(school)) { const id = school; forgetSchool(); warn(t.unknownSchool(id)); }
      showSchool();
      scheduleRender(true);
    } catch { /* offline: the next welcome tries again */ }
  }

  function fillProvinces() {
    const names = [...new Set([...schools.values()].map((s) => s.province))].sort(collator.compare);
    const chosen = ui.province.value;
    ui.province.replaceChildren(option('', t.all), ...names.map((name) => option(name, name)));
    ui.province.value = names.includes(chosen) ? chosen : '';
  }

  function option(value, label) {
    const element = document.createElement('option');
    element.value = value;
    element.textContent = label;
    return element;
  }

  // ---------------------------------------------------------------- search
  let searchTimer = 0, searchAbort = null, lastResults = [];
  ui.query.addEventListener('input', () => { clearTimeout(searchTimer); searchTimer = setTimeout(search, 120); });
  ui.query.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && lastResults.length > 0) { event.preventDefault(); choose(lastResults[0]); }
    if (event.key === 'ArrowDown') { const first = ui.results.querySelector('button'); if (first) { event.preventDefault(); first.focus(); } }
  });
  ui.results.addEventListener('keydown', (event) => {
    const buttons = [...ui.results.querySelectorAll('button')];
    const i = buttons.indexOf(document.activeElement);
    if (event.key === 'ArrowDown' && i + 1 < buttons.length) { event.preventDefault(); buttons[i + 1].focus(); }
    if (event.key === 'ArrowUp') { event.preventDefault(); (i > 0 ? buttons[i - 1] : ui.query).focus(); }
  });

  async function search() {
    const text = ui.query.value.trim();
    if (searchAbort) searchAbort.abort();
    if (!text) { showResults([]); ui.found.textContent = ''; return; }
    const abort = new AbortController();
    searchAbort = abort;
    try {
      const response = await fetch(`/v1/search?limit=${SEARCH_LIMIT + 1}&q=${encodeURIComponent(text)}`, { signal: abort.signal });
      if (!response.ok) throw new Error(String(response.status));
      const answer = await response.json();
      if (abort.signal.aborted) return;
      const shown = answer.schools.slice(0, SEARCH_LIMIT);
      // Nothing found: the server's closest names (a typo's guesses), as the terminal's picker
      // offers them, chosen like results.
      const guesses = shown.length === 0 ? (answer.suggestions || []) : [];
      const rows = shown.length > 0 ? shown : guesses;
      rows.forEach(remember);
      showResults(rows);
      ui.found.textContent = answer.schools.length > SEARCH_LIMIT ? t.foundMore(SEARCH_LIMIT)
        : shown.length > 0 ? t.found(shown.length) : guesses.length > 0 ? t.didYouMean(guesses[0].name) : t.none;
    } catch (error) {
      if (!abort.signal.aborted) { showResults([]); ui.found.textContent = t.searchFailed; }
    }
  }

  function showResults(rows) {
    lastResults = rows;
    ui.results.replaceChildren(...rows.map((row) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.id = row.id;
      const name = document.createElement('span');
      name.className = 'name';
      name.textContent = row.name;
      const where = document.createElement('span');
      where.className = 'where';
      where.textContent = `${region(row)} · ${levelName(row.level)}`;
      button.append(name, where);
      button.addEventListener('click', () => choose(row));
      item.append(button);
      return item;
    }));
  }

  /** Goes to the game for `row`; leaving a school with taps of mine asks first, as the terminal does. */
  function choose(row) {
    remember(row);
    const taps = myTaps();
    if (!school || row.id === school || taps === 0) { chooseID(row.id); show('game'); return; }
    const described = (id) => { const known = schools.get(id); return known ? `${known.name} (${region(known)})` : id; };
    $('confirm-from').textContent = t.confirmFrom(described(school));
    $('confirm-to').textContent = t.confirmTo(described(row.id));
    $('confirm-keeps').textContent = t.confirmKeeps(number.format(taps));
    ui.confirm.dataset.id = row.id;
    ui.confirm.showModal();
    $('confirm-yes').focus();
  }
  $('confirm-yes').addEventListener('click', () => {
    ui.confirm.close();
    chooseID(ui.confirm.dataset.id);
    show('game');
  });
  $('confirm-no').addEventListener('click', () => ui.confirm.close());
  ui.confirm.addEventListener('keydown', (event) => {
    if (event.key === 'y') $('confirm-yes').click();
    if (event.key === 'n') $('confirm-no').click();
  });

  /** Chooses the school taps go to; a tab that does not play yet chooses it when it plays. */
  function chooseID(id) {
    if (!owner) asked = id;
    if (id === school) return;
    // The open batch keeps the school its taps were for; the next one says the switch.
    seal(true);
    school = id;
    store.set('school', id);
    showSchool();
    scheduleRender(true);
  }

  function forgetSchool() {
    school = null;
    store.set('school', null);
    show('picker');
  }

  function showSchool() {
    const row = school && schools.get(school);
    ui.schoolName.textContent = row ? row.name : (school || t.noSchool);
    ui.schoolRegion.textContent = row ? `${region(row)} · ${levelName(row.level)}` : '';
  }

  // ---------------------------------------------------------------- views
  function show(name) {
    view = name;
    for (const section of ['picker', 'game', 'board']) ui[section].hidden = section !== name;
    for (const [button, section] of [['to-picker', 'picker'], ['to-game', 'game'], ['to-board', 'board']]) {
      if (section === name) $(button).setAttribute('aria-current', 'page'); else $(button).removeAttribute('aria-current');
    }
    $('to-game').hidden = boardOnly || !school;
    $('to-picker').hidden = boardOnly;
    if (name === 'picker') ui.query.focus();
    if (name === 'game') { playRect = null; ui.play.focus({ preventScroll: true }); }
    scheduleRender(true);
  }
  $('to-picker').addEventListener('click', () => show('picker'));
  $('to-game').addEventListener('click', () => show('game'));
  $('to-board').addEventListener('click', () => show('board'));
  $('fullscreen').addEventListener('click', () => {
    if (document.fullscreenElement) document.exitFullscreen();
    else document.documentElement.requestFullscreen().catch(() => {});
  });
  $('my-league').addEventListener('click', () => {
    const row = school && schools.get(school);
    ui.level.value = row ? row.level : '';
    ui.province.value = row ? row.province : '';
    scheduleRender(true);
  });
  ui.level.addEventListener('change', () => scheduleRender(true));
  ui.province.addEventListener('change', () => scheduleRender(true));
  ui.playerName.addEventListener('change', () => {
    store.set('name', ui.playerName.value.trim());
    showPlayer();
    // The server knows the name from the hello: a new one is said with a new hello.
    if (socket && welcomed) socket.close();
  });

  function playerName() { return (ui.playerName.value || '').trim() || t.defaultPlayer; }
  function showPlayer() { ui.player.textContent = boardOnly ? '' : t.player(playerName()); }

  function showSound() {
    ui.sound.textContent = feedback.muted ? t.soundOff : t.soundOn;
    ui.sound.setAttribute('aria-pressed', String(feedback.muted));
  }
  ui.sound.addEventListener('click', () => { feedback.setMuted(!feedback.muted); showSound(); });

  // ---------------------------------------------------------------- drawing
  // Per tap only the two counters change (constant work); ranks, the mini-board and the board
  // walk every school with taps, so they are redrawn at most every RANK_MS.
  let frame = 0, ranksDirty = true, lastRanks = 0, rankTimer = 0;
  function scheduleRender(ranks) {
    if (ranks) ranksDirty = true;
    if (!frame) frame = requestAnimationFrame(render);
  }

  function render() {
    frame = 0;
    const mine = number.format(myTaps());
    if (ui.myTaps.textContent !== mine) ui.myTaps.textContent = mine;
    renderSpeed();
    const totalText = number.format(school ? total(school) : 0);
    if (ui.schoolTotal.textContent !== totalText) ui.schoolTotal.textContent = totalText;
    setStatus();
    const now = performance.now();
    if (now - lastRanks < RANK_MS) {
      if (!rankTimer) rankTimer = setTimeout(() => { rankTimer = 0; ranksDirty = true; scheduleRender(true); }, RANK_MS - (now - lastRanks));
      return;
    }
    // My own taps move my rank, so ranks follow the taps too, at their own pace.
    lastRanks = now;
    ranksDirty = false;
    renderRanks();
  }

  /** Taps in the last second and my best, as the terminal shows them; redrawn until the speed is back to 0. */
  let speedTimer = 0;
  function renderSpeed() {
    const now = Date.now();
    while (recent.length > 0 && recent[0] <= now - 1000) recent.shift();
    const text = school ? t.speed(number.format(recent.length), number.format(Math.max(best, me().best))) : '';
    if (ui.speed.textContent !== text) ui.speed.textContent = text;
    clearTimeout(speedTimer);
    if (recent.length > 0) speedTimer = setTimeout(renderSpeed, recent[0] + 1000 - now + 1);
  }

  /** The schools with taps (and mine) of a league (level and province, '' for any), with their totals. */
  function standings(level, province) {
    const rows = [];
    eachStanding((id, score) => {
      if (score === 0 && id !== school) return;
      const row = schools.get(id);
      if ((level || province) && !row) return;
      if (level && row.level !== level) return;
      if (province && row.province !== province) return;
      rows.push({ id, score, row });
    });
    return rows;
  }

  function renderRanks() {
    if (view === 'game') renderGameRanks();
    if (view === 'board') renderBoard();
  }

  /** Calls `visit(id, total)` for every school with taps, and mine: one pass, no allocation. */
  function eachStanding(visit) {
    for (const id of board.scores.keys()) visit(id, total(id));
    for (const id of pending.keys()) if (!board.scores.has(id)) visit(id, total(id));
    if (school && !board.scores.has(school) && !pending.has(school)) visit(school, total(school));
  }

  function renderGameRanks() {
    const mine = school ? total(school) : 0;
    // The school to overtake: the nearest strictly ahead, of several tied there the last in order
    // (the one just above mine), as the terminal's `schoolAbove`.
    let above = 0, closest = null;
    // The top few by a partial selection in the same pass, not a sort of every school.
    const top = [];
    eachStanding((id, score) => {
      if (score === 0 && id !== school) return;
      if (score > mine) {
        above += 1;
        const r = { id, score };
        if (!closest || score < closest.score || (score === closest.score && better(closest, r))) closest = r;
      }
      const r = { id, score };
      if (top.length < MINI_ROWS || better(r, top[top.length - 1])) {
        top.push(r);
        top.sort(order);
        if (top.length > MINI_ROWS) top.pop();
      }
    });
    // A school without a tap has no rank (at a battle's start every school shared the first).
    ui.schoolRank.textContent = !school ? '' : mine === 0 ? t.noRank : t.rankIn(above + 1);
    // One tap more than the difference overtakes (a tie only shares the place).
    ui.gap.textContent = !school ? '' : above > 0 ? t.gap(nameOf(closest.id), number.format(closest.score - mine + 1))
      : mine === 0 ? t.firstTap : t.first;
    const shown = top.slice();
    if (school && !top.some((r) => r.id === school)) shown.push({ id: school, score: mine });
    const ranks = shown.map(() => 1);
    eachStanding((id, score) => { for (let i = 0; i < shown.length; i++) if (score > shown[i].score) ranks[i] += 1; });
    ui.miniList.replaceChildren(...shown.map((r, i) => {
      const item = line('li', [String(ranks[i]), nameOf(r.id), number.format(r.score)], ['n', 's', 't'], r.id === school);
      tellApart(item.children[1], r.id);
      return item;
    }));
  }

  function order(a, b) { return b.score - a.score || collator.compare(nameOf(a.id), nameOf(b.id)); }
  function better(a, b) { return order(a, b) < 0; }
  function nameOf(id) { const row = schools.get(id); return row ? row.name : id; }

  function renderBoard() {
    const rows = standings(ui.level.value, ui.province.value).sort(order);
    const ranks = new Map();
    let rank = 0;
    rows.forEach((r, i) => { if (i === 0 || r.score !== rows[i - 1].score) rank = i + 1; ranks.set(r.id, rank); });
    let shown;
    if (boardOnly) {
      // The projector shows one screenful at a time and turns the pages itself.
      const pages = Math.max(1, Math.ceil(rows.length / PROJECTOR_ROWS));
      projectorPage %= pages;
      shown = rows.slice(projectorPage * PROJECTOR_ROWS, (projectorPage + 1) * PROJECTOR_ROWS);
      ui.boardPage.textContent = pages > 1 ? t.pageOf(projectorPage + 1, pages) : '';
    } else {
      shown = rows.slice(0, BOARD_ROWS);
      const mineAt = rows.findIndex((r) => r.id === school);
      if (mineAt >= BOARD_ROWS) shown = shown.concat([rows[mineAt]]);
    }
    // Movement within the league shown (the school itself, at its own counts, passes no one). A
    // school whose total stayed can only have been passed by, or have passed, schools whose total
    // changed: it is judged against those few, not the whole league (12,000 schools nationally).
    const counts = rows.map((r) => ({ before: before(r.id, r.score), now: r.score }));
    const changed = counts.filter((c) => c.before !== c.now);
    ui.boardRows.replaceChildren(...shown.map((r) => {
      const row = r.row || schools.get(r.id);
      const mine = { before: before(r.id, r.score), now: r.score };
      const moved = rules.movement(mine, mine.before === mine.now ? changed : counts);
      const element = line('tr', [String(ranks.get(r.id)), movementText(moved), nameOf(r.id), row ? region(row) : '', number.format(r.score)],
                           [], r.id === school, 'td');
      if (moved !== 0) element.cells[1].className = moved > 0 ? 'up' : 'down';
      // Shown only while the region column is not (a phone: style.css).
      tellApart(element.cells[2], r.id, 'where board-where');
      return element;
    }));
    ui.boardEmpty.hidden = shown.length > 0;
  }

  /** As the terminal's ranking: ▲ places climbed, ▼ places lost, - for none. */
  function movementText(moved) {
    return moved > 0 ? `▲${Math.min(moved, 999)}` : moved < 0 ? `▼${Math.min(-moved, 999)}` : '-';
  }

  // ---------------------------------------------------------------- movement
  // "A moment ago" for ▲/▼: every school's total, taken again every MOVEMENT_BASELINE_MS, as the
  // terminal does; the first once the first whole board is known.
  let baseline = null;
  function markBaseline() {
    baseline = new Map();
    eachStanding((id, score) => baseline.set(id, score));
    scheduleRender(true);
  }
  /** A school's total a moment ago; a school not on the board then had none. Before any baseline, no movement. */
  function before(id, now) { return baseline ? (baseline.get(id) || 0) : now; }
  setInterval(() => { if (baseline) markBaseline(); }, rules.MOVEMENT_BASELINE_MS);

  function line(tag, cells, classes, mine, cellTag = 'span') {
    const element = document.createElement(tag);
    if (mine) element.className = 'mine';
    cells.forEach((text, i) => {
      const cell = document.createElement(cellTag);
      if (classes[i]) cell.className = classes[i];
      cell.textContent = text;
      element.append(cell);
    });
    return element;
  }

  // ---------------------------------------------------------------- the projector
  // `?board` on a projector: the board alone, one screenful of rows at a time (sized to the
  // screen's height, turned every PROJECTOR_PAGE_MS), the address to join with its QR code, and
  // the controls only while the pointer moves.
  let projectorPage = 0;

  function startProjector() {
    document.body.classList.add('projector', 'idle');
    ui.join.hidden = false;
    // The address this page was opened at, where students can reach it too (the one `serve`
    // prints, a school's domain)...
    showJoin(`${location.origin}/`);
    // ...except this machine's own loopback, where a teacher naturally opens it: no phone reaches
    // that, so the server's addresses on its networks instead, when it listens on them.
    if (isLoopback(location.hostname)) {
      fetch('/v1/join', { cache: 'no-store' })
        .then((response) => (response.ok ? response.json() : null))
        .then((answer) => {
          const reachable = answer && answer.addresses.find((address) => !isLoopback(new URL(address).hostname));
          if (reachable) showJoin(reachable);
        })
        .catch(() => {});   // offline: the address it was opened at stays
    }
    const fit = () => sizeProjectorRows();
    fit();
    addEventListener('resize', fit);
    setInterval(() => { projectorPage += 1; scheduleRender(true); }, PROJECTOR_PAGE_MS);
    let idleTimer = 0;
    const wake = () => {
      document.body.classList.remove('idle');
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => document.body.classList.add('idle'), CONTROLS_IDLE_MS);
    };
    addEventListener('pointermove', wake);
    addEventListener('keydown', wake);
    setTimeout(setStatus, FIRST_CONNECTION_MS);
  }

  function isLoopback(hostname) { return /^(localhost|127\.[0-9.]+|\[::1\])$/.test(hostname); }

  /** The join address in words and as a QR code. */
  function showJoin(address) {
    $('join-url').textContent = address;
    const qr = $('join-qr');
    qr.alt = address;
    // The server draws the code (the encoder `serve` uses in the terminal); SVG, so it stays
    // sharp at whatever size the panel gives it (style.css).
    qr.src = `/v1/qr.svg?text=${encodeURIComponent(address)}`;
  }

  /** Rows tall enough that PROJECTOR_ROWS of them fill the screen below the table's head (and above the section's padding). */
  function sizeProjectorRows() {
    const below = parseFloat(getComputedStyle(ui.board).paddingBottom) + PROJECTOR_ROWS;   // and a pixel of border a row
    const room = innerHeight - ui.boardRows.getBoundingClientRect().top - below;
    ui.board.style.setProperty('--row-height', `${Math.max(20, Math.floor(room / PROJECTOR_ROWS))}px`);
  }

  // ---------------------------------------------------------------- start
  for (const element of document.querySelectorAll('[data-t]')) element.textContent = t[element.dataset.t];
  document.documentElement.lang = lang;
  document.title = `${t.title} TouchSchool`;
  ui.play.setAttribute('aria-label', t.playArea);
  ui.level.replaceChildren(option('', t.all), ...Object.keys(t.levels).map((level) => option(level, t.levels[level])));
  ui.province.replaceChildren(option('', t.all));
  ui.playerName.value = store.get('name', '') || '';
  ui.playerName.placeholder = t.defaultPlayer;
  showPlayer();
  showSound();
  ui.sound.hidden = boardOnly;
  // The keyboard's part of the hint only where there is a keyboard: a fine pointer that hovers
  // (a computer, not a phone), or, where the browser does not say, once a mouse is used. (Not
  // keys: a phone's on-screen keyboard sends them too, while typing a school's name.)
  const finePointer = matchMedia('(hover: hover) and (pointer: fine)');
  let mouseSeen = false;
  const showPlayHint = () => {
    ui.playHint.textContent = finePointer.matches || mouseSeen ? `${t.playHint} ${t.keyboardHint}` : t.playHint;
  };
  const sawMouse = (event) => {
    if (event.pointerType !== 'mouse') return;
    mouseSeen = true;
    showPlayHint();
    removeEventListener('pointermove', sawMouse, true);
  };
  finePointer.addEventListener('change', showPlayHint);
  addEventListener('pointermove', sawMouse, true);
  showPlayHint();

  // Until this tab plays (if it ever does), its school is the one asked for or the stored one,
  // and its board the stream's.
  showSchool();
  if (boardOnly) {
    show('board');
    startProjector();
    watchBoard();
  } else {
    show(school ? 'game' : 'picker');
    claimDevice(false);
  }
  loadDirectory();
  // The page as an app (sw.js): it opens without the network next time. Browsers offer service
  // workers only to secure pages (https://, or this machine's localhost): a phone on the plain
  // http:// of a classroom's network plays as before.
  if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => {});
  performance.mark('touchschool-interactive');
  document.body.dataset.ready = 'true';
})();

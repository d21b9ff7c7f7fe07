// TouchSchool in a browser: choose a school, tap, watch the live board. It speaks the play
// protocol of docs/protocol.md over the WebSocket /v1/play, as the terminal game does: taps are
// gathered into numbered batches kept in localStorage until the server acknowledges them, so a
// reload, a closed tab or a dropped connection sends them again and the server counts each once.
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

  // ---------------------------------------------------------------- text
  const TEXT = {
    ko: {
      title: '학교 대항전', changeSchool: '학교 바꾸기', play: '게임', board: '순위', fullscreen: '전체 화면',
      searchPrompt: '학교를 검색해주세요', playerName: '내 이름', myTaps: '내 터치', schoolTotal: '학교 합계',
      playHint: '화면을 마구 터치하세요! (키보드: Space 또는 Enter)', national: '전국 순위', ranking: '순위',
      level: '학교급', province: '시도', myLeague: '내 리그', rank: '순위', school: '학교', region: '지역', taps: '터치 수',
      boardEmpty: '아직 터치가 없습니다.', all: '전체', playArea: '터치하는 곳',
      levels: { elementary: '초등학교', middle: '중학교', high: '고등학교' },
      found: (n) => `${n}개 학교`, none: '찾는 학교가 없습니다.', searchFailed: '검색할 수 없습니다: 서버에 연결되지 않았습니다.',
      abnormal: '비정상적인 터치 수가 감지되었습니다.',
      rankIn: (n) => `전국 ${n}위`, first: '1위!', gap: (n) => `위 학교와 ${n} 차이`,
      connecting: '연결 중…', online: '연결됨',
      offline: (n) => n > 0 ? `오프라인 · ${n}번 대기 중` : '오프라인',
      takenOver: '다른 창에서 플레이 중입니다. 여기서 하려면 새로 고침하세요.',
      versionMismatch: '이 페이지는 서버와 맞지 않습니다. 새로 고침하세요.',
      unknownSchool: (id) => `'${id}' 학교가 없습니다. 검색해서 골라 주세요.`,
      defaultPlayer: '웹 플레이어', noSchool: '학교를 고르세요',
    },
    en: {
      title: 'School Battle', changeSchool: 'Change school', play: 'Play', board: 'Ranking', fullscreen: 'Full screen',
      searchPrompt: 'Search for your school', playerName: 'My name', myTaps: 'My taps', schoolTotal: 'School total',
      playHint: 'Tap the screen like crazy! (keyboard: Space or Enter)', national: 'National ranking', ranking: 'Ranking',
      level: 'Level', province: 'Province', myLeague: 'My league', rank: 'Rank', school: 'School', region: 'Region', taps: 'Taps',
      boardEmpty: 'No taps yet.', all: 'All', playArea: 'Tap here',
      levels: { elementary: 'Elementary', middle: 'Middle', high: 'High' },
      found: (n) => `${n} schools`, none: 'No school matches.', searchFailed: 'Cannot search: the server is not reachable.',
      abnormal: 'Abnormal tapping detected.',
      rankIn: (n) => `#${n} nationally`, first: '#1!', gap: (n) => `${n} behind the school above`,
      connecting: 'Connecting…', online: 'Online',
      offline: (n) => n > 0 ? `Offline · ${n} taps waiting` : 'Offline',
      takenOver: 'Playing in another window. Reload to play here.',
      versionMismatch: 'This page does not match the server. Reload it.',
      unknownSchool: (id) => `No school has the id '${id}'. Search for it instead.`,
      defaultPlayer: 'web player', noSchool: 'Choose a school',
    },
  };
  const params = new URLSearchParams(location.search);
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
    boardRows: $('board-rows'), boardEmpty: $('board-empty'),
  };

  // ---------------------------------------------------------------- storage
  const store = {
    get(name, fallback) {
      try { const text = localStorage.getItem(KEY + name); return text === null ? fallback : JSON.parse(text); } catch { return fallback; }
    },
    set(name, value) {
      try { localStorage.setItem(KEY + name, JSON.stringify(value)); } catch { /* full or disabled: play on */ }
    },
  };

  /** 32 random bytes, base64url without padding: the device key of the protocol. */
  function deviceKey() {
    let key = store.get('device', null);
    if (typeof key === 'string' && /^[A-Za-z0-9_-]{22,64}$/.test(key)) return key;
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    key = btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    store.set('device', key);
    return key;
  }

  // ---------------------------------------------------------------- state
  const device = deviceKey();
  /** Sealed batches not yet acknowledged, in order, and the next number to give. */
  let box = store.get('outbox', { nextSeq: 1, batches: [] });
  /** The batch taps go into now: kept in storage at every tap, sealed every SEAL_*_MS. */
  let open = store.get('open', null);
  /** The player as the server last said (welcome, ack). */
  let serverPlayer = store.get('player', { school: null, taps: 0, best: 0 });
  let school = store.get('school', null);
  /** Chosen but not yet told: the next batch says `switchedTo`. */
  let switchTo = store.get('switchTo', null);
  let best = store.get('best', 0);
  let board = { version: 0, scores: new Map() };
  /** Taps per school still in the outbox or the open batch: shown on the board at once. */
  let pending = new Map();
  let waitingTaps = 0;
  /** My count for my school before the open batch: server's + outbox's. */
  let baseMine = { school: null, taps: 0 };
  const schools = new Map();     // id → {id, name, level, province, district}
  let directoryTag = null;
  let view = 'picker';
  let socket = null, welcomed = false, sentUpTo = 0, retryMs = 500, retryTimer = 0, stopped = false;
  let lastPong = 0;
  const recent = [];             // times of the last second's taps, for the best speed

  function recount() {
    pending = new Map();
    waitingTaps = 0;
    let mine = { school: serverPlayer.school, taps: serverPlayer.taps };
    for (const batch of box.batches) {
      for (const [id, n] of Object.entries(batch.taps)) { pending.set(id, (pending.get(id) || 0) + n); waitingTaps += n; }
      mine = batch.switchedTo ? { school: batch.switchedTo, taps: batch.playerTaps } : { school: mine.school, taps: mine.taps + batch.playerTaps };
    }
    if (open) {
      for (const [id, n] of Object.entries(open.taps)) { pending.set(id, (pending.get(id) || 0) + n); waitingTaps += n; }
      if (open.switchedTo) mine = { school: open.switchedTo, taps: 0 };
    }
    baseMine = mine;
  }

  function myTaps() {
    if (switchTo) return 0;
    const openTaps = open ? open.playerTaps : 0;
    return baseMine.school === school ? baseMine.taps + openTaps : openTaps;
  }

  function total(id) { return (board.scores.get(id) || 0) + (pending.get(id) || 0); }

  // ---------------------------------------------------------------- taps
  function tap(x, y) {
    if (!school || stopped) return;
    const now = Date.now();
    if (!open) {
      open = { taps: {}, playerTaps: 0, best, startMs: now, endMs: now };
      if (switchTo) { open.switchedTo = switchTo; switchTo = null; store.set('switchTo', null); recount(); }
    }
    open.taps[school] = (open.taps[school] || 0) + 1;
    open.playerTaps += 1;
    open.endMs = Math.max(open.endMs, now);
    recent.push(now);
    while (recent[0] <= now - 1000) recent.shift();
    if (recent.length > best) best = recent.length;
    open.best = best;
    store.set('open', open);
    pending.set(school, (pending.get(school) || 0) + 1);
    waitingTaps += 1;
    puff(x, y);
    scheduleRender(false);
  }

  function seal(force) {
    if (!open) return;
    const age = Date.now() - open.startMs;
    if (!force && age < (welcomed ? SEAL_ONLINE_MS : SEAL_OFFLINE_MS)) return;
    const batch = { seq: box.nextSeq, taps: open.taps, playerTaps: open.playerTaps, best: open.best,
                    startMs: open.startMs, endMs: open.endMs };
    if (open.switchedTo) batch.switchedTo = open.switchedTo;
    box = { nextSeq: box.nextSeq + 1, batches: box.batches.concat([batch]) };
    store.set('outbox', box);
    open = null;
    store.set('open', null);
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
      const name = (ui.playerName.value || '').trim() || t.defaultPlayer;
      ws.send(JSON.stringify({ type: 'hello', protocol: PROTOCOL, device, player: name }));
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
      const wait = event.code === 4029 ? 60000 : event.code === 1008 ? 10000 : retryMs;
      retryMs = Math.min(retryMs * 2, 8000);
      retryTimer = setTimeout(connect, wait);
    };
  }

  function stop(message) {
    stopped = true;
    if (socket) socket.close();
    ui.status.textContent = message;
    ui.status.className = 'offline';
  }

  function receive(message) {
    switch (message.type) {
      case 'welcome': {
        if (!welcomed && performance.getEntriesByName('touchschool-online').length === 0) performance.mark('touchschool-online');
        welcomed = true;
        retryMs = 500;
        lastPong = Date.now();
        const lastSeq = message.lastSeq;
        // As the terminal's outbox: what the server applied is dropped; numbers that do not
        // follow on from the server's (its data was lost) are given again after lastSeq.
        const batches = box.batches.filter((b) => b.seq > lastSeq);
        let nextSeq = box.nextSeq;
        const followsOn = nextSeq > lastSeq && (batches.length === 0 || batches[0].seq === lastSeq + 1);
        if (!followsOn) {
          batches.forEach((b, i) => { b.seq = lastSeq + 1 + i; });
          nextSeq = lastSeq + 1 + batches.length;
        }
        box = { nextSeq, batches };
        store.set('outbox', box);
        serverPlayer = message.player;
        store.set('player', serverPlayer);
        board = { version: message.board.version, scores: new Map(Object.entries(message.board.scores)) };
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
        store.set('outbox', box);
        serverPlayer = message.player;
        store.set('player', serverPlayer);
        // Its taps leave the outbox now, so they go on the board now, until the next board.
        if (done && message.refused === 0) {
          for (const [id, n] of Object.entries(done.taps)) board.scores.set(id, (board.scores.get(id) || 0) + n);
        }
        if (message.refused > 0) warn(t.abnormal);
        recount();
        scheduleRender(true);
        break;
      }
      case 'board':
        if (message.version < board.version) break;
        board.version = message.version;
        for (const [id, score] of Object.entries(message.scores)) board.scores.set(id, score);
        scheduleRender(true);
        break;
      case 'pong':
        lastPong = Date.now();
        break;
      default:
        break;
    }
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
    // count says what waits to be sent.
    if (welcomed) { state = 'online'; text = t.online; }
    else if (socket) { state = 'connecting'; text = t.connecting; }
    else { state = 'offline'; text = t.offline(number.format(waitingTaps)); }
    if (ui.status.textContent !== text) ui.status.textContent = text;
    ui.status.className = state === 'offline' ? 'offline' : '';
    ui.status.dataset.state = state;
    ui.status.dataset.waiting = String(waitingTaps);
  }

  // ---------------------------------------------------------------- schools
  function levelName(level) { return t.levels[level] || level; }
  function region(row) { return row.district ? `${row.province} ${row.district}` : row.province; }
  function remember(row) { schools.set(row.id, row); }

  async function loadDirectory() {
    try {
      const response = await fetch('/v1/schools', { cache: 'no-cache' });
      if (!response.ok) return;
      const directory = await response.json();
      const at = directory.fields.reduce((map, field, i) => { map[field] = i; return map; }, {});
      for (const row of directory.schools) {
        remember({ id: row[at.id], name: row[at.name], level: row[at.level], province: row[at.province], district: row[at.district] });
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
      const response = await fetch('/v1/search?q=' + encodeURIComponent(text), { signal: abort.signal });
      if (!response.ok) throw new Error(String(response.status));
      const answer = await response.json();
      if (abort.signal.aborted) return;
      answer.schools.forEach(remember);
      showResults(answer.schools);
      ui.found.textContent = answer.schools.length > 0 ? t.found(answer.schools.length) : t.none;
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

  function choose(row) {
    remember(row);
    chooseID(row.id);
    show('game');
  }

  function chooseID(id) {
    if (id === school && !switchTo) return;
    seal(true);
    school = id;
    store.set('school', id);
    // A school other than the one the server (and the outbox) has for me: my count restarts.
    recount();
    switchTo = baseMine.school === id ? null : id;
    store.set('switchTo', switchTo);
    showSchool();
    scheduleRender(true);
  }

  function forgetSchool() {
    school = null;
    switchTo = null;
    store.set('school', null);
    store.set('switchTo', null);
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
    $('to-game').hidden = !school;
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
  ui.playerName.addEventListener('change', () => store.set('name', ui.playerName.value.trim()));

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
    let above = 0, closest = Infinity;
    // The top few by a partial selection in the same pass, not a sort of every school.
    const top = [];
    eachStanding((id, score) => {
      if (score === 0 && id !== school) return;
      if (score > mine) { above += 1; if (score < closest) closest = score; }
      const r = { id, score };
      if (top.length < MINI_ROWS || better(r, top[top.length - 1])) {
        top.push(r);
        top.sort(order);
        if (top.length > MINI_ROWS) top.pop();
      }
    });
    ui.schoolRank.textContent = school ? t.rankIn(above + 1) : '';
    ui.gap.textContent = !school ? '' : above === 0 ? t.first : t.gap(number.format(closest - mine));
    const shown = top.slice();
    if (school && !top.some((r) => r.id === school)) shown.push({ id: school, score: mine });
    const ranks = shown.map(() => 1);
    eachStanding((id, score) => { for (let i = 0; i < shown.length; i++) if (score > shown[i].score) ranks[i] += 1; });
    ui.miniList.replaceChildren(...shown.map((r, i) =>
      line('li', [String(ranks[i]), nameOf(r.id), number.format(r.score)], ['n', 's', 't'], r.id === school)));
  }

  function order(a, b) { return b.score - a.score || collator.compare(nameOf(a.id), nameOf(b.id)); }
  function better(a, b) { return order(a, b) < 0; }
  function nameOf(id) { const row = schools.get(id); return row ? row.name : id; }

  function renderBoard() {
    const rows = standings(ui.level.value, ui.province.value).sort(order);
    let shown = rows.slice(0, BOARD_ROWS);
    const ranks = new Map();
    let rank = 0;
    rows.forEach((r, i) => { if (i === 0 || r.score !== rows[i - 1].score) rank = i + 1; ranks.set(r.id, rank); });
    const mineAt = rows.findIndex((r) => r.id === school);
    if (mineAt >= BOARD_ROWS) shown = shown.concat([rows[mineAt]]);
    ui.boardRows.replaceChildren(...shown.map((r) => {
      const row = r.row || schools.get(r.id);
      return line('tr', [String(ranks.get(r.id)), nameOf(r.id), row ? region(row) : '', number.format(r.score)], [], r.id === school, 'td');
    }));
    ui.boardEmpty.hidden = shown.length > 0;
  }

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

  // ---------------------------------------------------------------- start
  for (const element of document.querySelectorAll('[data-t]')) element.textContent = t[element.dataset.t];
  document.documentElement.lang = lang;
  document.title = `${t.title} TouchSchool`;
  ui.play.setAttribute('aria-label', t.playArea);
  ui.level.replaceChildren(option('', t.all), ...Object.keys(t.levels).map((level) => option(level, t.levels[level])));
  ui.province.replaceChildren(option('', t.all));
  ui.playerName.value = store.get('name', '') || '';
  ui.playerName.placeholder = t.defaultPlayer;

  // A batch left open by the page's last life (a reload, a crash) goes out first.
  if (open) seal(true);
  recount();
  const asked = params.get('school');
  if (asked) chooseID(asked);
  showSchool();
  show(params.has('board') ? 'board' : school ? 'game' : 'picker');
  connect();
  loadDirectory();
  performance.mark('touchschool-interactive');
  document.body.dataset.ready = 'true';
})();

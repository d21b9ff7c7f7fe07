// The page drawn from the state, and its elements' events as messages: `render(state, now)` patches
// the DOM (per tap only the counters change), `renderRanks(state)` redraws what walks every school
// with taps. Only this module touches the elements; names from the data only ever as textContent.
import * as rules from './rules.js';
import { TEXT } from './text.js';
import { PUFFS } from './update.js';
import { myTaps, me, total, eachStanding, standings, before, region } from './state.js';

const PUFF_MS = 1000;          // a puff fades over a second
const BOARD_ROWS = 100;
const MINI_ROWS = 5;
/** The projector (`?board`): rows on a page, sized to fill the screen's height. */
const PROJECTOR_ROWS = 10;

export function view(document, lang, dispatch) {
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
    confirm: $('confirm'), playHint: $('play-hint'), toGame: $('to-game'), toPicker: $('to-picker'),
    confirmYes: $('confirm-yes'),
  };
  /** What was drawn last: a part is drawn again only when its part of the state changed. */
  let drawn = {};

  // ---------------------------------------------------------------- the page's start
  for (const element of document.querySelectorAll('[data-t]')) element.textContent = t[element.dataset.t];
  document.documentElement.lang = lang;
  document.title = `${t.title} TouchSchool`;
  ui.play.setAttribute('aria-label', t.playArea);
  ui.level.replaceChildren(option('', t.all), ...Object.keys(t.levels).map((level) => option(level, t.levels[level])));
  ui.province.replaceChildren(option('', t.all));
  ui.playerName.placeholder = t.defaultPlayer;
  const puffs = [], animations = [];
  for (let i = 0; i < PUFFS; i++) {
    const element = document.createElement('div');
    element.className = 'puff';
    element.setAttribute('aria-hidden', 'true');
    ui.play.appendChild(element);
    puffs.push(element);
  }

  // ---------------------------------------------------------------- events, as messages
  let playRect = null;
  const rect = () => playRect || (playRect = ui.play.getBoundingClientRect());
  new ResizeObserver(() => { playRect = null; }).observe(ui.play);
  addEventListener('scroll', () => { playRect = null; }, { passive: true });
  ui.play.addEventListener('pointerdown', (event) => {
    event.preventDefault();
    dispatch({ type: 'tap', x: event.clientX - rect().left, y: event.clientY - rect().top });
  });
  ui.play.addEventListener('contextmenu', (event) => event.preventDefault());
  ui.play.addEventListener('keydown', (event) => {
    if (event.key !== ' ' && event.key !== 'Enter') return;
    event.preventDefault();   // a held key is no tap (the terminal refuses auto-repeat too)
    if (!event.repeat) dispatch({ type: 'tap', x: rect().width * (0.2 + 0.6 * Math.random()), y: rect().height * (0.2 + 0.6 * Math.random()) });
  });
  const on = (element, type, message) => element.addEventListener(type, () => dispatch(message()));
  on(ui.query, 'input', () => ({ type: 'query', text: ui.query.value }));
  ui.query.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && ui.results.firstChild) { event.preventDefault(); dispatch({ type: 'chooseFirst' }); }
    if (event.key === 'ArrowDown') { const first = ui.results.querySelector('button'); if (first) { event.preventDefault(); first.focus(); } }
  });
  ui.results.addEventListener('keydown', (event) => {
    const buttons = [...ui.results.querySelectorAll('button')];
    const i = buttons.indexOf(document.activeElement);
    if (event.key === 'ArrowDown' && i + 1 < buttons.length) { event.preventDefault(); buttons[i + 1].focus(); }
    if (event.key === 'ArrowUp') { event.preventDefault(); (i > 0 ? buttons[i - 1] : ui.query).focus(); }
  });
  ui.results.addEventListener('click', (event) => {
    const button = event.target.closest('button');
    if (button) dispatch({ type: 'choose', id: button.dataset.id });
  });
  on(ui.confirmYes, 'click', () => ({ type: 'confirmYes' }));
  on($('confirm-no'), 'click', () => ({ type: 'confirmNo' }));
  // Closed by the browser too (Escape).
  on(ui.confirm, 'close', () => ({ type: 'confirmNo' }));
  ui.confirm.addEventListener('keydown', (event) => {
    if (event.key === 'y') dispatch({ type: 'confirmYes' });
    if (event.key === 'n') dispatch({ type: 'confirmNo' });
  });
  on(ui.toPicker, 'click', () => ({ type: 'show', view: 'picker' }));
  on(ui.toGame, 'click', () => ({ type: 'show', view: 'game' }));
  on($('to-board'), 'click', () => ({ type: 'show', view: 'board' }));
  on($('fullscreen'), 'click', () => ({ type: 'fullscreen' }));
  on($('my-league'), 'click', () => ({ type: 'myLeague' }));
  on($('play-here'), 'click', () => ({ type: 'playHere' }));
  const league = () => ({ type: 'league', level: ui.level.value, province: ui.province.value });
  on(ui.level, 'change', league);
  on(ui.province, 'change', league);
  on(ui.playerName, 'change', () => ({ type: 'name', text: ui.playerName.value }));
  on(ui.sound, 'click', () => ({ type: 'toggleSound' }));

  // ---------------------------------------------------------------- drawing
  /** Sets a property only when it differs (a text node rewritten per tap costs layout). */
  function set(element, property, value) { if (element[property] !== value) element[property] = value; }

  function render(state, now) {
    const was = drawn;
    drawn = state;
    set(ui.myTaps, 'textContent', number.format(myTaps(state)));
    set(ui.schoolTotal, 'textContent', number.format(state.school ? total(state, state.school) : 0));
    // Taps in the last second and my best, as the terminal shows them.
    let speed = 0;
    for (const at of state.recent) if (at > now - 1000) speed += 1;
    set(ui.speed, 'textContent', state.school ? t.speed(number.format(speed), number.format(Math.max(state.best, me(state).best))) : '');
    renderStatus(state);
    if (state.puffCount !== was.puffCount) renderPuffs(state, was.puffCount || 0);
    if (state.view !== was.view) renderView(state);
    ui.toGame.hidden = state.boardOnly || !state.school;
    ui.toPicker.hidden = state.boardOnly;
    if (state.school !== was.school || state.schools !== was.schools) renderSchool(state);
    if (state.name !== was.name) {
      ui.playerName.value = state.name;
      ui.player.textContent = state.boardOnly ? '' : t.player(state.name || t.defaultPlayer);
    }
    ui.sound.textContent = state.muted ? t.soundOff : t.soundOn;
    ui.sound.setAttribute('aria-pressed', String(state.muted));
    ui.sound.hidden = state.boardOnly;
    ui.elsewhere.hidden = !state.elsewhere;
    if (state.warning) set(ui.warning, 'textContent', words(state.warning));
    ui.warning.hidden = !state.warning;
    if (state.results !== was.results) renderResults(state.results);
    set(ui.found, 'textContent', state.found ? words(state.found) : '');
    if (state.confirm !== was.confirm) renderConfirm(state);
    if (state.provinces !== was.provinces) {
      ui.province.replaceChildren(option('', t.all), ...state.provinces.map((name) => option(name, name)));
    }
    set(ui.level, 'value', state.level);
    set(ui.province, 'value', state.province);
    // The keyboard's part of the hint only where there is a keyboard.
    set(ui.playHint, 'textContent', state.keyboardHint ? `${t.playHint} ${t.keyboardHint}` : t.playHint);
    if (state.boardOnly) {
      document.body.classList.add('projector');
      document.body.classList.toggle('idle', state.idle);
      ui.join.hidden = false;
      if (state.join !== was.join) showJoin(state.join);
    }
  }

  function words({ key, arg }) { return typeof t[key] === 'function' ? t[key](arg) : t[key]; }

  function renderStatus(state) {
    if (state.stopped) {
      set(ui.status, 'textContent', t[state.stopped]);
      ui.status.className = 'offline';
      ui.status.dataset.state = 'stopped';
      return;
    }
    // Online, taps in flight are not news (they are acknowledged within a moment); offline, the
    // count says what waits to be sent. A tab that does not play is online with its board stream;
    // one asking the other tabs for the device (without Web Locks) is connecting until they answer.
    const live = state.owner ? state.socket === 'welcomed' : state.stream === 'live';
    const connecting = state.owner ? state.socket !== 'none' : state.stream !== 'none' || state.claiming;
    const mode = live ? 'online' : connecting ? 'connecting' : 'offline';
    set(ui.status, 'textContent', live ? t.online : connecting ? t.connecting : t.offline(number.format(state.waitingTaps)));
    ui.status.className = mode === 'offline' ? 'offline' : '';
    ui.status.dataset.state = mode;
    ui.status.dataset.waiting = String(state.waitingTaps);
    // The projector cannot be read up close: a frozen board says so across the whole screen
    // (after its first connection has had its moment).
    if (state.boardOnly) ui.offline.hidden = state.stream === 'live' || !state.firstConnectionOver;
  }

  /** The puffs of the taps since the last drawing (the last PUFFS of them), each on its element of the ring. */
  function renderPuffs(state, from) {
    for (let n = Math.max(from, state.puffCount - PUFFS); n < state.puffCount; n++) {
      const { x, y } = state.puffs[state.puffs.length - (state.puffCount - n)];
      const i = n % PUFFS;
      if (animations[i]) animations[i].cancel();
      const at = `translate(${x}px, ${y}px)`;
      animations[i] = puffs[i].animate(
        [{ opacity: 0.95, transform: `${at} scale(0.45)` }, { opacity: 0, transform: `${at} scale(1.7)` }],
        { duration: PUFF_MS, easing: 'ease-out', fill: 'forwards' });
    }
  }

  function renderView(state) {
    const name = state.view;
    for (const section of ['picker', 'game', 'board']) ui[section].hidden = section !== name;
    for (const [button, section] of [[ui.toPicker, 'picker'], [ui.toGame, 'game'], [$('to-board'), 'board']]) {
      if (section === name) button.setAttribute('aria-current', 'page'); else button.removeAttribute('aria-current');
    }
    if (name === 'picker') ui.query.focus();
    if (name === 'game') { playRect = null; ui.play.focus({ preventScroll: true }); }
  }

  function levelName(level) { return t.levels[level] || level; }
  function nameOf(state, id) { const row = state.schools.get(id); return row ? row.name : id; }

  function renderSchool(state) {
    const row = state.school && state.schools.get(state.school);
    ui.schoolName.textContent = row ? row.name : (state.school || t.noSchool);
    ui.schoolRegion.textContent = row ? `${region(row)} · ${levelName(row.level)}` : '';
  }

  function renderResults(rows) {
    ui.results.replaceChildren(...rows.map((row) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.id = row.id;
      button.append(span('name', row.name), span('where', `${region(row)} · ${levelName(row.level)}`));
      item.append(button);
      return item;
    }));
  }

  function renderConfirm(state) {
    const asked = state.confirm;
    if (!asked) { if (ui.confirm.open) ui.confirm.close(); return; }
    const described = (id) => { const known = state.schools.get(id); return known ? `${known.name} (${region(known)})` : id; };
    $('confirm-from').textContent = t.confirmFrom(described(state.school));
    $('confirm-to').textContent = t.confirmTo(described(asked.id));
    $('confirm-keeps').textContent = t.confirmKeeps(number.format(asked.taps));
    if (!ui.confirm.open) ui.confirm.showModal();
    ui.confirmYes.focus();
  }

  /** The join address in words and as a QR code (the server draws it; SVG, sharp at any size). */
  function showJoin(address) {
    $('join-url').textContent = address;
    const qr = $('join-qr');
    qr.alt = address;
    qr.src = `/v1/qr.svg?text=${encodeURIComponent(address)}`;
  }

  // ---------------------------------------------------------------- ranks
  function renderRanks(state) {
    if (state.view === 'game') renderGameRanks(state);
    if (state.view === 'board') renderBoard(state);
  }

  function renderGameRanks(state) {
    const school = state.school;
    const mine = school ? total(state, school) : 0;
    const order = ordering(state), better = (a, b) => order(a, b) < 0;
    // The school to overtake: the nearest strictly ahead, of several tied there the last in order
    // (the one just above mine), as the terminal's `schoolAbove`.
    let above = 0, closest = null;
    // The top few by a partial selection in the same pass, not a sort of every school.
    const top = [];
    eachStanding(state, (id, score) => {
      if (score === 0 && id !== school) return;
      const r = { id, score };
      if (score > mine) {
        above += 1;
        if (!closest || score < closest.score || (score === closest.score && better(closest, r))) closest = r;
      }
      if (top.length < MINI_ROWS || better(r, top[top.length - 1])) {
        top.push(r);
        top.sort(order);
        if (top.length > MINI_ROWS) top.pop();
      }
    });
    // A school without a tap has no rank (at a battle's start every school shared the first).
    ui.schoolRank.textContent = !school ? '' : mine === 0 ? t.noRank : t.rankIn(above + 1);
    // One tap more than the difference overtakes (a tie only shares the place).
    ui.gap.textContent = !school ? '' : above > 0 ? t.gap(nameOf(state, closest.id), number.format(closest.score - mine + 1))
      : mine === 0 ? t.firstTap : t.first;
    const shown = top.slice();
    if (school && !top.some((r) => r.id === school)) shown.push({ id: school, score: mine });
    const ranks = shown.map(() => 1);
    eachStanding(state, (id, score) => { for (let i = 0; i < shown.length; i++) if (score > shown[i].score) ranks[i] += 1; });
    ui.miniList.replaceChildren(...shown.map((r, i) => {
      const item = line('li', [String(ranks[i]), nameOf(state, r.id), number.format(r.score)], ['n', 's', 't'], r.id === school);
      tellApart(state, item.children[1], r.id);
      return item;
    }));
  }

  function ordering(state) {
    return (a, b) => b.score - a.score || collator.compare(nameOf(state, a.id), nameOf(state, b.id));
  }

  function renderBoard(state) {
    const school = state.school;
    const rows = standings(state, state.level, state.province).sort(ordering(state));
    const ranks = new Map();
    let rank = 0;
    rows.forEach((r, i) => { if (i === 0 || r.score !== rows[i - 1].score) rank = i + 1; ranks.set(r.id, rank); });
    let shown;
    if (state.boardOnly) {
      // The projector shows one screenful at a time and turns the pages itself.
      const pages = Math.max(1, Math.ceil(rows.length / PROJECTOR_ROWS));
      const page = state.projectorPage % pages;
      shown = rows.slice(page * PROJECTOR_ROWS, (page + 1) * PROJECTOR_ROWS);
      ui.boardPage.textContent = pages > 1 ? t.pageOf(page + 1, pages) : '';
    } else {
      shown = rows.slice(0, BOARD_ROWS);
      const mineAt = rows.findIndex((r) => r.id === school);
      if (mineAt >= BOARD_ROWS) shown = shown.concat([rows[mineAt]]);
    }
    // Movement within the league shown (the school itself, at its own counts, passes no one). A
    // school whose total stayed can only have been passed by, or have passed, schools whose total
    // changed: it is judged against those few, not the whole league (12,000 schools nationally).
    const counts = rows.map((r) => ({ before: before(state, r.id, r.score), now: r.score }));
    const changed = counts.filter((c) => c.before !== c.now);
    ui.boardRows.replaceChildren(...shown.map((r) => {
      const row = r.row || state.schools.get(r.id);
      const mine = { before: before(state, r.id, r.score), now: r.score };
      const moved = rules.movement(mine, mine.before === mine.now ? changed : counts);
      const element = line('tr', [String(ranks.get(r.id)), movementText(moved), nameOf(state, r.id), row ? region(row) : '', number.format(r.score)],
                           [], r.id === school, 'td');
      if (moved !== 0) element.cells[1].className = moved > 0 ? 'up' : 'down';
      // Shown only while the region column is not (a phone: style.css).
      tellApart(state, element.cells[2], r.id, 'where board-where');
      return element;
    }));
    ui.boardEmpty.hidden = shown.length > 0;
  }

  /** A small, dim "where" after a name more than one school has; nothing for a name of its own. */
  function tellApart(state, cell, id, className = 'where') {
    const row = state.schools.get(id);
    if (row && state.sharedNames.has(row.name)) cell.append(span(className, ` ${region(row)}`));
  }

  /** Rows tall enough that PROJECTOR_ROWS of them fill the screen below the table's head (and above the section's padding). */
  function fitRows() {
    const below = parseFloat(getComputedStyle(ui.board).paddingBottom) + PROJECTOR_ROWS;   // and a pixel of border a row
    const room = innerHeight - ui.boardRows.getBoundingClientRect().top - below;
    ui.board.style.setProperty('--row-height', `${Math.max(20, Math.floor(room / PROJECTOR_ROWS))}px`);
  }

  function option(value, label) {
    const element = document.createElement('option');
    element.value = value;
    element.textContent = label;
    return element;
  }

  function span(className, text) {
    const element = document.createElement('span');
    element.className = className;
    element.textContent = text;
    return element;
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

  return { render, renderRanks, fitRows };
}

/** As the terminal's ranking: ▲ places climbed, ▼ places lost, - for none. */
function movementText(moved) {
  return moved > 0 ? `▲${Math.min(moved, 999)}` : moved < 0 ? `▼${Math.min(-moved, 999)}` : '-';
}

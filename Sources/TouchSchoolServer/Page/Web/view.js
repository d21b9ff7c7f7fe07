// The page drawn from the state, and its elements' events as messages: `render(state, now)` patches
// the DOM (per tap only the counters change), `renderRanks(state)` redraws the ranks, the side list
// and the ranking. Only this module touches the elements; names from the data only ever as textContent.
import { PUFFS } from './update.js';
import { shownRank } from './rules.js';
import { myTaps, me, lastSecond, schoolTotal, standing, miniRows, pageShown, listRows, movements, projectorPosition, region,
         roundScreen, periodShown } from './state.js';
import { TEXT, NUMBER } from './view/words.js';
import { projectorView } from './view/projector.js';
import { mapView } from './view/map.js';
import { seasonView } from './view/season.js';

const PUFF_MS = 1000;          // a puff fades over a second
export function view(document, lang, dispatch) {
  const t = TEXT[lang];
  const number = NUMBER[lang];
  const $ = (id) => document.getElementById(id);
  // The elements by the names of what they show; their ids are style.css's and the tests' (`#board`: the ranking).
  const ui = {
    status: $('status'), picker: $('picker'), game: $('game'), ranking: $('board'), query: $('query'), found: $('found'),
    results: $('results'), playerName: $('player-name'), schoolName: $('school-name'), schoolRegion: $('school-region'),
    schoolRank: $('school-rank'), myTaps: $('my-taps'), schoolTotal: $('school-total'), gap: $('gap'), warning: $('warning'),
    play: $('play'), miniList: $('mini-list'), level: $('league-level'), province: $('league-province'),
    rankingRows: $('board-rows'), rankingEmpty: $('board-empty'), elsewhere: $('elsewhere'), speed: $('speed'),
    player: $('player'), sound: $('sound'), projectorPage: $('board-page'), join: $('join'), joinWarning: $('join-warning'), offline: $('offline-overlay'),
    rankingList: $('board-list'), map: $('map'), mapCanvas: $('map-canvas'), mapLegend: $('map-legend'), mapNote: $('map-note'), mapToggle: $('map-toggle'),
    confirm: $('confirm'), playHint: $('play-hint'), toGame: $('to-game'), toPicker: $('to-picker'),
    confirmYes: $('confirm-yes'),
    roundBar: $('round-bar'), roundTitle: $('round-title'), roundTime: $('round-time'), roundPlace: $('round-place'),
    roundCount: $('round-count'), roundBig: $('round-big'), roundBigText: $('round-big-text'), roundBigDetail: $('round-big-detail'),
    roundScreen: $('round-screen'), roundHeading: $('round-heading'), roundPlayersCount: $('round-players-count'), roundClock: $('round-clock'),
    roundPodium: $('round-podium'), roundPlayers: $('round-players'), roundPlayersBox: $('round-players-box'), roundSchools: $('round-schools'), roundSchoolsBox: $('round-schools-box'),
    toRounds: $('to-rounds'), roundClose: $('round-close'), roundOpen: $('round-open'), archive: $('archive'), archiveStatus: $('archive-status'),
    archiveList: $('archive-list'), archiveDetail: $('archive-detail'), archiveTitle: $('archive-title'), archiveBack: $('archive-back'),
    archivePodium: $('archive-podium'), archivePlayers: $('archive-players'), archivePlayersBox: $('archive-players-box'), archiveSchools: $('archive-schools'),
    archiveSchoolsBox: $('archive-schools-box'), archiveCSV: $('archive-csv'), admin: $('admin'), adminSeconds: $('admin-seconds'), adminTitle: $('admin-title'),
    adminStart: $('admin-start'), adminStop: $('admin-stop'), adminError: $('admin-error'),
    rankingTitle: $('board-title'), rankingPeriod: $('board-period'), periodToggle: $('period-toggle'), fame: $('fame'), fameTitle: $('fame-title'),
    fameSeason: $('fame-season'), fameNational: $('fame-national'), fameLeagueBox: $('fame-league-box'), fameLeagueTitle: $('fame-league-title'),
    fameLeague: $('fame-league'),
  };
  const make = elements(document);
  const { option, span, line } = make;
  const projector = projectorView({ document, lang, ui, t, number, make, nameOf, roundName, placeWords });
  const maps = mapView({ ui, t });
  const seasons = seasonView({ document, lang, ui, t, number, nameOf, levelName });
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
  on(ui.toPicker, 'click', () => ({ type: 'show', screen: 'picker' }));
  on(ui.toGame, 'click', () => ({ type: 'show', screen: 'game' }));
  on($('to-board'), 'click', () => ({ type: 'show', screen: 'ranking' }));
  on($('fullscreen'), 'click', () => ({ type: 'fullscreen' }));
  on($('my-league'), 'click', () => ({ type: 'myLeague' }));
  on(ui.mapToggle, 'click', () => ({ type: 'toggleMap' }));
  on(ui.periodToggle, 'click', () => ({ type: 'togglePeriod' }));
  on($('play-here'), 'click', () => ({ type: 'playHere' }));
  const league = () => ({ type: 'league', level: ui.level.value, province: ui.province.value });
  on(ui.level, 'change', league);
  on(ui.province, 'change', league);
  on(ui.playerName, 'change', () => ({ type: 'name', text: ui.playerName.value }));
  on(ui.sound, 'click', () => ({ type: 'toggleSound' }));
  on(ui.toRounds, 'click', () => ({ type: 'showRounds' }));
  on(ui.roundClose, 'click', () => ({ type: 'dismissRound' }));
  on(ui.roundOpen, 'click', () => ({ type: 'reopenRound' }));
  on(ui.archiveBack, 'click', () => ({ type: 'archiveBack' }));
  on($('archive-close'), 'click', () => ({ type: 'closeRounds' }));
  ui.archiveList.addEventListener('click', (event) => {
    const button = event.target.closest('button');
    if (button) dispatch({ type: 'showRound', id: Number(button.dataset.id) });
  });
  ui.admin.addEventListener('submit', (event) => {
    event.preventDefault();
    dispatch({ type: 'startRound', seconds: Number(ui.adminSeconds.value), title: ui.adminTitle.value });
  });
  on(ui.adminStop, 'click', () => ({ type: 'stopRound' }));

  // ---------------------------------------------------------------- drawing
  /** Sets a property only when it differs (a text node rewritten per tap costs layout). */
  function set(element, property, value) { if (element[property] !== value) element[property] = value; }

  function render(state, now) {
    const was = drawn;
    drawn = state;
    set(ui.myTaps, 'textContent', number.format(myTaps(state)));
    set(ui.schoolTotal, 'textContent', number.format(schoolTotal(state)));
    // Taps in the last second and my best, as the terminal shows them.
    const speed = lastSecond(state.recent, now).length;
    set(ui.speed, 'textContent', state.school ? t.speed(speed, Math.max(state.best, me(state).best)) : '');
    renderStatus(state);
    if (state.puffCount !== was.puffCount) renderPuffs(state, was.puffCount || 0);
    if (state.screen !== was.screen) renderScreen(state);
    ui.toGame.hidden = state.projector || !state.school;
    ui.toPicker.hidden = state.projector;
    if (state.school !== was.school || state.schools !== was.schools) renderSchool(state);
    if (state.name !== was.name) {
      ui.playerName.value = state.name;
      // The default name says "player" itself: after the label it read "플레이어 웹 플레이어".
      ui.player.textContent = state.projector ? '' : state.name ? t.player(state.name) : t.defaultPlayer;
    }
    ui.sound.textContent = state.muted ? t.soundOff : t.soundOn;
    ui.sound.setAttribute('aria-pressed', String(state.muted));
    ui.sound.hidden = state.projector;
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
    if (state.projector) {
      document.body.classList.add('projector');
      document.body.classList.toggle('idle', state.idle);
      ui.join.hidden = false;
      if (state.join !== was.join) projector.showJoin(state.join);
      if (state.joinWarning !== was.joinWarning) projector.renderJoinWarning(state.joinWarning);
    }
    if (['round', 'roundStage', 'roundResult', 'roundClosed', 'archive', 'schools'].some((part) => state[part] !== was[part])) {
      if (state.projector) projector.renderProjector(state); else renderGameRound(roundScreen(state));
    }
    maps.renderMap(state);
    if (['season', 'period', 'fame', 'round', 'roundStage', 'roundClosed', 'archive', 'schools', 'level', 'province'].some((part) => state[part] !== was[part])) {
      seasons.renderPeriod(state);
      const fameWasHidden = ui.fame.hidden;
      seasons.renderFame(state);
      // The projector's rows make room for the hall of fame under them, and take it back.
      if (state.projector && ui.fame.hidden !== fameWasHidden) projector.fitRows();
    }
    if (state.admin !== was.admin || state.adminBusy !== was.adminBusy || state.adminError !== was.adminError) projector.renderAdmin(state);
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
    // Refused by the server, what to do first stays while the page asks again.
    const refused = state.owner && !live && state.refused;
    const mode = live ? 'online' : connecting && !refused ? 'connecting' : 'offline';
    // The taps waiting, or null for none.
    const waiting = state.waitingTaps > 0 ? state.waitingTaps : null;
    set(ui.status, 'textContent', refused ? t.refused(t[refused], waiting) : live ? t.online : connecting ? t.connecting : t.offline(waiting));
    ui.status.className = mode === 'offline' ? 'offline' : '';
    ui.status.dataset.state = mode;
    ui.status.dataset.waiting = String(state.waitingTaps);
    // The projector cannot be read up close: a frozen board says so across the whole screen
    // (after its first connection has had its moment).
    if (state.projector) ui.offline.hidden = state.stream === 'live' || !state.firstConnectionOver;
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

  function renderScreen(state) {
    const name = state.screen;
    for (const section of ['picker', 'game', 'ranking']) ui[section].hidden = section !== name;
    for (const [button, section] of [[ui.toPicker, 'picker'], [ui.toGame, 'game'], [$('to-board'), 'ranking']]) {
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
    $('confirm-keeps').textContent = t.confirmKeeps(asked.taps);
    if (!ui.confirm.open) ui.confirm.showModal();
    ui.confirmYes.focus();
  }

  // ---------------------------------------------------------------- rounds
  function roundName(round) { return round.title || t.roundDefault(round.id); }

  /** A place in a round ("2위", "2nd"), said as shared when others have it too (ties share a place: 1, 1, 3). */
  function placeWords(place, tied) { return tied ? t.tiedPlace(place) : t.place(place); }

  /** The phone's round: a bar above the play area from GO on; over it, the 3-2-1, GO, the counting and the result. */
  function renderGameRound(shown) {
    const phase = shown ? shown.phase : null;
    ui.roundBar.hidden = !shown || phase === 'countdown' || phase === 'result';
    ui.roundBig.hidden = !shown || phase === 'race';
    if (!shown) return;
    const { round } = shown;
    ui.roundTitle.textContent = roundName(round);
    ui.roundTime.textContent = phase === 'counting' ? t.counting : t.timeLeft(number.format(shown.n));
    ui.roundPlace.textContent = round.place ? t.roundPlace(placeWords(round.place, round.tied), number.format(round.players)) : t.roundNoPlace;
    ui.roundCount.textContent = t.roundCount(round.count);
    ui.roundBig.dataset.phase = phase;
    const result = phase === 'result';
    ui.roundBigText.textContent = phase === 'countdown' ? String(shown.n) : phase === 'go' ? t.go : phase === 'counting' ? t.counting
      : round.place ? t.roundResult(placeWords(round.place, round.tied)) : t.roundNoResult;
    ui.roundBigDetail.textContent = result ? `${round.place ? t.roundResultDetail(round.count, round.players) : ''} ${t.tapToClose}`.trim()
      : '';
  }

  // ---------------------------------------------------------------- ranks
  function renderRanks(state) {
    if (state.screen === 'game') renderGameRanks(state);
    if (state.screen === 'ranking') renderRanking(state);
  }

  function renderGameRanks(state) {
    const school = state.school;
    const { total, rank, gap } = standing(state);
    // A school without a tap has no rank (at a battle's start every school shared the first);
    // before its view, nothing is said.
    // While a season runs, the rank says which period it is of.
    const period = periodShown(state);
    ui.schoolRank.textContent = !school ? '' : total === 0 ? t.noRank : rank ? t.rankIn(rank, period && t.periodInLine[period]) : '';
    // One tap more than the difference overtakes (a tie only shares the place).
    ui.gap.textContent = !school ? '' : gap ? (gap.school ? t.gap(nameOf(state, gap.school), gap.taps) : t.gapOnly(gap.taps))
      : total === 0 ? t.firstTap : rank === 1 ? t.first : '';
    ui.miniList.replaceChildren(...miniRows(state).map((r) => {
      const item = line('li', [rankText(r), nameOf(state, r.school), number.format(r.total)], ['n', 's', 't'], r.mine);
      // The neighbours after the top, places apart: a line between says so.
      if (r.after) item.classList.add('after');
      tellApart(state, item.children[1], r.school);
      return item;
    }));
  }

  /** A row's rank as the terminal and `rank` show it: "-" for a school without a tap. */
  function rankText(row) { return String(shownRank(row.rank, row.total) ?? '-'); }

  function renderRanking(state) {
    const rows = listRows(state);
    const moved = movements(state);
    // The projector shows one screenful at a time and turns the pages itself.
    if (state.projector) {
      const at = projectorPosition(state);
      ui.projectorPage.textContent = !at ? '' : at.pages ? t.pageOf(at.page, at.pages) : String(at.page);
    }
    ui.rankingRows.replaceChildren(...rows.map((r) => {
      const row = state.schools.get(r.school);
      const places = moved.get(r.school) || 0;
      const element = line('tr', [rankText(r), movementText(places), nameOf(state, r.school), row ? region(row) : '', number.format(r.total)],
                           [], r.mine, 'td');
      if (places !== 0) element.cells[1].className = places > 0 ? 'up' : 'down';
      // Shown only while the region column is not (a phone: style.css).
      tellApart(state, element.cells[2], r.school, 'where board-where');
      return element;
    }));
    // "No taps yet" once the page has come with none (before it, nothing is known).
    ui.rankingEmpty.hidden = rows.length > 0 || !pageShown(state);
  }

  /** A small, dim "where" after a name more than one school has; nothing for a name of its own. */
  function tellApart(state, cell, id, className = 'where') {
    const row = state.schools.get(id);
    if (row && state.sharedNames.has(row.name)) cell.append(span(className, ` ${region(row)}`));
  }

  return { render, renderRanks, fitRows: projector.fitRows };
}

/** As the terminal's ranking: ▲ places climbed, ▼ places lost, - for none. */
function movementText(moved) {
  return moved > 0 ? `▲${Math.min(moved, 999)}` : moved < 0 ? `▼${Math.min(-moved, 999)}` : '-';
}

// Elements made for the page's lists, their texts only ever as textContent (names come from the data).

function textElement(document, tag, className, text) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  element.textContent = text;
  return element;
}

/** A round's standings as list items in place order: `cells(row)` the texts of a row, each a span of its class in `classes`. */
export function standingsItems(document, rows, cells, classes = []) {
  return [...rows].sort((a, b) => a.place - b.place).map((row) => {
    const item = document.createElement('li');
    item.append(...cells(row).map((text, i) => textElement(document, 'span', classes[i], text)));
    return item;
  });
}

/** The element makers of one document: an option, a span of a class, a line of cells (`mine`: my school's). */
export function elements(document) {
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

  return { option, span, line, text: (tag, className, value) => textElement(document, tag, className, value) };
}

// The page drawn from the state, and its elements' events as messages: `render(state, now)` patches
// the DOM (per tap only the counters change), `renderRanks(state)` redraws the ranks, the side list
// and the ranking. Only this module touches the elements; names from the data only ever as textContent.
import { PUFFS } from './update.js';
import { shownRank } from './rules.js';
import { myTaps, me, schoolTotal, standing, miniRows, pageShown, listRows, movements, projectorPosition, region, PROJECTOR_ROWS,
         roundScreen, projectorScreen, podium, ordinal } from './state.js';

const PUFF_MS = 1000;          // a puff fades over a second
/** The lengths of a round the teacher picks from (the server takes 5 to 3,600 s). */
const ROUND_SECONDS = [10, 30, 60, 120, 300];
const DEFAULT_ROUND_SECONDS = 30;
/** What to run so that phones can join, by the warning it answers (`serve`'s own advice, ServeGreeting.swift). */
const JOIN_COMMANDS = { joinLoopback: 'touchschool serve --host 0.0.0.0' };

export function view(document, lang, dispatch) {
  const t = TEXT[lang];
  const number = NUMBER[lang];
  const $ = (id) => document.getElementById(id);
  const ui = {
    status: $('status'), picker: $('picker'), game: $('game'), board: $('board'), query: $('query'), found: $('found'),
    results: $('results'), playerName: $('player-name'), schoolName: $('school-name'), schoolRegion: $('school-region'),
    schoolRank: $('school-rank'), myTaps: $('my-taps'), schoolTotal: $('school-total'), gap: $('gap'), warning: $('warning'),
    play: $('play'), miniList: $('mini-list'), level: $('league-level'), province: $('league-province'),
    boardRows: $('board-rows'), boardEmpty: $('board-empty'), elsewhere: $('elsewhere'), speed: $('speed'),
    player: $('player'), sound: $('sound'), boardPage: $('board-page'), join: $('join'), joinWarning: $('join-warning'), offline: $('offline-overlay'),
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
  };
  const dateTime = new Intl.DateTimeFormat(lang === 'ko' ? 'ko-KR' : 'en-US', { dateStyle: 'short', timeStyle: 'short' });
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
  ui.adminSeconds.replaceChildren(...ROUND_SECONDS.map((seconds) => option(String(seconds), t.duration(seconds))));
  ui.adminSeconds.value = String(DEFAULT_ROUND_SECONDS);
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
    let speed = 0;
    for (const at of state.recent) if (at > now - 1000) speed += 1;
    set(ui.speed, 'textContent', state.school ? t.speed(speed, Math.max(state.best, me(state).best)) : '');
    renderStatus(state);
    if (state.puffCount !== was.puffCount) renderPuffs(state, was.puffCount || 0);
    if (state.view !== was.view) renderView(state);
    ui.toGame.hidden = state.boardOnly || !state.school;
    ui.toPicker.hidden = state.boardOnly;
    if (state.school !== was.school || state.schools !== was.schools) renderSchool(state);
    if (state.name !== was.name) {
      ui.playerName.value = state.name;
      // The default name says "player" itself: after the label it read "플레이어 웹 플레이어".
      ui.player.textContent = state.boardOnly ? '' : state.name ? t.player(state.name) : t.defaultPlayer;
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
      if (state.joinWarning !== was.joinWarning) renderJoinWarning(state.joinWarning);
    }
    if (['round', 'roundStage', 'roundResult', 'roundClosed', 'archive', 'schools'].some((part) => state[part] !== was[part])) {
      if (state.boardOnly) renderProjector(state); else renderGameRound(roundScreen(state));
    }
    if (state.admin !== was.admin || state.adminBusy !== was.adminBusy || state.adminError !== was.adminError) renderAdmin(state);
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

  /** The projector's screen: the board, the round (which replaces it while on), or the previous rounds. */
  function renderProjector(state) {
    const screen = projectorScreen(state);
    const wasBoard = !ui.board.hidden;
    ui.board.hidden = screen !== 'board';
    ui.roundScreen.hidden = screen !== 'round';
    ui.archive.hidden = screen !== 'archive';
    ui.toRounds.hidden = screen === 'archive';
    ui.roundClose.hidden = screen !== 'round';
    // A round taken off the screen can be brought back while it is on (or on its podium).
    ui.roundOpen.hidden = !(state.round && state.roundStage && state.roundClosed === state.round.id);
    if (screen === 'round') renderRoundScreen(state, roundScreen(state));
    if (screen === 'archive') renderArchive(state);
    // The rows were sized for the screen while the board showed; they are again when it does.
    if (screen === 'board' && !wasBoard) fitRows();
  }

  function renderRoundScreen(state, { phase, n, round }) {
    ui.roundScreen.dataset.phase = phase;
    ui.roundHeading.textContent = roundName(round);
    ui.roundPlayersCount.textContent = t.playerCount(number.format(round.playerCount));
    ui.roundClock.textContent = phase === 'countdown' ? String(n) : phase === 'go' ? t.go : phase === 'race' ? clockText(n)
      : phase === 'counting' ? t.counting : t.roundFinal;
    renderStandings(state, round, phase === 'podium',
                    { podium: ui.roundPodium, players: ui.roundPlayers, playersBox: ui.roundPlayersBox, schools: ui.roundSchools, schoolsBox: ui.roundSchoolsBox });
  }

  /** A round's standings ({players, schools}): the players (the first three on the podium, `onPodium`), the schools beside when more than one played. */
  function renderStandings(state, { players, schools }, onPodium, into) {
    const { steps, rest } = onPodium ? podium(players) : { steps: [], rest: players };
    into.podium.hidden = steps.length === 0;
    into.podium.replaceChildren(...steps.map(({ place, players: tied }) => {
      const step = document.createElement('div');
      step.className = `step step-${place}`;
      // Players tied share the step, and their count (a place is a count).
      step.append(span('n', placeWords(place, tied.length > 1)),
                  ...tied.flatMap((p) => [span('name', p.player), span('school', nameOf(state, p.school))]), span('t', number.format(tied[0].count)));
      return step;
    }));
    const items = standingsItems(document, rest, (p) => [String(p.place), p.player, nameOf(state, p.school), number.format(p.count)], ['n', 'name', 'school', 't']);
    if (steps.length === 0 && items.length === 0) items.push(textElement(document, 'li', 'empty', t.boardEmpty));
    into.players.replaceChildren(...items);
    // Every player on the podium: no heading over an empty list.
    into.playersBox.hidden = items.length === 0;
    into.schoolsBox.hidden = schools.length === 0;
    into.schools.replaceChildren(...standingsItems(document, schools, (r) => [String(r.place), nameOf(state, r.id), number.format(r.count)], ['n', 'name', 't']));
  }

  /** The previous rounds: their list, newest first, or one round's results. */
  function renderArchive(state) {
    const { list, detail, failed } = state.archive;
    ui.archiveStatus.textContent = failed ? t.roundsFailed : !detail && !list ? t.roundsLoading : !detail && list.length === 0 ? t.roundsEmpty : '';
    ui.archiveList.hidden = Boolean(detail);
    ui.archiveDetail.hidden = !detail;
    ui.archiveBack.hidden = !detail;
    if (detail) {
      ui.archiveTitle.textContent = `${roundName(detail.round)} · ${when(detail.round)}`;
      ui.archiveCSV.setAttribute('href', resultsCSV(detail.round));
      renderStandings(state, detail, true, { podium: ui.archivePodium, players: ui.archivePlayers, playersBox: ui.archivePlayersBox, schools: ui.archiveSchools, schoolsBox: ui.archiveSchoolsBox });
      return;
    }
    ui.archiveList.replaceChildren(...(list || []).map((round) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.id = String(round.id);
      button.append(span('name', roundName(round)), span('where', when(round)));
      const csv = document.createElement('a');
      csv.className = 'csv';
      csv.setAttribute('href', resultsCSV(round));
      csv.setAttribute('download', '');
      csv.textContent = t.downloadCSV;
      item.append(button, csv);
      return item;
    }));
  }

  /** A round's standings as a spreadsheet's file (`GET /v1/rounds/ID/results.csv`, an attachment). */
  function resultsCSV(round) { return `/v1/rounds/${encodeURIComponent(round.id)}/results.csv`; }

  /** When a round ran, and how long (a round stopped early, as long as it ran). */
  function when(round) {
    return `${dateTime.format(new Date(round.startsAtMs))} · ${t.duration(Math.max(0, Math.round((round.endsAtMs - round.startsAtMs) / 1000)))}`;
  }

  function clockText(seconds) {
    return seconds < 60 ? String(seconds) : `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  }

  /** The teacher's controls, only with the token; the server's error as it said it (text). */
  function renderAdmin(state) {
    ui.admin.hidden = !(state.boardOnly && state.admin);
    ui.adminStart.disabled = state.adminBusy;
    ui.adminStop.disabled = state.adminBusy;
    const error = state.adminError;
    ui.adminError.textContent = !error ? '' : error.status ? t.adminFailed(error.status, error.error || '') : t.adminOffline;
  }

  /** Why no phone can open the join address, and the command that lets them in, whole on a line of its own. */
  function renderJoinWarning(key) {
    ui.joinWarning.hidden = !key;
    ui.joinWarning.replaceChildren(...(key ? [t[key]] : []));
    if (JOIN_COMMANDS[key]) ui.joinWarning.append(' ', textElement(document, 'code', '', JOIN_COMMANDS[key]));
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
    const { total, rank, gap } = standing(state);
    // A school without a tap has no rank (at a battle's start every school shared the first);
    // before its view, nothing is said.
    ui.schoolRank.textContent = !school ? '' : total === 0 ? t.noRank : rank ? t.rankIn(rank) : '';
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

  function renderBoard(state) {
    const rows = listRows(state);
    const moved = movements(state);
    // The projector shows one screenful at a time and turns the pages itself.
    if (state.boardOnly) {
      const at = projectorPosition(state);
      ui.boardPage.textContent = !at ? '' : at.pages ? t.pageOf(at.page, at.pages) : String(at.page);
    }
    ui.boardRows.replaceChildren(...rows.map((r) => {
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
    ui.boardEmpty.hidden = rows.length > 0 || !pageShown(state);
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

/** As the terminal's ranking: ▲ places climbed, ▼ places lost, - for none. */
function movementText(moved) {
  return moved > 0 ? `▲${Math.min(moved, 999)}` : moved < 0 ? `▼${Math.min(-moved, 999)}` : '-';
}

// ---------------------------------------------------------------- words
/** Numbers grouped as each language writes them (1,234): the view's, and the counts the words below spell. */
const NUMBER = { ko: new Intl.NumberFormat('ko-KR'), en: new Intl.NumberFormat('en-US') };
const ko = (n) => NUMBER.ko.format(n);
/** An English count as a person reads it, "1 tap", "1,234 taps" (Korean's 번/명/개 have no plural). */
const counted = (n, one, many) => `${NUMBER.en.format(n)} ${n === 1 ? one : many}`;

// In Korean and English (`data-t` elements take theirs by name); main.js reads the default player's.
// A count is given as a number, each language groups it.
export const TEXT = {
  ko: {
    title: '학교 대항전', changeSchool: '학교 바꾸기', play: '게임', board: '순위', fullscreen: '전체 화면',
    searchPrompt: '학교를 검색해주세요', playerName: '내 이름', myTaps: '내 터치', schoolTotal: '학교 합계',
    playHint: '화면을 마구 터치하세요!', keyboardHint: '(키보드: Space 또는 Enter)', national: '전국 순위', ranking: '순위',
    level: '학교급', province: '시도', myLeague: '내 리그', rank: '순위', school: '학교', region: '지역', taps: '터치 수',
    boardEmpty: '아직 터치가 없습니다.', all: '전체', playArea: '터치하는 곳',
    levels: { elementary: '초등학교', middle: '중학교', high: '고등학교' },
    found: (n) => `${ko(n)}개 학교`, foundMore: (n) => `${ko(n)}개 넘는 학교`, didYouMean: (name) => `혹시 ${name}?`,
    none: '찾는 학교가 없습니다.', searchFailed: '검색할 수 없습니다: 서버에 연결되지 않았습니다.',
    abnormal: '비정상적인 터치 수가 감지되었습니다.',
    // The terminal's words (Sources/TouchSchoolView/Strings.swift), so that both faces say the same;
    // a refusal says what to do first (`warning(.banned)`, `refusal(_:)`).
    banned: '운영자에게 문의하세요: 차단된 기기라 터치가 세지 않습니다.',
    bannedAddress: '운영자에게 문의하세요: 이 주소는 차단되어 서버가 받지 않습니다.',
    battleFull: '운영자에게 자리를 요청하세요: 대항전이 가득 차서 새 기기를 받지 않습니다.',
    tooManyFromAddress: '운영자에게 문의하세요: 이 주소에서 서버가 받는 것보다 많이 접속합니다.',
    refused: (why, n) => n ? `${why} 터치 ${ko(n)}번 대기 중, 계속 터치하세요` : why,
    rankIn: (n) => `전국 ${n}위`, first: '1위!', noRank: '아직 순위 없음', firstTap: '첫 터치면 1위!', gap: (school, n) => `${school}까지 ${ko(n)}번`,
    gapOnly: (n) => `${ko(n)}번 더 터치하면 한 계단 위`,
    speed: (now, best) => `초당 ${ko(now)}번 · 최고 ${ko(best)}번`, player: (name) => `플레이어 ${name}`,
    confirmQuestion: '학교를 바꾸면 내 터치 수가 0부터 다시 시작합니다. 바꿀까요?',
    confirmFrom: (school) => `지금 학교: ${school}`, confirmTo: (school) => `바꿀 학교: ${school}`,
    confirmKeeps: (n) => `내 터치 수 ${ko(n)}번은 지금 학교의 점수에 그대로 남습니다.`, yes: '예', no: '아니오',
    movement: '변동', soundOn: '소리 켜짐', soundOff: '소리 꺼짐',
    joinPrompt: '휴대폰으로 참여하세요',
    // The second and third sentences are `serve`'s own (Sources/TouchSchoolNetworkTUI/ServeGreeting.swift); its command follows.
    joinLoopback: '휴대폰에서는 이 주소를 열 수 없습니다. 이 컴퓨터에서만 접속할 수 있습니다. 다른 기기도 들어오게 하려면:',
    joinNoNetwork: '휴대폰에서는 이 주소를 열 수 없습니다: 이 컴퓨터가 어느 네트워크에도 연결되어 있지 않습니다.',
    pageOf: (page, pages) => `${page} / ${pages}`,
    boardOffline: '오프라인', boardOfflineDetail: '서버와 연결이 끊겨 순위가 멈춰 있습니다. 다시 연결하는 중…',
    connecting: '연결 중…', online: '연결됨',
    offline: (n) => n ? `오프라인 · ${ko(n)}번 대기 중` : '오프라인',
    takenOver: '여기서 하려면 새로 고침하세요: 다른 창에서 플레이 중입니다.',
    elsewhere: '다른 탭에서 플레이 중입니다.', playHere: '여기서 플레이',
    deviceLost: '여기서 하려면 새로 고침하세요: 다른 탭이 플레이를 가져갔습니다.',
    versionMismatch: '새로 고침하세요: 이 페이지는 서버의 프로토콜 버전과 맞지 않습니다.',
    unknownSchool: (id) => `'${id}' 학교가 없습니다. 검색해서 골라 주세요.`,
    defaultPlayer: '웹 플레이어', noSchool: '학교를 고르세요',
    roundDefault: (id) => `라운드 ${id}`, go: '시작!', timeLeft: (n) => `남은 시간 ${n}초`, counting: '집계 중…',
    roundPlace: (place, players) => `${place} / ${players}명`, roundNoPlace: '아직 기록 없음', roundCount: (n) => `${ko(n)}번`,
    roundResult: (place) => `${place}!`, roundResultDetail: (count, players) => `${ko(count)}번 · ${ko(players)}명 중`,
    roundNoResult: '이번 라운드 기록 없음', tapToClose: '(터치하면 닫힙니다)', place: (place) => `${place}위`, tiedPlace: (place) => `공동 ${place}위`,
    roundPlayers: '선수', roundSchools: '학교', playerCount: (n) => `${n}명 참가`, roundFinal: '최종 결과',
    previousRounds: '지난 라운드', allRounds: '목록', backToBoard: '순위로 돌아가기', close: '닫기', currentRound: '지금 라운드',
    downloadCSV: 'CSV 내려받기', roundsLoading: '불러오는 중…', roundsFailed: '불러올 수 없습니다: 서버에 연결되지 않았습니다.', roundsEmpty: '아직 라운드가 없습니다.',
    duration: (s) => (s < 60 ? `${s}초` : s % 60 ? `${Math.floor(s / 60)}분 ${s % 60}초` : `${s / 60}분`),
    roundSeconds: '시간', roundTitle: '제목', startRound: '라운드 시작', stopRound: '멈추기',
    adminFailed: (status, error) => `실패 (${status}) ${error}`, adminOffline: '서버에 연결되지 않았습니다.',
  },
  en: {
    title: 'School Battle', changeSchool: 'Change school', play: 'Play', board: 'Ranking', fullscreen: 'Full screen',
    searchPrompt: 'Search for your school', playerName: 'My name', myTaps: 'My taps', schoolTotal: 'School total',
    playHint: 'Tap the screen like crazy!', keyboardHint: '(keyboard: Space or Enter)', national: 'National ranking', ranking: 'Ranking',
    level: 'Level', province: 'Province', myLeague: 'My league', rank: 'Rank', school: 'School', region: 'Region', taps: 'Taps',
    boardEmpty: 'No taps yet.', all: 'All', playArea: 'Tap here',
    levels: { elementary: 'Elementary', middle: 'Middle', high: 'High' },
    found: (n) => counted(n, 'school', 'schools'), foundMore: (n) => `More than ${counted(n, 'school', 'schools')}`,
    didYouMean: (name) => `Did you mean ${name}?`,
    none: 'No school matches.', searchFailed: 'Cannot search: the server is not reachable.',
    abnormal: 'Abnormal tapping detected.',
    banned: 'Ask the operator: this device is banned; its taps do not count.',
    bannedAddress: 'Ask the operator: this address is banned, so the server refuses it.',
    battleFull: 'Ask the operator for room: the battle is full and takes no new device.',
    tooManyFromAddress: 'Ask the operator: too many devices connect from this address for the server.',
    refused: (why, n) => n ? `${why} ${counted(n, 'tap', 'taps')} waiting; keep tapping` : why,
    rankIn: (n) => `#${n} nationally`, first: '#1!', noRank: 'no rank yet', firstTap: 'One tap takes #1!', gap: (school, n) => `${counted(n, 'tap', 'taps')} to overtake ${school}`,
    gapOnly: (n) => `${counted(n, 'tap', 'taps')} to climb a place`,
    speed: (now, best) => `${counted(now, 'tap/s', 'taps/s')} · best ${NUMBER.en.format(best)}`, player: (name) => `player ${name}`,
    confirmQuestion: 'If you change school, your own tap count starts again from 0. Change?',
    confirmFrom: (school) => `Current school: ${school}`, confirmTo: (school) => `New school: ${school}`,
    confirmKeeps: (n) => `Your ${counted(n, 'tap stays', 'taps stay')} in your current school's total.`, yes: 'Yes', no: 'No',
    movement: 'Move', soundOn: 'Sound on', soundOff: 'Sound off',
    joinPrompt: 'Join on your phone',
    joinLoopback: 'Phones cannot open this address. Only this machine can join. To let other devices in:',
    joinNoNetwork: 'Phones cannot open this address: this computer is on no network.',
    pageOf: (page, pages) => `${page} / ${pages}`,
    boardOffline: 'Offline', boardOfflineDetail: 'The connection to the server is lost: the ranking is frozen. Reconnecting…',
    connecting: 'Connecting…', online: 'Online',
    offline: (n) => n ? `Offline · ${counted(n, 'tap', 'taps')} waiting` : 'Offline',
    takenOver: 'Reload to play here: the game is playing in another window.',
    elsewhere: 'Playing in another tab.', playHere: 'Play here',
    deviceLost: 'Reload to play here: another tab took over the game.',
    versionMismatch: 'Reload the page: it does not speak the server\'s protocol version.',
    unknownSchool: (id) => `No school has the id '${id}'. Search for it instead.`,
    defaultPlayer: 'web player', noSchool: 'Choose a school',
    roundDefault: (id) => `Round ${id}`, go: 'GO!', timeLeft: (n) => `${n} s left`, counting: 'Counting…',
    roundPlace: (place, players) => `${place} of ${players}`, roundNoPlace: 'no place yet', roundCount: (n) => counted(n, 'tap', 'taps'),
    roundResult: (place) => `${place}!`, roundResultDetail: (count, players) => `${counted(count, 'tap', 'taps')} · of ${NUMBER.en.format(players)}`,
    roundNoResult: 'No taps counted this round', tapToClose: '(tap to close)', place: (place) => ordinal(place), tiedPlace: (place) => `tied ${ordinal(place)}`,
    roundPlayers: 'Players', roundSchools: 'Schools', playerCount: (n) => `${n} playing`, roundFinal: 'Final results',
    previousRounds: 'Previous rounds', allRounds: 'All rounds', backToBoard: 'Back to the ranking', close: 'Close', currentRound: 'Current round',
    downloadCSV: 'Download CSV', roundsLoading: 'Loading…', roundsFailed: 'Cannot load: the server is not reachable.', roundsEmpty: 'No rounds yet.',
    duration: (s) => (s < 60 ? `${s} s` : s % 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s / 60} min`),
    roundSeconds: 'Length', roundTitle: 'Title', startRound: 'Start a round', stopRound: 'Stop',
    adminFailed: (status, error) => `Failed (${status}) ${error}`, adminOffline: 'The server is not reachable.',
  },
};

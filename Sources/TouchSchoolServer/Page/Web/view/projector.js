// The projector's screens (`/?board`): the ranking a page at a time, a round (which replaces it
// while on), the previous rounds, the teacher's controls and the address phones join at. Drawn by
// view.js's `render` through `projectorView`; only these functions touch those elements.
import { roundScreen, projectorScreen, podium, PROJECTOR_ROWS } from '../state.js';
import { standingsItems } from '../view.js';

/** The lengths of a round the teacher picks from (the server takes 5 to 3,600 s). */
const ROUND_SECONDS = [10, 30, 60, 120, 300];
const DEFAULT_ROUND_SECONDS = 30;
/** What to run so that phones can join, by the warning it answers (`serve`'s own advice, ServeGreeting.swift). */
const JOIN_COMMANDS = { joinLoopback: 'touchschool serve --host 0.0.0.0' };

/**
 * The projector's drawing, over view.js's elements `ui`, words `t`, numbers `number`, element
 * makers `make`, and its `nameOf` (a school's name), `roundName` and `placeWords`.
 */
export function projectorView({ document, lang, ui, t, number, make, nameOf, roundName, placeWords }) {
  const $ = (id) => document.getElementById(id);
  const dateTime = new Intl.DateTimeFormat(lang === 'ko' ? 'ko-KR' : 'en-US', { dateStyle: 'short', timeStyle: 'short' });
  ui.adminSeconds.replaceChildren(...ROUND_SECONDS.map((seconds) => make.option(String(seconds), t.duration(seconds))));
  ui.adminSeconds.value = String(DEFAULT_ROUND_SECONDS);

  /** The projector's screen: the board, the round (which replaces it while on), or the previous rounds. */
  function renderProjector(state) {
    const screen = projectorScreen(state);
    const wasRanking = !ui.ranking.hidden;
    ui.ranking.hidden = screen !== 'ranking';
    ui.roundScreen.hidden = screen !== 'round';
    ui.archive.hidden = screen !== 'archive';
    ui.toRounds.hidden = screen === 'archive';
    ui.roundClose.hidden = screen !== 'round';
    // A round taken off the screen can be brought back while it is on (or on its podium).
    ui.roundOpen.hidden = !(state.round && state.roundStage && state.roundClosed === state.round.id);
    if (screen === 'round') renderRoundScreen(state, roundScreen(state));
    if (screen === 'archive') renderArchive(state);
    // The rows were sized for the screen while the board showed; they are again when it does.
    if (screen === 'ranking' && !wasRanking) fitRows();
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
      step.append(make.span('n', placeWords(place, tied.length > 1)),
                  ...tied.flatMap((p) => [make.span('name', p.player), make.span('school', nameOf(state, p.school))]), make.span('t', number.format(tied[0].count)));
      return step;
    }));
    const items = standingsItems(document, rest, (p) => [String(p.place), p.player, nameOf(state, p.school), number.format(p.count)], ['n', 'name', 'school', 't']);
    if (steps.length === 0 && items.length === 0) items.push(make.text('li', 'empty', t.boardEmpty));
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
      button.append(make.span('name', roundName(round)), make.span('where', when(round)));
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
    ui.admin.hidden = !(state.projector && state.admin);
    ui.adminStart.disabled = state.adminBusy;
    ui.adminStop.disabled = state.adminBusy;
    const error = state.adminError;
    ui.adminError.textContent = !error ? '' : error.status ? t.adminFailed(error.status, error.error || '') : t.adminOffline;
  }

  /** Why no phone can open the join address, and the command that lets them in, whole on a line of its own. */
  function renderJoinWarning(key) {
    ui.joinWarning.hidden = !key;
    ui.joinWarning.replaceChildren(...(key ? [t[key]] : []));
    if (JOIN_COMMANDS[key]) ui.joinWarning.append(' ', make.text('code', '', JOIN_COMMANDS[key]));
  }

  /** The join address in words and as a QR code (the server draws it; SVG, sharp at any size). */
  function showJoin(address) {
    $('join-url').textContent = address;
    const qr = $('join-qr');
    qr.alt = address;
    qr.src = `/v1/qr.svg?text=${encodeURIComponent(address)}`;
  }


  /**
   * Rows tall enough that PROJECTOR_ROWS of them fill the screen below the table's head (and above
   * the section's padding, and the hall of fame while it shows).
   */
  function fitRows() {
    const fame = ui.fame.hidden ? 0 : ui.fame.getBoundingClientRect().height;
    const below = parseFloat(getComputedStyle(ui.ranking).paddingBottom) + PROJECTOR_ROWS + fame;   // and a pixel of border a row
    const room = innerHeight - ui.rankingRows.getBoundingClientRect().top - below;
    ui.ranking.style.setProperty('--row-height', `${Math.max(20, Math.floor(room / PROJECTOR_ROWS))}px`);
  }

  return { renderProjector, renderAdmin, renderJoinWarning, showJoin, fitRows };
}

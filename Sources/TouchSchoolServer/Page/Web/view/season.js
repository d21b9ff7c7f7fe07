// The season on the screens: the period the ranking counts (the phone's line with the season's
// days and its toggle to the other period, the projector's title), and the projector's hall of
// fame between rounds. Drawn by view.js's `render` through `seasonView`; only these functions
// touch those elements. Without a season nothing here shows, and the title is the page's own.
import { periodShown, fameShown } from '../state.js';
import { standingsItems } from '../view.js';
import { DAY } from './words.js';

/** Seasons follow Korea's calendar (UTC+9, no daylight saving), whatever the browser's time zone. */
const KOREA_OFFSET_MS = 9 * 3600 * 1000;

/**
 * The season's drawing, over view.js's elements `ui`, words `t` of `lang`, numbers `number`,
 * element maker `document`, and its `nameOf` (a school's name) and `levelName`.
 */
export function seasonView({ document, lang, ui, t, number, nameOf, levelName }) {
  const day = (ms) => DAY[lang].format(new Date(ms + KOREA_OFFSET_MS));
  /** A season's first and last days (the last: the one before its end). */
  const days = (season) => t.days(day(season.startsAtMs), day(season.endsAtMs - 1));

  /** The period: the phone says it with the season's days and offers the other; the projector's title says it. */
  function renderPeriod(state) {
    const period = periodShown(state);
    ui.periodToggle.hidden = state.projector || !period;
    if (state.projector) {
      ui.rankingTitle.textContent = period ? t.standingsOf[period] : t.ranking;
      ui.rankingPeriod.hidden = !period || period === 'all';
      ui.rankingPeriod.textContent = ui.rankingPeriod.hidden ? '' : days(state.season);
      return;
    }
    ui.rankingPeriod.hidden = !period;
    ui.rankingPeriod.textContent = !period ? '' : period === 'all' ? t.period.all : t.periodDays(t.period[period], days(state.season));
    if (!period) return;
    ui.periodToggle.textContent = t.period[period === 'all' ? state.season.length : 'all'];
    ui.periodToggle.setAttribute('aria-pressed', String(period === 'all'));
  }

  /** The hall of fame: the season (the last one, or by its length) and days, the national first three, the league's. */
  function renderFame(state) {
    const fame = fameShown(state);
    ui.fame.hidden = !fame;
    if (!fame) return;
    const { season } = fame;
    ui.fameTitle.textContent = t.fameTitle;
    ui.fameSeason.textContent = t.periodDays((fame.last ? t.lastSeason : t.seasonOf)[season.length], days(season));
    const items = (rows) => standingsItems(document, rows, (r) => [String(r.rank), nameOf(state, r.school), number.format(r.total)], ['n', 'name', 't']);
    ui.fameNational.replaceChildren(...items(fame.national));
    ui.fameLeagueBox.hidden = !fame.league || fame.league.length === 0;
    ui.fameLeagueTitle.textContent = [state.level && levelName(state.level), state.province].filter(Boolean).join(' · ');
    ui.fameLeague.replaceChildren(...items(fame.league || []));
  }

  return { renderPeriod, renderFame };
}

// Seasons (docs/protocol.md, "Seasons"): the season running, from the socket's `season` message or
// the projector's `season` event; the period the standings shown count (the season's by default,
// all time by the ranking's toggle); and the projector's hall of fame, read (`GET /v1/seasons`,
// `GET /v1/seasons/ID` for its league) when a season comes and when it turns. Handlers:
// boardSeason, togglePeriod, seasonsList, seasonDetail, seasonsFailed, fameRetry.
import { nationalFame } from '../state.js';
import { after, follow } from './screens.js';

/** The hall of the season just ended is taken at its end and grace: until then it is read this often. */
const FAME_RETRY_MS = 2000;
/** How long past a season's end and grace its hall is waited for (a season that ended with every server down never has one). */
const FAME_PATIENCE_MS = 60000;
/** The seasons could not be read (offline): asked again after this long. */
const SEASONS_RETRY_MS = 10000;

export const seasons = {
  boardSeason(s, m, now, fx) { return takeSeason(s, m.season, fx); },
  togglePeriod(s, m, now, fx) {
    s.period = s.period === 'all' ? 'season' : 'all';
    // The other period's page is not this one's (its pages have the same shape): none until it comes.
    s.page = null;
    s.baseline = null;
    follow(s, fx);
    return s;
  },
  seasonsList(s, m, now, fx) {
    if (!s.projector || !s.season) return undefined;
    const { nowMs, seasons: listed } = m.answer;
    const ended = listed.filter((entry) => entry.season.endsAtMs <= nowMs);
    const hall = ended.find((entry) => entry.fame.length > 0);
    const same = hall && s.fame && s.fame.season.id === hall.season.id;
    s.fame = hall ? { season: hall.season, national: nationalFame(hall.fame), all: same ? s.fame.all : null } : null;
    askLeagueFame(s, fx);
    // The season just ended: its hall comes at its end and grace, a moment after the turn.
    const last = ended[0];
    if (last && last.fame.length === 0 && nowMs < last.season.endsAtMs + last.season.graceMs + FAME_PATIENCE_MS) {
      after(fx, 'fameRetry', FAME_RETRY_MS, 'fameRetry');
    }
    return s;
  },
  seasonDetail(s, m) {
    if (!s.fame || m.answer.season.id !== s.fame.season.id) return undefined;
    s.fame = { ...s.fame, all: m.answer.fame };
    return s;
  },
  seasonsFailed(s, m, now, fx) {
    if (s.projector && s.season) after(fx, 'fameRetry', SEASONS_RETRY_MS, 'fameRetry');
    return undefined;
  },
  fameRetry(s, m, now, fx) {
    if (s.projector && s.season) fx.push({ type: 'loadSeasons' });
    return undefined;
  },
};

/**
 * The season the server says runs (null: none). A new one (the first, or the season turned) starts
 * the movements again: the totals of the season before are not "a moment ago" for it; the
 * projector reads the seasons' halls again. No season: no hall either.
 */
export function takeSeason(s, season, fx) {
  if (JSON.stringify(season) === JSON.stringify(s.season)) return undefined;
  const turned = !s.season || !season || s.season.id !== season.id;
  s.season = season;
  if (!turned) return s;
  s.baseline = null;
  if (!season) s.fame = null;
  else if (s.projector) fx.push({ type: 'loadSeasons' });
  return s;
}

/** The whole hall of the season shown, when the projector shows a league and it is not read yet. */
export function askLeagueFame(s, fx) {
  if (s.projector && s.fame && !s.fame.all && (s.level || s.province)) fx.push({ type: 'loadSeason', id: s.fame.season.id });
}

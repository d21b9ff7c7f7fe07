// The map of the schools (map.js): its `map` messages, from the socket or the projector's stream,
// its grid asked for once per catalog, and the phone's ranking shown as the map or as the list
// (as the terminal's `v`). Handlers: mapEvent, mapLoaded, mapFailed, mapRetry, toggleMap.
import { takeMapMessage, takeGrid } from '../map.js';
import { follow, after } from './screens.js';

/** The grid could not be read (offline, a server restarting): asked again after this long. */
const GRID_RETRY_MS = 5000;

export const maps = {
  mapEvent(s, m, now, fx) { return takeMap(s, m.message, fx); },
  mapLoaded(s, m) {
    const map = takeGrid(s.map, m.answer);
    if (map === s.map) return undefined;
    s.map = map;
    return s;
  },
  mapFailed(s, m, now, fx) {
    after(fx, 'mapRetry', GRID_RETRY_MS, 'mapRetry');
    return undefined;
  },
  mapRetry(s, m, now, fx) {
    if (s.map.grid || !s.map.catalog) return undefined;
    fx.push({ type: 'loadMap' });
    return undefined;
  },
  toggleMap(s, m, now, fx) {
    s.mapShown = !s.mapShown;
    follow(s, fx);
    return s;
  },
};

/** A `map` message: the glow and marks taken, the grid asked for when this catalog's is not here. */
export function takeMap(s, message, fx) {
  const { map, load } = takeMapMessage(s.map, message);
  s.map = map;
  if (load) fx.push({ type: 'loadMap' });
  return s;
}

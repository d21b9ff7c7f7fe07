// The map of the schools (the projector's and the phone's ranking): the catalog's fixed grid as
// `GET /v1/map` sends it, the glow of its cells as `map` messages change it, and what to draw.
// Pure: the canvas is view/map.js's. The server's side and the encodings: MapGrid.swift, MapNews.swift.

/** base64url's digits: a cell's schools and province (`cells` of `GET /v1/map`), a cell and its glow (`map`'s `cells`). */
const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUE = new Map([...DIGITS].map((digit, value) => [digit, value]));
/** A cell and its glow take three digits; a run of empty cells `.` and its length less one. */
const CELL_DIGITS = 3;
const EMPTY_RUN = '.';

/**
 * The grid of `GET /v1/map` ({catalog, columns, rows, provinces, starter, cells}) as drawn: its
 * cells with schools, each {cell, x, y, schools, province} (the province's name), row by row; null
 * when the answer is not one.
 */
export function decodeGrid(answer) {
  if (!answer || typeof answer.cells !== 'string' || !(answer.columns > 0) || !(answer.rows > 0)) return null;
  const cells = [];
  const text = answer.cells;
  let cell = 0;
  for (let i = 0; i + 1 < text.length; i += 2) {
    const second = VALUE.get(text[i + 1]);
    if (second === undefined) return null;
    if (text[i] === EMPTY_RUN) { cell += second + 1; continue; }
    const schools = VALUE.get(text[i]);
    if (schools === undefined) return null;
    cells.push({ cell, x: cell % answer.columns, y: Math.floor(cell / answer.columns), schools, province: answer.provinces[second] ?? '' });
    cell += 1;
  }
  return { catalog: answer.catalog, columns: answer.columns, rows: answer.rows, starter: Boolean(answer.starter), cells };
}

/** The glow by cell (a Map, only the cells glowing) after a `map` message's `cells`: a new Map. */
export function applyCells(glow, text) {
  const next = new Map(glow);
  for (let i = 0; i + CELL_DIGITS <= text.length; i += CELL_DIGITS) {
    let value = 0;
    for (let d = 0; d < CELL_DIGITS; d++) value = value * 64 + (VALUE.get(text[i + d]) ?? 0);
    const cell = Math.floor(value / 4), level = value % 4;
    if (level === 0) next.delete(cell); else next.set(cell, level);
  }
  return next;
}

/** The map before anything came: no grid, no glow, no sweep under way. */
export const NO_MAP = Object.freeze({ catalog: null, grid: null, glow: new Map(), sweep: null, marks: [], mine: null });

/**
 * The map after a `map` message, and whether its grid is to be asked for. A message naming its
 * catalog starts the screen's map again (a new stream, at each of the projector's pages; a new
 * socket): the server sweeps every cell glowing to it, into a glow of its own (`sweep`) that
 * replaces the one drawn once the server says it is whole, so that the map never goes dark
 * between two pages. Another catalog's map starts dark, and asks for its grid.
 */
export function takeMapMessage(map, message) {
  let next = { ...map, marks: Array.isArray(message.marks) ? message.marks.filter(Number.isInteger) : [],
               mine: Number.isInteger(message.mine) ? message.mine : null };
  let load = false;
  if (typeof message.catalog === 'string') {
    next.sweep = new Map();
    if (message.catalog !== map.catalog) {
      next = { ...next, catalog: message.catalog, glow: new Map(), grid: map.grid && map.grid.catalog === message.catalog ? map.grid : null };
    }
    load = !next.grid;
  }
  if (typeof message.cells === 'string') {
    next.glow = applyCells(next.glow, message.cells);
    if (next.sweep) next.sweep = applyCells(next.sweep, message.cells);
  }
  if (message.whole === true && next.sweep) {
    next.glow = next.sweep;
    next.sweep = null;
  }
  return { map: next, load };
}

/** The map with the grid `GET /v1/map` answered, when it is of the catalog the messages name (or none named yet). */
export function takeGrid(map, answer) {
  const grid = decodeGrid(answer);
  if (!grid || (map.catalog && grid.catalog !== map.catalog)) return map;
  return { ...map, catalog: grid.catalog, grid };
}

/**
 * What to draw, in the grid's cells: every cell with schools a dot ({x, y, size 1–3 by its
 * schools, glow 0–3, lit: of the province chosen, mark: 'mine', 'leader' or null}), the glowing
 * and marked last so that they are drawn over their neighbours (`weight`).
 */
export function drawList(map, province) {
  if (!map.grid) return [];
  const leaders = new Set(map.marks);
  const dots = map.grid.cells.map(({ cell, x, y, schools, province: of }) => ({
    x, y, size: schools >= 20 ? 3 : schools >= 5 ? 2 : 1, glow: map.glow.get(cell) || 0,
    lit: Boolean(province) && of === province, mark: cell === map.mine ? 'mine' : leaders.has(cell) ? 'leader' : null,
  }));
  // My school over everything, then the leaders, the glow by its level, the league's dots.
  const weight = (dot) => (dot.mark === 'mine' ? 16 : dot.mark ? 8 : 0) + dot.glow * 2 + (dot.lit ? 1 : 0);
  return dots.sort((a, b) => weight(a) - weight(b));
}

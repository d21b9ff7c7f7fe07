// The map's canvas: the projector's beside its ranking, the phone's in place of the ranking's list
// (`mapShowing`). Drawn from map.js's `drawList` when the map, the province chosen or the
// canvas's size changed; only these functions touch the map's elements.
import { drawList } from '../map.js';
import { mapShowing } from '../state.js';

/** A school's dot, dim; brighter when its province's league is chosen. */
const DOT = '#5a6478', LIT = '#9cc4ff';
/** The glow of a cell by its level (MapGlow: warm, hot, blazing): its halo and its core. */
const HALO = [null, 'rgba(255, 204, 51, 0.45)', 'rgba(255, 150, 40, 0.65)', 'rgba(255, 80, 40, 0.85)'];
const CORE = [null, '#ffe08a', '#ffb347', '#ff6a3d'];
/** The rings of the leaders' cells and my school's. */
const RING = { leader: '#ffcc33', mine: '#5fd35f' };

export function mapView({ ui, t }) {
  let drawn = { map: null, province: null, size: '' };

  function renderMap(state) {
    const shown = mapShowing(state);
    ui.map.hidden = !shown;
    // The phone shows the map or the list; the projector both.
    ui.rankingList.hidden = shown && !state.projector;
    ui.mapToggle.hidden = state.projector;
    ui.mapToggle.textContent = state.mapShown ? t.mapList : t.mapShow;
    ui.mapToggle.setAttribute('aria-pressed', String(state.mapShown));
    if (!shown) return;
    const box = ui.mapCanvas.getBoundingClientRect();
    const ratio = globalThis.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(box.width * ratio)), height = Math.max(1, Math.round(box.height * ratio));
    const size = `${width}x${height}`;
    if (drawn.map === state.map && drawn.province === state.province && drawn.size === size) return;
    drawn = { map: state.map, province: state.province, size };
    ui.mapCanvas.width = width;
    ui.mapCanvas.height = height;
    draw(ui.mapCanvas.getContext('2d'), state.map, drawList(state.map, state.province), width, height);
    ui.mapNote.hidden = !(state.map.grid && state.map.grid.starter);
    ui.mapNote.textContent = t.mapStarter;
    // The projector has no school of its own to ring.
    ui.mapLegend.textContent = state.projector ? t.mapLegend : `${t.mapLegend} · ${t.mapLegendMine}`;
    ui.mapCanvas.setAttribute('aria-label', t.mapTitle);
  }

  return { renderMap };
}

/** The dots on a canvas of `width` × `height`, the grid as large as fits, centred. */
function draw(context, map, dots, width, height) {
  context.clearRect(0, 0, width, height);
  if (!map.grid) return;
  const cell = Math.min(width / map.grid.columns, height / map.grid.rows);
  const left = (width - cell * map.grid.columns) / 2, top = (height - cell * map.grid.rows) / 2;
  const circle = (x, y, radius) => {
    context.beginPath();
    context.arc(left + (x + 0.5) * cell, top + (y + 0.5) * cell, Math.max(radius, 0.75), 0, 2 * Math.PI);
  };
  for (const dot of dots) {
    if (dot.glow) {
      context.fillStyle = HALO[dot.glow];
      circle(dot.x, dot.y, cell * (0.9 + 0.6 * dot.glow));
      context.fill();
    }
    context.fillStyle = dot.glow ? CORE[dot.glow] : dot.lit ? LIT : DOT;
    circle(dot.x, dot.y, cell * (0.25 + 0.12 * dot.size));
    context.fill();
    if (dot.mark) {
      context.strokeStyle = RING[dot.mark];
      context.lineWidth = Math.max(2, cell * 0.45);
      circle(dot.x, dot.y, cell * 2.6);
      context.stroke();
    }
  }
}

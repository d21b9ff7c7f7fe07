// localStorage, under 'touchschool.', as JSON, shared by the browser's tabs: any tab reads; only
// the one that plays writes (update.js says when).
import { isValidBattleID } from './rules.js';
import { battleKey } from './state.js';

const KEY = 'touchschool.';

export function get(name, fallback) {
  try { const text = localStorage.getItem(KEY + name); return text === null ? fallback : JSON.parse(text); } catch { return fallback; }
}

/** False when the value could not be stored (full or disabled: play on). */
export function set(name, value) {
  try { localStorage.setItem(KEY + name, JSON.stringify(value)); return true; } catch { return false; }
}

export function remove(name) {
  try { localStorage.removeItem(KEY + name); } catch { /* no storage */ }
}

/** The record of the battle last played (or of none before any welcome): {battle, box, open, player}. */
export function record(battle = remembered()) {
  return {
    battle,
    box: get(battleKey('outbox', battle), { nextSeq: 1, batches: [] }),
    open: get(battleKey('open', battle), null),
    player: get(battleKey('player', battle), { school: null, taps: 0, best: 0 }),
  };
}

function remembered() {
  const battle = get('battle', null);
  return isValidBattleID(battle) ? battle : null;
}

/** Runs a `store` or `remove` effect. */
export function run(effect) {
  if (effect.type === 'remove') remove(effect.name);
  else if (!set(effect.name, effect.value) && effect.orRemove) remove(effect.name);
}

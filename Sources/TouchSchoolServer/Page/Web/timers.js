// Timers as effects: `after` (a named timer; a new one of that name replaces it), `cancel`, `every`.
export function timers(dispatch) {
  const named = new Map();
  return {
    after({ name, ms, message }) {
      clearTimeout(named.get(name));
      named.set(name, setTimeout(() => { named.delete(name); dispatch(message); }, ms));
    },
    cancel({ name }) { clearTimeout(named.get(name)); named.delete(name); },
    every({ ms, message }) { setInterval(() => dispatch(message), ms); },
  };
}

// Timers as effects: `after` a named timer (a new one with the same name replaces it), `cancel`
// it, or `every` so often; each dispatches its message when it fires.
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

// The server, as effects: the play socket (/v1/play), the board stream of a tab that does not play
// (`GET /v1/board`, Server-Sent Events), the school directory, the search and the join addresses.
import { SEARCH_LIMIT } from './update.js';

export function net(dispatch) {
  let socket = null, source = null, searching = null;
  const json = (text) => { try { return JSON.parse(text); } catch { return null; } };
  const get = (url, options) => fetch(url, options).then((response) => {
    if (!response.ok) throw new Error(String(response.status));
    return response.json();
  });
  return {
    connect() {
      const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/v1/play');
      socket = ws;
      ws.onopen = () => dispatch({ type: 'socketOpen' });
      ws.onmessage = (event) => {
        const message = json(event.data);
        if (message) dispatch({ type: 'server', message });
      };
      ws.onclose = (event) => {
        if (socket !== ws) return;
        socket = null;
        dispatch({ type: 'socketClosed', code: event.code, reason: event.reason });
      };
    },
    send({ message }) { if (socket) socket.send(JSON.stringify(message)); },
    close() { if (socket) socket.close(); },

    watchBoard() {
      if (source) return;
      const stream = new EventSource('/v1/board');
      source = stream;
      const on = (name, type, key) => stream.addEventListener(name, (event) => {
        const value = json(event.data);
        if (value && source === stream) dispatch({ type, [key]: value });
      });
      on('board', 'boardWhole', 'board');
      on('changes', 'boardChanges', 'changes');
      stream.onerror = () => {
        if (source !== stream) return;
        const closed = stream.readyState === EventSource.CLOSED;
        if (closed) source = null;
        dispatch({ type: 'boardError', closed });
      };
    },
    unwatchBoard() {
      if (source) source.close();
      source = null;
    },

    loadDirectory() {
      get('/v1/schools', { cache: 'no-cache' })
        .then((directory) => dispatch({ type: 'directory', directory }), () => { /* offline: the next welcome tries again */ });
    },
    search({ text }) {
      if (searching) searching.abort();
      if (!text) return;
      const abort = new AbortController();
      searching = abort;
      get(`/v1/search?limit=${SEARCH_LIMIT + 1}&q=${encodeURIComponent(text)}`, { signal: abort.signal })
        .then((answer) => { if (!abort.signal.aborted) dispatch({ type: 'searchAnswer', answer }); },
              () => { if (!abort.signal.aborted) dispatch({ type: 'searchFailed' }); });
    },
    findJoin() {
      get('/v1/join', { cache: 'no-store' })
        .then((answer) => dispatch({ type: 'join', addresses: answer.addresses }), () => { /* offline: the address it was opened at stays */ });
    },
  };
}

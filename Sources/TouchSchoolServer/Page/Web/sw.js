// The page's service worker: the page opens without the network (a phone that added it to its
// home screen, in a classroom whose Wi-Fi comes and goes). The game itself already plays offline:
// its taps wait in the outbox (localStorage) and go to the server once it answers, each once.
//
// The page's files, and the school directory for the picker, come from the network first (they
// change with the server: an import, an upgrade) and from the cache when the network does not
// answer. Nothing else passes through here, however it is asked for: any other address of the
// server opened in a tab (`/healthz`, an API answer, a QR code, the board stream) goes to the
// network untouched, so that no link can take the game's place in the cache, and a stream is never
// held back waiting for an end it does not have. The play socket, the search and the admin API
// are the server's, live or not at all.
'use strict';

/** Raised when what is kept changes: the new worker's cache replaces the old one's. */
const CACHE = 'touchschool-page-v6';
/** The page (index.html, its modules: main.js and what it imports, update/ and view/ too) and the app's manifest and icons. */
const FILES = ['/', '/main.js', '/state.js', '/update.js', '/update/play.js', '/update/screens.js', '/update/rounds.js',
  '/update/map.js', '/update/seasons.js', '/view.js', '/view/projector.js', '/view/words.js', '/view/map.js', '/view/season.js',
  '/effects.js', '/election.js', '/rules.js',
  '/map.js', '/style.css',
  '/manifest.webmanifest', '/icon-192.png', '/icon-512.png'];
/** The content type of each kind of file kept, by its name's ending. */
const TYPES = { js: 'text/javascript', css: 'text/css', webmanifest: 'application/manifest+json', png: 'image/png' };
/**
 * What is kept, by its path (`/?school=ID`, `/?board`: one page, whatever its query), with the
 * content type it must have to be kept: `/` only as the page's HTML, each file as what it is. An
 * answer of another type at one of these paths (a proxy's error page, a captive portal's login) is
 * passed on but not kept.
 */
const KEPT = new Map([
  ...FILES.map((path) => [path, path === '/' ? 'text/html' : TYPES[path.split('.').pop()]]),
  ['/v1/schools', 'application/json'],
]);
/** How long the network has before the cache answers instead (a Wi-Fi that takes packets and answers none). */
const NETWORK_MS = 4000;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  // Not ours: no respondWith at all, the browser fetches it as if there were no worker.
  if (request.method !== 'GET' || url.origin !== location.origin || !KEPT.has(url.pathname)) return;
  event.respondWith(fromNetworkElseCache(event, url.pathname));
});

async function fromNetworkElseCache(event, path) {
  const cache = await caches.open(CACHE);
  try {
    const response = await Promise.race([
      fetch(event.request),
      new Promise((_, reject) => setTimeout(() => reject(new Error('no answer in time')), NETWORK_MS)),
    ]);
    const type = (response.headers.get('Content-Type') || '').split(';')[0].trim().toLowerCase();
    // Kept beside the answer, not before it: the page does not wait for the cache's write.
    if (response.status === 200 && type === KEPT.get(path)) event.waitUntil(cache.put(path, response.clone()));
    return response;
  } catch (error) {
    const cached = await cache.match(path);
    if (cached) return cached;
    throw error;
  }
}

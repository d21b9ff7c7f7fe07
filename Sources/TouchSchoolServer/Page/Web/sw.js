// The page's service worker: the page opens without the network (a phone that added it to its
// home screen, in a classroom whose Wi-Fi comes and goes). The game itself already plays offline:
// its taps wait in the outbox (localStorage) and go to the server once it answers, each once.
//
// The page's files, and the school directory for the picker, come from the network first (they
// change with the server: an import, an upgrade) and from the cache when the network does not
// answer. Nothing else passes through here: the play socket, the board stream, the search and
// the admin API are the server's, live or not at all.
'use strict';

/** Raised when the list below changes: the new worker's cache replaces the old one's. */
const CACHE = 'touchschool-page-v2';
/** The page (index.html, its modules: main.js and what it imports) and the app's manifest and icons. */
const FILES = ['/', '/main.js', '/state.js', '/update.js', '/view.js', '/effects.js', '/rules.js', '/style.css',
  '/manifest.webmanifest', '/icon-192.png', '/icon-512.png'];
const CACHED = new Set([...FILES, '/v1/schools']);
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
  if (request.method !== 'GET' || url.origin !== location.origin) return;
  // `/?school=ID`, `/?board`: one page, whatever its query.
  const key = request.mode === 'navigate' ? '/' : url.pathname;
  if (!CACHED.has(key)) return;
  event.respondWith(fromNetworkElseCache(request, key));
});

async function fromNetworkElseCache(request, key) {
  const cache = await caches.open(CACHE);
  try {
    const response = await Promise.race([
      fetch(request),
      new Promise((_, reject) => setTimeout(() => reject(new Error('no answer in time')), NETWORK_MS)),
    ]);
    if (response.ok) await cache.put(key, response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match(key);
    if (cached) return cached;
    throw error;
  }
}

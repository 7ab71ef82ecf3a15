/* Keeps a table's entry page on the phone, so that a reload without Wi-Fi still shows it (the
   entries themselves wait in the page's localStorage queue). Network first: a page from the cache
   is only shown when there is no connection. Scope: this link only. */
"use strict";
var CACHE = "doko-entry-v1:{{ page|escapejs }}";
var PAGE = "{{ page|escapejs }}";
var ASSETS = [{% for asset in assets %}"{{ asset|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll([PAGE].concat(ASSETS)); }));
  self.skipWaiting();
});

self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }  // entries go to the network (or the page's queue)
  var url = new URL(request.url);
  var keep = url.pathname === PAGE || ASSETS.indexOf(url.pathname) >= 0 || url.pathname === PAGE + "state.json";
  if (!keep) { return; }
  event.respondWith(fetch(request).then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
    }
    return response;
  }).catch(function () {
    return caches.match(request).then(function (cached) { return cached || caches.match(PAGE); });
  }));
});

// The overview tells a player where they sit (views/seat_notice.py): a phone that marked its player
// ("Das bin ich" on the standings, kept in this browser) asks for the notice alone at the page's
// interval, and at once when the page is shown again (a phone taken out of the pocket), so that a
// published round shows up within one interval. While nothing changed, the server answers 304.
(function () {
  "use strict";
  var slot = document.getElementById("seat-notice");
  if (!slot || !slot.dataset.seatUrl) return;
  var key = "doko:" + location.pathname.split("/")[2] + ":me";
  var seconds = parseInt(slot.dataset.refresh, 10) || 30;
  var etag = null, etagUrl = null, last = 0;

  function me() {
    try { return localStorage.getItem(key); } catch (e) { return null; }
  }
  function show(html) {
    if (slot.innerHTML !== html) {
      slot.innerHTML = html;
      if (window.dokoClocks) window.dokoClocks();
    }
  }
  function refresh() {
    var mine = me();
    if (!mine) { show(""); return Promise.resolve(); }
    var url = new URL(slot.dataset.seatUrl, location.href);
    url.searchParams.set("me", mine);
    url = url.toString();
    var headers = { "X-Requested-With": "fetch" };
    if (etag && etagUrl === url) headers["If-None-Match"] = etag;
    last = Date.now();
    return fetch(url, { headers: headers, credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (response.status === 304 || !response.ok) return;
        return response.text().then(function (html) {
          show(html);
          etag = response.headers.get("ETag");
          etagUrl = url;
        });
      })
      .catch(function () { /* offline for a moment: try again next time */ });
  }

  window.dokoRefreshSeat = refresh;  // for the browser tests
  refresh();
  // the interval give or take a fifth, drawn anew each time (as static/js/standings.js): phones opened
  // together after an announcement do not poll together
  (function next() {
    setTimeout(function () {
      if (!document.hidden) refresh();
      next();
    }, seconds * 1000 * (0.8 + 0.4 * Math.random()));
  })();
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && Date.now() - last > 2000) refresh();
  });
})();

// Pages that update themselves (the standings, a player's page), a name search, and "that's me"
// kept in this browser only.
//
// A poll sends the ETag of what the page shows (If-None-Match): while nothing changed, the server
// answers 304 Not Modified without a body, and only the time is brought forward. On the standings,
// the server sends the first places plus the reader's own row (`me`); all places when the reader
// asks for them or searches a name. A screen reader hears one short sentence when new results came in
// (#live-news, a status region outside the part that is replaced), not the whole table again.
(function () {
  "use strict";
  var live = document.querySelector(".live[data-refresh]");
  if (!live) return;
  var standings = live.id === "standings-live";
  var search = document.getElementById("standings-search");
  var key = "doko:" + location.pathname.split("/")[2] + ":me";
  var showAll = new URL(location.href).searchParams.get("all") === "1";
  var etag = live.dataset.etag || null;  // of what the page shows now, for the address `etagUrl`
  var etagUrl = null;

  function fold(text) {
    return (text || "").toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }
  function me() {
    try { return localStorage.getItem(key); } catch (e) { return null; }
  }
  function apply() {
    if (!standings) return;
    var query = fold(search && search.value);
    var mine = me();
    live.querySelectorAll("tbody tr[data-entry]").forEach(function (row) {
      row.hidden = query !== "" && fold(row.dataset.name).indexOf(query) === -1;
      var isMe = row.dataset.entry === mine;
      row.classList.toggle("me", isMe);
      var button = row.querySelector(".me-toggle");
      if (button) {
        button.setAttribute("aria-pressed", isMe ? "true" : "false");
        button.firstElementChild.textContent = isMe ? "★" : "☆";
      }
    });
    live.querySelectorAll("tbody tr.gap").forEach(function (row) { row.hidden = query !== ""; });
  }
  function truncated() {
    return live.querySelector("[data-show-all]") !== null;
  }
  function pollUrl() {
    var url = new URL(location.href);
    url.searchParams.set("partial", "1");
    url.searchParams.delete("me");
    var mine = me();
    if (standings && showAll) url.searchParams.set("all", "1");
    if (mine) url.searchParams.set("me", mine);  // the own row, and where one sits (the seat notice)
    return url.toString();
  }
  function stamp() {
    var now = live.querySelector(".updated .now");
    if (now) {
      now.textContent = new Date().toLocaleTimeString(document.documentElement.lang || undefined,
                                                      { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });  // 13:29, in English too
    }
  }
  function replace(html) {
    // keep the breakdowns a reader has opened
    var open = Array.prototype.map.call(live.querySelectorAll("details"), function (d) { return d.open; });
    var changed = live.innerHTML.trim() !== html.trim();
    live.innerHTML = html;
    var news = document.getElementById("live-news");
    if (changed && news) {
      news.textContent = "";
      setTimeout(function () { news.textContent = news.dataset.text; }, 50);
    }
    var details = live.querySelectorAll("details");
    if (details.length === open.length) {
      details.forEach(function (d, i) { d.open = open[i]; });
    }
    apply();
  }
  var NOTICE_END = "<!--/seat-notice-->";
  function takeNotice(html) {
    // where the reader sits comes first in the answer (views/seat_notice.py): to the top of the page
    var end = html.indexOf(NOTICE_END);
    var notice = html.lastIndexOf('<div class="seat-notice"', 0) === 0 && end !== -1 ? html.slice(0, end) : "";
    var slot = document.getElementById("seat-notice");
    if (slot && slot.innerHTML !== notice) {
      slot.innerHTML = notice;
      if (window.dokoClocks) window.dokoClocks();
    }
    return notice ? html.slice(end + NOTICE_END.length) : html;
  }
  var lastPoll = Date.now();
  function refresh() {
    lastPoll = Date.now();
    var url = pollUrl();
    var headers = { "X-Requested-With": "fetch" };
    if (etag && etagUrl === url) headers["If-None-Match"] = etag;
    // no-store: the browser's cache stays out of it, so that a 304 reaches this script as a 304
    return fetch(url, { headers: headers, credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (response.status === 304) { stamp(); return null; }
        if (!response.ok) return null;
        return response.text().then(function (html) { return { html: html, etag: response.headers.get("ETag") }; });
      })
      .then(function (answer) {
        if (answer === null) return;
        answer.html = takeNotice(answer.html);
        if (document.activeElement && live.contains(document.activeElement)) return;  // in use: next time
        replace(answer.html);
        etag = answer.etag;
        etagUrl = url;
      })
      .catch(function () { /* offline for a moment: try again next time */ });
  }

  live.addEventListener("click", function (event) {
    var more = event.target.closest("[data-show-all]");
    if (more) {
      event.preventDefault();
      showAll = true;
      try { history.replaceState(null, "", more.href); } catch (e) { /* keep the address */ }
      refresh();
      return;
    }
    var button = event.target.closest(".me-toggle");
    if (!button) return;
    var entry = button.closest("tr").dataset.entry;
    try {
      if (me() === entry) localStorage.removeItem(key); else localStorage.setItem(key, entry);
    } catch (e) { /* storage blocked: nothing to remember */ }
    apply();
    etag = null;
    refresh();  // where the newly marked player sits
  });
  if (search) {
    search.addEventListener("input", function () {
      if (search.value && !showAll && truncated()) {
        showAll = true;  // a name may be further down: fetch every place once
        refresh().then(apply);
      } else {
        apply();
      }
    });
  }

  window.dokoRefreshStandings = refresh;  // for the browser tests
  document.documentElement.classList.add("js");
  apply();
  var mine = me();
  if (mine) {
    etag = null;
    refresh();  // the reader's own row (if not among the first places) and where they sit: fetch them now
  } else {
    etagUrl = pollUrl();  // the page is what this poll would get: its ETag holds for it
  }
  // Every poll waits the page's interval give or take a fifth, drawn anew each time: the phones that
  // opened the page in the same second after a round was announced spread out instead of polling
  // together every interval (docs/performance.md, "The announcement burst").
  var seconds = parseInt(live.dataset.refresh, 10) || 30;
  function next() {
    setTimeout(function () {
      if (!document.hidden) refresh();
      next();
    }, seconds * 1000 * (0.8 + 0.4 * Math.random()));
  }
  next();
  // a page left open on a phone in the pocket polls nothing while hidden: shown again, it asks at once
  // rather than at the next tick (a published round's seat came up to an interval late)
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && Date.now() - lastPoll > 2000) refresh();
  });
})();

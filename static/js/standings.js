// Standings that update themselves, a name search, and "that's me" kept in this browser only.
(function () {
  "use strict";
  var live = document.getElementById("standings-live");
  if (!live) return;
  var search = document.getElementById("standings-search");
  var key = "doko:" + location.pathname.split("/")[2] + ":me";

  function fold(text) {
    return (text || "").toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }
  function me() {
    try { return localStorage.getItem(key); } catch (e) { return null; }
  }
  function apply() {
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
  }
  live.addEventListener("click", function (event) {
    var button = event.target.closest(".me-toggle");
    if (!button) return;
    var entry = button.closest("tr").dataset.entry;
    try {
      if (me() === entry) localStorage.removeItem(key); else localStorage.setItem(key, entry);
    } catch (e) { /* storage blocked: nothing to remember */ }
    apply();
  });
  if (search) search.addEventListener("input", apply);

  function refresh() {
    var url = new URL(location.href);
    url.searchParams.set("partial", "1");
    fetch(url, { headers: { "X-Requested-With": "fetch" }, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null) return;
        var focused = document.activeElement && live.contains(document.activeElement);
        if (!focused) { live.innerHTML = html; apply(); }
      })
      .catch(function () { /* offline for a moment: try again next time */ });
  }
  window.dokoRefreshStandings = refresh;  // for the browser tests
  document.documentElement.classList.add("js");
  apply();
  var seconds = parseInt(live.dataset.refresh, 10) || 30;
  setInterval(function () { if (!document.hidden) refresh(); }, seconds * 1000);
})();

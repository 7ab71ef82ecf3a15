// The check-in list (templates/tournament/checkin.html): the name search filters as one types, and a
// tap marks a player present (or not) without leaving the page: the form is sent in the background
// and the player's line, the count and any message are taken from the page the server answers with.
// Without JavaScript the search is a form (?q=) and a tap reloads the page.
(function () {
  "use strict";
  var search = document.getElementById("checkin-search");
  var list = document.getElementById("checkin-list");
  if (!search || !list) return;
  // The forms a search is made into, as collation.search_forms makes the names' (data-name holds
  // those): the German transliteration (ä -> ae, ß -> ss, ı -> i) and the letters without their marks,
  // so that "kraemer", "kramer" and "Krämer" all find Krämer.
  var SPELLED = { "ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "ẞ": "ss", "ı": "i", "æ": "ae", "œ": "oe",
                  "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ŀ": "l" };
  function marksOff(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }
  function forms(text) {
    var lower = (text || "").normalize("NFC").toLowerCase().split(/\s+/).join(" ").trim();
    var german = marksOff(lower.replace(/[äöüßẞıæœøłđðþŀ]/g, function (c) { return SPELLED[c]; }));
    var plain = marksOff(lower.replace(/[ßẞıæœøłđðþŀ]/g, function (c) { return SPELLED[c]; }));
    return german === plain ? [german] : [german, plain];
  }
  function apply() {
    var wanted = forms(search.value).filter(function (form) { return form !== ""; });
    list.querySelectorAll("li[data-name]").forEach(function (item) {
      var text = item.dataset.name;
      item.hidden = wanted.length > 0 && !wanted.some(function (form) { return text.indexOf(form) !== -1; });
      item.querySelectorAll('input[name="q"]').forEach(function (field) { field.value = search.value.trim(); });
    });
  }
  function swap(fresh, selector) {
    var now = document.querySelector(selector);
    var next = fresh.querySelector(selector);
    if (now && next) now.replaceWith(next);
    else if (now) now.remove();
    else if (next) document.querySelector("main").prepend(next);
  }
  list.addEventListener("submit", function (event) {
    var form = event.target;
    var item = form.closest("li");
    if (!item || !window.fetch) return;
    event.preventDefault();
    var button = form.querySelector("button");
    button.disabled = true;
    fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        swap(fresh, "#" + item.id);
        swap(fresh, "#checkin-count");
        swap(fresh, "main > .messages");
        apply();
      })
      .catch(function () { form.submit(); });  // the plain way: the page reloads
  });
  search.addEventListener("input", apply);
  search.form.addEventListener("submit", function (event) { event.preventDefault(); apply(); });
  apply();
})();

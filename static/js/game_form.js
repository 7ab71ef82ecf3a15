/* The director's game form at the speed of the paper sheet.
 *
 * - The Re party is typed as the sheet writes it (seat numbers "13" or "1+3"); the names appear
 *   next to it at once, and clicking a name adds or removes its seat number.
 * - Announcements ("r", "k", "r9") and Sonderpunkte ("kf") in the sheet's short notation, with
 *   buttons that add a token.
 * - The scores are computed while one types (the page's preview, from the server), so Enter saves.
 * - The tricks field joins the Tab order only when it matters (0 or 240 Augen), and is emptied when
 *   the Augen change: tricks typed for other Augen are stale (the server refuses Augen and tricks
 *   that cannot go together).
 * - In a list with Pflichtsoli a solo is marked as Pflicht- or Lustsolo; left "von selbst", the
 *   soloist's first solo is the Pflichtsolo, and the mark it gets is shown next to the choice.
 * Without this script the form still works: Enter shows the scores, Enter again saves. The name,
 * announcement and Sonderpunkt buttons come hidden and are shown only once they work (a tap before
 * the script ran would do nothing).
 */
(function () {
  "use strict";
  var form = document.querySelector("form.game-form");
  if (!form) { return; }
  var seats = form.querySelector("[data-seats]");
  var names = document.getElementById("re-names");
  var extras = form.querySelector("[name=extras]");
  var meaning = document.getElementById("extras-meaning");
  var announce = form.querySelector("[name=announcements]");
  var announceMeaning = document.getElementById("announce-meaning");
  var augen = form.querySelector("[name=re_augen]");
  var tricks = form.querySelector("[name=re_tricks]");
  var type = form.querySelector("[name=type]");
  var soloFields = Array.prototype.slice.call(form.querySelectorAll(".solo-field"));
  var pflicht = form.querySelector("[name=pflichtsolo]");
  var pflichtMeaning = document.getElementById("pflicht-meaning");
  var box = document.getElementById("preview-box");
  var seatButtons = Array.prototype.slice.call(form.querySelectorAll(".seat-button"));
  var saveButton = form.querySelector("button[value=save]");
  var labels = {};
  form.querySelectorAll(".extras-buttons button").forEach(function (button) {
    labels[button.dataset.token.slice(1)] = button.textContent;
  });

  function positions() { return (seats.value.match(/\d/g) || []).map(Number); }

  function showNames() {
    var chosen = positions();
    names.textContent = chosen.map(function (n) {
      var button = seatButtons[n - 1];
      return button ? button.dataset.name : "?" + n;
    }).join(", ");
    seatButtons.forEach(function (button) {
      button.classList.toggle("on", chosen.indexOf(Number(button.dataset.seat)) >= 0);
    });
  }

  seatButtons.forEach(function (button) {
    button.addEventListener("click", function () {
      var n = Number(button.dataset.seat);
      var chosen = positions();
      var at = chosen.indexOf(n);
      if (at >= 0) { chosen.splice(at, 1); } else { chosen.push(n); }
      seats.value = chosen.sort().join("");
      showNames(); showPflicht(); schedule();
    });
  });

  function showMeaning() {
    if (!extras || !meaning) { return; }
    var words = extras.value.toLowerCase().split(/[\s,+]+/).filter(Boolean);
    meaning.textContent = words.map(function (word) {
      var party = word[0] === "r" ? "Re" : word[0] === "k" ? "Kontra" : "?";
      var kinds = word.slice(1).split("").map(function (key) { return labels[key] || key; });
      return party + ": " + kinds.join(", ");
    }).join(" · ");
  }

  form.querySelectorAll(".extras-buttons button").forEach(function (button) {
    button.addEventListener("click", function () {
      var token = button.dataset.token;
      var words = extras.value.split(/\s+/).filter(Boolean);
      var same = words.findIndex(function (w) { return w[0] === token[0]; });
      if (same >= 0) { words[same] += token.slice(1); } else { words.push(token); }
      extras.value = words.join(" ");
      showMeaning(); schedule();
    });
  });

  var announceLabels = {};
  form.querySelectorAll(".announce-buttons button").forEach(function (button) {
    announceLabels[button.dataset.token] = button.textContent;
    button.addEventListener("click", function () {
      var token = button.dataset.token;
      var words = announceTokens().filter(function (w) { return w[0] !== token[0]; });
      words.push(token);
      words.sort();
      announce.value = words.join(" ");
      showAnnouncements(); schedule();
    });
  });

  function announceTokens() {
    return (announce.value.toLowerCase().replace(/[\s,+/]/g, "").match(/(kontra|ko|re|r|k)(90|9|60|6|30|3|0|sw|s)?/g) || [])
      .map(function (word) {
        var party = /^k/.test(word) ? "k" : "r";
        var level = word.replace(/^(kontra|ko|re|r|k)/, "");
        level = {"90": "9", "60": "6", "30": "3", "0": "s", "sw": "s"}[level] || level;
        return party + level;
      });
  }

  function showAnnouncements() {
    if (!announce || !announceMeaning) { return; }
    announceMeaning.textContent = announceTokens().map(function (t) { return announceLabels[t] || t; }).join(", ");
  }

  function tricksStale() {
    if (tricks.value !== "") { tricks.value = ""; }
  }

  function tricksMatter() {
    var value = augen.value.trim();
    tricks.tabIndex = value === "0" || value === "240" ? 0 : -1;
  }

  function showSolo() {
    soloFields.forEach(function (field) { field.hidden = type.value !== "solo"; });
  }

  // what "von selbst" gives: a Pflichtsolo when the soloist's is still open, else a Lustsolo
  function showPflicht() {
    if (!pflicht || !pflichtMeaning) { return; }
    var chosen = positions();
    var open = (pflicht.dataset.openSeats || "").split(" ").filter(Boolean).map(Number);
    pflichtMeaning.textContent = pflicht.value === "" && chosen.length === 1 ?
      "→ " + pflicht.options[open.indexOf(chosen[0]) >= 0 ? 1 : 2].textContent : "";
  }

  var timer = null;
  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(preview, 250);
  }
  function preview() {
    if (!box || !seats.value || !augen.value) { return; }
    var body = new FormData(form);
    body.set("action", "preview");
    fetch(box.dataset.url, {method: "POST", body: body, credentials: "same-origin"})
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) { if (html !== null) { box.innerHTML = html; } })
      .catch(function () { /* no scores while offline: saving still shows them */ });
  }

  // Enter in a field saves (the scores are already on the page)
  form.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || !saveButton || event.target.tagName === "BUTTON" ||
        event.target.tagName === "TEXTAREA" || event.target.tagName === "SELECT" && event.altKey) { return; }
    event.preventDefault();
    saveButton.click();
  });

  form.addEventListener("input", function (event) {
    if (event.target === seats) { showNames(); showPflicht(); }
    if (event.target === extras) { showMeaning(); }
    if (event.target === announce) { showAnnouncements(); }
    if (event.target === augen) { tricksStale(); tricksMatter(); }
    schedule();
  });
  form.addEventListener("change", function (event) {
    if (event.target === type) { showSolo(); }
    if (event.target === pflicht) { showPflicht(); }
    schedule();
  });

  showNames(); showMeaning(); showAnnouncements(); tricksMatter(); showSolo(); showPflicht();
  form.querySelectorAll(".seat-buttons, .announce-buttons, .extras-buttons").forEach(function (row) { row.hidden = false; });
}());

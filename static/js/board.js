/* The director's live board updates itself: every 10 seconds it fetches the tables (only the
   fragment) unless a button on it has the focus. A screen reader hears the one-line summary when it
   changed (#board-news, a status region that stays in the page), not the whole board again. */
(function () {
  "use strict";
  var board = document.getElementById("board");
  if (!board) { return; }
  function summary() {  // the summary without its clock ("Stand 20:15:03"), which changes every time
    var line = board.querySelector("#board-summary");
    if (!line) { return ""; }
    var copy = line.cloneNode(true);
    copy.querySelectorAll(".muted").forEach(function (node) { node.remove(); });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }
  setInterval(function () {
    if (document.hidden || board.contains(document.activeElement)) { return; }
    fetch(board.dataset.url, {credentials: "same-origin", cache: "no-store"})
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null) { return; }
        var before = summary();
        board.innerHTML = html;
        var after = summary();
        if (after !== before) { document.getElementById("board-news").textContent = after; }
      })
      .catch(function () { /* try again next time */ });
  }, 10000);
}());

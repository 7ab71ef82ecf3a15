/* The director's live board updates itself: every 10 seconds it fetches the tables (only the
   fragment) unless a button on it has the focus. */
(function () {
  "use strict";
  var board = document.getElementById("board");
  if (!board) { return; }
  setInterval(function () {
    if (document.hidden || board.contains(document.activeElement)) { return; }
    fetch(board.dataset.url, {credentials: "same-origin", cache: "no-store"})
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) { if (html !== null) { board.innerHTML = html; } })
      .catch(function () { /* try again next time */ });
  }, 10000);
}());

// The round clock (templates/tournament/_round_clock.html, the seat notice, the projector): counts
// the minutes left down to the end the server gave (data-clock-end, ISO time). The words come from
// the page, in its language. A clock that a poll brings later is counted by `dokoClocks()`.
(function () {
  "use strict";
  function update() {
    const now = Date.now();
    document.querySelectorAll("[data-clock-end]").forEach(function (clock) {
      const end = Date.parse(clock.dataset.clockEnd);
      const left = Math.ceil((end - now) / 60000);
      const text = left > 0 ? clock.dataset.left.replace("%(m)s", left)
        : clock.dataset.over.replace("%(m)s", Math.max(0, -left));
      clock.querySelector(".clock-left").textContent = text;
      clock.classList.toggle("over", left <= 0);
    });
  }
  window.dokoClocks = update;
  update();
  setInterval(update, 10000);
})();

// The check-in list (templates/tournament/checkin.html): the name search filters as one types, and a
// tap marks a player present (or not) without leaving the page: the form is sent in the background
// and the player's line, the count and any message are taken from the page the server answers with.
// Without JavaScript the search is a form (?q=) and a tap reloads the page.
(function () {
  "use strict";
  var search = document.getElementById("checkin-search");
  var list = document.getElementById("checkin-list");
  if (!search || !list) return;
  function fold(text) {
    return (text || "").toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }
  function apply() {
    var query = fold(search.value.trim());
    list.querySelectorAll("li[data-name]").forEach(function (item) {
      item.hidden = query !== "" && fold(item.dataset.name).indexOf(query) === -1;
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

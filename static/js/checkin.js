// The check-in list (templates/tournament/checkin.html): the name search filters as one types.
// Without JavaScript the search is a form (?q=) and the server hides the other names.
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
  search.addEventListener("input", apply);
  search.form.addEventListener("submit", function (event) { event.preventDefault(); apply(); });
  apply();
})();

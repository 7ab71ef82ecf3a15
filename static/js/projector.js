// The projector page (templates/tournament/projector.html): shows the seating, then the standings,
// one screenful at a time, each for `data-seconds`; after the last page the page reloads itself,
// so a newly published round or new results come up without anyone touching the beamer.
(function () {
  "use strict";
  var body = document.body;
  var seconds = parseInt(body.dataset.seconds, 10) || 12;
  var sections = Array.prototype.slice.call(document.querySelectorAll(".beamer-section"));
  var title = document.getElementById("beamer-title");
  var pageLabel = document.getElementById("beamer-page");
  var steps = [];

  function pagesOf(section) {
    var list = section.querySelector(".beamer-list");
    var items = Array.prototype.slice.call(list.children);
    sections.forEach(function (s) { s.hidden = s !== section; });
    items.forEach(function (item) { item.hidden = false; });
    var first = items[0];
    if (!first) return [];
    var room = window.innerHeight - list.getBoundingClientRect().top - 8;
    var columns = parseInt(getComputedStyle(list).columnCount, 10) || 1;
    var rows = Math.max(1, Math.floor(room / first.getBoundingClientRect().height));
    var size = rows * columns;
    var pages = [];
    for (var i = 0; i < items.length; i += size) pages.push(items.slice(i, i + size));
    return pages;
  }
  function plan() {
    steps = [];
    sections.forEach(function (section) {
      var pages = pagesOf(section);
      pages.forEach(function (items, index) {
        steps.push({ section: section, items: items, page: index + 1, pages: pages.length });
      });
    });
  }
  function show(index) {
    var step = steps[index];
    sections.forEach(function (s) { s.hidden = s !== step.section; });
    Array.prototype.forEach.call(step.section.querySelector(".beamer-list").children, function (item) {
      item.hidden = step.items.indexOf(item) === -1;
    });
    title.textContent = step.section.dataset.title;
    pageLabel.textContent = step.pages > 1 ? body.dataset.pageText.replace("%(page)s", step.page)
      .replace("%(pages)s", step.pages) : "";
    body.dataset.step = String(index + 1);
  }
  var current = 0;
  function next() {
    current += 1;
    if (current >= steps.length) {
      location.reload();
      return;
    }
    show(current);
    setTimeout(next, seconds * 1000);
  }
  if (!sections.length) {
    setTimeout(function () { location.reload(); }, 30000);
    return;
  }
  plan();
  show(0);
  window.addEventListener("resize", function () {  // another screen: plan the pages anew
    var step = steps[current];
    plan();
    current = Math.min(step ? steps.findIndex(function (s) { return s.section === step.section; }) : 0, steps.length - 1);
    show(Math.max(current, 0));
  });
  setTimeout(next, seconds * 1000 * (steps.length === 1 ? 3 : 1));
})();

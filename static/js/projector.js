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

  // A page is what the screen really holds: the list gets the height left below the header and fills
  // its columns one after the other (column-fill: auto); rows that do not fit flow into columns beyond
  // the right edge. Those inside the list's box are the page; the next page starts with the first row
  // outside it. Measured on the real rows (a long name or club wraps to two or three lines), one layout
  // per page, so every row is shown on some page at any screen size.
  function fit(list) {
    list.style.height = "";
    var bottom = parseFloat(getComputedStyle(body).paddingBottom) || 0;
    var room = Math.floor(window.innerHeight - list.getBoundingClientRect().top - Math.max(bottom, 8));
    list.style.columnFill = "auto";
    list.style.height = Math.max(room, 1) + "px";
  }
  function inside(item, box) {
    var r = item.getBoundingClientRect();
    return r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && r.left >= box.left - 1 && r.right <= box.right + 1;
  }
  function pagesOf(section) {
    var list = section.querySelector(".beamer-list");
    var items = Array.prototype.slice.call(list.children);
    sections.forEach(function (s) { s.hidden = s !== section; });
    if (!items.length) return [];
    // the header as it will be: this section's title and the widest page number it can get
    title.textContent = section.dataset.title;
    pageLabel.textContent = body.dataset.pageText.replace("%(page)s", items.length).replace("%(pages)s", items.length);
    fit(list);
    var pages = [];
    var start = 0;
    while (start < items.length) {
      items.forEach(function (item, index) { item.hidden = index < start; });
      var box = list.getBoundingClientRect();
      var end = start + 1;  // at least one row a page, however tall
      while (end < items.length && inside(items[end], box)) end += 1;
      pages.push(items.slice(start, end));
      start = end;
    }
    return pages;
  }
  // after a page is shown: a row outside the screen (the header grew: a longer clock text, a new
  // round's title) plans the pages anew
  function overflows(step) {
    var box = step.section.querySelector(".beamer-list").getBoundingClientRect();
    var bottom = Math.min(box.bottom, window.innerHeight), right = Math.min(box.right, window.innerWidth);
    return step.items.some(function (item) {
      var r = item.getBoundingClientRect();
      return r.bottom > bottom + 1 || r.right > right + 1;
    });
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
    fit(step.section.querySelector(".beamer-list"));
    if (overflows(step) && !replanned) {
      replanned = true;  // once: the plan's header is the widest it can be
      replan(step);
      return;
    }
    replanned = false;
    body.dataset.step = String(index + 1);
  }
  var replanned = false;
  function replan(step) {  // plan again and show the page that now starts with the step's first row
    plan();
    var found = steps.findIndex(function (s) { return s.items.indexOf(step.items[0]) !== -1; });
    current = Math.max(found, 0);
    show(current);
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
  function start() {
    plan();
    show(0);
    window.addEventListener("resize", function () {  // another screen: plan the pages anew
      var step = steps[current];
      if (step) { replan(step); } else { plan(); show(0); }
    });
    // the header grows or shrinks (the clock's text changes, "Zeit ist um (seit 3 Min.)" may wrap):
    // the list takes the height left, and a row pushed off the screen makes the pages planned anew
    var head = document.querySelector(".beamer-head");
    var headHeight = head ? head.getBoundingClientRect().height : 0;
    if (head && window.ResizeObserver) {
      new ResizeObserver(function () {
        var height = head.getBoundingClientRect().height;
        var step = steps[current];
        if (Math.abs(height - headHeight) < 0.5 || !step) return;
        headHeight = height;
        fit(step.section.querySelector(".beamer-list"));
        if (overflows(step)) replan(step);
      }).observe(head);
    }
    setTimeout(next, seconds * 1000 * (steps.length === 1 ? 3 : 1));
  }
  // after the other deferred scripts: the round clock has written its text into the header
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();

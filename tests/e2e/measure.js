// Measurements for tests/e2e/test_readable.py, run in the page: `window.measure.*`.
window.measure = (function () {
  "use strict";
  function lum(rgb) {
    var c = rgb.match(/[\d.]+/g).slice(0, 3).map(Number).map(function (v) { return v / 255; })
      .map(function (v) { return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  }
  function ratio(a, b) {
    var x = lum(a), y = lum(b);
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  }
  function background(node) {  // the first opaque background behind a node
    for (var n = node.parentElement; n; n = n.parentElement) {
      var colour = getComputedStyle(n).backgroundColor;
      if (colour !== "rgba(0, 0, 0, 0)" && colour !== "transparent") { return colour; }
    }
    return "rgb(255, 255, 255)";
  }
  function name(node, length) {
    var words = (node.textContent || node.getAttribute("aria-label") || node.id || "").trim();
    return node.tagName.toLowerCase() + (node.id ? "#" + node.id : "") + ' "' + words.slice(0, length || 30) + '"';
  }
  function shown(node) { return node.getClientRects().length > 0; }

  // what a finger or the keyboard can reach and is on the screen, smaller than `size` either way; a link
  // inside a sentence is exempt (WCAG 2.5.8's "inline" exception), and so is a scroll box (as big as its table)
  function targets(size) {
    var small = [];
    var selector = "a[href], button, select, input:not([type=hidden]), summary, textarea, " +
                   "[tabindex]:not([tabindex='-1'])";
    document.querySelectorAll(selector).forEach(function (node) {
      if (node.closest("[hidden], .visually-hidden, [aria-hidden=true]")) { return; }
      var box = node.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || node.matches("[role=region]")) { return; }
      if (node.tagName === "A" && node.closest("p, li, dd, figcaption") && !node.closest("nav") &&
          node.parentElement.textContent.trim() !== node.textContent.trim()) { return; }
      if (box.width < size - 0.5 || box.height < size - 0.5) {
        small.push(name(node) + " " + Math.round(box.width) + "x" + Math.round(box.height));
      }
    });
    return small;
  }

  // the text a reader sees, smaller than `size` px (by element and size, with an example)
  function text(size) {
    var small = {};
    var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      var words = walker.currentNode.textContent.trim();
      var parent = walker.currentNode.parentElement;
      if (!words || !parent || parent.closest("script, style, svg, [hidden], .visually-hidden, template")) { continue; }
      if (!shown(parent)) { continue; }
      var px = parseFloat(getComputedStyle(parent).fontSize);
      if (px < size - 0.01) {
        var key = parent.tagName.toLowerCase() + "." + (parent.className || "") + " " + px + "px";
        small[key] = small[key] || words.slice(0, 30);
      }
    }
    return Object.keys(small).map(function (key) { return key + ': "' + small[key] + '"'; });
  }

  // outlined controls whose border is under 3:1 against what is behind them (a filled button is told
  // apart by its fill)
  function borders() {
    var weak = [];
    document.querySelectorAll("input:not([type=hidden]), select, textarea, button").forEach(function (node) {
      if (node.closest("[hidden]") || !shown(node)) { return; }
      var style = getComputedStyle(node);
      if (parseFloat(style.borderTopWidth) === 0) { return; }  // no border: a link-like button
      var behind = background(node);
      if (style.backgroundColor !== "rgba(0, 0, 0, 0)" && ratio(style.backgroundColor, behind) >= 3) { return; }
      var r = ratio(style.borderTopColor, behind);
      if (r < 3) { weak.push(name(node, 20) + " border " + r.toFixed(2) + ":1"); }
    });
    return weak;
  }

  // the focused element's ring: "" when it is at least 3:1 against what is behind it
  function focus() {
    var node = document.activeElement;
    var style = getComputedStyle(node);
    if (style.outlineStyle === "none" || parseFloat(style.outlineWidth) < 2) { return name(node) + " has no ring"; }
    var r = ratio(style.outlineColor, background(node));
    return r >= 3 ? "" : name(node, 20) + " focus " + r.toFixed(2) + ":1";
  }

  // the page's width against the window's, and what sticks out (a table in a scroll box may scroll there)
  function reflow() {
    var wide = [];
    var limit = document.documentElement.clientWidth;
    document.querySelectorAll("body *").forEach(function (node) {
      if (node.closest("[role=region]")) { return; }
      var box = node.getBoundingClientRect();
      if (box.width && box.right > limit + 1) {
        wide.push(node.tagName.toLowerCase() + "." + node.className + " ends at " + Math.round(box.right));
      }
    });
    return [document.documentElement.scrollWidth, limit, wide.slice(0, 5)];
  }

  // the charts on the screen: labels under 12 px rendered or under 4.5:1, lines under 3:1; and whether
  // the chart's table is shown
  function chart() {
    var found = [];
    document.querySelectorAll("svg.chart").forEach(function (svg) {
      if (!shown(svg)) { return; }  // not shown here: a table is in its place
      var scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      svg.querySelectorAll("text").forEach(function (label) {
        var px = parseFloat(label.getAttribute("font-size")) * scale;
        if (px < 12) { found.push('"' + label.textContent + '" ' + px.toFixed(1) + " px"); }
        var r = ratio(getComputedStyle(label).fill, "rgb(255, 255, 255)");
        if (r < 4.5) { found.push('"' + label.textContent + '" ' + r.toFixed(2) + ":1"); }
      });
      svg.querySelectorAll("polyline").forEach(function (line) {
        var r = ratio(getComputedStyle(line).stroke, "rgb(255, 255, 255)");
        if (r < 3) { found.push("a line " + line.getAttribute("stroke") + " " + r.toFixed(2) + ":1"); }
      });
    });
    var table = document.querySelector(".chart-table");
    return [found, table ? shown(table) : null];
  }

  return {targets: targets, text: text, borders: borders, focus: focus, reflow: reflow, chart: chart};
}());

/* On the page of a link that takes no more entries: the games still kept on this phone (the queues
 * of the entry page, stored by table and round), so that nothing typed at the table is out of sight.
 * They are sent from the page of the table's current link (its queue is the same). */
(function () {
  "use strict";
  var box = document.getElementById("stored");
  var list = document.getElementById("stored-list");
  var store;
  try { store = window.localStorage; } catch (_e) { return; }
  var found = 0;
  for (var i = 0; i < store.length; i++) {
    var name = store.key(i);
    var match = /^doko:(?:q:.+|[\w-]{16,}):queue$/.exec(name || "");
    if (!match) { continue; }
    var queue;
    try { queue = JSON.parse(store.getItem(name)) || []; } catch (_e) { continue; }
    if (!queue.length) { continue; }
    var label = "";
    try { label = JSON.parse(store.getItem(name.replace(/queue$/, "label"))) || ""; } catch (_e) { label = ""; }
    var item = document.createElement("li");
    item.className = "card";
    var title = document.createElement("strong");
    title.textContent = label;
    item.appendChild(title);
    var games = document.createElement("ul");
    queue.forEach(function (entry) {
      var line = document.createElement("li");
      line.textContent = entry.text || ("#" + entry.number);
      games.appendChild(line);
    });
    item.appendChild(games);
    list.appendChild(item);
    found += queue.length;
  }
  box.hidden = !found;
}());

/* A table's entry page on the players' phones (/e/<token>/).
 *
 * Works without a connection: a saved game goes into a queue in localStorage, with a one-time key
 * and the version of the game it was entered against (0: a new game), and is sent as soon as the
 * server can take it (a retry with the same key never makes a second game). The queue belongs to the
 * table and round, not to one link: a renewed link's page takes it over.
 *
 * A game leaves the queue only when the server has answered about that game (the answer names its
 * key): stored (or waiting for confirmation, or as a conflict for the director), or refused with its
 * problems. No network, a 5xx, a 429 or an answer that is not the server's JSON keep it, and the page
 * tries again with growing pauses and says so. A refused game stops the queue behind it and comes back
 * into the form with its problems; the games after it stay queued with their numbers. When the link
 * no longer takes entries (410), the games stay on the phone as a readable list with what to do.
 *
 * What is typed into the form is kept in localStorage too, so a reload loses nothing; a service worker
 * keeps the page itself for a reload without Wi-Fi. Who the device is, the server says (a cookie the
 * script cannot read). The server's answers (state.json) say what the sheet holds; the page shows them.
 */
(function () {
  "use strict";
  var app = document.getElementById("app");
  var token = app.dataset.token;
  var base = location.pathname.replace(/[^/]*$/, "");
  var state = JSON.parse(document.getElementById("state").textContent);
  var spec = JSON.parse(document.getElementById("spec").textContent);
  var T = JSON.parse(document.getElementById("texts").textContent);
  var store = window.localStorage;
  var KEY = "doko:q:" + app.dataset.queue + ":";  // the table's and round's, whichever link opened it
  var MOST_DELAY = 60000;  // ms between two tries at most

  function fmt(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (_m, name) { return values[name] === undefined ? "" : values[name]; });
  }
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      if (name === "text") { node.textContent = attrs[name]; }
      else if (name === "on") { Object.keys(attrs.on).forEach(function (ev) { node.addEventListener(ev, attrs.on[ev]); }); }
      else { node.setAttribute(name, attrs[name]); }
    });
    (children || []).forEach(function (child) { node.appendChild(child); });
    return node;
  }
  function load(name, fallback) {
    try { var value = JSON.parse(store.getItem(KEY + name)); return value === null ? fallback : value; }
    catch (_e) { return fallback; }
  }
  function save(name, value) {
    try { store.setItem(KEY + name, JSON.stringify(value)); }
    catch (_e) { note(T.storageFull, "error"); }
  }
  function uuid() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID().replace(/-/g, ""); }
    return Date.now().toString(16) + Math.random().toString(16).slice(2);
  }

  // an earlier version of this page kept its queue under the link's token: take it over
  (function adoptOldQueue() {
    var old = "doko:" + token + ":";
    ["queue", "form", "player"].forEach(function (name) {
      var value = store.getItem(old + name);
      if (value === null) { return; }
      if (name === "queue") {
        var mine = load("queue", []);
        try { save("queue", mine.concat(JSON.parse(value) || [])); } catch (_e) { /* unreadable: left as it was */ }
      } else if (store.getItem(KEY + name) === null) {
        store.setItem(KEY + name, value);
      }
      store.removeItem(old + name);
    });
  }());
  save("label", fmt(T.label, {tournament: state.tournament, round: state.round, table: state.table}));

  // ---- who is at this phone ---------------------------------------------------------------------
  var me = load("player", null);
  function playerName(id) {
    var found = state.players.filter(function (p) { return p.id === id; })[0];
    return found ? found.name : "?";
  }

  // ---- the queue of games not yet sent ----------------------------------------------------------
  var queue = load("queue", []);
  var sending = false;
  var delay = 0;  // the pause before the next try, after the server did not answer about the game
  var retryTimer = null;
  var trouble = "";  // why the queue is not moving, in words
  var closed = null;  // the link's message once it takes no more entries (410)

  // a note; one about a game (`game`: its number) takes the place of that game's earlier note, so a
  // game says one state at a time ("wird gesendet", then "ist angekommen", never both)
  function note(text, kind, game) {
    var list = document.getElementById("notes");
    var item = el("li", {"class": kind || "info", text: text});
    if (game) {
      item.dataset.game = String(game);
      Array.prototype.slice.call(list.children).forEach(function (old) {
        if (old.dataset.game === String(game)) { list.removeChild(old); }
      });
    }
    list.insertBefore(item, list.firstChild);
    while (list.children.length > 4) { list.removeChild(list.lastChild); }
  }

  // the answer, and whether it is the server's JSON at all (a proxy's or a hotspot's page is not)
  function post(path, body) {
    return fetch(base + path, {method: "POST", headers: {"Content-Type": "application/json"},
                               body: JSON.stringify(body), credentials: "same-origin", cache: "no-store"})
      .then(function (response) {
        var json = (response.headers.get("Content-Type") || "").indexOf("application/json") === 0;
        return response.json().catch(function () { json = false; return {}; }).then(function (data) {
          return {status: response.status, data: data || {}, json: json && typeof data === "object" && data !== null};
        });
      });
  }

  // a queued game in words: "Spiel 4: Normalspiel · Re Anna, Bernd · 131 Augen Re" (without the number: for the cards)
  function describe(entry, withoutNumber) {
    var d = entry.data;
    var type = (spec.types.filter(function (t) { return t[0] === d.type; })[0] || ["", d.type])[1];
    var parts = [withoutNumber ? type : T.game + " " + entry.number + ": " + type];
    if (d.re && d.re.length) { parts.push("Re " + d.re.map(playerName).join(", ")); }
    if (d.re_augen !== null && d.re_augen !== undefined) { parts.push(fmt(T.reAugen, {n: d.re_augen})); }
    if (d.penalty) { parts.push(fmt(T.penalty, {name: playerName(d.penalty.offender)})); }
    return parts.join(" · ");
  }

  function enqueue(entry) {
    entry.text = describe(entry);
    queue.push(entry);
    queue.sort(function (a, b) { return a.number - b.number; });
    save("queue", queue);
  }

  function retryLater(status) {
    delay = Math.min(MOST_DELAY, delay ? delay * 2 : 2000);
    trouble = fmt(status === 0 ? T.noAnswer : T.serverBusy, {status: status, s: Math.round(delay / 1000)});
    clearTimeout(retryTimer);
    retryTimer = setTimeout(function () { retryTimer = null; flush(); }, delay);
    showQueue();
  }

  function flush() {
    if (sending || retryTimer || closed || !queue.length || queue[0].refused || !navigator.onLine) {
      showQueue();
      return;
    }
    sending = true;
    var entry = queue[0];
    post("games.json", {key: entry.key, number: entry.number, version: entry.version || 0, player: entry.player,
                        data: entry.data}).then(function (answer) {
      sending = false;
      var about = answer.json && answer.data.key === entry.key;
      if (about && answer.status === 200) {
        queue = queue.filter(function (e) { return e.key !== entry.key; }); save("queue", queue);
        delay = 0; trouble = "";
        if (answer.data.conflict) { note(answer.data.message, "error", entry.number); }
        else { note(fmt(T.sent, {n: entry.number}), "success", entry.number); }
        if (answer.data.state) { state = answer.data.state; }
        render();
        flush();
      } else if (about && answer.status === 422) {
        delay = 0; trouble = "";
        entry.refused = {message: answer.data.message || "", problems: answer.data.problems || {}};
        save("queue", queue);
        note(fmt(T.failed, {n: entry.number, message: entry.refused.message}), "error", entry.number);
        startCorrecting(entry);
        render();
        showProblems(entry.refused.problems);
        window.scrollTo(0, 0);
      } else if (about && answer.status === 410) {
        trouble = "";
        closed = answer.data.message || T.closed;
        render();
      } else {
        retryLater(answer.status);
      }
    }).catch(function () { sending = false; retryLater(0); });
  }

  function showQueue() {
    var box = document.getElementById("queue");
    var head = queue[0];
    box.hidden = !queue.length;
    var text = fmt(T.waiting, {n: queue.length});
    if (closed) { text = fmt(T.keptHere, {n: queue.length}); }
    else if (head && head.refused) { text = fmt(T.stopped, {n: head.number, m: queue.length - 1}); }
    else if (trouble && navigator.onLine) { text += " " + trouble; }
    if (box.textContent !== text) { box.textContent = text; }
    var net = document.getElementById("net");
    if (net.textContent !== (navigator.onLine ? T.online : T.offline)) { net.textContent = navigator.onLine ? T.online : T.offline; }
    document.getElementById("net").className = "net " + (navigator.onLine ? "online" : "offline");
    renderKept();
  }

  // the games on this phone, readable (while waiting, and after the link closed)
  function renderKept() {
    var box = document.getElementById("kept");
    var list = document.getElementById("kept-list");
    box.hidden = !(closed && queue.length);
    document.getElementById("closed").hidden = !closed;
    document.getElementById("closed-text").textContent = closed || "";
    list.textContent = "";
    queue.forEach(function (entry) { list.appendChild(el("li", {text: entry.text || describe(entry)})); });
  }

  // ---- the form ---------------------------------------------------------------------------------
  var form = load("form", {type: "normal", solo: "", pflichtsolo: "", re: [], announce_re: "", announce_kontra: "",
                           re_augen: "", re_tricks: "", extras: {}, penalty_offender: "", penalty_note: "", number: null});
  // a solo's mark in a list with Pflichtsoli ("": as the rule gives it: the soloist's first solo is the Pflichtsolo)
  var PFLICHT = {"": null, pflicht: true, lust: false};

  // the game the form is for: the refused game at the head of the queue (to correct it), else the
  // first game that is neither stored, nor waiting, nor queued
  function number() {
    if (closed) { return null; }
    if (queue.length && queue[0].refused) { return queue[0].number; }
    var taken = {};
    queue.forEach(function (e) { taken[e.number] = true; });
    for (var n = state.next_number || 1; n <= state.games_expected; n++) {
      var line = state.lines[n - 1];
      var waiting = state.drafts.some(function (d) { return d.number === n && d.status === "waiting"; });
      if (!taken[n] && !(line && line.summary) && !waiting) { return n; }
    }
    return null;
  }

  function gameData() {
    var extras = {};
    ["re", "kontra"].forEach(function (party) {
      Object.keys(form.extras[party] || {}).forEach(function (kind) {
        var count = form.extras[party][kind];
        if (count) { (extras[party] = extras[party] || {})[kind] = count; }
      });
    });
    return {type: form.type, solo: form.type === "solo" ? (form.solo || null) : null,
            pflichtsolo: form.type === "solo" && spec.pflichtsolo ? PFLICHT[form.pflichtsolo || ""] : null,
            re: form.re.slice(),
            re_augen: form.re_augen === "" ? null : Number(form.re_augen),
            re_tricks: form.re_tricks === "" ? null : Number(form.re_tricks),
            announcements: {re: form.announce_re || null, kontra: form.announce_kontra || null}, extras: extras,
            penalty: form.penalty_offender ? {offender: Number(form.penalty_offender), note: form.penalty_note || ""} : null};
  }

  function persist() { save("form", form); schedulePreview(); }

  function restoreForm(d, n) {
    var announcements = d.announcements || {};
    form = {type: d.type || "normal", solo: d.solo || "",
            pflichtsolo: d.pflichtsolo === true ? "pflicht" : d.pflichtsolo === false ? "lust" : "",
            re: (d.re || []).slice(), announce_re: announcements.re || "", announce_kontra: announcements.kontra || "",
            re_augen: d.re_augen === null || d.re_augen === undefined ? "" : d.re_augen,
            re_tricks: d.re_tricks === null || d.re_tricks === undefined ? "" : d.re_tricks,
            extras: JSON.parse(JSON.stringify(d.extras || {})),
            penalty_offender: d.penalty ? String(d.penalty.offender) : "", penalty_note: d.penalty ? d.penalty.note || "" : "",
            number: n};
    persist();
  }

  // a refused game comes back into the form, once (what is typed afterwards is kept)
  function startCorrecting(entry) {
    if (form.correcting === entry.key) { return; }
    restoreForm(entry.data, entry.number);
    form.correcting = entry.key;
    save("form", form);
  }

  // an empty form for the next game: nothing of the last one stays, its preview neither (an answer
  // still on its way is for a question no longer asked)
  function clearForm() {
    form = {type: "normal", solo: "", pflichtsolo: "", re: [], announce_re: "", announce_kontra: "", re_augen: "",
            re_tricks: "", extras: {}, penalty_offender: "", penalty_note: "", number: null};
    save("form", form);
    forgetPreview();
    document.getElementById("penalty-set").open = false;
  }

  // a group of buttons to tap: built once for its options and then only updated, so that the button
  // just pressed keeps the focus (a keyboard or a screen reader stays where it was)
  function toggleButtons(container, options, selected, onPick, multi) {
    container.onPick = onPick;
    var buttons = container.children;
    var same = buttons.length === options.length && options.every(function (option, i) {
      return buttons[i].dataset.value === String(option[0]);
    });
    if (!same) {
      container.textContent = "";
      options.forEach(function (option) {
        container.appendChild(el("button", {type: "button", "class": "choice-big", "data-value": String(option[0]),
                                            on: {click: function () { container.onPick(option[0]); }}}));
      });
    }
    options.forEach(function (option, i) {
      var on = multi ? selected.indexOf(option[0]) >= 0 : selected === option[0];
      buttons[i].className = "choice-big" + (on ? " on" : "");
      buttons[i].setAttribute("aria-pressed", on ? "true" : "false");
      if (buttons[i].textContent !== option[1]) { buttons[i].textContent = option[1]; }
    });
  }

  // a short sentence for a screen reader (#say, a status region that stays in the page)
  function say(text) {
    var box = document.getElementById("say");
    box.textContent = "";
    setTimeout(function () { box.textContent = text; }, 50);
  }

  function fillSelect(select, options, value) {
    select.textContent = "";
    options.forEach(function (option) {
      var node = el("option", {value: option[0], text: option[1]});
      if (option[0] === value) { node.selected = true; }
      select.appendChild(node);
    });
  }

  function renderForm() {
    var n = number();
    var entry = document.getElementById("entry");
    entry.hidden = !n || state.signed || state.totals_only;
    if (!n) { return; }
    var deal = state.dealing[n];
    var head = queue[0];
    var correcting = head && head.refused && head.number === n;
    if (correcting) { startCorrecting(head); }
    document.getElementById("discard").hidden = !correcting;
    document.getElementById("refused-text").textContent = correcting ? fmt(T.failed, {n: n, message: head.refused.message}) : "";
    if (form.number !== n) {
      form.number = n;
      form.correcting = null;
      if (deal.vorgefuehrt && !form.re.length) {  // a list's last games: the Pflichtsolo of whoever is vorgeführt
        form.type = "solo"; form.re = [deal.vorgefuehrt]; form.pflichtsolo = "pflicht";
      }
      save("form", form);
    }
    document.getElementById("entry-heading").textContent = fmt(correcting ? T.correct : T.enter, {n: n});
    var dealer = fmt(T.dealer, {name: playerName(deal.dealer)}) +
      (deal.out ? " · " + fmt(T.sitsOut, {name: playerName(deal.out)}) : "");
    if (spec.pflichtsolo && deal.vorgefuehrt) {
      dealer += " · " + fmt(spec.pflichtsolo.vorgefuehrt, {name: playerName(deal.vorgefuehrt)});
    } else if (spec.pflichtsolo && deal.open && deal.open.length) {
      dealer += " · " + fmt(spec.pflichtsolo.open, {names: deal.open.map(playerName).join(", ")});
    }
    document.getElementById("dealer").textContent = dealer;
    document.getElementById("save").textContent = fmt(T.save, {n: n});
    toggleButtons(document.getElementById("type-buttons"), spec.types, form.type, function (value) {
      form.type = value; persist(); renderForm();
    });
    var solo = document.getElementById("solo");
    solo.hidden = document.getElementById("solo-label").hidden = form.type !== "solo";
    fillSelect(solo, [["", "—"]].concat(spec.solos), form.solo);
    var pflicht = document.getElementById("pflichtsolo");
    document.getElementById("pflichtsolo-row").hidden = !spec.pflichtsolo || form.type !== "solo";
    if (spec.pflichtsolo) { fillSelect(pflicht, spec.pflichtsolo.choices, form.pflichtsolo || ""); }
    var players = deal.players.map(function (id) {
      var seat = state.players.filter(function (p) { return p.id === id; })[0].seat;
      return [id, seat + " " + playerName(id)];
    });
    form.re = form.re.filter(function (id) { return deal.players.indexOf(id) >= 0; });
    toggleButtons(document.getElementById("re-buttons"), players, form.re, function (id) {
      var at = form.re.indexOf(id);
      if (at >= 0) { form.re.splice(at, 1); } else { form.re.push(id); }
      persist(); renderForm();
    }, true);
    fillSelect(document.getElementById("announce-re"), spec.announce_re, form.announce_re);
    fillSelect(document.getElementById("announce-kontra"), spec.announce_kontra, form.announce_kontra);
    document.getElementById("re-augen").value = form.re_augen;
    document.getElementById("re-tricks").value = form.re_tricks;
    document.getElementById("re-tricks").max = spec.tricks;
    var augen = Number(form.re_augen);
    document.getElementById("kontra-augen").textContent =
      form.re_augen === "" || isNaN(augen) ? "" : fmt(T.kontraAugen, {n: 240 - augen});
    renderExtras();
    document.getElementById("extras-set").hidden = !spec.sonderpunkte.length;
    fillSelect(document.getElementById("penalty-offender"), [["", "—"]].concat(deal.players.map(function (id) {
      return [String(id), playerName(id)];
    })), String(form.penalty_offender || ""));
    document.getElementById("penalty-note").value = form.penalty_note || "";
    document.getElementById("penalty-set").open = document.getElementById("penalty-set").open || !!form.penalty_offender;
  }

  // the Sonderpunkte: a row of − count + per kind and party, built once, then only the counts change
  function extraCount(kind, party) { return (form.extras[party] || {})[kind] || 0; }
  function renderExtras() {
    var extras = document.getElementById("extras");
    if (!extras.children.length) {
      spec.sonderpunkte.forEach(function (kind) {
        var row = el("div", {"class": "stepper-row"}, [el("span", {"class": "label", text: kind[1]})]);
        ["re", "kontra"].forEach(function (party) {
          var name = party === "re" ? "Re" : "Kontra";
          function change(delta) {
            var next = Math.max(0, Math.min(4, extraCount(kind[0], party) + delta));
            (form.extras[party] = form.extras[party] || {})[kind[0]] = next;
            persist(); renderForm();
            say(fmt(T.stepCount, {what: kind[1], party: name, n: next}));
          }
          row.appendChild(el("span", {"class": "stepper"}, [
            el("span", {"class": "party", text: name}),
            el("button", {type: "button", "class": "step", "aria-label": fmt(T.stepLess, {what: kind[1], party: name}),
                          text: "−", on: {click: function () { change(-1); }}}),
            el("span", {"class": "count", "data-kind": kind[0], "data-party": party}),
            el("button", {type: "button", "class": "step", "aria-label": fmt(T.stepMore, {what: kind[1], party: name}),
                          text: "+", on: {click: function () { change(1); }}})]));
        });
        extras.appendChild(row);
      });
    }
    extras.querySelectorAll(".count").forEach(function (count) {
      count.textContent = String(extraCount(count.dataset.kind, count.dataset.party));
    });
  }

  // the preview: hidden as soon as the form changes, and only the answer to the newest question shown
  var previewTimer = null;
  var asked = 0;
  function forgetPreview() {
    clearTimeout(previewTimer);
    asked += 1;
    var box = document.getElementById("preview");
    box.hidden = true;
    box.textContent = "";
  }
  function schedulePreview() {
    forgetPreview();
    previewTimer = setTimeout(preview, 350);
  }
  function preview() {
    var box = document.getElementById("preview");
    var n = number();
    if (!n || !navigator.onLine || form.re_augen === "") { box.hidden = true; return; }
    var question = asked;
    var pending = queue.filter(function (e) { return e.number < n; }).map(function (e) {
      return {number: e.number, data: e.data};
    });
    post("preview.json", {number: n, data: gameData(), pending: pending}).then(function (answer) {
      if (question !== asked || number() !== n) { return; }  // the form changed meanwhile: a newer one is asked
      if (!answer.json) { box.hidden = true; return; }
      showProblems(answer.status === 200 ? {} : (answer.data.problems || {"_": [answer.data.message || ""]}));
      if (answer.status !== 200) { box.hidden = true; return; }
      var d = answer.data;
      box.hidden = false;
      box.textContent = "";
      var outcome = (d.winner === "re" ? T.winsRe : d.winner === "kontra" ? T.winsKontra : T.winsNobody) +
                    " " + fmt(T.value, {n: d.value}) + (d.multiplier > 1 ? " (×" + d.multiplier + ")" : "");
      box.appendChild(el("p", {text: outcome}));
      say(outcome);
      var list = el("ul", {"class": "breakdown"});
      d.breakdown.forEach(function (item) {
        var amount = typeof item[1] === "string" ? item[1].replace("x", "×") : (item[1] > 0 ? "+" + item[1] : String(item[1]));
        list.appendChild(el("li", {text: item[0] + " " + amount}));
      });
      box.appendChild(list);
      var scores = el("p", {"class": "scores"});
      Object.keys(d.scores).forEach(function (id) {
        var points = d.scores[id];
        scores.appendChild(el("span", {text: playerName(Number(id)) + " " + (points > 0 ? "+" + points : points < 0 ? "\u2212" + (-points) : "0")}));
      });
      box.appendChild(scores);
    }).catch(function () { box.hidden = true; });
  }

  function showProblems(problems) {
    document.querySelectorAll(".field-error").forEach(function (p) { p.textContent = ""; });
    Object.keys(problems).forEach(function (field) {
      var key = field.indexOf("extras") === 0 ? "extras" : field;
      var target = document.querySelector('.field-error[data-for="' + key + '"]') ||
                   document.querySelector('.field-error[data-for="_"]');
      target.textContent = (target.textContent ? target.textContent + " " : "") + problems[field].join(" ");
    });
  }

  document.getElementById("solo").addEventListener("change", function (e) { form.solo = e.target.value; persist(); });
  document.getElementById("pflichtsolo").addEventListener("change", function (e) { form.pflichtsolo = e.target.value; persist(); });
  document.getElementById("announce-re").addEventListener("change", function (e) { form.announce_re = e.target.value; persist(); });
  document.getElementById("announce-kontra").addEventListener("change", function (e) { form.announce_kontra = e.target.value; persist(); });
  document.getElementById("re-augen").addEventListener("input", function (e) {
    form.re_augen = e.target.value; persist();
    var augen = Number(form.re_augen);
    document.getElementById("kontra-augen").textContent =
      form.re_augen === "" || isNaN(augen) ? "" : fmt(T.kontraAugen, {n: 240 - augen});
  });
  document.getElementById("re-tricks").addEventListener("input", function (e) { form.re_tricks = e.target.value; persist(); });
  document.getElementById("penalty-offender").addEventListener("change", function (e) { form.penalty_offender = e.target.value; save("form", form); });
  document.getElementById("penalty-note").addEventListener("input", function (e) { form.penalty_note = e.target.value; save("form", form); });

  document.getElementById("game").addEventListener("submit", function (event) {
    event.preventDefault();
    var n = number();
    if (!n) { return; }
    var line = state.lines[n - 1];
    var entry = {key: uuid(), player: me, number: n, version: line && line.version ? line.version : 0, data: gameData()};
    if (queue.length && queue[0].refused && queue[0].number === n) {
      queue.shift();  // the corrected game takes the refused one's place, at the head of the queue
    }
    enqueue(entry);
    clearForm();
    showProblems({});
    note(fmt(T.queued, {n: n}), "info", n);
    render();
    flush();
    window.scrollTo(0, 0);
  });

  document.getElementById("discard").addEventListener("click", function () {
    var head = queue[0];
    if (!head || !head.refused || !window.confirm(fmt(T.discardAsk, {n: head.number}))) { return; }
    queue.shift(); save("queue", queue);
    clearForm();
    showProblems({});
    note(fmt(T.discarded, {n: head.number}), "info", head.number);
    render();
    flush();
  });

  // ---- confirming, "stimmt" ---------------------------------------------------------------------
  function decide(draft, confirm) {
    var reason = "";
    if (!confirm) { reason = window.prompt(T.rejectReason) || ""; }
    post("drafts/" + draft.id + "/decide.json", {confirm: confirm, player: me, reason: reason})
      .then(function (answer) {
        if (answer.json && answer.data.state) { state = answer.data.state; }
        if (answer.status !== 200) { note(answer.json && answer.data.message || fmt(T.tryAgain, {status: answer.status}), "error"); }
        render();
      }).catch(function () { note(T.offline, "error"); });
  }

  document.getElementById("approve-button").addEventListener("click", function () {
    if (!me) { note(T.chooseFirst, "error"); return; }
    post("approve.json", {player: me, version: state.version}).then(function (answer) {
      if (answer.json && answer.data.state) { state = answer.data.state; }
      if (answer.status !== 200) { note(answer.json && answer.data.message || fmt(T.tryAgain, {status: answer.status}), "error"); refresh(); }
      render();
    }).catch(function () { note(T.offline, "error"); });
  });

  // ---- showing the sheet --------------------------------------------------------------------------
  var choosing = false;
  function renderWho() {
    var known = me && state.players.some(function (p) { return p.id === me; });
    document.getElementById("who").hidden = known && !choosing;
    document.getElementById("me").hidden = !known || choosing;
    if (known) { document.getElementById("me-name").textContent = fmt(T.me, {name: playerName(me)}); }
    toggleButtons(document.getElementById("who-buttons"), state.players.map(function (p) {
      return [p.id, p.seat + " " + p.name];
    }), me, function (id) { me = id; choosing = false; save("player", me); render(); });
  }
  document.getElementById("me-change").addEventListener("click", function () { choosing = true; render(); });

  function renderDrafts() {
    var list = document.getElementById("draft-list");
    list.textContent = "";
    var mine = queue.map(function (e) { return {number: e.number, summary: describe(e, true), pending: true, refused: e.refused}; });
    var drafts = state.drafts.concat(mine);
    document.getElementById("drafts").hidden = !drafts.length;
    drafts.forEach(function (draft) {
      var item = el("li", {"class": "card" + (draft.conflict || draft.refused ? " conflict-card" : "")}, [
        el("strong", {text: T.game + " " + draft.number}), el("span", {text: " " + (draft.summary || "")})]);
      var status = draft.refused ? T.refusedHere : draft.pending ? T.pending :
        draft.status === "rejected" ? T.rejected + (draft.reason ? ": " + draft.reason : "") :
        draft.conflict ? T.conflict : T.draftWaiting;
      item.appendChild(el("p", {"class": "muted", text: status + (draft.entered_by ? " · " + fmt(T.enteredBy, {name: playerName(draft.entered_by)}) : "")}));
      if (draft.conflict && draft.stored) {
        item.appendChild(el("p", {"class": "muted", text: fmt(T.storedIs, {game: draft.stored})}));
      }
      if (draft.points) {  // what the one who confirms confirms
        var points = el("p", {"class": "scores"});
        state.players.forEach(function (p, index) {
          var value = draft.points[index];
          if (value !== null && value !== undefined) { points.appendChild(el("span", {text: p.name + " " + (value > 0 ? "+" : "") + value})); }
        });
        item.appendChild(points);
      }
      if (!draft.pending && draft.status === "waiting" && !draft.conflict) {
        if (state.confirmation !== "second_player") {
          item.appendChild(el("p", {"class": "muted", text: T.byDirector}));
        } else if (draft.own || (me && draft.entered_by === me)) {
          item.appendChild(el("p", {"class": "muted", text: T.ownEntry}));
        } else {
          item.appendChild(el("p", {"class": "buttons"}, [
            el("button", {type: "button", "class": "primary big-button", text: T.confirm,
                          on: {click: function () { decide(draft, true); }}}),
            el("button", {type: "button", "class": "big-button", text: T.reject,
                          on: {click: function () { decide(draft, false); }}})]));
        }
      }
      if (draft.status === "rejected" && number() === draft.number && draft.data) {  // correct it here
        item.appendChild(el("p", {"class": "buttons"}, [
          el("button", {type: "button", "class": "big-button", text: T.correctThis, on: {click: function () {
            restoreForm(draft.data, draft.number); render(); document.getElementById("entry").scrollIntoView();
          }}})]));
      }
      list.appendChild(item);
    });
  }

  function renderSheet() {
    var table = document.getElementById("sheet");
    table.textContent = "";
    var head = el("tr", {}, [el("th", {text: "#"})]);
    state.players.forEach(function (p) { head.appendChild(el("th", {"class": "num", title: p.name, text: p.name.split(" ")[0]})); });
    table.appendChild(el("thead", {}, [head]));
    var body = el("tbody");
    state.lines.forEach(function (line) {
      var row = el("tr", {}, [el("th", {text: String(line.number)})]);
      if (line.summary) {
        line.running.forEach(function (total) { row.appendChild(el("td", {"class": "num", text: String(total)})); });
        body.appendChild(row);
        body.appendChild(el("tr", {"class": "summary-row"}, [el("td", {colspan: String(state.players.length + 1),
                                                                      "class": "muted", text: line.summary})]));
      } else {
        row.appendChild(el("td", {colspan: String(state.players.length), "class": "muted", text: T.notOpen}));
        body.appendChild(row);
      }
    });
    table.appendChild(body);
    // "Summe", or "Σ" where large text leaves the first column narrow (the word stays for screen readers)
    var foot = el("tr", {}, [el("th", {}, [el("span", {"class": "long", text: T.sum}),
                                           el("span", {"class": "short", "aria-hidden": "true", text: "Σ"})])]);
    state.totals.forEach(function (total) { foot.appendChild(el("td", {"class": "num total", text: String(total)})); });
    table.appendChild(el("tfoot", {}, [foot]));
  }

  function renderApprove() {
    var box = document.getElementById("approve");
    box.hidden = !(state.complete || state.signed);
    if (box.hidden) { return; }
    var names = state.approved.map(playerName).join(", ");
    document.getElementById("approve-text").textContent = state.signed ? T.signed :
      T.approveText + (names ? " " + fmt(T.approved, {names: names}) : "");
    var button = document.getElementById("approve-button");
    button.hidden = state.signed || (me && state.approved.indexOf(me) >= 0);
    button.textContent = fmt(T.approveButton, {name: me ? playerName(me) : "?"});
  }

  // the round clock, as the director started it (minutes left, or how long the time is up)
  function renderClock() {
    var clock = document.getElementById("clock");
    clock.hidden = !state.clock_end || closed;
    if (clock.hidden) { return; }
    var end = Date.parse(state.clock_end);
    var left = Math.ceil((end - Date.now()) / 60000);
    clock.textContent = fmt(T.clockUntil, {end: state.clock_end_text}) + " · " +
      (left > 0 ? fmt(T.clockLeft, {m: left}) : fmt(T.clockOver, {m: Math.max(0, -left)}));
    clock.className = "round-clock" + (left > 0 ? "" : " over");
  }
  setInterval(renderClock, 10000);

  function render() {
    renderClock();
    renderWho();
    renderForm();
    renderDrafts();
    renderSheet();
    renderApprove();
    showQueue();
  }

  // ---- keeping up to date -------------------------------------------------------------------------
  function refresh() {
    if (!navigator.onLine || document.hidden || closed) { return; }
    fetch(base + "state.json", {cache: "no-store", credentials: "same-origin"}).then(function (response) {
      var json = (response.headers.get("Content-Type") || "").indexOf("application/json") === 0;
      if (!json) { return null; }
      return response.json().then(function (data) {
        if (response.status === 410) { closed = data.message || T.closed; render(); return null; }
        return response.ok ? data : null;
      });
    }).then(function (data) {
      if (data) { state = data; render(); }
    }).catch(function () { showQueue(); });
  }

  window.addEventListener("online", function () {
    clearTimeout(retryTimer); retryTimer = null; delay = 0; trouble = "";
    showQueue(); flush(); refresh();
  });
  window.addEventListener("offline", showQueue);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { flush(); refresh(); } });
  setInterval(function () { flush(); refresh(); }, 15000);

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(base + "sw.js", {scope: base}).catch(function () { /* without it: no offline reload */ });
  }
  render();
  flush();
  schedulePreview();
}());

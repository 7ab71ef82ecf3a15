/* A table's entry page on the players' phones (/e/<token>/).
 *
 * Works without a connection: a saved game goes into a queue in localStorage, with a one-time key,
 * and is sent as soon as the phone is online again (a retry with the same key never makes a second
 * game). What is typed into the form is kept in localStorage too, so a reload loses nothing; a
 * service worker keeps the page itself for a reload without Wi-Fi.
 * The server's answers (state.json) say what the sheet holds; the page shows them.
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
  var KEY = "doko:" + token + ":";

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
  function save(name, value) { store.setItem(KEY + name, JSON.stringify(value)); }
  function uuid() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID().replace(/-/g, ""); }
    return Date.now().toString(16) + Math.random().toString(16).slice(2);
  }

  // ---- who is at this phone ---------------------------------------------------------------------
  var device = store.getItem("doko:device");
  if (!device) { device = uuid(); store.setItem("doko:device", device); }
  var me = load("player", null);
  function playerName(id) {
    var found = state.players.filter(function (p) { return p.id === id; })[0];
    return found ? found.name : "?";
  }

  // ---- the queue of games not yet sent ----------------------------------------------------------
  var queue = load("queue", []);
  var sending = false;

  function note(text, kind) {
    var list = document.getElementById("notes");
    var item = el("li", {"class": kind || "info", text: text});
    list.insertBefore(item, list.firstChild);
    while (list.children.length > 4) { list.removeChild(list.lastChild); }
  }

  function post(path, body) {
    return fetch(base + path, {method: "POST", headers: {"Content-Type": "application/json"},
                               body: JSON.stringify(body), credentials: "omit", cache: "no-store"})
      .then(function (response) {
        return response.json().catch(function () { return {}; }).then(function (data) {
          return {status: response.status, data: data};
        });
      });
  }

  function flush() {
    if (sending || !queue.length) { showQueue(); return; }
    if (!navigator.onLine) { showQueue(); return; }
    sending = true;
    var entry = queue[0];
    post("games.json", entry).then(function (answer) {
      sending = false;
      if (answer.status === 200) {
        queue.shift(); save("queue", queue);
        note(fmt(T.sent, {n: entry.number}), "success");
        if (answer.data.state) { state = answer.data.state; }
      } else if (answer.status === 410) {
        queue = []; save("queue", queue); location.reload(); return;
      } else {
        queue.shift(); save("queue", queue);
        note(fmt(T.failed, {n: entry.number, message: answer.data.message || answer.status}), "error");
        restoreForm(entry);
        showProblems(answer.data.problems || {});
      }
      render();
      flush();
    }).catch(function () { sending = false; showQueue(); });
  }

  function showQueue() {
    var box = document.getElementById("queue");
    box.hidden = !queue.length;
    box.textContent = fmt(T.waiting, {n: queue.length});
    document.getElementById("net").textContent = navigator.onLine ? T.online : T.offline;
    document.getElementById("net").className = "net " + (navigator.onLine ? "online" : "offline");
  }

  // ---- the form ---------------------------------------------------------------------------------
  var form = load("form", {type: "normal", solo: "", pflichtsolo: "", re: [], announce_re: "", announce_kontra: "",
                           re_augen: "", re_tricks: "", extras: {}, number: null});
  // a solo's mark in a list with Pflichtsoli ("": as the rule gives it: the soloist's first solo is the Pflichtsolo)
  var PFLICHT = {"": null, pflicht: true, lust: false};

  function number() {
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
            announcements: {re: form.announce_re || null, kontra: form.announce_kontra || null}, extras: extras};
  }

  function persist() { save("form", form); schedulePreview(); }

  function restoreForm(entry) {
    var d = entry.data;
    form = {type: d.type, solo: d.solo || "", pflichtsolo: d.pflichtsolo === true ? "pflicht" : d.pflichtsolo === false ? "lust" : "",
            re: d.re, announce_re: d.announcements.re || "",
            announce_kontra: d.announcements.kontra || "", re_augen: d.re_augen === null ? "" : d.re_augen,
            re_tricks: d.re_tricks === null ? "" : d.re_tricks, extras: d.extras || {}, number: entry.number};
    persist();
  }

  function clearForm() {
    form = {type: "normal", solo: "", pflichtsolo: "", re: [], announce_re: "", announce_kontra: "", re_augen: "",
            re_tricks: "", extras: {}, number: null};
    save("form", form);
  }

  function toggleButtons(container, options, selected, onPick, multi) {
    container.textContent = "";
    options.forEach(function (option) {
      var on = multi ? selected.indexOf(option[0]) >= 0 : selected === option[0];
      container.appendChild(el("button", {type: "button", "class": "choice-big" + (on ? " on" : ""),
                                          "aria-pressed": on ? "true" : "false", text: option[1],
                                          on: {click: function () { onPick(option[0]); }}}));
    });
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
    if (form.number !== n) {
      form.number = n;
      if (deal.vorgefuehrt && !form.re.length) {  // a list's last games: the Pflichtsolo of whoever is vorgeführt
        form.type = "solo"; form.re = [deal.vorgefuehrt]; form.pflichtsolo = "pflicht";
      }
      save("form", form);
    }
    document.getElementById("entry-heading").textContent = fmt(T.enter, {n: n});
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
    var extras = document.getElementById("extras");
    extras.textContent = "";
    spec.sonderpunkte.forEach(function (kind) {
      var row = el("div", {"class": "stepper-row"}, [el("span", {"class": "label", text: kind[1]})]);
      ["re", "kontra"].forEach(function (party) {
        var count = (form.extras[party] || {})[kind[0]] || 0;
        function change(delta) {
          var next = Math.max(0, Math.min(4, count + delta));
          (form.extras[party] = form.extras[party] || {})[kind[0]] = next;
          persist(); renderForm();
        }
        row.appendChild(el("span", {"class": "stepper"}, [
          el("span", {"class": "party", text: party === "re" ? "Re" : "Kontra"}),
          el("button", {type: "button", "class": "step", "aria-label": kind[1] + " " + party + " −",
                        text: "−", on: {click: function () { change(-1); }}}),
          el("output", {text: String(count)}),
          el("button", {type: "button", "class": "step", "aria-label": kind[1] + " " + party + " +",
                        text: "+", on: {click: function () { change(1); }}})]));
      });
      extras.appendChild(row);
    });
    document.getElementById("extras-set").hidden = !spec.sonderpunkte.length;
  }

  var previewTimer = null;
  function schedulePreview() {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(preview, 350);
  }
  function preview() {
    var box = document.getElementById("preview");
    var n = number();
    if (!n || !navigator.onLine || form.re_augen === "") { box.hidden = true; return; }
    post("preview.json", {number: n, data: gameData()}).then(function (answer) {
      showProblems(answer.status === 200 ? {} : (answer.data.problems || {"_": [answer.data.message || ""]}));
      if (answer.status !== 200) { box.hidden = true; return; }
      var d = answer.data;
      box.hidden = false;
      box.textContent = "";
      box.appendChild(el("p", {text: (d.winner === "re" ? T.winsRe : d.winner === "kontra" ? T.winsKontra : T.winsNobody) +
                                     " " + fmt(T.value, {n: d.value}) + (d.multiplier > 1 ? " (×" + d.multiplier + ")" : "")}));
      var list = el("ul", {"class": "breakdown"});
      d.breakdown.forEach(function (item) {
        var amount = typeof item[1] === "string" ? item[1].replace("x", "×") : (item[1] > 0 ? "+" + item[1] : String(item[1]));
        list.appendChild(el("li", {text: item[0] + " " + amount}));
      });
      box.appendChild(list);
      var scores = el("p", {"class": "scores"});
      Object.keys(d.scores).forEach(function (id) {
        var points = d.scores[id];
        scores.appendChild(el("span", {text: playerName(Number(id)) + " " + (points > 0 ? "+" : "") + points}));
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

  document.getElementById("game").addEventListener("submit", function (event) {
    event.preventDefault();
    var n = number();
    if (!n) { return; }
    var entry = {key: uuid(), device: device, player: me, number: n, data: gameData()};
    queue.push(entry); save("queue", queue);
    clearForm();
    note(fmt(T.queued, {n: n}), "info");
    render();
    flush();
    window.scrollTo(0, 0);
  });

  // ---- confirming, "stimmt" ---------------------------------------------------------------------
  function decide(draft, confirm) {
    var reason = "";
    if (!confirm) { reason = window.prompt(T.rejectReason) || ""; }
    post("drafts/" + draft.id + "/decide.json", {confirm: confirm, device: device, player: me, reason: reason})
      .then(function (answer) {
        if (answer.data.state) { state = answer.data.state; }
        if (answer.status !== 200) { note(answer.data.message || String(answer.status), "error"); }
        render();
      }).catch(function () { note(T.offline, "error"); });
  }

  document.getElementById("approve-button").addEventListener("click", function () {
    if (!me) { note(T.chooseFirst, "error"); return; }
    post("approve.json", {device: device, player: me, version: state.version}).then(function (answer) {
      if (answer.data.state) { state = answer.data.state; }
      if (answer.status !== 200) { note(answer.data.message || String(answer.status), "error"); refresh(); }
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
    var mine = queue.map(function (e) { return {number: e.number, summary: "", pending: true}; });
    var drafts = state.drafts.concat(mine);
    document.getElementById("drafts").hidden = !drafts.length;
    drafts.forEach(function (draft) {
      var item = el("li", {"class": "card" + (draft.conflict ? " conflict-card" : "")}, [
        el("strong", {text: T.game + " " + draft.number}), el("span", {text: " " + (draft.summary || "")})]);
      var status = draft.pending ? T.pending : draft.status === "rejected" ? T.rejected + (draft.reason ? ": " + draft.reason : "") :
        draft.conflict ? T.conflict : T.draftWaiting;
      item.appendChild(el("p", {"class": "muted", text: status + (draft.entered_by ? " · " + fmt(T.enteredBy, {name: playerName(draft.entered_by)}) : "")}));
      if (!draft.pending && draft.status === "waiting") {
        if (state.confirmation !== "second_player") {
          item.appendChild(el("p", {"class": "muted", text: T.byDirector}));
        } else if (draft.device === device || (me && draft.entered_by === me)) {
          item.appendChild(el("p", {"class": "muted", text: T.ownEntry}));
        } else {
          item.appendChild(el("p", {"class": "buttons"}, [
            el("button", {type: "button", "class": "primary big-button", text: T.confirm,
                          on: {click: function () { decide(draft, true); }}}),
            el("button", {type: "button", "class": "big-button", text: T.reject,
                          on: {click: function () { decide(draft, false); }}})]));
        }
      }
      list.appendChild(item);
    });
  }

  function renderSheet() {
    var table = document.getElementById("sheet");
    table.textContent = "";
    var head = el("tr", {}, [el("th", {text: "#"})]);
    state.players.forEach(function (p) { head.appendChild(el("th", {"class": "num", text: p.name.split(" ")[0]})); });
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
    var foot = el("tr", {}, [el("th", {text: T.sum})]);
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

  function render() {
    renderWho();
    renderForm();
    renderDrafts();
    renderSheet();
    renderApprove();
    showQueue();
  }

  // ---- keeping up to date -------------------------------------------------------------------------
  function refresh() {
    if (!navigator.onLine || document.hidden) { return; }
    fetch(base + "state.json", {cache: "no-store", credentials: "omit"}).then(function (response) {
      if (response.status === 410) { location.reload(); return null; }
      return response.ok ? response.json() : null;
    }).then(function (data) {
      if (data) { state = data; render(); }
    }).catch(function () { showQueue(); });
  }

  window.addEventListener("online", function () { showQueue(); flush(); refresh(); });
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

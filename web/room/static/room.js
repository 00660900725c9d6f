// Live room pages: one event stream; changed tables are fetched as server-drawn HTML and swapped in.
(function () {
  "use strict";
  var live = document.querySelector("[data-live]");
  if (!live || !window.EventSource) { return; }
  var dot = document.getElementById("connection");
  var pending = {};
  var busy = false;

  function swapCards(html) {
    var holder = document.createElement("div");
    holder.innerHTML = html;
    holder.querySelectorAll("article.rm-table-card").forEach(function (card) {
      var old = document.getElementById(card.id);
      if (old) { old.replaceWith(card); } else { live.appendChild(card); }
    });
  }

  function refresh() {
    if (busy) { return; }
    var names = Object.keys(pending);
    if (!names.length) { return; }
    pending = {};
    busy = true;
    var url = live.dataset.live === "room"
      ? "/fragments/cards?names=" + encodeURIComponent(names.join(","))
      : live.dataset.fragment;
    fetch(url, { cache: "no-store" }).then(function (response) {
      return response.ok ? response.text() : null;
    }).then(function (html) {
      if (html === null) { return; }
      if (live.dataset.live === "room") { swapCards(html); } else { live.innerHTML = html; }
    }).catch(function () {}).then(function () { busy = false; refresh(); });
  }

  var source = new EventSource("/events");
  source.addEventListener("open", function () { if (dot) { dot.className = "connection live"; } });
  source.addEventListener("error", function () { if (dot) { dot.className = "connection lost"; } });
  source.addEventListener("tables", function (message) {
    var data = JSON.parse(message.data);
    data.tables.forEach(function (table) {
      if (live.dataset.live === "room" || table.name === live.dataset.table) { pending[table.name] = true; }
    });
    refresh();
  });
})();

/* Live updates: listen to /events and redraw the page's live part after each state event.
   EventSource reconnects by itself and sends Last-Event-ID, so the server can catch us up. */
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.EventSource || !window.fetch) { return; }
  var indicator = document.getElementById("connection");
  var fragmentUrl = live.getAttribute("data-fragment");
  var eventsUrl = live.getAttribute("data-events");
  var requested = 0;
  var drawn = 0;

  /* The indicator's words come in the page's language from the template (data-words). */
  var label = indicator ? indicator.title || "live updates" : "";
  var words = {};
  try { words = JSON.parse((indicator && indicator.getAttribute("data-words")) || "{}"); } catch (e) { words = {}; }

  function show(state) {
    if (indicator) { indicator.setAttribute("data-state", state); indicator.title = label + ": " + (words[state] || state); }
  }

  function drawnEventId() {
    var section = live.firstElementChild;
    return section ? section.getAttribute("data-event-id") : null;
  }

  function refresh() {
    var ticket = ++requested;
    fetch(fragmentUrl, { cache: "no-store", headers: { "Accept": "text/html" } })
      .then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        return response.text();
      })
      .then(function (html) {
        if (ticket < drawn) { return; }  /* a newer answer is already on screen */
        drawn = ticket;
        live.innerHTML = html;
        document.body.setAttribute("data-event-id", drawnEventId() || "");
      })
      .catch(function () { show("error"); });
  }

  function connect(url) {
    var source = new EventSource(url);
    source.addEventListener("open", function () { show("live"); });
    source.addEventListener("error", function () {
      if (source.readyState === EventSource.CLOSED) {
        /* Refused (e.g. too many streams): EventSource gives up, so we try again later. */
        show("closed");
        var last = document.body.getAttribute("data-event-id") || "";
        setTimeout(function () { connect(eventsUrl.split("?")[0] + "?last_id=" + last); }, 10000);
      } else {
        show("reconnecting");
      }
    });
    source.addEventListener("state", function (event) {
      if (event.lastEventId && event.lastEventId === drawnEventId()) { return; }
      refresh();
    });
  }

  connect(eventsUrl);
})();

/* The match clock between snapshots: count the running side down in the browser.
   Each snapshot gives the reserves as they were when it was made, whose time was running and
   what was left of that turn's delay; this script only carries on from there (the referee, not
   the browser, decides flags). A redrawn clock (a new snapshot) starts counting afresh. */
(function () {
  "use strict";
  var seen = typeof WeakMap === "function" ? new WeakMap() : null;

  function text(seconds) {
    var whole = Math.max(0, Math.ceil(seconds - 0.0005));
    var hours = Math.floor(whole / 3600);
    var minutes = Math.floor((whole % 3600) / 60);
    var secs = whole % 60;
    var pad = function (n) { return (n < 10 ? "0" : "") + n; };
    return (hours ? hours + ":" + pad(minutes) : String(minutes)) + ":" + pad(secs);
  }

  function tick() {
    if (!seen) { return; }
    var now = Date.now();
    var clocks = document.querySelectorAll(".match-clock");
    for (var i = 0; i < clocks.length; i++) {
      var clock = clocks[i];
      if (!seen.has(clock)) { seen.set(clock, now); }
      if (clock.getAttribute("data-paused") === "true") { continue; }
      var elapsed = (now - seen.get(clock)) / 1000;
      var bronstein = clock.getAttribute("data-delay-kind") === "bronstein";
      var low = parseFloat(clock.getAttribute("data-low")) || 60;
      var sides = clock.querySelectorAll(".clock-side[data-running='true']");
      for (var j = 0; j < sides.length; j++) {
        var side = sides[j];
        var remaining = parseFloat(side.getAttribute("data-remaining")) || 0;
        var delay = parseFloat(side.getAttribute("data-delay-left")) || 0;
        var shown = bronstein ? remaining - elapsed : remaining - Math.max(0, elapsed - delay);
        var face = side.querySelector(".clock-time");
        if (face) { face.textContent = text(shown); }
        var delayShown = side.querySelector("[data-field='clock-delay']");
        if (delayShown) {
          var left = Math.max(0, Math.ceil(delay - elapsed));
          delayShown.textContent = String(left);
          if (left === 0 && delayShown.parentNode) { delayShown.parentNode.style.visibility = "hidden"; }
        }
        if (shown <= low) { side.classList.add("is-low"); }
      }
    }
  }

  tick();
  setInterval(tick, 250);
})();

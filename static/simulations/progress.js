/* A running simulation's progress: poll its JSON every 2 s and update the numbers; once it is
   finished, reload the page for the full chart. */
(function () {
  "use strict";
  var box = document.getElementById("progress");
  if (!box || box.dataset.status === "finished") { return; }
  function set(id, text) { var el = document.getElementById(id); if (el) { el.textContent = text; } }
  function poll() {
    fetch(box.dataset.progressUrl, { headers: { Accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (p) {
        set("p-games", p.games_done);
        set("p-chunks", p.chunks_done);
        set("p-rate", p.games_per_second === null ? "–" : Math.round(p.games_per_second));
        set("p-eta", p.eta_seconds === null ? "–" : p.eta_seconds + " s");
        var bar = document.getElementById("p-bar");
        if (bar) { bar.value = p.games_done; }
        if (p.status === "finished") { window.location.reload(); } else { setTimeout(poll, 2000); }
      })
      .catch(function () { setTimeout(poll, 5000); });
  }
  setTimeout(poll, 2000);
})();

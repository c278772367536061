/* Draw every plot of a statistics page: each <div data-plot="ID"> takes the Plotly figure in
   the JSON script element ID (written by Django's json_script). The numbers are also in the
   table beside each plot, so the page reads without JavaScript. */
(function () {
  "use strict";
  function draw() {
    document.querySelectorAll("[data-plot]").forEach(function (el) {
      var source = document.getElementById(el.dataset.plot);
      if (!source || typeof Plotly === "undefined") { return; }
      var figure = JSON.parse(source.textContent);
      Plotly.newPlot(el, figure.data, figure.layout, {
        responsive: true, displayModeBar: false, displaylogo: false
      }).then(function () { el.dataset.rendered = "true"; });
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", draw);
  } else {
    draw();
  }
})();

// Manual seeding: drag a row to reorder; the seed numbers follow the rows' order.
(function () {
  "use strict";
  var body = document.querySelector("#seeding tbody"), dragged = null;
  if (!body) { return; }
  function renumber() {
    body.querySelectorAll(".seed-input").forEach(function (input, i) { input.value = i + 1; });
  }
  body.addEventListener("dragstart", function (e) { dragged = e.target.closest("tr"); });
  body.addEventListener("dragover", function (e) { e.preventDefault(); });
  body.addEventListener("drop", function (e) {
    e.preventDefault();
    var row = e.target.closest("tr");
    if (dragged && row && row !== dragged) { body.insertBefore(dragged, row.nextSibling === dragged ? row : row); renumber(); }
  });
})();

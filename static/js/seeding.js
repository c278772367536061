// The seeding page's manual order: drag a row, the seed numbers follow (no inline script:
// the Content-Security-Policy allows scripts from the site only).
(function () {
  var body = document.querySelector("#seeding[data-manual] tbody"), dragged = null;
  if (!body) return;
  function renumber() { body.querySelectorAll(".seed-input").forEach(function (input, i) { input.value = i + 1; }); }
  body.addEventListener("dragstart", function (e) { dragged = e.target.closest("tr"); });
  body.addEventListener("dragover", function (e) { e.preventDefault(); });
  body.addEventListener("drop", function (e) {
    e.preventDefault();
    var row = e.target.closest("tr");
    if (dragged && row && row !== dragged) { body.insertBefore(dragged, row); renumber(); }
  });
})();

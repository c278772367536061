// A form is sent once: its submit buttons are disabled while the next page loads, so a double
// click does not send it twice ("Result recorded. Result recorded.", issue 35). The clicked
// button's name and value still go with the form (a hidden copy), as the server reads them.
(function () {
  "use strict";
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!(form instanceof HTMLFormElement) || form.method.toLowerCase() !== "post") { return; }
    if (form.dataset.sent === "true") { e.preventDefault(); return; }
    form.dataset.sent = "true";
    var clicked = e.submitter;
    if (clicked && clicked.name) {
      var copy = document.createElement("input");
      copy.type = "hidden"; copy.name = clicked.name; copy.value = clicked.value;
      form.appendChild(copy);
    }
    window.setTimeout(function () {
      form.querySelectorAll("button[type=submit], input[type=submit]").forEach(function (b) {
        b.disabled = true;
      });
    }, 0);
  });
  // back to a page from the browser's cache: its forms may be sent again
  window.addEventListener("pageshow", function () {
    document.querySelectorAll("form[data-sent]").forEach(function (form) {
      delete form.dataset.sent;
      form.querySelectorAll("button[type=submit], input[type=submit]").forEach(function (b) {
        b.disabled = false;
      });
    });
  });
})();

// A <select data-autosubmit> sends its form when changed (instead of an inline onchange).
document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
  select.addEventListener("change", function () { select.form.submit(); });
});

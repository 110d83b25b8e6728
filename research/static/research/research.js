// The research page's download form: only the filters the chosen table takes are
// shown (and sent), and gzip only for CSV. Without this script every field shows
// and the server names a filter that does not apply beside it.
(() => {
  const form = document.getElementById("export-form");
  if (!form) return;
  const table = form.querySelector("#table");
  const format = form.querySelector("#f-format");

  function show(field, visible) {
    field.hidden = !visible;
    for (const control of field.querySelectorAll("input, select")) control.disabled = !visible;
  }

  function update() {
    const option = table.selectedOptions[0];
    const names = new Set(option ? option.dataset.filters.split(" ") : []);
    for (const field of form.querySelectorAll(".research-filters [data-filter]")) {
      const invalid = field.querySelector('[aria-invalid="true"]');
      show(field, names.has(field.dataset.filter) || invalid !== null);
    }
    const gzip = form.querySelector('[data-filter="gzip"]');
    show(gzip, format.value === "csv" || gzip.querySelector('[aria-invalid="true"]') !== null);
  }

  table.addEventListener("change", update);
  format.addEventListener("change", update);
  update();
})();

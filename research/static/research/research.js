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

  // Preview reloads the page: land at the preview, not at the top of the form above it.
  // A preview refused for a filter has no preview: land at the form and its errors then.
  form.addEventListener("submit", (event) => {
    const preview = event.submitter && event.submitter.name === "preview";
    form.action = form.action.split("#")[0] + (preview ? "#preview-title" : "#download-title");
  });
  if (window.location.hash === "#preview-title" && !document.getElementById("preview-title")) {
    document.getElementById("download-title").scrollIntoView();
  }
})();

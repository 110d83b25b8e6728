// The download form: sends the filled-in filters to the chosen table's CSV link.
const form = document.getElementById("export-form");
if (form) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const target = data.get("table");
    const query = new URLSearchParams();
    for (const [name, value] of data.entries()) {
      if (name !== "table" && String(value).trim() !== "") query.append(name, String(value).trim());
    }
    const text = query.toString();
    window.location.assign(text ? `${target}?${text}` : target);
  });
}

// Step-through replay of a puzzle attempt on its admin page.
const root = document.getElementById("pz-replay");
const data = JSON.parse(document.getElementById("pz-replay-data").textContent);
const slider = root.querySelector('[data-go="slider"]');
const output = root.querySelector("output");
const body = root.querySelector("tbody");
const note = root.querySelector(".pz-replay-action");
const last = data.grids.length - 1;
slider.max = String(last);
let step = last;

function describe(action) {
  if (!action) return "Before the first action.";
  const parts = [`#${action.step} ${action.kind}`, JSON.stringify(action.payload)];
  if (action.technique) parts.push(`technique: ${action.technique}`);
  if (action.correct === false) parts.push("(wrong value)");
  parts.push(`at ${(action.elapsed_ms / 1000).toFixed(1)} s`);
  return parts.join(" ");
}

function render() {
  const grid = data.grids[step];
  const before = step > 0 ? data.grids[step - 1] : grid;
  body.replaceChildren();
  grid.forEach((row, r) => {
    const tr = document.createElement("tr");
    row.forEach((value, c) => {
      const td = document.createElement("td");
      td.textContent = value ? String(value) : "";
      if (before[r][c] !== value) td.classList.add("pz-changed");
      if (value && value !== data.solution[r][c]) td.classList.add("pz-wrong");
      if (data.grids[0][r][c]) td.classList.add("pz-given");
      tr.append(td);
    });
    body.append(tr);
  });
  slider.value = String(step);
  output.textContent = `step ${step} of ${last}`;
  note.textContent = describe(data.actions[step - 1]);
}

root.addEventListener("click", (event) => {
  const go = event.target.dataset?.go;
  if (go === "first") step = 0;
  else if (go === "prev") step = Math.max(0, step - 1);
  else if (go === "next") step = Math.min(last, step + 1);
  else if (go === "last") step = last;
  else return;
  render();
});
slider.addEventListener("input", () => {
  step = Number(slider.value);
  render();
});
render();

// Step-through replay of a puzzle attempt on its admin page. The step controls are
// games/admin-replay-steps.js, loaded first.
const root = document.getElementById("pz-replay");
const data = JSON.parse(document.getElementById("pz-replay-data").textContent);
const output = root.querySelector("output");
const body = root.querySelector("tbody");
const note = root.querySelector(".pz-replay-action");
const last = data.grids.length - 1;

function describe(action) {
  if (!action) return "Before the first action.";
  const parts = [`#${action.step} ${action.kind}`, JSON.stringify(action.payload)];
  if (action.technique) parts.push(`technique: ${action.technique}`);
  if (action.correct === false) parts.push("(wrong value)");
  parts.push(`at ${(action.elapsed_ms / 1000).toFixed(1)} s`);
  return parts.join(" ");
}

function render(step) {
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
  output.textContent = `step ${step} of ${last}`;
  note.textContent = describe(data.actions[step - 1]);
}

window.replaySteps({ root, count: data.grids.length, start: last, render });

// Step-through replay of a 2mino attempt on its admin page: the symbols, the bars drawn
// (thick borders; locked bars in blue) and the pairs formed (green) at every step. The step
// controls are games/admin-replay-steps.js, loaded first.
const root = document.getElementById("pz-replay");
const data = JSON.parse(document.getElementById("pz-replay-data").textContent);
const output = root.querySelector("output");
const body = root.querySelector("tbody");
const note = root.querySelector(".pz-replay-action");
const last = data.states.length - 1;
const grid = data.puzzle.grid;
const locked = new Set(data.puzzle.locked_bars.map((b) => `${b.a[0]},${b.a[1]},${b.b[0]},${b.b[1]}`));

function describe(action) {
  if (!action) return "Before the first action.";
  return `#${action.step} ${action.kind} ${JSON.stringify(action.payload)} at ${(action.elapsed_ms / 1000).toFixed(1)} s`;
}

function render(step) {
  const state = data.states[step];
  const on = new Set(state.bars.map((b) => b.join(",")));
  const formed = new Set();
  for (const [r1, c1, r2, c2] of state.formed) {
    formed.add(`${r1},${c1}`);
    formed.add(`${r2},${c2}`);
  }
  const side = (r1, c1, r2, c2) => {
    const k = `${r1},${c1},${r2},${c2}`;
    return locked.has(k) ? "locked" : on.has(k) ? "on" : "";
  };
  body.replaceChildren();
  grid.forEach((row, r) => {
    const tr = document.createElement("tr");
    row.forEach((symbol, c) => {
      const td = document.createElement("td");
      td.textContent = String(symbol);
      if (formed.has(`${r},${c}`)) td.classList.add("pz-formed");
      const right = c + 1 < row.length ? side(r, c, r, c + 1) : "";
      const down = r + 1 < grid.length ? side(r, c, r + 1, c) : "";
      if (right) td.classList.add(`pz-right-${right}`);
      if (down) td.classList.add(`pz-down-${down}`);
      tr.append(td);
    });
    body.append(tr);
  });
  output.textContent = `step ${step} of ${last}`;
  note.textContent = describe(data.actions[step - 1]);
}

window.replaySteps({ root, count: data.states.length, start: last, render });

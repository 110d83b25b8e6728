// Step-through replay of a recorded game (the admin and the research page): one board per
// step. The step controls are games/admin-replay-steps.js, loaded first.
(() => {
  const root = document.getElementById("replay");
  const source = document.getElementById("replay-data");
  if (!root || !source) return;
  const data = JSON.parse(source.textContent);
  const boards = data.boards;
  const size = data.size;
  const tbody = root.querySelector("tbody");
  const showGroups = root.querySelector('[data-go="groups"]');
  const output = root.querySelector("output");
  const comment = root.querySelector(".replay-comment");

  function render(index) {
    const board = boards[index];
    tbody.replaceChildren();
    if (!board) {
      output.textContent = "no boards stored";
      return;
    }
    for (let row = 0; row < size; row += 1) {
      const tr = document.createElement("tr");
      for (let col = 0; col < size; col += 1) {
        const cell = board.cells[row * size + col];
        const td = document.createElement("td");
        td.textContent = cell === "0" ? "·" : cell;
        if (cell === "0") td.className = "empty";
        if (showGroups.checked && cell !== "0") {
          const group = document.createElement("small");
          group.textContent = String(board.groups[row * size + col]);
          td.append(group);
        }
        tr.append(td);
      }
      tbody.append(tr);
    }
    output.textContent = `board ${index + 1} of ${boards.length}: step ${board.step}, t = ${board.t}`;
    comment.textContent = board.comment || "";
  }

  const steps = window.replaySteps({ root, count: boards.length, render });
  showGroups.addEventListener("change", steps.redraw);
})();

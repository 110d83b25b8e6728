// Step-through replay of a recorded game in the admin: one board per step.
(() => {
  const root = document.getElementById("replay");
  const source = document.getElementById("replay-data");
  if (!root || !source) return;
  const data = JSON.parse(source.textContent);
  const boards = data.boards;
  const size = data.size;
  const tbody = root.querySelector("tbody");
  const slider = root.querySelector('[data-go="slider"]');
  const showGroups = root.querySelector('[data-go="groups"]');
  const output = root.querySelector("output");
  const comment = root.querySelector(".replay-comment");
  let index = 0;
  slider.max = String(Math.max(boards.length - 1, 0));

  function render() {
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
    slider.value = String(index);
    output.textContent = `board ${index + 1} of ${boards.length}: step ${board.step}, t = ${board.t}`;
    comment.textContent = board.comment || "";
  }

  root.addEventListener("click", (event) => {
    const go = event.target.dataset ? event.target.dataset.go : undefined;
    if (go === "first") index = 0;
    else if (go === "prev") index = Math.max(0, index - 1);
    else if (go === "next") index = Math.min(boards.length - 1, index + 1);
    else if (go === "last") index = boards.length - 1;
    else return;
    render();
  });
  slider.addEventListener("input", () => { index = Number(slider.value); render(); });
  showGroups.addEventListener("change", render);
  render();
})();

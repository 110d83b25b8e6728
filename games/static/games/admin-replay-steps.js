// The step controls shared by the replays (a game's boards in the admin and on its research
// page, a puzzle attempt in the admin): the |< < > >| buttons (data-go="first", "prev",
// "next", "last") and the slider (data-go="slider") inside `root`. Loaded before the replay
// scripts, which call window.replaySteps with the number of steps, the step to show first and
// a function that draws step i; it returns { redraw } to draw the current step again.
window.replaySteps = function replaySteps({ root, count, start = 0, render }) {
  const slider = root.querySelector('[data-go="slider"]');
  const last = Math.max(count - 1, 0);
  let index = Math.min(Math.max(start, 0), last);
  slider.max = String(last);

  function show() {
    slider.value = String(index);
    render(index);
  }

  root.addEventListener("click", (event) => {
    const go = event.target.dataset ? event.target.dataset.go : undefined;
    if (go === "first") index = 0;
    else if (go === "prev") index = Math.max(0, index - 1);
    else if (go === "next") index = Math.min(last, index + 1);
    else if (go === "last") index = last;
    else return;
    show();
  });
  slider.addEventListener("input", () => {
    index = Number(slider.value);
    show();
  });
  show();
  return { redraw: show };
};

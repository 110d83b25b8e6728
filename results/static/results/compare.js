// The comparison pages: a table wider than its box says so ("Scroll sideways for more columns").
const boxes = [...document.querySelectorAll(".table-scroll")];

function markOverflow() {
  for (const box of boxes) {
    const hint = box.querySelector(".scroll-hint");
    const overflowing = box.scrollWidth > box.clientWidth + 1;
    box.dataset.overflowing = String(overflowing);
    if (hint) hint.hidden = !overflowing;
  }
}

markOverflow();
window.addEventListener("resize", markOverflow);

// Drawing helpers around uPlot: colours from the site's palette, x values shared
// by several curves, confidence bands, keyboard-usable legends and resizing.

import uPlot from "./vendor/uplot/uPlot.esm.js";

// Distinguishable on both the light and the dark background (checked for 3:1 contrast).
const LIGHT = ["#2f3fb8", "#b42318", "#1b7a43", "#8a5a00", "#7a2c91", "#006d77", "#c2410c", "#4b5563"];
const DARK = ["#8d9bff", "#ff7a6e", "#5fd08f", "#ffc857", "#d59cf0", "#5ad1dc", "#ffb36b", "#c4c9d4"];

const dark = () => window.matchMedia("(prefers-color-scheme: dark)").matches;

export function colour(index) {
  const palette = dark() ? DARK : LIGHT;
  return palette[index % palette.length];
}

export function translucent(hex, alpha) {
  const value = parseInt(hex.slice(1), 16);
  return `rgba(${value >> 16}, ${(value >> 8) & 255}, ${value & 255}, ${alpha})`;
}

function cssVariable(name) {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || "#888";
}

/** The sorted union of several arrays of x values. */
export function unionX(lists) {
  const all = new Set();
  for (const list of lists) for (const x of list) all.add(x);
  return [...all].sort((a, b) => a - b);
}

/**
 * Values of one curve at the shared xs: null outside its own xs, or, for a step
 * function (`carry`), the last value carried forward up to the curve's last x.
 */
export function alignTo(xs, ownXs, values, { carry = false } = {}) {
  const at = new Map(ownXs.map((x, i) => [x, values[i]]));
  const last = ownXs.length ? ownXs[ownXs.length - 1] : -Infinity;
  let current = null;
  return xs.map((x) => {
    if (at.has(x)) {
      current = at.get(x);
      return current;
    }
    return carry && x <= last ? current : null;
  });
}

function axis(label, extra = {}) {
  const ink = cssVariable("--muted");
  const line = cssVariable("--line");
  return {
    label,
    stroke: ink,
    grid: { stroke: line, width: 1 },
    ticks: { stroke: line, width: 1 },
    labelFont: "600 12px system-ui, sans-serif",
    font: "12px system-ui, sans-serif",
    ...extra,
  };
}

// uPlot's legend rows toggle a series on click; make them reachable and usable by keyboard.
function keyboardLegend(plot) {
  plot.root.querySelectorAll(".u-legend .u-series").forEach((row, index) => {
    if (index === 0) return; // the x value
    // The edges of a confidence band are series too; the band is drawn, their rows are noise.
    if (plot.series[index].label.endsWith("95%")) {
      row.hidden = true;
      return;
    }
    row.tabIndex = 0;
    row.setAttribute("role", "button");
    const sync = () => row.setAttribute("aria-pressed", String(!row.classList.contains("u-off")));
    sync();
    row.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        // uPlot listens on the label cell, not on the row.
        (row.querySelector(".u-label") || row).click();
      }
    });
    row.addEventListener("click", () => window.requestAnimationFrame(sync));
  });
}

const plots = new Set();
let resizeObserver = null;

function heightFor(width) {
  return Math.max(220, Math.min(360, Math.round(width * 0.55)));
}

/**
 * Draw a uPlot chart into `container`, sized to it and redrawn when it resizes.
 * `options` are uPlot's options without width and height.
 */
export function draw(container, options, data) {
  container.replaceChildren();
  const width = Math.max(260, container.clientWidth);
  const plot = new uPlot({ width, height: heightFor(width), ...options }, data, container);
  keyboardLegend(plot);
  plots.add(plot);
  if (!resizeObserver && "ResizeObserver" in window) {
    resizeObserver = new ResizeObserver(() => {
      for (const each of plots) {
        const box = each.root.parentElement;
        if (!box || !box.isConnected) {
          plots.delete(each);
          continue;
        }
        const w = Math.max(260, box.clientWidth);
        if (Math.abs(w - each.width) > 4) each.setSize({ width: w, height: heightFor(w) });
      }
    });
  }
  resizeObserver?.observe(container);
  container.dataset.drawn = "true";
  return plot;
}

export { axis, uPlot };

// Drawing helpers around uPlot: a colour-blind-safe palette, x values shared by several
// curves, confidence bands, a legend of buttons that toggle curves and show the values at
// the cursor (mouse or arrow keys), marks drawn over the plot, and the plot as SVG or PNG.

import uPlot from "./vendor/uplot/uPlot.esm.min.js";

// The Okabe-Ito palette (Okabe & Ito, "Color Universal Design", 2002; as in Wong,
// "Points of view: Color blindness", Nature Methods 8, 441, 2011): distinct for the common
// kinds of colour blindness. Ordered for lines on a light background (yellow, faint on
// white, comes last); on the dark background black becomes white.
const OKABE_ITO = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"];

const dark = () => window.matchMedia("(prefers-color-scheme: dark)").matches;

export function colour(index) {
  const value = OKABE_ITO[index % OKABE_ITO.length];
  return value === "#000000" && dark() ? "#FFFFFF" : value;
}

export function translucent(hex, alpha) {
  const value = parseInt(hex.slice(1), 16);
  return `rgba(${value >> 16}, ${(value >> 8) & 255}, ${value & 255}, ${alpha})`;
}

function cssVariable(name, fallback = "#888") {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
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

export function axis(label, extra = {}) {
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

/** A curve. `kind` is how the SVG export draws it: line, step, bars or points. */
export function series(label, stroke, extra = {}) {
  // uPlot turns `stroke` into a function: `colour` keeps the colour for the legend and SVG.
  // uPlot turns `points.show` into a function as well: `dots` says whether the SVG draws them.
  const dots = Boolean(extra.points?.show);
  return { label, stroke, colour: stroke, width: 2, points: { show: false }, kind: "line", dots, ...extra };
}

/** Markers only: no line between them. */
export function markers(label, stroke, size = 11) {
  return {
    label, stroke, colour: stroke, width: 0, kind: "points", dots: true, paths: () => null,
    points: { show: true, size, width: 2, fill: stroke },
  };
}

/** An invisible series holding one edge of the confidence band of series `of`. */
export function edge(label, of, extra = {}) {
  return { label, stroke: "transparent", points: { show: false }, edge: true, of, ...extra };
}

/**
 * A curve with its 95% band: pushes the curve and its two edges to `columns` and
 * `options`, and the band to `bands`. `values`, `lower`, `upper` are aligned to the xs.
 */
export function withBand(columns, options, bands, curve, values, lower, upper, alpha = 0.14) {
  columns.push(values);
  options.push(curve);
  const of = options.length - 1;
  const { paths, spanGaps, kind } = curve;
  const shape = { ...(paths ? { paths } : {}), ...(spanGaps ? { spanGaps } : {}), kind };
  columns.push(upper);
  options.push(edge(`${curve.label} upper 95%`, of, shape));
  columns.push(lower);
  options.push(edge(`${curve.label} lower 95%`, of, shape));
  // uPlot turns `fill` into a function too: `tint` keeps it for the SVG.
  const fill = translucent(curve.colour, alpha);
  bands.push({ series: [of + 1, of + 2], fill, tint: fill });
}

// -- marks over the plot: vertical lines and shaded x ranges --------------------------------

function drawMarks(u, marks) {
  const { ctx } = u;
  const top = u.bbox.top;
  const height = u.bbox.height;
  const ratio = uPlot.pxRatio;
  ctx.save();
  for (const mark of marks) {
    if (mark.kind === "range") {
      const x0 = u.valToPos(mark.from, "x", true);
      const x1 = u.valToPos(mark.to, "x", true);
      ctx.fillStyle = translucent(mark.colour, mark.alpha);
      ctx.fillRect(Math.min(x0, x1), top, Math.max(2, Math.abs(x1 - x0)), height);
    } else {
      const x = u.valToPos(mark.x, "x", true);
      ctx.strokeStyle = mark.colour;
      ctx.lineWidth = 2 * ratio;
      ctx.setLineDash(mark.dash.map((d) => d * ratio));
      ctx.beginPath();
      ctx.moveTo(x, top);
      ctx.lineTo(x, top + height);
      ctx.stroke();
      ctx.setLineDash([]);
      if (mark.label) {
        // The line in its colour, its label in the ink colour: light colours are faint as text.
        // The label goes right of the line, or left of it where it would leave the plot, on
        // a backing of the card's colour so that lines under it do not cross it out.
        ctx.font = `${12 * ratio}px sans-serif`;
        const width = ctx.measureText(mark.label).width;
        const right = x + 4 * ratio + width <= u.bbox.left + u.bbox.width;
        const start = right ? x + 4 * ratio : x - 4 * ratio - width;
        const baseline = top + height - 6 * ratio;
        ctx.globalAlpha = 0.85;
        ctx.fillStyle = cssVariable("--surface", "#ffffff");
        ctx.fillRect(start - 2 * ratio, baseline - 12 * ratio, width + 4 * ratio, 16 * ratio);
        ctx.globalAlpha = 1;
        ctx.fillStyle = cssVariable("--ink");
        ctx.textAlign = "left";
        ctx.textBaseline = "alphabetic";
        ctx.fillText(mark.label, start, baseline);
      }
    }
  }
  ctx.restore();
}

// -- the legend ---------------------------------------------------------------------------

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

function lastIndex(plot) {
  const xs = plot.data[0];
  for (let i = xs.length - 1; i >= 0; i--) {
    if (plot.series.some((s, k) => k > 0 && s.show && !s.edge && plot.data[k][i] != null)) return i;
  }
  return xs.length - 1;
}

/**
 * Buttons that hide and show each curve (with its band), each showing the curve's value
 * at the cursor, or at the last x when the cursor is off the plot.
 */
function buildLegend(plot, legend, readout, describe) {
  const entries = [];
  const at = element("p", { class: "legend-at" });
  const list = element("div", { class: "legend-items", role: "group", "aria-label": "Curves: press to hide or show" });
  plot.series.forEach((s, index) => {
    if (index === 0 || s.edge) return;
    const swatch = element("span", { class: `legend-swatch legend-${s.kind}`, "aria-hidden": "true" });
    swatch.style.setProperty("--swatch", s.colour);
    if (s.dash) swatch.classList.add("legend-dashed");
    const value = element("span", { class: "legend-value" });
    const button = element(
      "button",
      { type: "button", class: "legend-item", "aria-pressed": "true", "data-series": String(index) },
      swatch,
      element("span", { class: "legend-name" }, s.label),
      value,
    );
    button.addEventListener("click", () => {
      const show = button.getAttribute("aria-pressed") !== "true";
      plot.batch(() => {
        plot.setSeries(index, { show });
        plot.series.forEach((other, k) => {
          if (other.of === index) plot.setSeries(k, { show });
        });
      });
      button.setAttribute("aria-pressed", String(show));
      update(plot.cursor.idx);
    });
    entries.push({ index, value });
    list.append(button);
  });
  legend.replaceChildren(at, list);

  function update(idx) {
    const i = idx ?? lastIndex(plot);
    const x = plot.data[0][i];
    at.textContent = x === undefined ? "" : `${idx == null ? "Last values, at " : "At "}${describe.x(x)}:`;
    for (const { index, value } of entries) {
      const v = plot.data[index][i];
      value.textContent = plot.series[index].show ? (v == null ? "no value" : describe.y(v, index)) : "hidden";
    }
  }

  // Arrow keys on the plot move the cursor from x to x; the readout says the values.
  const area = plot.root.parentElement;
  let keyIdx = null;
  const onKey = (event) => {
    const xs = plot.data[0];
    if (!xs.length) return;
    const moves = { ArrowRight: 1, ArrowLeft: -1, Home: -Infinity, End: Infinity };
    if (!(event.key in moves)) {
      if (event.key === "Escape") {
        keyIdx = null;
        plot.setCursor({ left: -10, top: -10 });
        readout.textContent = "";
      }
      return;
    }
    event.preventDefault();
    const step = moves[event.key];
    const start = keyIdx ?? (step > 0 ? -1 : xs.length);
    keyIdx = Math.max(0, Math.min(xs.length - 1, Number.isFinite(step) ? start + step : step > 0 ? xs.length - 1 : 0));
    const left = plot.valToPos(xs[keyIdx], "x");
    plot.setCursor({ left, top: plot.bbox.height / uPlot.pxRatio / 2 });
    readout.textContent = `${at.textContent} ${entries
      .filter(({ index }) => plot.series[index].show)
      .map(({ index, value }) => `${plot.series[index].label}: ${value.textContent}`)
      .join("; ")}.`;
  };
  // One handler per plot area: a redraw (another curve group) replaces the last one's.
  if (area.plotKeys) area.removeEventListener("keydown", area.plotKeys);
  area.plotKeys = onKey;
  area.addEventListener("keydown", onKey);
  update(null);
  return update;
}

// -- drawing and resizing -------------------------------------------------------------------

const plots = new Set();
let resizeObserver = null;

function heightFor(width) {
  return Math.max(220, Math.min(360, Math.round(width * 0.55)));
}

let measure = null;

/**
 * The first of `labels` that fits along the y axis of a plot drawn `width` pixels wide (the
 * axis labels' font, the plot's height less its margins), or the last one: a phone's plot is
 * too short for a long label.
 */
export function fitLabel(width, labels) {
  measure ??= document.createElement("canvas").getContext("2d");
  measure.font = "600 12px system-ui, sans-serif";
  // The label is centred on the plot area, which is the height less the x axis below it
  // (about 100 px on a phone): beyond that the label is cut at the top.
  const room = heightFor(Math.max(260, width)) - 80;
  return labels.find((label) => measure.measureText(label).width <= room) ?? labels[labels.length - 1];
}

/**
 * Draw a uPlot chart into `container`, sized to it and redrawn when it resizes, with its
 * legend in `legend`. `options` are uPlot's options without width and height; `marks`
 * are lines and ranges over the plot; `describe` formats x and y values for the legend.
 */
export function draw(container, options, data, { legend, readout, marks = [], describe }) {
  container.plot?.destroy();
  container.replaceChildren();
  const width = Math.max(260, container.clientWidth);
  const hooks = { ...(options.hooks || {}) };
  let update = () => {};
  hooks.draw = [...(hooks.draw || []), (u) => drawMarks(u, marks)];
  hooks.setCursor = [...(hooks.setCursor || []), (u) => update(u.cursor.idx)];
  const plot = new uPlot(
    { width, height: heightFor(width), ...options, hooks, legend: { show: false } },
    data,
    container,
  );
  plot.root.querySelectorAll("canvas").forEach((c) => c.setAttribute("aria-hidden", "true"));
  plot.marks = marks;
  container.plot = plot;
  update = buildLegend(plot, legend, readout, describe);
  plots.add(plot);
  if (!resizeObserver && "ResizeObserver" in window) {
    resizeObserver = new ResizeObserver(() => {
      for (const each of plots) {
        const box = each.root.parentElement;
        if (!box || !box.isConnected || !box.contains(each.root)) {
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

// -- export as SVG and PNG ------------------------------------------------------------------

function escapeXML(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]);
}

function n(value) {
  return Math.round(value * 100) / 100;
}

/** Lines of at most `chars` characters, broken at spaces. */
function wrap(text, chars) {
  const lines = [];
  let line = "";
  for (const word of String(text).split(/\s+/)) {
    if (line && line.length + 1 + word.length > chars) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** The points of series `k` in the plot area's coordinates, broken into runs at gaps. */
function runs(u, k) {
  const xs = u.data[0];
  const ys = u.data[k];
  const s = u.series[k];
  const out = [];
  let run = [];
  for (let i = 0; i < xs.length; i++) {
    if (ys[i] == null) {
      if (!s.spanGaps && run.length) {
        out.push(run);
        run = [];
      }
      continue;
    }
    run.push([u.valToPos(xs[i], "x"), u.valToPos(ys[i], s.scale || "y")]);
  }
  if (run.length) out.push(run);
  return out;
}

/** The corners of a run as drawn: a step function holds each value until the next x. */
function vertices(run, kind) {
  if (kind !== "step") return run;
  const out = [];
  run.forEach(([x, y], i) => {
    if (i > 0) out.push([x, run[i - 1][1]]);
    out.push([x, y]);
  });
  return out;
}

function pathOf(points) {
  return `M${points.map(([x, y]) => `${n(x)},${n(y)}`).join("L")}`;
}

/** The plot as a standalone SVG document: title, axes, curves, bands, marks, legend, caption. */
export function plotSVG(u, { title, caption }) {
  const ink = cssVariable("--ink", "#1a2030");
  const muted = cssVariable("--muted", "#525b6b");
  const line = cssVariable("--line", "#dedad0");
  const background = cssVariable("--surface", "#ffffff");
  const ratio = uPlot.pxRatio;
  const W = u.width;
  const left = u.bbox.left / ratio;
  const top = u.bbox.top / ratio;
  const width = u.bbox.width / ratio;
  const height = u.bbox.height / ratio;
  const head = 30;
  const shown = u.series.map((s, k) => [s, k]).filter(([s, k]) => k > 0 && s.show && !s.edge);
  const legendLines = [];
  let row = [];
  let used = 0;
  for (const [s] of shown) {
    const w = 40 + 7.5 * s.label.length;
    if (row.length && used + w > W - 16) {
      legendLines.push(row);
      row = [];
      used = 0;
    }
    row.push([s, used]);
    used += w;
  }
  if (row.length) legendLines.push(row);
  const captionLines = caption ? wrap(caption, Math.max(30, Math.floor((W - 16) / 6.6))) : [];
  // Under the x axis's label (uPlot leaves more room below the plot than the SVG needs).
  const legendTop = head + Math.min(u.height, top + height + 44) + 6;
  const captionTop = legendTop + legendLines.length * 20 + 8;
  const H = captionTop + captionLines.length * 17 + 8;
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui, sans-serif">`);
  out.push(`<title>${escapeXML(title)}</title>`);
  out.push(`<rect width="${W}" height="${H}" fill="${background}"/>`);
  out.push(`<text x="8" y="20" font-size="15" font-weight="600" fill="${ink}">${escapeXML(title)}</text>`);
  out.push(`<g transform="translate(0 ${head})">`);
  // Axes: grid, ticks and their values, and the axis label.
  u.axes.forEach((a) => {
    if (a.show === false || !a._splits) return;
    const scale = a.scale || (a.side % 2 ? "y" : "x");
    const horizontal = a.side % 2 === 0;
    a._splits.forEach((v, i) => {
      const p = u.valToPos(v, scale);
      const label = a._values?.[i] ?? "";
      if (horizontal) {
        const x = n(left + p);
        if (a.grid?.show !== false) out.push(`<line x1="${x}" y1="${n(top)}" x2="${x}" y2="${n(top + height)}" stroke="${line}"/>`);
        out.push(`<text x="${x}" y="${n(top + height + 16)}" font-size="12" text-anchor="middle" fill="${muted}">${escapeXML(label)}</text>`);
      } else {
        const y = n(top + p);
        if (a.grid?.show !== false) out.push(`<line x1="${n(left)}" y1="${y}" x2="${n(left + width)}" y2="${y}" stroke="${line}"/>`);
        const right = a.side === 1;
        out.push(`<text x="${n(right ? left + width + 6 : left - 6)}" y="${y}" dy="4" font-size="12" text-anchor="${right ? "start" : "end"}" fill="${muted}">${escapeXML(label)}</text>`);
      }
    });
    if (a.label) {
      if (horizontal) {
        out.push(`<text x="${n(left + width / 2)}" y="${n(top + height + 36)}" font-size="12" font-weight="600" text-anchor="middle" fill="${muted}">${escapeXML(a.label)}</text>`);
      } else {
        const x = a.side === 1 ? W - 8 : 14;
        // A label longer than the plot is tall is squeezed to its height.
        const squeeze = 7 * a.label.length > height ? ` textLength="${n(height)}" lengthAdjust="spacingAndGlyphs"` : "";
        out.push(`<text transform="translate(${x} ${n(top + height / 2)}) rotate(${a.side === 1 ? 90 : -90})" font-size="12" font-weight="600" text-anchor="middle" fill="${muted}"${squeeze}>${escapeXML(a.label)}</text>`);
      }
    }
  });
  out.push(`<rect x="${n(left)}" y="${n(top)}" width="${n(width)}" height="${n(height)}" fill="none" stroke="${line}"/>`);
  out.push(`<clipPath id="area"><rect x="${n(left)}" y="${n(top)}" width="${n(width)}" height="${n(height)}"/></clipPath>`);
  out.push(`<g clip-path="url(#area)"><g transform="translate(${n(left)} ${n(top)})">`);
  // Marks under the curves, as on the canvas: shaded ranges first.
  for (const mark of u.marks || []) {
    if (mark.kind !== "range") continue;
    const x0 = u.valToPos(mark.from, "x");
    const x1 = u.valToPos(mark.to, "x");
    out.push(`<rect x="${n(Math.min(x0, x1))}" y="0" width="${n(Math.max(2, Math.abs(x1 - x0)))}" height="${n(height)}" fill="${mark.colour}" fill-opacity="${mark.alpha}"/>`);
  }
  // Bands: the area between the two edges of each shown curve.
  for (const band of u.bands || []) {
    const [upper, lower] = band.series;
    if (!u.series[upper].show || !u.series[lower].show) continue;
    const kind = u.series[upper].kind;
    const above = runs(u, upper).flatMap((run) => vertices(run, kind));
    const below = runs(u, lower).flatMap((run) => vertices(run, kind)).reverse();
    if (!above.length || !below.length) continue;
    out.push(`<path d="${pathOf([...above, ...below])}Z" fill="${escapeXML(band.tint)}" stroke="none"/>`);
  }
  for (const [s, k] of shown) {
    const dash = s.dash ? ` stroke-dasharray="${s.dash.join(" ")}"` : "";
    if (s.kind === "bars") {
      const xs = u.data[0];
      const barWidth = Math.max(4, Math.min(40, (0.6 * width) / Math.max(1, xs.length)));
      xs.forEach((x, i) => {
        const v = u.data[k][i];
        if (v == null) return;
        const y0 = u.valToPos(0, s.scale || "y");
        const y1 = u.valToPos(v, s.scale || "y");
        out.push(`<rect x="${n(u.valToPos(x, "x") - barWidth / 2)}" y="${n(Math.min(y0, y1))}" width="${n(barWidth)}" height="${n(Math.abs(y0 - y1))}" fill="${escapeXML(s.barFill || s.colour)}" stroke="${s.colour}"/>`);
      });
      continue;
    }
    const pieces = runs(u, k);
    if (s.kind !== "points" && s.width > 0) {
      for (const run of pieces) {
        out.push(`<path d="${pathOf(vertices(run, s.kind))}" fill="none" stroke="${s.colour}" stroke-width="${s.width}"${dash}/>`);
      }
    }
    if (s.dots) {
      const r = (s.points.size || 6) / 2;
      for (const [x, y] of pieces.flat()) {
        out.push(`<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="${s.kind === "points" ? s.colour : background}" stroke="${s.colour}" stroke-width="2"/>`);
      }
    }
  }
  for (const mark of u.marks || []) {
    if (mark.kind === "range") continue;
    const x = n(u.valToPos(mark.x, "x"));
    out.push(`<line x1="${x}" y1="0" x2="${x}" y2="${n(height)}" stroke="${mark.colour}" stroke-width="2" stroke-dasharray="${mark.dash.join(" ")}"/>`);
    if (mark.label) {
      // As on the canvas: left of the line where the label would leave the plot.
      const wide = 6.6 * mark.label.length;
      const start = x + 4 + wide <= width ? x + 4 : x - 4 - wide;
      out.push(`<rect x="${n(start - 2)}" y="${n(height - 18)}" width="${n(wide + 4)}" height="16" fill="${background}" fill-opacity="0.85"/>`);
      out.push(`<text x="${n(start)}" y="${n(height - 6)}" font-size="12" fill="${ink}">${escapeXML(mark.label)}</text>`);
    }
  }
  out.push("</g></g></g>");
  legendLines.forEach((entries, i) => {
    const y = legendTop + i * 20 + 12;
    for (const [s, x] of entries) {
      const dash = s.dash ? ` stroke-dasharray="${s.dash.join(" ")}"` : "";
      out.push(s.kind === "points"
        ? `<circle cx="${x + 16}" cy="${y - 4}" r="5" fill="${s.colour}"/>`
        : `<line x1="${x + 8}" y1="${y - 4}" x2="${x + 24}" y2="${y - 4}" stroke="${s.colour}" stroke-width="3"${dash}/>`);
      out.push(`<text x="${x + 28}" y="${y}" font-size="12" fill="${ink}">${escapeXML(s.label)}</text>`);
    }
  });
  captionLines.forEach((text, i) => {
    out.push(`<text x="8" y="${captionTop + i * 17 + 12}" font-size="12" fill="${muted}">${escapeXML(text)}</text>`);
  });
  out.push("</svg>");
  return out.join("\n");
}

function download(blob, filename) {
  const url = URL.createObjectURL(blob);
  const link = element("a", { href: url, download: filename, hidden: "" });
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadSVG(u, meta, filename) {
  download(new Blob([plotSVG(u, meta)], { type: "image/svg+xml" }), filename);
}

/** The SVG drawn on a canvas at twice the size (a data: image: the CSP allows those). */
export function downloadPNG(u, meta, filename) {
  const svg = plotSVG(u, meta);
  const image = new Image();
  return new Promise((resolve, reject) => {
    image.onload = () => {
      const scale = 2;
      const canvas = document.createElement("canvas");
      canvas.width = image.width * scale;
      canvas.height = image.height * scale;
      const ctx = canvas.getContext("2d");
      ctx.scale(scale, scale);
      ctx.drawImage(image, 0, 0);
      canvas.toBlob((blob) => {
        if (!blob) return reject(new Error("the PNG could not be made"));
        download(blob, filename);
        resolve();
      }, "image/png");
    };
    image.onerror = () => reject(new Error("the SVG could not be drawn"));
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  });
}

export { uPlot };

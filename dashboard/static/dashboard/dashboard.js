// The threshold dashboard: fetches each plot's numbers from /dashboard/data/<plot>/
// (with the page's filters) and draws it with uPlot, one curve group at a time
// (the server's `view`: the groups, the one to open on, and their captions).

import {
  alignTo, axis, colour, downloadPNG, downloadSVG, draw, fitLabel, markers, series, translucent,
  unionX, uPlot, withBand,
} from "./plots.js";

const root = document.getElementById("dashboard");
const status = document.getElementById("dashboard-status");
const query = root.dataset.query;
const DATA_URL = new URL("data/", window.location.href.split("?")[0]);

const stepped = uPlot.paths.stepped({ align: 1 });
const DAY_SECONDS = 86400;

function dayToSeconds(text) {
  return Date.parse(`${text}T00:00:00Z`) / 1000;
}

function secondsToDay(value) {
  return new Date(value * 1000).toISOString().slice(0, 10);
}

// Whole days on a time axis, labelled like "Nov 2": uPlot's own labels add hours.
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

function dayAxis(label) {
  return axis(label, {
    incrs: [1, 2, 7, 14, 28, 91, 182, 364].map((days) => days * DAY_SECONDS),
    values: (u, splits) => splits.map((v) => {
      const day = new Date(v * 1000);
      return `${MONTHS[day.getUTCMonth()]} ${day.getUTCDate()}`;
    }),
  });
}

// Days are UTC days: ticks fall on UTC midnights whatever the browser's time zone.
const utc = (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC");

// A fixed x range around the days shown: uPlot's automatic range spans years for one day.
function dayRange(xs) {
  return [xs[0] - DAY_SECONDS, xs[xs.length - 1] + DAY_SECONDS];
}

function format(value, digits = 2) {
  return value === null || value === undefined ? "–" : Number(value).toFixed(digits);
}

function percent(value) {
  return value === null || value === undefined ? "–" : `${format(100 * value, 1)}%`;
}

// An ISO timestamp of the server as "2026-11-23 14:05 UTC" (no seconds, no microseconds).
function when(iso) {
  if (!iso) return "–";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

function significant(value) {
  return Number(value).toPrecision(3);
}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/**
 * An accessible table of numbers under a plot. Its box scrolls sideways on a narrow
 * screen, so it is a labelled region that takes the keyboard focus.
 */
// Marks a table region that is wider than its box, which shows the hint above it.
const overflowing = new ResizeObserver((entries) => {
  for (const { target } of entries) {
    target.parentElement.dataset.scrolls = String(target.scrollWidth > target.clientWidth + 1);
  }
});

function table(caption, headers, rows) {
  const head = element("tr", {}, ...headers.map((h) => element("th", { scope: "col" }, h)));
  const body = rows.map((row) => element("tr", {}, ...row.map((cell) => element("td", {}, String(cell)))));
  const region = element(
    "div",
    { class: "plot-table", role: "region", tabindex: "0", "aria-label": caption },
    element("table", {}, element("caption", {}, caption), element("thead", {}, head), element("tbody", {}, ...body)),
  );
  overflowing.observe(region);
  // The hint is for the eye (the region's scroll is reached by keyboard as usual).
  return element("div", { class: "plot-table-box", "data-scrolls": "false" },
    element("p", { class: "plot-table-hint", "aria-hidden": "true" }, "More columns: scroll the table sideways →"),
    region);
}

function empty(parts, message) {
  parts.canvas.plot?.destroy();
  parts.canvas.plot = null;
  parts.canvas.replaceChildren(element("p", { class: "plot-empty" }, message));
  parts.canvas.dataset.drawn = "empty";
  parts.canvas.removeAttribute("tabindex");
  parts.legend.replaceChildren();
  parts.plot = null;
}

/** The first of `labels` that fits along the y axis of this plot (a phone's plot is short). */
function yLabel(parts, ...labels) {
  return fitLabel(parts.canvas.clientWidth, labels);
}

/** Draw the chart and keep it for the exports. */
function chart(parts, options, columns, { marks = [], x, y = (v) => significant(v) }) {
  parts.canvas.setAttribute("tabindex", "0");
  parts.plot = draw(parts.canvas, options, columns, {
    legend: parts.legend,
    readout: parts.readout,
    marks,
    describe: { x, y },
  });
}

// -- survival ---------------------------------------------------------------------

// Said over the plot when none of the group's games was lost: the curves are drawn, but a
// flat 100% line (survival) or a row of zeros under a wide band (hazard) explains nothing.
function noLossNote(parts, curves, what) {
  if (curves.some((c) => c.games > 0 && what(c))) return;
  const games = curves.reduce((sum, c) => sum + c.games, 0);
  const last = Math.max(0, ...curves.map((c) => c.rounds[c.rounds.length - 1] ?? 0));
  parts.canvas.append(element("p", { class: "plot-note", role: "note" },
    `No loss to show: none of these ${games} game${games === 1 ? "" : "s"} was lost in the ${last} round${last === 1 ? "" : "s"} recorded, ` +
    "so every curve stays at its start. Choose other curves above, or wait for more games."));
}

function drawSurvival(data, parts, group) {
  const chosen = group.members.map((i) => data.curves[i]);
  if (!chosen.length) return empty(parts, "No finished games match these filters yet.");
  const curves = chosen.map((c, i) => ({
    ...c,
    name: group.names[i],
    xs: [0, ...c.rounds],
    s: [1, ...c.survival],
    lo: [1, ...c.lower],
    hi: [1, ...c.upper],
  }));
  const mine = data.mine.filter((g) => curves.some((c) => c.label === g.label));
  const xs = unionX([...curves.map((c) => c.xs), mine.map((g) => g.rounds)]);
  const columns = [xs];
  const options = [{}];
  const bands = [];
  curves.forEach((c, i) => {
    const at = (values) => alignTo(xs, c.xs, values, { carry: true });
    withBand(columns, options, bands, series(c.name, colour(i), { paths: stepped, kind: "step" }),
      at(c.s), at(c.lo), at(c.hi), 0.15);
  });
  if (mine.length) {
    const mark = new Map();
    for (const game of mine) {
      const curve = curves.find((c) => c.label === game.label);
      mark.set(game.rounds, alignTo(xs, curve.xs, curve.s, { carry: true })[xs.indexOf(game.rounds)]);
    }
    columns.push(xs.map((x) => (mark.has(x) ? mark.get(x) : null)));
    options.push(markers("your games", colour(6)));
  }
  chart(parts, {
    scales: { x: { time: false }, y: { range: [0, 1] } },
    axes: [axis("rounds survived"), axis(yLabel(parts, "share of games still going", "share still going"))],
    series: options,
    bands,
  }, columns, { x: (v) => `round ${v}`, y: percent });
  noLossNote(parts, chosen, (c) => c.survival.some((s) => s < 1));
  parts.extra.replaceChildren(table(
    "Median lifetime per curve",
    ["curve", "games", "median (rounds)"],
    curves.map((c) => {
      const i = c.s.findIndex((s) => s !== null && s <= 0.5);
      return [c.label, c.games, i < 0 ? "not reached" : c.xs[i]];
    }),
  ));
}

function showMine(games, consented) {
  const box = document.getElementById("mine");
  if (!games.length) return;
  const best = games.reduce((a, b) => (b.rounds > a.rounds ? b : a));
  const known = games.filter((g) => g.percentile !== null);
  const text = document.getElementById("mine-summary");
  text.textContent =
    `You have ${games.length} finished game${games.length === 1 ? "" : "s"} under these filters. ` +
    `Your longest lasted ${best.rounds} rounds (score ${best.score})` +
    (best.percentile !== null ? `, longer than ${format(best.percentile, 0)}% of players' games at ${best.label}.` : ".") +
    (known.length
      ? " Your games are marked on the survival plot."
      : consented
        ? " No players' games at your rules are counted yet, so yours are not marked; the counts are refreshed every few seconds."
        : " Your games are not in the research counts (no research consent), so they are not marked.");
  box.hidden = false;
}

// -- hazard -------------------------------------------------------------------------

function drawHazard(data, parts, group) {
  const curves = group.members.map((i) => data.curves[i]);
  if (!curves.length) return empty(parts, "No finished games match these filters yet.");
  const xs = unionX(curves.map((c) => c.rounds));
  const columns = [xs];
  const options = [{}];
  const bands = [];
  curves.forEach((c, i) => {
    const stroke = colour(i);
    const at = (values) => alignTo(xs, c.rounds, values);
    withBand(columns, options, bands,
      series(group.names[i], stroke, { points: { show: true, size: 5 } }),
      at(c.hazard), at(c.lower), at(c.upper), 0.12);
    if (c.plateau) {
      const p = c.plateau;
      columns.push(xs.map((x) => (x >= p.start_round && x <= p.end_round ? p.hazard : null)));
      options.push(series(`${group.names[i]} plateau`, stroke, { dash: [6, 4] }));
    }
  });
  chart(parts, {
    scales: { x: { time: false }, y: { range: (u, min, max) => [0, Math.min(1, Math.max(0.05, max))] } },
    axes: [axis("round"), axis(yLabel(parts, "chance of losing in the round", "P(loss in round)"))],
    series: options,
    bands,
  }, columns, { x: (v) => `round ${v}`, y: (v) => format(v, 3) });
  noLossNote(parts, curves, (c) => c.hazard.some((h) => h > 0));
  parts.extra.replaceChildren(table(
    "Plateau hazard (the game's loss rate per round, not a logical error rate)",
    ["curve", "games", "plateau from round", "hazard", "95% interval"],
    curves.map((c) => c.plateau
      ? [c.label, c.games, c.plateau.start_round, format(c.plateau.hazard, 3), `${format(c.plateau.lower, 3)}–${format(c.plateau.upper, 3)}`]
      : [c.label, c.games, "–", "too few games", "–"]),
  ));
}

// -- threshold (logical failure of the planar code) and spanning (the game's rule) ------------

// A log scale cannot show 0: a point with no failure, or a band reaching 0, is drawn
// at a floor a decade below the smallest value shown (its table row keeps the 0).
function logFloor(values) {
  const positive = values.filter((v) => v !== null && v > 0);
  return positive.length ? Math.min(...positive) / 10 : 1e-4;
}

function thresholdMarks(thresholds, crossing = (t) => t.crossing) {
  const marks = [];
  thresholds.forEach((t, i) => {
    if (crossing(t) === null) return;
    if (t.lower !== null && t.upper !== null) {
      marks.push({ kind: "range", from: t.lower, to: t.upper, colour: colour(7 - (i % 2)), alpha: 0.16 });
    }
    marks.push({ kind: "line", x: crossing(t), colour: colour(6), dash: [8, 6] });
  });
  return marks;
}

const NO_SWEEP = {
  logical: "No finished planar threshold sweep yet: run one with manage.py threshold --family planar --modulus 2 --bots matching.",
  spanning: "No finished one-shot or sustained threshold sweep yet: run one with manage.py threshold --family one-shot.",
};

/** Where a logical crossing lies against the hashing bound, in words. */
function againstBound(t, bound, modulus) {
  const interval = t.lower === null || t.upper === null ? "" : ` (95% interval ${format(t.lower, 4)}–${format(t.upper, 4)}${t.at_edge ? ", at the edge of the rates swept" : ""})`;
  const gap = t.below_hashing_bound;
  const where = gap >= 0
    ? `${format(gap, 4)} below the hashing bound for d=${modulus} (p = ${format(bound, 4)}), at ${format((100 * t.crossing) / bound, 1)}% of it`
    : `${format(-gap, 4)} above the hashing bound for d=${modulus} (p = ${format(bound, 4)}), the rate random codes reach: unusual: check the sizes (small boards) and the shots`;
  return `${t.bot}: the curves cross at p = ${format(t.crossing, 4)}${interval}, ${where}.`;
}

/**
 * The threshold plots: the planar code's logical failure (`threshold`) and the game's own
 * loss rule (`spanning`), told apart by the data's `criterion`.
 */
function drawThreshold(data, parts, group) {
  const logical = data.criterion === "logical";
  const sustained = data.sweep?.family === "sustained";
  const what = logical ? "logical failure probability" : sustained ? "loss rate per round" : "spanning failure probability";
  const short = logical ? "P(logical failure)" : sustained ? what : "P(spanning failure)";
  const bound = logical && data.hashing_bound !== null ? data.hashing_bound : null;
  const chosen = group.members.map((i) => data.series[i]);
  const bots = new Set(chosen.map((s) => s.bot));
  const thresholds = data.thresholds.filter((t) => bots.has(t.bot));
  const notes = [];
  parts.canvas.dataset.criterion = data.criterion;
  if (!chosen.length) {
    empty(parts, NO_SWEEP[data.criterion]);
  } else {
    const xs = unionX([...chosen.map((s) => s.rates), data.game.map((g) => g.rate)]);
    const floor = logFloor(chosen.flatMap((s) => [...s.failure, ...s.lower]));
    const clamp = (values) => values.map((v) => (v === null ? null : Math.max(v, floor)));
    const columns = [xs];
    const options = [{}];
    const bands = [];
    chosen.forEach((s, i) => {
      const at = (values) => alignTo(xs, s.rates, clamp(values));
      withBand(columns, options, bands,
        series(group.names[i], colour(i), { points: { show: true, size: 6 }, spanGaps: true }),
        at(s.failure), at(s.lower), at(s.upper), 0.12);
    });
    const marks = [
      ...thresholdMarks(thresholds),
      ...data.game.map((g) => ({ kind: "line", x: g.rate, colour: colour(5), dash: [2, 4], label: g.label })),
    ];
    if (bound !== null) {
      marks.push({ kind: "line", x: bound, colour: colour(3), dash: [8, 4], label: `hashing bound d=${data.modulus}` });
    }
    // The x range holds the rates swept and the hashing bound.
    const span = (min, max) => {
      const lo = bound === null ? min : Math.min(min, bound);
      const hi = bound === null ? max : Math.max(max, bound);
      const pad = 0.04 * (hi - lo || 1);
      return [lo - pad, hi + pad];
    };
    chart(parts, {
      scales: {
        x: { time: false, range: (u, min, max) => span(min, max) },
        y: { distr: 3 },
      },
      axes: [axis("error rate p per edge"), axis(fitLabel(parts.canvas.clientWidth, [`${what} (log scale)`, what, short]))],
      series: options,
      bands,
    }, columns, { marks, x: (v) => `p = ${significant(v)}` });
    parts.canvas.dataset.thresholds = String(thresholds.filter((t) => t.crossing !== null).length);
    parts.canvas.dataset.hashingBound = bound === null ? "" : String(bound);
  }
  const sweep = data.sweep;
  if (sweep) {
    const done = `${sweep.shots_per_point} shots per point, finished ${when(sweep.finished_at)}`;
    if (logical) {
      notes.push(element("p", { class: "criterion-note" }, `Planar code sweep (Z_d with d=${sweep.modulus}), ${done}. A failure is a logical error: after the decoder's correction a charge has been carried from one side of the board to the other.`));
    } else {
      const perCell = sweep.moves_per_cell === null ? "" : `, ${sweep.moves_per_cell} moves per cell per round`;
      notes.push(element("p", { class: "criterion-note" }, `Threshold sweep (${sweep.family.replace("_", "-")}${perCell}), ${done}. A failure is a loss by the game's rule (a group touching two opposite sides): the game's own measure, not a logical failure rate.`));
    }
  }
  if (bound !== null) {
    notes.push(element("p", { class: "hashing-bound" }, `The dashed line is the hashing bound of this noise for d=${data.modulus}, p = ${format(bound, 4)}: the rate random codes reach, a reference rather than a ceiling (the ceiling of this code is its optimal decoder's threshold).`));
    data.thresholds.filter((t) => t.crossing !== null && t.below_hashing_bound !== null).forEach((t) => {
      notes.push(element("p", { class: "hashing-note", "data-bot": t.bot }, againstBound(t, bound, data.modulus)));
    });
  }
  data.thresholds.forEach((t) => {
    notes.push(element("p", { class: "threshold-message", "data-bot": t.bot }, `${t.bot}: ${t.message}`));
  });
  data.game.forEach((g) => {
    const above = data.thresholds.filter((t) => t.crossing !== null).map((t) => `${format(g.rate / t.crossing)}× the ${t.bot} threshold`);
    notes.push(element("p", { class: "game-mark" }, `The original game at L=${g.size}: p = ${format(g.rate, 4)} per edge per round (${format(g.errors_per_round)} errors a round over ${2 * g.size * (g.size - 1)} edges, ${g.game_rounds} game-rounds), with ${format(g.moves_per_cell, 3)} moves per cell per round${above.length ? `: ${above.join(", ")}` : ""}. The one-shot family gives the decoder unlimited moves; the game gives few.`));
  });
  const criterion = logical
    ? `logical failure of the planar code${data.modulus === null ? "" : `, d=${data.modulus}`}`
    : "spanning: the game's loss rule, not a logical failure rate";
  parts.extra.replaceChildren(
    ...notes,
    table(
      `Threshold per bot (${criterion}): crossings of adjacent-L curves and finite-size scaling`,
      ["bot", "crossing", "95% interval", "scaling p_th", "95% interval", "nu", "chi2/dof", "agree"],
      data.thresholds.map((t) => [
        t.bot,
        format(t.crossing, 4),
        t.crossing === null ? "–" : `${format(t.lower, 4)}–${format(t.upper, 4)}${t.at_edge ? " (edge)" : ""}`,
        format(t.scaling, 4),
        t.scaling === null ? "–" : `${format(t.scaling_lower, 4)}–${format(t.scaling_upper, 4)}`,
        format(t.nu),
        format(t.chi2_dof),
        t.agree === null ? "–" : t.agree ? "yes" : "no",
      ]),
    ),
  );
}

// -- lifetime against the noise budget -------------------------------------------------

function drawBudget(data, parts, group) {
  const chosen = group.members.map((i) => data.series[i]);
  if (!chosen.length && !data.humans.length) {
    return empty(parts, "No finished budget sweep yet: run one with manage.py sweep.");
  }
  const xs = unionX([...chosen.map((s) => s.budgets), data.humans.map((h) => h.noise_budget)]);
  const columns = [xs];
  const options = [{}];
  const bands = [];
  chosen.forEach((s, i) => {
    const at = (values) => alignTo(xs, s.budgets, values);
    withBand(columns, options, bands,
      series(group.names[i] || s.label, colour(i), { points: { show: true, size: 6 } }),
      at(s.mean), at(s.lower), at(s.upper), 0.12);
  });
  data.humans.forEach((h, i) => {
    columns.push(xs.map((x) => (x === h.noise_budget ? h.mean : null)));
    options.push(markers(`players L=${h.size} (${h.games} game${h.games === 1 ? "" : "s"})`, colour(chosen.length + i), 12));
  });
  const bots = new Set(chosen.map((s) => s.source));
  const thresholds = data.thresholds.filter((t) => t.budget !== null && bots.has(t.bot));
  chart(parts, {
    scales: { x: { time: false }, y: { distr: 3 } },
    axes: [axis("noise budget per round"), axis(yLabel(parts, "mean lifetime (rounds, log scale)", "mean lifetime (rounds)", "lifetime (rounds)"))],
    series: options,
    bands,
  }, columns, {
    marks: thresholdMarks(thresholds, (t) => t.budget),
    x: (v) => `budget ${v}`,
    y: (v) => `${format(v, 1)} rounds`,
  });
  const sweep = data.sweep
    ? `Sweep of ${data.sweep.games_per_point} games per point, finished ${when(data.sweep.finished_at)}.`
    : "No finished sweep yet.";
  parts.extra.replaceChildren(
    element("p", {}, sweep),
    table(
      "Estimated threshold budget per bot",
      ["bot", "threshold", "95% interval", "note"],
      data.thresholds.map((t) => [t.bot, format(t.budget), t.budget === null ? "–" : `${format(t.lower)}–${format(t.upper)}`, t.note || ""]),
    ),
  );
}

// -- lifetime against L -----------------------------------------------------------------

function drawLifetime(data, parts, group) {
  const chosen = group.members.map((i) => data.series[i]);
  if (!chosen.length) return empty(parts, "No finished games match these filters yet.");
  const xs = unionX(chosen.map((s) => s.sizes));
  const columns = [xs];
  const options = [{}];
  const bands = [];
  chosen.forEach((s, i) => {
    const at = (values) => alignTo(xs, s.sizes, values);
    withBand(columns, options, bands,
      series(group.names[i], colour(i), { points: { show: true, size: 7 }, spanGaps: true }),
      at(s.mean), at(s.lower), at(s.upper), 0.12);
  });
  chart(parts, {
    scales: { x: { time: false, range: (u, min, max) => [min - 0.5, max + 0.5] } },
    axes: [axis("board size L", { incrs: [1, 2, 4] }), axis(yLabel(parts, "mean lifetime (rounds)", "lifetime (rounds)"))],
    series: options,
    bands,
  }, columns, { x: (v) => `L = ${v}`, y: (v) => `${format(v, 1)} rounds` });
  parts.extra.replaceChildren(table(
    "Mean lifetime per board size",
    ["series", "L", "games", "mean (rounds)", "95% interval"],
    chosen.flatMap((s) => s.sizes.map((size, i) => [s.label, size, s.games[i], format(s.mean[i]), `${format(s.lower[i])}–${format(s.upper[i])}`])),
  ));
}

// -- noise ---------------------------------------------------------------------------------

function drawNoise(data, parts, group) {
  const chosen = group.members.map((i) => data.series[i]);
  if (!chosen.length) return empty(parts, "No analysed games match these filters yet.");
  const xs = unionX(chosen.map((s) => s.rounds));
  const columns = [xs];
  const options = [{}];
  chosen.forEach((s, i) => {
    const prefix = chosen.length > 1 ? `${group.names[i]}: ` : "";
    columns.push(alignTo(xs, s.rounds, s.errors));
    options.push(series(`${prefix}errors`, colour(2 * i)));
    columns.push(alignTo(xs, s.rounds, s.new_numbers));
    options.push(series(`${prefix}new numbers`, colour(2 * i + 1), { dash: [6, 4] }));
  });
  chart(parts, {
    scales: { x: { time: false } },
    axes: [axis("round"), axis(yLabel(parts, "per game, in the round", "per game and round"))],
    series: options,
  }, columns, { x: (v) => `round ${v}`, y: (v) => format(v, 2) });
  parts.extra.replaceChildren(table(
    "Mean noise per round",
    ["played by", "game-rounds", "errors", "new numbers", "0.1-weight errors"],
    data.series.map((s) => [s.source, s.games.reduce((a, b) => a + b, 0), format(s.mean_errors), format(s.mean_new_numbers), format(s.mean_light_errors)]),
  ));
}

// -- strategy ------------------------------------------------------------------------------

function drawStrategy(data, parts) {
  if (!data.days.length) {
    empty(parts, "No analysed moves match these filters yet.");
  } else {
    const xs = data.days.map(dayToSeconds);
    const columns = [xs];
    const options = [{}];
    data.classes.forEach((name, i) => {
      columns.push(data.shares[name]);
      options.push(series(name.replaceAll("_", " "), colour(i), { points: { show: true, size: 5 } }));
    });
    chart(parts, {
      tzDate: utc,
      scales: { x: { time: true, range: dayRange(xs) }, y: { range: [0, 1] } },
      axes: [dayAxis("day"), axis(yLabel(parts, `share of ${data.source === "human" ? "players'" : `the ${data.source} bot's`} moves`, "share of moves"))],
      series: options,
    }, columns, { x: secondsToDay, y: percent });
  }
  const whose = data.source === "human" ? "player's" : `${data.source}'s`;
  const note = data.stand_in
    ? [element("p", {}, `No analysed moves of players yet: showing the moves of the ${data.source} bot instead.`)]
    : [];
  parts.extra.replaceChildren(...note, table(
    `How often a ${whose} move was a bot's choice`,
    ["bot", "moves compared", "its first choice", "in its top 3"],
    data.agreements.map((a) => [
      a.bot,
      a.compared,
      `${percent(a.top1_rate)} (${percent(a.top1_lower)}–${percent(a.top1_upper)})`,
      `${percent(a.top3_rate)} (${percent(a.top3_lower)}–${percent(a.top3_upper)})`,
    ]),
  ));
}

// -- activity ------------------------------------------------------------------------------

function drawActivity(data, parts) {
  if (!data.days.length) {
    empty(parts, "No finished games match these filters yet.");
  } else {
    const bars = uPlot.paths.bars({ size: [0.6, 40] });
    const xs = data.days.map(dayToSeconds);
    const barSeries = (label, stroke, alpha) => {
      const fill = translucent(stroke, alpha);
      return series(label, stroke, { paths: bars, fill, barFill: fill, kind: "bars" });
    };
    chart(parts, {
      tzDate: utc,
      scales: { x: { time: true, range: dayRange(xs) }, moves: { auto: true } },
      axes: [dayAxis("day"), axis("games, players"), axis("moves", { side: 1, scale: "moves", grid: { show: false } })],
      series: [
        {},
        barSeries("players' games", colour(0), 0.5),
        barSeries("bot games", colour(1), 0.35),
        series("players", colour(2), { points: { show: true, size: 6 } }),
        series("moves", colour(3), { scale: "moves", dash: [4, 4] }),
      ],
    }, [xs, data.human_games, data.bot_games, data.players, data.moves], {
      x: secondsToDay,
      y: (v) => String(v),
    });
  }
  parts.extra.replaceChildren(table(
    "Leaderboard: best score in one game (players by display name, else by pseudonym)",
    ["#", "player", "best score", "rounds", "rule set", "games"],
    data.leaderboard.map((row, i) => [i + 1, row.player, row.best_score, row.best_rounds, row.rule_set, row.games]),
  ));
}

// -- people against the planar decoders ----------------------------------------------------

/** Error bars: from each point's lower to its upper 95% limit (the two edges after it). */
function errorBars(u) {
  const { ctx } = u;
  const ratio = uPlot.pxRatio;
  const cap = 4 * ratio;
  ctx.save();
  ctx.lineWidth = 1.5 * ratio;
  u.series.forEach((s, i) => {
    if (i === 0 || s.edge || !s.show) return;
    const [values, upper, lower] = [u.data[i], u.data[i + 1], u.data[i + 2]];
    ctx.strokeStyle = s.colour;
    u.data[0].forEach((x, j) => {
      if (values[j] === null || upper[j] === null || lower[j] === null) return;
      const px = u.valToPos(x, "x", true);
      const top = u.valToPos(upper[j], "y", true);
      const bottom = u.valToPos(lower[j], "y", true);
      ctx.beginPath();
      ctx.moveTo(px, top);
      ctx.lineTo(px, bottom);
      ctx.moveTo(px - cap, top);
      ctx.lineTo(px + cap, top);
      ctx.moveTo(px - cap, bottom);
      ctx.lineTo(px + cap, bottom);
      ctx.stroke();
    });
  });
  ctx.restore();
}

/** People's success rate against p beside each decoder's on the same boards, one (L, d). */
function drawCompare(data, parts, group) {
  const chosen = group.members.map((i) => data.series[i]);
  parts.extra.replaceChildren();
  if (!chosen.length) {
    empty(parts, "No person has finished a planar game that is research data yet.");
    return;
  }
  const xs = unionX(chosen.map((s) => s.rates));
  const columns = [xs];
  const options = [{}];
  chosen.forEach((s, i) => {
    const at = (values) => alignTo(xs, s.rates, values);
    // The interval's edges are kept as series (readout, export) but drawn as bars, not a band.
    withBand(columns, options, [],
      series(group.names[i], colour(i), { points: { show: true, size: 7 }, spanGaps: true }),
      at(s.success), at(s.lower), at(s.upper));
  });
  const span = (min, max) => {
    const pad = 0.1 * (max - min || min || 0.01);
    return [Math.max(0, min - pad), max + pad];
  };
  chart(parts, {
    scales: { x: { time: false, range: (u, min, max) => span(min, max) }, y: { range: [0, 1] } },
    axes: [axis("error rate p per edge"), axis(yLabel(parts, "success rate (no logical error)", "success rate"))],
    series: options,
    hooks: { draw: [errorBars] },
  }, columns, { x: (v) => `p = ${significant(v)}`, y: (v) => format(v, 3) });
  parts.canvas.dataset.series = String(chosen.length);
  parts.extra.replaceChildren(table(
    `Success rate per error rate, ${group.label}: people and each decoder on the same boards`,
    ["who", "p", "boards", "solved", "success rate", "95% interval"],
    chosen.flatMap((s) => s.rates.map((p, j) => [
      s.who, format(p, 3), s.games[j], s.successes[j], format(s.success[j], 3),
      `${format(s.lower[j], 3)}–${format(s.upper[j], 3)}`,
    ])),
  ));
  // The class odds: how likely the class each chose was right, beside the most likely class's.
  const withOdds = chosen.flatMap((s) => s.rates.map((p, j) => [s, p, j]))
    .filter(([s, , j]) => s.odds_boards && s.odds_boards[j]);
  if (!withOdds.length) return;
  const interval = (s, j) => (s.class_odds_lower[j] == null
    ? "–" : `${format(s.class_odds_lower[j], 2)}–${format(s.class_odds_upper[j], 2)}`);
  parts.extra.append(table(
    `Class odds per error rate, ${group.label}: the mean probability that the class chosen was right`,
    ["who", "p", "boards with odds", "class odds", "95% interval", "most likely class"],
    withOdds.map(([s, p, j]) => [
      s.who, format(p, 3), s.odds_boards[j], format(s.class_odds[j], 2), interval(s, j),
      format(s.best_class_odds[j], 2),
    ]),
  ));
  const words = withOdds.filter(([s, , j]) => s.words[j])
    .map(([s, p, j]) => element("li", { "data-who": s.who }, `p = ${format(p, 3)}: ${s.words[j]}`));
  if (words.length) parts.extra.append(element("ul", { class: "plot-odds-words" }, ...words));
}

const DRAW = {
  threshold: drawThreshold,
  spanning: drawThreshold,
  survival: drawSurvival,
  hazard: drawHazard,
  budget: drawBudget,
  lifetime: drawLifetime,
  noise: drawNoise,
  strategy: drawStrategy,
  activity: drawActivity,
  compare: drawCompare,
};

async function fetchJSON(path) {
  const url = new URL(path, DATA_URL);
  url.search = query;
  const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error?.message || `HTTP ${response.status}`);
  return body;
}

/** The menu of curve groups, when there is more than one; choosing one redraws the plot. */
function curveGroupMenu(section, groups, initial, show) {
  const box = section.querySelector(".plot-family");
  if (groups.length < 2) return;
  const select = box.querySelector("select");
  select.replaceChildren(...groups.map((f, i) => element("option", { value: String(i) }, `${f.label} (${f.games.toLocaleString("en")} game${f.games === 1 ? "" : "s"})`)));
  select.value = String(initial);
  select.addEventListener("change", () => show(Number(select.value)));
  box.hidden = false;
}

async function load(section) {
  const name = section.dataset.plot;
  const title = section.querySelector("h2").textContent.replace(/^\d+\.\s*/, "");
  const games = section.querySelector(".plot-games");
  const caption = section.querySelector(".plot-caption");
  const parts = {
    canvas: section.querySelector(".plot-canvas"),
    legend: section.querySelector(".plot-legend"),
    readout: section.querySelector(".plot-readout"),
    extra: section.querySelector(".plot-extra"),
    plot: null,
  };
  // The survival plot marks the session's own games, which come from their own endpoint.
  const [body, mine] = await Promise.all([
    fetchJSON(`${name}/`),
    name === "survival" ? fetchJSON("mine/") : Promise.resolve({ games: [] }),
  ]);
  body.mine = mine.games;
  games.textContent = `Based on ${body.games.toLocaleString("en")} game${body.games === 1 ? "" : "s"}.`;
  games.dataset.games = String(body.games);
  // The server's JSON calls the curve groups "families" (and the page's markup plot-family).
  const groups = body.view.families;
  const show = (index) => {
    const group = groups[index];
    DRAW[name](body, parts, group);
    caption.textContent = group.caption;
    section.dataset.family = group.key;
  };
  show(body.view.default);
  curveGroupMenu(section, groups, body.view.default, show);
  if (name === "survival") showMine(mine.games, Boolean(mine.research_consent));
  section.querySelectorAll(".plot-export").forEach((button) => {
    button.disabled = false;
    button.addEventListener("click", async () => {
      if (!parts.plot) {
        status.textContent = `${title}: there is no plot to download.`;
        return;
      }
      const meta = { title, caption: caption.textContent };
      const filename = `decodoku-${name}.${button.dataset.format}`;
      try {
        if (button.dataset.format === "svg") downloadSVG(parts.plot, meta, filename);
        else await downloadPNG(parts.plot, meta, filename);
      } catch (error) {
        status.textContent = `${title}: the download failed (${error.message}).`;
      }
    });
  });
  section.dataset.state = "ready";
}

async function main() {
  const sections = [...document.querySelectorAll(".plot[data-plot]")];
  const results = await Promise.allSettled(sections.map(load));
  const failed = results.filter((r) => r.status === "rejected");
  failed.forEach((r, i) => {
    const section = sections[results.indexOf(r)];
    section.dataset.state = "error";
    section.querySelector(".plot-games").textContent = `Could not load this plot: ${r.reason.message}`;
    if (i === 0) status.textContent = "Some plots could not be loaded.";
  });
  root.dataset.state = failed.length ? "error" : "ready";
}

main();

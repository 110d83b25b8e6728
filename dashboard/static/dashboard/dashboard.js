// The threshold dashboard: fetches each plot's numbers from /dashboard/data/<plot>/
// (with the page's filters) and draws it with uPlot.

import { alignTo, axis, colour, draw, translucent, unionX, uPlot } from "./plots.js";

const root = document.getElementById("dashboard");
const status = document.getElementById("dashboard-status");
const query = root.dataset.query;
const DATA_URL = new URL("data/", window.location.href.split("?")[0]);

const stepped = uPlot.paths.stepped({ align: 1 });
const DAY_SECONDS = 86400;

function dayToSeconds(text) {
  return Date.parse(`${text}T00:00:00Z`) / 1000;
}

// A fixed x range around the days shown: uPlot's automatic range spans years for one day.
function dayRange(xs) {
  return [xs[0] - DAY_SECONDS, xs[xs.length - 1] + DAY_SECONDS];
}

function format(value, digits = 2) {
  return value === null || value === undefined ? "–" : Number(value).toFixed(digits);
}

function percent(value) {
  return value === null || value === undefined ? "–" : `${(100 * value).toFixed(1)}%`;
}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** An accessible table of numbers under a plot. */
function table(caption, headers, rows) {
  const head = element("tr", {}, ...headers.map((h) => element("th", { scope: "col" }, h)));
  const body = rows.map((row) => element("tr", {}, ...row.map((cell) => element("td", {}, String(cell)))));
  return element(
    "div",
    { class: "plot-table" },
    element("table", {}, element("caption", {}, caption), element("thead", {}, head), element("tbody", {}, ...body)),
  );
}

function empty(container, message) {
  container.replaceChildren(element("p", { class: "plot-empty" }, message));
  container.dataset.drawn = "empty";
}

function series(label, stroke, extra = {}) {
  return { label, stroke, width: 2, points: { show: false }, ...extra };
}

// An invisible series holding one edge of a confidence band.
function edge(label, extra = {}) {
  return { label, stroke: "transparent", points: { show: false }, ...extra };
}

// -- 1. survival ---------------------------------------------------------------------

function drawSurvival(data, canvas, extra) {
  if (!data.curves.length) return empty(canvas, "No finished games match these filters yet.");
  const curves = data.curves.map((c) => ({
    ...c,
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
    const stroke = colour(i);
    columns.push(alignTo(xs, c.xs, c.s, { carry: true }));
    options.push(series(`${c.label} (${c.games})`, stroke, { paths: stepped }));
    columns.push(alignTo(xs, c.xs, c.hi, { carry: true }));
    options.push(edge(`${c.label} upper 95%`, { paths: stepped }));
    columns.push(alignTo(xs, c.xs, c.lo, { carry: true }));
    options.push(edge(`${c.label} lower 95%`, { paths: stepped }));
    const base = options.length - 3;
    bands.push({ series: [base + 1, base + 2], fill: translucent(stroke, 0.15) });
  });
  if (mine.length) {
    const mark = new Map();
    for (const game of mine) {
      const curve = curves.find((c) => c.label === game.label);
      const value = alignTo(xs, curve.xs, curve.s, { carry: true })[xs.indexOf(game.rounds)];
      mark.set(game.rounds, value);
    }
    columns.push(xs.map((x) => (mark.has(x) ? mark.get(x) : null)));
    options.push({
      label: "your games",
      stroke: colour(6),
      width: 0,
      paths: () => null,
      points: { show: true, size: 11, width: 2, fill: colour(6) },
    });
  }
  draw(canvas, {
    scales: { x: { time: false }, y: { range: [0, 1] } },
    axes: [axis("rounds survived"), axis("share of games still going")],
    series: options,
    bands,
  }, columns);
  extra.replaceChildren(table(
    "Median lifetime per curve",
    ["curve", "games", "median (rounds)"],
    curves.map((c) => {
      const i = c.s.findIndex((s) => s !== null && s <= 0.5);
      return [c.label, c.games, i < 0 ? "not reached" : c.xs[i]];
    }),
  ));
  showMine(data.mine, data.mineConsent);
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

// -- 2. hazard -------------------------------------------------------------------------

function drawHazard(data, canvas, extra) {
  if (!data.curves.length) return empty(canvas, "No finished games match these filters yet.");
  const xs = unionX(data.curves.map((c) => c.rounds));
  const columns = [xs];
  const options = [{}];
  const bands = [];
  data.curves.forEach((c, i) => {
    const stroke = colour(i);
    columns.push(alignTo(xs, c.rounds, c.hazard));
    options.push(series(`${c.label} (${c.games})`, stroke, { points: { show: true, size: 5 } }));
    columns.push(alignTo(xs, c.rounds, c.upper));
    options.push(edge(`${c.label} upper 95%`));
    columns.push(alignTo(xs, c.rounds, c.lower));
    options.push(edge(`${c.label} lower 95%`));
    const base = options.length - 3;
    bands.push({ series: [base + 1, base + 2], fill: translucent(stroke, 0.12) });
    if (c.plateau) {
      const p = c.plateau;
      columns.push(xs.map((x) => (x >= p.start_round && x <= p.end_round ? p.hazard : null)));
      options.push({ label: `${c.label} plateau`, stroke, width: 2, dash: [6, 4], points: { show: false } });
    }
  });
  draw(canvas, {
    scales: { x: { time: false }, y: { range: (u, min, max) => [0, Math.min(1, Math.max(0.05, max))] } },
    axes: [axis("round"), axis("chance of losing in the round")],
    series: options,
    bands,
  }, columns);
  extra.replaceChildren(table(
    "Plateau hazard (logical error rate per round)",
    ["curve", "games", "plateau from round", "hazard", "95% interval"],
    data.curves.map((c) => c.plateau
      ? [c.label, c.games, c.plateau.start_round, format(c.plateau.hazard, 3), `${format(c.plateau.lower, 3)}–${format(c.plateau.upper, 3)}`]
      : [c.label, c.games, "–", "too few games", "–"]),
  ));
}

// -- 3. threshold ------------------------------------------------------------------------

// A log scale cannot show 0: a point with no failure, or a band reaching 0, is drawn
// at a floor a decade below the smallest value shown (its table row keeps the 0).
function logFloor(values) {
  const positive = values.filter((v) => v !== null && v > 0);
  return positive.length ? Math.min(...positive) / 10 : 1e-4;
}

function drawThreshold(data, canvas, extra) {
  const family = data.sweep?.family;
  const what = family === "sustained" ? "loss rate per round" : "failure probability";
  const thresholds = data.thresholds;
  const notes = [];
  if (!data.series.length) {
    empty(canvas, "No finished threshold sweep yet: run one with manage.py threshold.");
  } else {
    const xs = unionX([...data.series.map((s) => s.rates), data.game.map((g) => g.rate)]);
    const floor = logFloor(data.series.flatMap((s) => [...s.failure, ...s.lower]));
    const clamp = (values) => values.map((v) => (v === null ? null : Math.max(v, floor)));
    const columns = [xs];
    const options = [{}];
    const bands = [];
    data.series.forEach((s, i) => {
      const stroke = colour(i);
      columns.push(alignTo(xs, s.rates, clamp(s.failure)));
      options.push(series(s.label, stroke, { points: { show: true, size: 6 }, spanGaps: true }));
      columns.push(alignTo(xs, s.rates, clamp(s.upper)));
      options.push(edge(`${s.label} upper 95%`, { spanGaps: true }));
      columns.push(alignTo(xs, s.rates, clamp(s.lower)));
      options.push(edge(`${s.label} lower 95%`, { spanGaps: true }));
      const base = options.length - 3;
      bands.push({ series: [base + 1, base + 2], fill: translucent(stroke, 0.12) });
    });
    const game = data.game;
    draw(canvas, {
      scales: {
        x: { time: false, range: (u, min, max) => [min - 0.04 * (max - min || 1), max + 0.04 * (max - min || 1)] },
        y: { distr: 3 },
      },
      axes: [axis("error rate p per edge"), axis(`${what} (log scale)`)],
      series: options,
      bands,
      hooks: {
        draw: [(u) => {
          const { ctx } = u;
          const top = u.bbox.top;
          const height = u.bbox.height;
          ctx.save();
          thresholds.forEach((t, i) => {
            if (t.crossing === null) return;
            if (t.lower !== null && t.upper !== null) {
              const x0 = u.valToPos(t.lower, "x", true);
              const x1 = u.valToPos(t.upper, "x", true);
              ctx.fillStyle = translucent(colour(7 - (i % 2)), 0.16);
              ctx.fillRect(Math.min(x0, x1), top, Math.max(2, Math.abs(x1 - x0)), height);
            }
            const x = u.valToPos(t.crossing, "x", true);
            ctx.strokeStyle = colour(6);
            ctx.lineWidth = 2 * devicePixelRatio;
            ctx.setLineDash([8, 6]);
            ctx.beginPath();
            ctx.moveTo(x, top);
            ctx.lineTo(x, top + height);
            ctx.stroke();
          });
          game.forEach((g) => {
            const x = u.valToPos(g.rate, "x", true);
            ctx.strokeStyle = colour(5);
            ctx.lineWidth = 2 * devicePixelRatio;
            ctx.setLineDash([2, 4]);
            ctx.beginPath();
            ctx.moveTo(x, top);
            ctx.lineTo(x, top + height);
            ctx.stroke();
            ctx.setLineDash([]);
            ctx.fillStyle = colour(5);
            ctx.font = `${12 * devicePixelRatio}px sans-serif`;
            ctx.textAlign = "left";
            ctx.textBaseline = "alphabetic";
            ctx.fillText(g.label, x + 4 * devicePixelRatio, top + height - 6 * devicePixelRatio);
          });
          ctx.restore();
        }],
      },
    }, columns);
    canvas.dataset.thresholds = String(thresholds.filter((t) => t.crossing !== null).length);
  }
  const sweep = data.sweep;
  if (sweep) {
    const perCell = sweep.moves_per_cell === null ? "" : `, ${sweep.moves_per_cell} moves per cell per round`;
    notes.push(element("p", {}, `Threshold sweep (${sweep.family.replace("_", "-")}${perCell}), ${sweep.shots_per_point} shots per point, finished ${sweep.finished_at ?? "–"}.`));
  }
  thresholds.forEach((t) => {
    notes.push(element("p", { class: "threshold-message", "data-bot": t.bot }, `${t.bot}: ${t.message}`));
  });
  data.game.forEach((g) => {
    const above = thresholds.filter((t) => t.crossing !== null).map((t) => `${(g.rate / t.crossing).toFixed(2)}× the ${t.bot} threshold`);
    notes.push(element("p", { class: "game-mark" }, `The original game at L=${g.size}: p = ${format(g.rate, 4)} per edge per round (${format(g.errors_per_round)} errors a round over ${2 * g.size * (g.size - 1)} edges, ${g.game_rounds} game-rounds), with ${format(g.moves_per_cell, 3)} moves per cell per round${above.length ? `: ${above.join(", ")}` : ""}. The one-shot family gives the decoder unlimited moves; the game gives few.`));
  });
  extra.replaceChildren(
    ...notes,
    table(
      "Threshold per bot: crossings of adjacent-L curves and finite-size scaling",
      ["bot", "crossing", "95% interval", "scaling p_th", "95% interval", "nu", "chi2/dof", "agree"],
      thresholds.map((t) => [
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

// -- 4. lifetime against the noise budget -------------------------------------------------

function drawBudget(data, canvas, extra) {
  if (!data.series.length && !data.humans.length) {
    return empty(canvas, "No finished budget sweep yet: run one with manage.py sweep.");
  }
  const xs = unionX([...data.series.map((s) => s.budgets), data.humans.map((h) => h.noise_budget)]);
  const columns = [xs];
  const options = [{}];
  const bands = [];
  data.series.forEach((s, i) => {
    const stroke = colour(i);
    columns.push(alignTo(xs, s.budgets, s.mean));
    options.push(series(s.label, stroke, { points: { show: true, size: 6 } }));
    columns.push(alignTo(xs, s.budgets, s.upper));
    options.push(edge(`${s.label} upper 95%`));
    columns.push(alignTo(xs, s.budgets, s.lower));
    options.push(edge(`${s.label} lower 95%`));
    const base = options.length - 3;
    bands.push({ series: [base + 1, base + 2], fill: translucent(stroke, 0.12) });
  });
  data.humans.forEach((h, i) => {
    const stroke = colour(data.series.length + i);
    columns.push(xs.map((x) => (x === h.noise_budget ? h.mean : null)));
    options.push({
      label: `${h.label} (${h.games} games)`,
      stroke,
      width: 0,
      paths: () => null,
      points: { show: true, size: 12, width: 2, fill: stroke },
    });
  });
  const thresholds = data.thresholds.filter((t) => t.budget !== null);
  draw(canvas, {
    scales: { x: { time: false }, y: { distr: 3 } },
    axes: [axis("noise budget per round"), axis("mean lifetime (rounds, log scale)")],
    series: options,
    bands,
    hooks: {
      draw: [(u) => {
        const { ctx } = u;
        const top = u.bbox.top;
        const height = u.bbox.height;
        thresholds.forEach((t, i) => {
          ctx.save();
          if (t.lower !== null && t.upper !== null) {
            const x0 = u.valToPos(t.lower, "x", true);
            const x1 = u.valToPos(t.upper, "x", true);
            ctx.fillStyle = translucent(colour(7 - (i % 2)), 0.12);
            ctx.fillRect(Math.min(x0, x1), top, Math.abs(x1 - x0), height);
          }
          const x = u.valToPos(t.budget, "x", true);
          ctx.strokeStyle = colour(6);
          ctx.lineWidth = 2 * devicePixelRatio;
          ctx.setLineDash([8, 6]);
          ctx.beginPath();
          ctx.moveTo(x, top);
          ctx.lineTo(x, top + height);
          ctx.stroke();
          ctx.restore();
        });
      }],
    },
  }, columns);
  const sweep = data.sweep
    ? `Sweep of ${data.sweep.games_per_point} games per point, finished ${data.sweep.finished_at ?? "–"}.`
    : "No finished sweep yet.";
  extra.replaceChildren(
    element("p", {}, sweep),
    table(
      "Estimated threshold budget per bot",
      ["bot", "threshold", "95% interval", "note"],
      data.thresholds.map((t) => [t.bot, format(t.budget), t.budget === null ? "–" : `${format(t.lower)}–${format(t.upper)}`, t.note || ""]),
    ),
  );
}

// -- 5. lifetime against L -----------------------------------------------------------------

function drawLifetime(data, canvas, extra) {
  if (!data.series.length) return empty(canvas, "No finished games match these filters yet.");
  const xs = unionX(data.series.map((s) => s.sizes));
  const columns = [xs];
  const options = [{}];
  const bands = [];
  data.series.forEach((s, i) => {
    const stroke = colour(i);
    columns.push(alignTo(xs, s.sizes, s.mean));
    options.push(series(s.label, stroke, { points: { show: true, size: 7 }, spanGaps: true }));
    columns.push(alignTo(xs, s.sizes, s.upper));
    options.push(edge(`${s.label} upper 95%`, { spanGaps: true }));
    columns.push(alignTo(xs, s.sizes, s.lower));
    options.push(edge(`${s.label} lower 95%`, { spanGaps: true }));
    const base = options.length - 3;
    bands.push({ series: [base + 1, base + 2], fill: translucent(stroke, 0.12) });
  });
  draw(canvas, {
    scales: { x: { time: false, range: (u, min, max) => [min - 0.5, max + 0.5] } },
    axes: [axis("board size L", { incrs: [1, 2, 4] }), axis("mean lifetime (rounds)")],
    series: options,
    bands,
  }, columns);
  extra.replaceChildren(table(
    "Mean lifetime per board size",
    ["series", "L", "games", "mean (rounds)", "95% interval"],
    data.series.flatMap((s) => s.sizes.map((size, i) => [s.label, size, s.games[i], format(s.mean[i]), `${format(s.lower[i])}–${format(s.upper[i])}`])),
  ));
}

// -- 6. noise ---------------------------------------------------------------------------------

function drawNoise(data, canvas, extra) {
  if (!data.series.length) return empty(canvas, "No analysed games match these filters yet.");
  const xs = unionX(data.series.map((s) => s.rounds));
  const columns = [xs];
  const options = [{}];
  data.series.forEach((s, i) => {
    const stroke = colour(i);
    columns.push(alignTo(xs, s.rounds, s.errors));
    options.push(series(`${s.source}: errors`, stroke));
    columns.push(alignTo(xs, s.rounds, s.new_numbers));
    options.push(series(`${s.source}: new numbers`, stroke, { dash: [6, 4] }));
  });
  draw(canvas, {
    scales: { x: { time: false } },
    axes: [axis("round"), axis("per game, in the round")],
    series: options,
  }, columns);
  extra.replaceChildren(table(
    "Mean noise per round",
    ["played by", "game-rounds", "errors", "new numbers", "0.1-weight errors"],
    data.series.map((s) => [s.source, s.games.reduce((a, b) => a + b, 0), format(s.mean_errors), format(s.mean_new_numbers), format(s.mean_light_errors)]),
  ));
}

// -- 7. strategy ------------------------------------------------------------------------------

function drawStrategy(data, canvas, extra) {
  if (!data.days.length) {
    empty(canvas, "No analysed moves match these filters yet.");
  } else {
    const xs = data.days.map(dayToSeconds);
    const columns = [xs];
    const options = [{}];
    data.classes.forEach((name, i) => {
      columns.push(data.shares[name]);
      options.push(series(name.replaceAll("_", " "), colour(i), { points: { show: true, size: 5 } }));
    });
    draw(canvas, {
      scales: { x: { time: true, range: dayRange(xs) }, y: { range: [0, 1] } },
      axes: [axis("day"), axis(`share of ${data.source === "human" ? "players'" : `the ${data.source} bot's`} moves`)],
      series: options,
    }, columns);
  }
  const whose = data.source === "human" ? "player's" : `${data.source}'s`;
  const note = data.stand_in
    ? [element("p", {}, `No analysed moves of players yet: showing the moves of the ${data.source} bot instead.`)]
    : [];
  extra.replaceChildren(...note, table(
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

// -- 8. activity ------------------------------------------------------------------------------

function drawActivity(data, canvas, extra) {
  if (!data.days.length) {
    empty(canvas, "No finished games match these filters yet.");
  } else {
    const bars = uPlot.paths.bars({ size: [0.6, 40] });
    const xs = data.days.map(dayToSeconds);
    draw(canvas, {
      scales: { x: { time: true, range: dayRange(xs) }, moves: { auto: true } },
      axes: [axis("day"), axis("games, players"), axis("moves", { side: 1, scale: "moves", grid: { show: false } })],
      series: [
        {},
        series("players' games", colour(0), { paths: bars, fill: translucent(colour(0), 0.5) }),
        series("bot games", colour(1), { paths: bars, fill: translucent(colour(1), 0.35) }),
        series("players", colour(2), { points: { show: true, size: 6 } }),
        series("moves", colour(3), { scale: "moves", dash: [4, 4] }),
      ],
    }, [xs, data.human_games, data.bot_games, data.players, data.moves]);
  }
  extra.replaceChildren(table(
    "Leaderboard: best score in one game (players shown by pseudonym)",
    ["#", "player", "best score", "rounds", "rule set", "games"],
    data.leaderboard.map((row, i) => [i + 1, row.player, row.best_score, row.best_rounds, row.rule_set, row.games]),
  ));
}

const DRAW = {
  survival: drawSurvival,
  hazard: drawHazard,
  threshold: drawThreshold,
  budget: drawBudget,
  lifetime: drawLifetime,
  noise: drawNoise,
  strategy: drawStrategy,
  activity: drawActivity,
};

async function fetchJSON(path) {
  const url = new URL(path, DATA_URL);
  url.search = query;
  const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error?.message || `HTTP ${response.status}`);
  return body;
}

async function load(section) {
  const name = section.dataset.plot;
  const games = section.querySelector(".plot-games");
  const canvas = section.querySelector(".plot-canvas");
  const extra = section.querySelector(".plot-extra");
  // The survival plot marks the session's own games, which come from their own endpoint.
  const [body, mine] = await Promise.all([
    fetchJSON(`${name}/`),
    name === "survival" ? fetchJSON("mine/") : Promise.resolve({ games: [] }),
  ]);
  body.mine = mine.games;
  body.mineConsent = Boolean(mine.research_consent);
  games.textContent = `Based on ${body.games.toLocaleString("en")} game${body.games === 1 ? "" : "s"}.`;
  games.dataset.games = String(body.games);
  DRAW[name](body, canvas, extra);
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

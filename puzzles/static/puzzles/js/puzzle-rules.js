// The rules a KenKen or Futoshiki grid breaks, read from the player's entries alone
// (never from the solution): a number twice in a row or column, a full cage whose
// numbers miss its target, a sign between two filled cells that does not hold, and in
// Adjacent Futoshiki two filled neighbours one apart without a bar, or with a bar but
// not one apart.

const OP_WORD = { "+": "plus", "-": "minus", x: "times", "/": "divided", "=": "" };

// The value a cage's numbers give by its operation (null if it does not apply).
function cageValue(op, values) {
  if (op === "=") return values.length === 1 ? values[0] : null;
  if (op === "+") return values.reduce((a, b) => a + b, 0);
  if (op === "x") return values.reduce((a, b) => a * b, 1);
  if (values.length !== 2) return null;
  const big = Math.max(...values);
  const small = Math.min(...values);
  if (op === "-") return big - small;
  if (op === "/") return big % small === 0 ? big / small : null;
  return null;
}

// The sides of cell (r, c) where its cage ends (a thick edge): "top", "left", "bottom",
// "right". `owner` maps "r,c" to the cell's cage; `n` is the grid's size.
export function cageSides(owner, n, r, c) {
  const mine = owner.get(`${r},${c}`);
  const sides = [];
  if (r === 0 || owner.get(`${r - 1},${c}`) !== mine) sides.push("top");
  if (c === 0 || owner.get(`${r},${c - 1}`) !== mine) sides.push("left");
  if (r === n - 1 || owner.get(`${r + 1},${c}`) !== mine) sides.push("bottom");
  if (c === n - 1 || owner.get(`${r},${c + 1}`) !== mine) sides.push("right");
  return sides;
}

export function cageText(cage) {
  const word = OP_WORD[cage.op] ?? cage.op;
  const count = cage.cells.length;
  return `cage ${cage.target}${word ? ` ${word}` : ""}, ${count} cell${count === 1 ? "" : "s"}`;
}

const where = ([r, c]) => `row ${r + 1}, column ${c + 1}`;

// For every cell, what the signs touching it say: "less than row 1, column 2".
export function signTexts(puzzle) {
  const texts = new Map();
  const add = (cell, text) => {
    const key = `${cell[0]},${cell[1]}`;
    texts.set(key, [...(texts.get(key) || []), text]);
  };
  for (const rel of puzzle.relations || []) {
    const less = rel.op === "<";
    add(rel.a, `${less ? "less" : "greater"} than ${where(rel.b)}`);
    add(rel.b, `${less ? "greater" : "less"} than ${where(rel.a)}`);
  }
  if (isAdjacent(puzzle)) {
    const names = { "0,1": "right", "0,-1": "left", "1,0": "lower", "-1,0": "upper" };
    for (const [a, b, joined] of neighbourPairs(puzzle)) {
      for (const [from, to] of [[a, b], [b, a]]) {
        const side = names[`${to[0] - from[0]},${to[1] - from[1]}`];
        add(from, joined ? `differs by one from ${side} neighbour` : `not adjacent to ${side} neighbour`);
      }
    }
  }
  return texts;
}

// Adjacent Futoshiki: every bar is drawn, and two neighbours without one are not one apart.
export function isAdjacent(puzzle) {
  return puzzle.mode === "adjacent";
}

// Every pair of neighbouring cells [a, b, joined by a bar] (Adjacent Futoshiki; [] otherwise).
export function neighbourPairs(puzzle) {
  if (!isAdjacent(puzzle)) return [];
  const n = puzzle.size;
  const joined = new Set((puzzle.bars || []).map(({ a, b }) => [a, b].map(String).sort().join("|")));
  const pairs = [];
  for (let r = 0; r < n; r += 1) {
    for (let c = 0; c < n; c += 1) {
      for (const other of [[r, c + 1], [r + 1, c]]) {
        if (other[0] >= n || other[1] >= n) continue;
        const key = [[r, c], other].map(String).sort().join("|");
        pairs.push([[r, c], other, joined.has(key)]);
      }
    }
  }
  return pairs;
}

// Where the bars are drawn: [row, col, "h" (to the right) or "v" (below)] of the top-left cell.
export function barMarks(puzzle) {
  return neighbourPairs(puzzle)
    .filter(([, , joined]) => joined)
    .map(([a, b]) => [a[0], a[1], a[0] === b[0] ? "h" : "v"]);
}

// Map "r,c" -> the reasons (texts) the cell breaks a rule.
export function brokenRules(puzzle, entries) {
  const n = entries.length;
  const found = new Map();
  const add = (r, c, text) => {
    const key = `${r},${c}`;
    const list = found.get(key) || [];
    if (!list.includes(text)) list.push(text);
    found.set(key, list);
  };
  for (let i = 0; i < n; i += 1) {
    for (const [line, cellAt] of [
      [`row ${i + 1}`, (j) => [i, j]],
      [`column ${i + 1}`, (j) => [j, i]],
    ]) {
      const seen = new Map();
      for (let j = 0; j < n; j += 1) {
        const [r, c] = cellAt(j);
        const v = entries[r][c];
        if (v) seen.set(v, [...(seen.get(v) || []), [r, c]]);
      }
      for (const [v, cells] of seen) {
        if (cells.length < 2) continue;
        for (const [r, c] of cells) add(r, c, `${v} repeated in ${line}`);
      }
    }
  }
  for (const cage of puzzle.cages || []) {
    const values = cage.cells.map(([r, c]) => entries[r][c]);
    if (values.some((v) => !v)) continue;
    if (cageValue(cage.op, values) !== cage.target) {
      for (const [r, c] of cage.cells) add(r, c, `${cageText(cage).replace(/,.*/, "")} broken`);
    }
  }
  for (const rel of puzzle.relations || []) {
    const a = entries[rel.a[0]][rel.a[1]];
    const b = entries[rel.b[0]][rel.b[1]];
    if (!a || !b) continue;
    if (rel.op === "<" ? a < b : a > b) continue;
    add(rel.a[0], rel.a[1], `sign broken with ${where(rel.b)}`);
    add(rel.b[0], rel.b[1], `sign broken with ${where(rel.a)}`);
  }
  for (const [a, b, joined] of neighbourPairs(puzzle)) {
    const x = entries[a[0]][a[1]];
    const y = entries[b[0]][b[1]];
    if (!x || !y || (Math.abs(x - y) === 1) === joined) continue;
    const text = joined ? "bar broken with" : "one apart without a bar from";
    add(a[0], a[1], `${text} ${where(b)}`);
    add(b[0], b[1], `${text} ${where(a)}`);
  }
  return found;
}

// The cells that share a row or a column with (r, c), itself excluded: those that cannot
// hold its number. Not its cage: a number may repeat inside a cage, in other rows and
// columns (KenKen); Futoshiki's signs and bars only bound a neighbour, they never rule out
// its number outright.
export function peers(puzzle, n, r, c) {
  const cells = [];
  for (let i = 0; i < n; i += 1) {
    if (i !== c) cells.push([r, i]);
    if (i !== r) cells.push([i, c]);
  }
  return cells;
}

// The arrangements of a cage's numbers that its target allows, given the numbers already
// written around it: each cell holds a number not yet in its row or column (a written
// number stays), no two cells of the cage in one line share a number. `fixed` pins one
// cell ("r,c" -> value). Lists of values, in the order of cage.cells.
function cageArrangements(cage, entries, fixed = new Map()) {
  const n = entries.length;
  const options = cage.cells.map(([r, c]) => {
    const key = `${r},${c}`;
    if (fixed.has(key)) return [fixed.get(key)];
    if (entries[r][c]) return [entries[r][c]];
    const used = new Set();
    for (let i = 0; i < n; i += 1) {
      if (i !== c && !cage.cells.some(([cr, cc]) => cr === r && cc === i)) used.add(entries[r][i]);
      if (i !== r && !cage.cells.some(([cr, cc]) => cr === i && cc === c)) used.add(entries[i][c]);
    }
    return Array.from({ length: n }, (_, v) => v + 1).filter((v) => !used.has(v));
  });
  const found = [];
  const values = [];
  const walk = (i) => {
    if (found.length > 200) return;
    if (i === cage.cells.length) {
      if (cageValue(cage.op, values) === cage.target) found.push([...values]);
      return;
    }
    const [r, c] = cage.cells[i];
    for (const v of options[i]) {
      const clash = cage.cells.slice(0, i).some(([pr, pc], j) => values[j] === v && (pr === r || pc === c));
      if (clash) continue;
      values.push(v);
      walk(i + 1);
      values.pop();
    }
  };
  walk(0);
  return found;
}

// Why (r, c) cannot hold v, in a few words, from simple reasons only: v already in its
// row or column, its cage's arithmetic, a Futoshiki sign. null when none of them says so.
export function whyNot(puzzle, entries, [r, c], v) {
  const n = entries.length;
  if (entries[r].some((x, i) => i !== c && x === v)) return `${v} is already in row ${r + 1}`;
  if (entries.some((row, i) => i !== r && row[c] === v)) return `${v} is already in column ${c + 1}`;
  const cage = (puzzle.cages || []).find((cg) => cg.cells.some(([cr, cc]) => cr === r && cc === c));
  if (cage && cageArrangements(cage, entries, new Map([[`${r},${c}`, v]])).length === 0) {
    const sets = new Set(cageArrangements(cage, entries).map((a) => [...a].sort((x, y) => x - y).join(",")));
    const name = cageText(cage).replace(/^cage (.*), (\d+ cells?)$/, "the $1 cage on $2");
    return sets.size ? `${name} can only be ${[...sets].join(" or ")}` : `${name} cannot be filled`;
  }
  for (const rel of puzzle.relations || []) {
    const mine = rel.a[0] === r && rel.a[1] === c;
    if (!mine && !(rel.b[0] === r && rel.b[1] === c)) continue;
    const other = mine ? rel.b : rel.a;
    const less = (rel.op === "<") === mine; // this cell is the smaller one
    const e = entries[other[0]][other[1]];
    if (e && (less ? v >= e : v <= e)) return `${v} is not ${less ? "less" : "greater"} than the ${e} at ${where(other)}`;
    if (!e && (less ? v === n : v === 1)) return `${v} cannot be ${less ? "less" : "greater"} than ${where(other)}`;
  }
  for (const [a, b, joined] of neighbourPairs(puzzle)) {
    const mine = a[0] === r && a[1] === c;
    if (!mine && !(b[0] === r && b[1] === c)) continue;
    const other = mine ? b : a;
    const e = entries[other[0]][other[1]];
    if (!e || (Math.abs(v - e) === 1) === joined) continue;
    return joined
      ? `${v} is not one away from the ${e} at ${where(other)} across the bar`
      : `${v} is one away from the ${e} at ${where(other)} with no bar between`;
  }
  return null;
}

// The reasons behind a hint of the engine ({kind, cell, value, unit}), or null when the
// simple reasons do not cover it (the hint's own text then stands alone).
export function explainHint(puzzle, entries, hint) {
  const n = entries.length;
  const [r, c] = hint.cell;
  if (hint.kind === "single_candidate") {
    const reasons = [];
    for (let v = 1; v <= n; v += 1) {
      if (v === hint.value) continue;
      const reason = whyNot(puzzle, entries, [r, c], v);
      if (!reason) return null;
      if (!reasons.includes(reason)) reasons.push(reason);
    }
    return reasons.join("; ");
  }
  if (hint.kind === "single_place") {
    const line = /^row (\d+)$/.exec(hint.unit) ? "row" : /^column (\d+)$/.exec(hint.unit) ? "column" : null;
    if (!line) return null;
    const reasons = [];
    for (let i = 0; i < n; i += 1) {
      const cell = line === "row" ? [r, i] : [i, c];
      if ((cell[0] === r && cell[1] === c) || entries[cell[0]][cell[1]]) continue;
      const reason = whyNot(puzzle, entries, cell, hint.value);
      if (!reason) return null;
      reasons.push(`not at ${where(cell)}: ${reason}`);
    }
    return reasons.join("; ");
  }
  return null;
}

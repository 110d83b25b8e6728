"""A census of the production code's imports: import cycles and imports inside functions.

Reads every Python file of the apps and the project package with ``ast``
(nothing is imported) and prints:

* the import cycles: groups of modules that reach each other through the
  modules their imports name (strongly connected components of the import
  graph, imports inside functions counted; imports under ``if
  TYPE_CHECKING:`` are not, since they never run and name types only; the package ``__init__`` that
  Python runs before a submodule is not counted, or every package that
  gathers its submodules would be a cycle);
* the imports written inside a function, per file, and how many break no
  cycle (their target does not import the file back, directly or not);
* with ``--drawing``, only the apps' dependencies: which app imports which,
  counted in import statements, one line per app from the top layer down
  (the drawing at the start of ``docs/architecture.md``, which a test keeps
  equal to this output).

Run from the repository root::

    python -m bench.import_census [--list | --drawing]
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("core", "games", "results", "puzzles", "research", "dashboard", "decodoku_site")
# The pure packages (no Django), drawn apart from the app around them so that the
# drawing shows what they import: each app is otherwise its top-level package.
PURE_PACKAGES = ("games.engine", "puzzles.engines", "core.stats")


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the module imported (the deepest one that exists)
    line: int
    in_function: bool


def module_files() -> dict[str, Path]:
    """Every production module by its dotted name (migrations left out)."""
    modules = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The deepest module of the project that ``name`` names (None: outside the project)."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def _function_nodes(tree: ast.AST) -> set[int]:
    """ids of the import nodes that sit inside a function."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            for child in ast.walk(node):
                if isinstance(child, ast.Import | ast.ImportFrom):
                    inside.add(id(child))
    return inside


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """ids of the import nodes under ``if TYPE_CHECKING:`` (for type hints only)."""
    guarded: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for statement in node.body:
                for child in ast.walk(statement):
                    if isinstance(child, ast.Import | ast.ImportFrom):
                        guarded.add(id(child))
    return guarded


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> Iterator[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    inside = _function_nodes(tree)
    type_only = _type_checking_nodes(tree)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            names = [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        if id(node) in type_only:
            continue
        seen: set[str] = set()
        for name in names:
            target = _resolve(name, modules)
            if target is None or target == module or target in seen:
                continue
            seen.add(target)
            yield Import(module, target, node.lineno, id(node) in inside)


def graph(imports: list[Import]) -> dict[str, set[str]]:
    """Each module's edges: the modules it names in its imports."""
    edges: dict[str, set[str]] = {}
    for entry in imports:
        edges.setdefault(entry.module, set()).add(entry.target)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    nodes = sorted(set(edges) | {t for targets in edges.values() for t in targets})
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def reaches(edges: dict[str, set[str]], start: str, goal: str) -> bool:
    seen = {start}
    todo = [start]
    while todo:
        node = todo.pop()
        if node == goal:
            return True
        for child in edges.get(node, ()):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return False


def all_function_level_statements() -> int:
    """Every import statement written inside a function, of any module (the project's or not)."""
    total = 0
    for path in module_files().values():
        total += len(_function_nodes(ast.parse(path.read_text(encoding="utf-8"))))
    return total


def census() -> tuple[list[Import], dict[str, set[str]]]:
    modules = module_files()
    imports = [entry for name, path in modules.items() for entry in imports_of(name, path, modules)]
    return imports, graph(imports)


def function_level_imports(*, breaking_no_cycle: bool = False) -> list[Import]:
    """The project imports written inside functions (only those whose target does not
    import the file back, with ``breaking_no_cycle``)."""
    imports, edges = census()
    inside = [entry for entry in imports if entry.in_function]
    if not breaking_no_cycle:
        return inside
    return [entry for entry in inside if not reaches(edges, entry.target, entry.module)]


def app_of(module: str) -> str:
    """The app a module belongs to in the drawing: its pure package, else its top package."""
    for package in PURE_PACKAGES:
        if module == package or module.startswith(package + "."):
            return package
    return module.split(".", 1)[0]


def app_edges(imports: list[Import]) -> Counter[tuple[str, str]]:
    """(importing app, imported app): the import statements that name the second from the
    first (a statement naming several modules of one app counts once)."""
    statements = {
        (entry.module, entry.line, app_of(entry.module), app_of(entry.target)) for entry in imports
    }
    return Counter((source, target) for _, _, source, target in statements if source != target)


def _layers(edges: Counter[tuple[str, str]], apps: set[str]) -> dict[str, int]:
    """Each app's layer: 0 for an app that imports no other, else one above the highest
    app it imports (the longest path down; on a cycle, which the rules forbid, the
    passes stop after one per app)."""
    targets: dict[str, set[str]] = {app: set() for app in apps}
    for source, target in edges:
        targets[source].add(target)
    layer = dict.fromkeys(apps, 0)
    for _ in apps:  # one pass per app is enough for the longest path
        for app in sorted(apps):
            layer[app] = max((layer[t] + 1 for t in targets[app]), default=0)
    return layer


def drawing(edges: Counter[tuple[str, str]]) -> list[str]:
    """The apps by layer, top down, each with the apps it imports and how many import
    statements do (``nothing`` when it imports none)."""
    apps = {app for edge in edges for app in edge} | {app_of(p) for p in PACKAGES}
    layer = _layers(edges, apps)
    width = max(len(app) for app in apps)
    lines = []
    for app in sorted(apps, key=lambda a: (-layer[a], a)):
        used = sorted((target, count) for (source, target), count in edges.items() if source == app)
        listed = ", ".join(f"{target} {count}" for target, count in used) or "nothing"
        lines.append(f"{layer[app]}  {app:<{width}}  -> {listed}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    chosen = parser.add_mutually_exclusive_group()
    chosen.add_argument("--list", action="store_true", help="list every function-level import")
    chosen.add_argument(
        "--drawing",
        action="store_true",
        help="only the apps' dependencies: layer, app, the apps it imports and how many "
        "import statements do",
    )
    args = parser.parse_args(argv)
    imports, edges = census()
    if args.drawing:
        print("\n".join(drawing(app_edges(imports))))
        return 0
    found = cycles(edges)
    print(f"import cycles: {len(found)}")
    for component in found:
        print(f"  {len(component)} modules: {', '.join(component)}")
    inside = [entry for entry in imports if entry.in_function]
    free = function_level_imports(breaking_no_cycle=True)
    print(f"import statements inside functions (any module): {all_function_level_statements()}")
    print(f"function-level imports of project modules: {len(inside)}")
    print(f"  of which break no cycle: {len(free)}")
    if args.list:
        for entry in inside:
            mark = " " if entry in free else "*"
            print(f"  {mark} {entry.module}:{entry.line} -> {entry.target}")
        print("  (* the target imports the file back)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

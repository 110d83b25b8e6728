"""A census of the branches on a rule family or variant in the production code.

Reads every Python file of the apps and the project package with ``ast``
(nothing is imported) and counts the comparisons (``==``, ``!=``, ``is``,
``is not``, ``in``, ``not in``) one of whose sides names a family or a
variant: a name or attribute spelled with ``family`` or ``variant``
(``rules.family``, ``Family.PLANAR``, ``Sweep.Kind.BUDGET``,
``NO_FAMILY``, ``Variant.Z10``), a key so spelled (``row["variant"]``,
``data.get("family")``), or a family's or stored variant's text
(``"planar"``, ``"one_shot"``, ``"sustained"``, ``"budget"``,
``"colors"``), also inside a tuple, list or set on that side. A comparison
that names a family is a *family* comparison; one that names only a
variant is a *variant* comparison (mostly the arithmetic, Z10 or
phi-lambda, of the game and of the legacy saves). The registries are
counted apart: that is where such branches belong. They are the rule family
registry (``games/engine/families/``) and the variant registry
(``games/engine/variants.py``: one kind per value of the ``variant`` column,
``z10``, ``phi_lambda``, ``colors`` and ``planar``); the output says
"outside the registries" and "inside the registries" for both together.

It also counts the spellings of "no family" (the original game): the
names ``NO_FAMILY``, ``BUDGET_FAMILY``, ``ORIGINAL``, the member
``BUDGET`` or ``ORIGINAL`` of an enum (``Sweep.Kind.BUDGET``), and comparisons of a
family with ``None`` or ``""``.

Run from the repository root::

    python -m bench.family_census [--list]
"""

from __future__ import annotations

import argparse
import ast
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("core", "games", "results", "puzzles", "research", "dashboard", "decodoku_site")
REGISTRIES = (Path("games/engine/families"), Path("games/engine/variants.py"))
FAMILY_TEXTS = frozenset({"planar", "one_shot", "sustained", "budget", "colors"})
NO_FAMILY_NAMES = frozenset({"NO_FAMILY", "BUDGET_FAMILY", "ORIGINAL", "BUDGET"})


@dataclass(frozen=True)
class Hit:
    path: Path
    line: int
    text: str


def production_files() -> Iterator[Path]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def _names(node: ast.expr) -> Iterator[str]:
    """The identifiers along a name or attribute chain (``a.b.c``: c, b, a)."""
    while isinstance(node, ast.Attribute):
        yield node.attr
        node = node.value
    if isinstance(node, ast.Name):
        yield node.id


def _is_family_side(node: ast.expr) -> bool:
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_is_family_side(element) for element in node.elts)
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value in FAMILY_TEXTS
    if isinstance(node, ast.Attribute | ast.Name):
        return any(_family_word(name) for name in _names(node))
    if isinstance(node, ast.Subscript):  # row["variant"]
        return _family_key(node.slice) or _is_family_side(node.value)
    if isinstance(node, ast.Call):  # data.get("family"), str(rules.family)
        return any(_family_key(arg) or _is_family_side(arg) for arg in node.args)
    return False


def _family_word(name: str) -> bool:
    return "family" in name.lower() or "variant" in name.lower()


def _family_key(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and _family_word(
        node.value)


def _is_no_family_side(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value in (None, "")


def _names_family(node: ast.expr) -> bool:
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_family(element) for element in node.elts)
    if isinstance(node, ast.Constant):
        return node.value in FAMILY_TEXTS - {"colors"} or (
            isinstance(node.value, str) and "family" in node.value.lower())
    if isinstance(node, ast.Attribute | ast.Name):
        return any("family" in name.lower() for name in _names(node))
    if isinstance(node, ast.Subscript):
        return _names_family(node.slice) or _names_family(node.value)
    if isinstance(node, ast.Call):
        return any(_names_family(arg) for arg in node.args)
    return False


def comparisons(tree: ast.AST, path: Path, source: list[str]) -> Iterator[tuple[Hit, bool, bool]]:
    """Each comparison on a family or variant: whether it names a family, whether it tests
    for "no family"."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        if any(_is_family_side(side) for side in sides):
            names_family = any(_names_family(side) for side in sides)
            none_test = names_family and any(_is_no_family_side(side) for side in sides)
            hit = Hit(path, node.lineno, source[node.lineno - 1].strip())
            yield hit, names_family, none_test


def no_family_spellings(tree: ast.AST) -> Iterator[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in NO_FAMILY_NAMES - {"BUDGET"}:
            yield node.id
        elif isinstance(node, ast.Attribute) and node.attr in ("BUDGET", "ORIGINAL"):
            chain = list(_names(node))
            if any(name in ("Family", "Kind") for name in chain[1:]):
                yield ".".join(reversed(chain))
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and target.id in NO_FAMILY_NAMES:
                    yield f"{target.id} (defined)"


@dataclass
class Census:
    family: Counter[Path]  # family comparisons per file, outside the registries
    variant: Counter[Path]  # variant-only comparisons per file, outside the registries
    inside: int  # comparisons of either kind inside the registries
    none_tests: int  # family comparisons that test for "no family"
    spellings: Counter[str]
    hits: list[tuple[Hit, bool]]


def census() -> Census:
    """The comparisons and spellings of every production file."""
    result = Census(Counter(), Counter(), 0, 0, Counter(), [])
    for path in production_files():
        text = path.read_text()
        tree = ast.parse(text)
        relative = path.relative_to(ROOT)
        for name in no_family_spellings(tree):
            result.spellings[name] += 1
        for hit, names_family, none_test in comparisons(tree, relative, text.splitlines()):
            if any(relative.is_relative_to(registry) for registry in REGISTRIES):
                result.inside += 1
                continue
            (result.family if names_family else result.variant)[relative] += 1
            result.none_tests += none_test
            result.hits.append((hit, names_family))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="print every comparison")
    args = parser.parse_args()
    found = census()
    print(f"family comparisons outside the registries: {sum(found.family.values())} "
          f"in {len(found.family)} files ({found.none_tests} of them test for no family)")
    for path, count in found.family.most_common():
        print(f"  {count:3d}  {path}")
    print(f"variant comparisons (naming no family) outside the registries: "
          f"{sum(found.variant.values())} in {len(found.variant)} files")
    for path, count in found.variant.most_common():
        print(f"  {count:3d}  {path}")
    registries = ", ".join(f"{path}/" if path.suffix != ".py" else str(path)
                           for path in REGISTRIES)
    print(f"comparisons inside the registries ({registries}): {found.inside}")
    print("spellings of no family (names and enum members, with counts):")
    for name, count in sorted(found.spellings.items()):
        print(f"  {count:3d}  {name}")
    if args.list:
        for hit, names_family in found.hits:
            print(f"{'family ' if names_family else 'variant'} {hit.path}:{hit.line}: {hit.text}")


if __name__ == "__main__":
    main()

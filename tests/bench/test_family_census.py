"""Branches on a rule family stay in the family registry (``games.engine.families``),
branches on a variant in the variant registry (``games.engine.variants``).

What differs between families is asked of their kind (``RuleSet.kind``,
``kind_of``), what differs between variants of theirs (``variant_kind``); a new
comparison on a family or a variant elsewhere makes this fail.
``python -m bench.family_census --list`` prints them all.
"""

from __future__ import annotations

import ast
from pathlib import Path

from bench.family_census import census, comparisons

MAX_FAMILY_COMPARISONS = 1
"""Family comparisons outside the registry (59 before the registry, 30 before the kinds
stored their columns and answered for the games, sweeps and reports, 12 before the rule
sets, the planar game, the start request and the pages asked the kind). Lower it as they go.

The one left is the threshold command's check that ``--family`` was given at all."""


def test_family_comparisons_outside_the_registry_do_not_grow():
    found = census()
    count = sum(found.family.values())
    listing = "\n".join(f"{hit.path}:{hit.line}: {hit.text}"
                        for hit, names_family in found.hits if names_family)
    assert count <= MAX_FAMILY_COMPARISONS, (
        f"{count} comparisons on a rule family outside games/engine/families "
        f"(at most {MAX_FAMILY_COMPARISONS}): ask the family's kind instead\n{listing}"
    )


MAX_VARIANT_COMPARISONS = 0
"""Variant comparisons (naming no family) outside the registries (28 before the variant
registry). Keep it there: ask the variant's kind instead."""


def test_variant_comparisons_outside_the_registries_do_not_grow():
    found = census()
    count = sum(found.variant.values())
    listing = "\n".join(f"{hit.path}:{hit.line}: {hit.text}"
                        for hit, names_family in found.hits if not names_family)
    assert count <= MAX_VARIANT_COMPARISONS, (
        f"{count} comparisons on a variant outside games/engine/variants.py and "
        f"games/engine/families (at most {MAX_VARIANT_COMPARISONS}): ask "
        f"variant_kind(variant) instead\n{listing}"
    )


def test_the_census_sees_each_spelling_of_a_family_comparison():
    source = "\n".join([
        "a = rules.family is Family.PLANAR",
        "b = row['family'] == 'planar'",
        "c = data.get('family') is None",
        "d = kind in (Family.ONE_SHOT, Family.SUSTAINED)",
        "e = rules.variant is Variant.Z10",
        "f = rules.size == 7",
    ])
    found = list(comparisons(ast.parse(source), Path("x.py"), source.splitlines()))
    assert [(hit.line, names_family) for hit, names_family, _ in found] == [
        (1, True), (2, True), (3, True), (4, True), (5, False)]
    assert [none_test for _, _, none_test in found] == [False, False, True, False, False]

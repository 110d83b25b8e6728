"""KenKen: a Latin square split into cages, each with an operation and a target.

Rules: every row and column holds 1..N once; the values of a cage give its
target by its operation: ``+`` and ``x`` for any cage, ``-`` and ``/`` for
two-cell cages only (the larger value over the smaller), and ``=`` for a
one-cell cage, whose target is its value.

Generation (after seed 002, "Calcoolation", made to give unique puzzles):
a random Latin square; cages grown from random pairs, walking the grid row
by row: a cell without a cage is paired with a random neighbour, joining the
neighbour's cage when it has one (up to ``max_cage`` cells), so cages merge
when they touch; then an operation per cage. The solution counter then
decides: with more than one solution, the operations of the cages where two
solutions differ are drawn again; after a few tries a cell where they differ is split off into a
one-cell cage (at most N times), and failing that the cages are drawn again,
until the puzzle has exactly one solution. That is engine version 1
(:func:`generate_v1`, kept unchanged).

Version 2 (:func:`generate`) draws cage sizes from 2 to 6 cells and grows
each into free neighbours, so that one-cell cages are rare (at most one from
the repairs); it splits cages in halves rather than splitting cells off, and
aims for a level of :mod:`puzzles.engines.grading` by merging cages (too
easy) or splitting them and changing operations (too hard), keeping the
puzzle unique at every change.

KenKen with multiplication only (the kind MULTIPLY_KIND, class
:class:`MultiplyKenKen`) is the same engine with MULTIPLY_ONLY as its
operations: every cage of two cells or more is a product; its descriptions
say so ("operations": ["x"]). It starts at engine version 2.

The package's modules: :mod:`~puzzles.engines.kenken.cages` (a cage and its
fillings), :mod:`~puzzles.engines.kenken.puzzle` (the puzzle, its propagation
and JSON), :mod:`~puzzles.engines.kenken.drawing` (cage shapes and operations
drawn for generation), :mod:`~puzzles.engines.kenken.generator_v1` (engine
version 1) and :mod:`~puzzles.engines.kenken.generator` (versions 2 and 3).
This package names what other modules, tests and benchmarks use. Tunables such
as PROOF_NODE_LIMIT are read from the module that defines them: patch them
there, not here.
"""

from puzzles.engines.kenken.cages import (
    ALL_OPERATIONS,
    MAX_CAGE_CELLS,
    MAX_CAGE_NODES,
    MULTIPLY_ONLY,
    OP_ALIASES,
    OPS,
    Cage,
    _cage_tuples,
    _supports_of_shape,
    _tuples_of_shape,
    operation_result,
)
from puzzles.engines.kenken.drawing import (
    CAGE_DRAWS,
    CAGE_SIZE_WEIGHTS,
    MAX_FILLINGS,
    MAX_SINGLE_CELL_CAGES,
    MULTIPLY_SINGLE_CELL_CAGES,
    OPERATION_DRAWS,
    SINGLE_CELL_CHANCE,
    V2_MAX_CAGE,
    _pick_v2,
    grow_cages,
    grow_cages_v2,
    pick_operation,
)
from puzzles.engines.kenken.generator import (
    EASY_LARGE_GRID_MAX_CAGE,
    LARGE_GRID_FROM_SIZE,
    LARGE_GRID_MAX_CAGE,
    LEVEL_ATTEMPTS,
    LEVEL_TWEAKS,
    PROOF_BUDGET_FROM_SIZE,
    PROOF_NODE_LIMIT,
    _differing,
    default_max_cage,
    generate,
    generate_multiply,
)
from puzzles.engines.kenken.generator_v1 import (
    DEFAULT_MAX_CAGE,
    DIFFICULTY_ATTEMPTS,
    generate_v1,
)
from puzzles.engines.kenken.puzzle import (
    DEFAULT_SIZE,
    ENGINE_VERSION,
    ENGINE_VERSIONS,
    FEW_FILLINGS,
    KIND,
    MAX_SIZE,
    MEMO_SIZE,
    MIN_SIZE,
    MULTIPLY_KIND,
    KenKen,
    MultiplyKenKen,
    from_dict,
    from_dict_multiply,
    generated_dict,
    puzzle_class,
    read_solution,
)
from puzzles.engines.latin import PuzzleError

__all__ = [
    "ALL_OPERATIONS",
    "CAGE_DRAWS",
    "CAGE_SIZE_WEIGHTS",
    "DEFAULT_MAX_CAGE",
    "DEFAULT_SIZE",
    "DIFFICULTY_ATTEMPTS",
    "EASY_LARGE_GRID_MAX_CAGE",
    "ENGINE_VERSION",
    "ENGINE_VERSIONS",
    "FEW_FILLINGS",
    "KIND",
    "LARGE_GRID_FROM_SIZE",
    "LARGE_GRID_MAX_CAGE",
    "LEVEL_ATTEMPTS",
    "LEVEL_TWEAKS",
    "MAX_CAGE_CELLS",
    "MAX_CAGE_NODES",
    "MAX_FILLINGS",
    "MAX_SINGLE_CELL_CAGES",
    "MAX_SIZE",
    "MEMO_SIZE",
    "MIN_SIZE",
    "MULTIPLY_KIND",
    "MULTIPLY_ONLY",
    "MULTIPLY_SINGLE_CELL_CAGES",
    "OPERATION_DRAWS",
    "OPS",
    "OP_ALIASES",
    "PROOF_BUDGET_FROM_SIZE",
    "PROOF_NODE_LIMIT",
    "SINGLE_CELL_CHANCE",
    "V2_MAX_CAGE",
    "Cage",
    "KenKen",
    "MultiplyKenKen",
    "PuzzleError",
    "_cage_tuples",
    "_differing",
    "_pick_v2",
    "_supports_of_shape",
    "_tuples_of_shape",
    "default_max_cage",
    "from_dict",
    "from_dict_multiply",
    "generate",
    "generate_multiply",
    "generate_v1",
    "generated_dict",
    "grow_cages",
    "grow_cages_v2",
    "operation_result",
    "pick_operation",
    "puzzle_class",
    "read_solution",
]

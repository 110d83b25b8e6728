"""The exact Decodoku puzzle solver: against brute force, the reference programme, and the data."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles.engines.decodoku import MODULUS, Board, check, geometry, parse_grid, solve
from puzzles.engines.decodoku.reference import fewest_links


def brute_force(board: Board) -> list[int | None]:
    """Per top-left value, the fewest links of any explanation giving it (every link set tried).

    Written apart from the engine: groups by a plain component search, the
    corner rule read straight from the puzzle's statement.
    """
    geo = board.geometry
    cells = geo.cells
    top_left, bottom_right = 0, cells - 1
    best: list[int | None] = [None] * MODULUS
    for mask in range(1 << len(geo.links)):
        adjacent: list[list[int]] = [[] for _ in range(cells)]
        for index, (a, b) in enumerate(geo.links):
            if mask >> index & 1:
                adjacent[a].append(b)
                adjacent[b].append(a)
        label = [-1] * cells
        sums: list[int] = []
        for start in range(cells):
            if label[start] >= 0:
                continue
            label[start] = len(sums)
            stack, total = [start], 0
            while stack:
                cell = stack.pop()
                total += board.values[cell]
                for other in adjacent[cell]:
                    if label[other] < 0:
                        label[other] = label[start]
                        stack.append(other)
            sums.append(total % MODULUS)
        corner_groups = {label[top_left], label[bottom_right]}
        if any(s for g, s in enumerate(sums) if g not in corner_groups):
            continue
        if label[top_left] == label[bottom_right]:
            answers = list(range(MODULUS))
        else:
            answers = [(-sums[label[top_left]]) % MODULUS]
        used = mask.bit_count()
        for answer in answers:
            known = best[answer]
            if known is None or used < known:
                best[answer] = used
    return best


def small_boards() -> st.SearchStrategy[Board]:
    @st.composite
    def build(draw: st.DrawFn) -> Board:
        rows, cols = draw(st.sampled_from([(2, 2), (2, 3), (3, 2), (2, 4), (3, 3)]))
        inner = draw(
            st.lists(
                st.integers(0, 9) | st.just(0),
                min_size=rows * cols - 2,
                max_size=rows * cols - 2,
            )
        )
        return Board(geometry(rows, cols), (0, *inner, 0))

    return build()


def assert_agrees(board: Board, costs: list[int | None]) -> None:
    fewest = min(c for c in costs if c is not None)
    answers = [value for value, cost in enumerate(costs) if cost == fewest]
    solution = solve(board)
    assert solution.optimal
    assert solution.links == fewest
    assert [solution.corner, *solution.ties] == answers
    for value, links in solution.explanations.items():
        verdict = check(board, links)
        assert verdict.valid
        assert value in verdict.answers
        assert len(links) == fewest


@settings(max_examples=60, deadline=None)
@given(small_boards())
def test_the_solver_agrees_with_brute_force_on_small_boards(board: Board) -> None:
    assert_agrees(board, brute_force(board))


def test_the_solver_agrees_with_brute_force_on_a_three_by_four_board() -> None:
    board = Board(geometry(3, 4), (0, 7, 0, 4, 9, 0, 5, 2, 0, 3, 8, 0))
    assert_agrees(board, brute_force(board))


def test_the_solver_agrees_with_the_flow_programme_on_four_by_four_boards() -> None:
    boards = [
        (0, 3, 0, 0, 0, 0, 7, 0, 0, 0, 0, 4, 0, 6, 0, 0),
        (0, 0, 5, 0, 2, 0, 0, 0, 0, 8, 0, 0, 0, 0, 5, 0),
        (0, 1, 0, 0, 9, 0, 0, 4, 0, 0, 3, 0, 3, 0, 0, 0),
    ]
    for values in boards:
        board = Board(geometry(4, 4), values)
        reference = fewest_links(board, time_limit=60)
        assert reference.optimal
        assert solve(board).links == reference.links
        assert check(board, reference.explanation).valid


def test_a_board_with_two_equally_cheap_corners_reports_the_tie() -> None:
    # One 5 in the top-right cell, seven steps from either hidden corner: joining it
    # to the top-left gives 5 there, joining it to the bottom-right leaves 0 there.
    values = [0] * 64
    values[7] = 5
    solution = solve(Board(geometry(8, 8), tuple(values)))
    assert (solution.corner, solution.links, solution.ties) == (0, 7, (5,))
    assert set(solution.explanations) == {0, 5}


def test_a_board_whose_cheapest_explanations_join_the_corners_ties_every_value() -> None:
    # 0 5 6 / 0 1 2 / 3 0 0: six links explain it as one group holding both corners
    # (any top-left value then fits), and nothing cheaper does.
    board = Board(geometry(3, 3), (0, 5, 6, 0, 1, 2, 3, 0, 0))
    solution = solve(board)
    assert solution.links == 6
    assert [solution.corner, *solution.ties] == list(range(MODULUS))
    assert brute_force(board) == [6] * MODULUS


def test_a_lone_cell_next_to_a_corner_gives_that_corner_its_complement() -> None:
    board = parse_grid("?3" + "0" * 61 + "?")
    solution = solve(board)
    assert (solution.corner, solution.links, solution.ties) == (7, 1, ())

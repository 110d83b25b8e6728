"""Views of the puzzles API: validate, call a service or selector, answer."""

from __future__ import annotations

import uuid

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.serializers import ErrorSerializer
from core.api.throttles import count_player_actions
from core.api.views import PlayerAPIView, validated
from core.concurrency import PUZZLE, heavy_request
from core.pagination import ListPagination
from games.authentication import PlayerSessionAuthentication, request_player
from puzzles.api import serializers as s
from puzzles.engines import puzzle_id
from puzzles.engines.latin import PuzzleError
from puzzles.models import Attempt
from puzzles.selectors import (
    InvalidPuzzle,
    action_view,
    attempt_get_for_player,
    attempt_list_for_player,
    attempt_public_view,
    offered_levels_view,
    own_puzzle_check,
)
from puzzles.services import (
    MAX_BATCH_ACTIONS,
    ActionIn,
    attempt_act,
    attempt_act_many,
    attempt_finish,
    attempt_start,
    own_puzzle_start,
    solution_revealed,
)

USER_AGENT_MAX_LENGTH = 300

DESCRIBED = {
    400: "The request is malformed or a value is not acceptable.",
    401: "No valid token or session.",
    403: "CSRF check failed (session authentication).",
    404: "No such attempt (another player's attempt is not found either).",
    409: "stale_step or game_over: the attempt is not where the client thinks.",
    413: "The body is too large.",
    414: "The URL is too long.",
    415: "The body is not JSON.",
    422: "illegal_action: the action does not fit the grid (a given cell, nothing to undo...).",
    429: "Too many requests (see Retry-After).",
    503: "busy: as many puzzles are being made or checked as the server runs at once; "
    "retry after Retry-After seconds.",
}


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {c: OpenApiResponse(response=ErrorSerializer, description=DESCRIBED[c]) for c in codes}


def _source(request: Request) -> str:
    if isinstance(request.successful_authenticator, PlayerSessionAuthentication):
        return Attempt.Source.WEB
    return Attempt.Source.API


class AttemptListCreateView(PlayerAPIView, GenericAPIView):
    pagination_class = ListPagination
    serializer_class = s.AttemptSerializer

    @extend_schema(
        operation_id="puzzles_list",
        summary="My puzzle attempts, newest first",
        responses={200: s.AttemptSerializer(many=True), **_errors(400, 401, 404, 414, 429)},
    )
    def get(self, request: Request) -> Response:
        attempts = attempt_list_for_player(player=request_player(request))
        page = self.paginate_queryset(attempts) or []
        return self.get_paginated_response(
            [attempt_public_view(attempt=a, detail=False) for a in page]
        )

    @extend_schema(
        operation_id="puzzles_create",
        summary="Start a puzzle",
        description=(
            "Generates a puzzle of the kind (size and difficulty optional; a seed gives a "
            "known puzzle) and starts an attempt at it. A level is reached by generating: "
            "when no puzzle of that level comes from the seed and size in the tries allowed, "
            "400 level_not_reached names the levels reached (ask again without a seed, or "
            "another level or size)."
        ),
        request=s.AttemptCreateSerializer,
        responses={
            201: s.AttemptSerializer,
            **_errors(400, 401, 403, 404, 413, 414, 415, 429, 503),
        },
        examples=[
            OpenApiExample(
                "A 4 x 4 KenKen", value={"kind": "kenken", "size": 4}, request_only=True
            ),
            OpenApiExample(
                "Published Decodoku puzzle 12",
                value={"kind": "decodoku", "number": 12},
                request_only=True,
            ),
        ],
    )
    @heavy_request(PUZZLE)
    def post(self, request: Request) -> Response:
        data = validated(s.AttemptCreateSerializer, request.data)
        attempt = attempt_start(
            player=request_player(request),
            kind=data["kind"],
            size=data.get("size"),
            difficulty=data.get("difficulty"),
            seed=data.get("seed"),
            number=data.get("number"),
            source=_source(request),
            client_info={
                "user_agent": request.META.get("HTTP_USER_AGENT", "")[:USER_AGENT_MAX_LENGTH]
            },
        )
        return Response(attempt_public_view(attempt=attempt), status=status.HTTP_201_CREATED)


class OfferedLevelsView(PlayerAPIView):
    permission_classes = []

    @extend_schema(
        operation_id="puzzles_levels",
        summary="The levels offered, per kind and size",
        description=(
            "Per kind and size, the levels the generator was measured to deliver: at least "
            "19 of 20 fresh seeds within 4 CPU seconds (`any`: a puzzle of no level in "
            "particular). The puzzle pages build their menus from it; a size or level not "
            "listed may still be asked for, and may be refused (400 level_not_reached). "
            "`?kind=` keeps one kind."
        ),
        parameters=[
            OpenApiParameter("kind", OpenApiTypes.STR, OpenApiParameter.QUERY, required=False,
                             enum=s.PUZZLE_KINDS, description="Only this puzzle kind.")
        ],
        responses={200: s.OfferedLevelsSerializer(many=True), **_errors(400, 401, 429)},
    )
    def get(self, request: Request) -> Response:
        kind = request.query_params.get("kind")
        return Response(offered_levels_view(kind=kind))


class AttemptDetailView(PlayerAPIView):
    @extend_schema(
        operation_id="puzzles_retrieve",
        summary="An attempt: the puzzle and the grid (the solution and actions once ended)",
        responses={200: s.AttemptSerializer, **_errors(401, 404, 414, 429)},
    )
    def get(self, request: Request, attempt_id: uuid.UUID) -> Response:
        attempt = attempt_get_for_player(attempt_id=attempt_id, player=request_player(request))
        return Response(attempt_public_view(attempt=attempt))


class ActionCreateView(PlayerAPIView):
    @extend_schema(
        operation_id="puzzles_actions_create",
        summary="Send an action",
        description=(
            "`step` must be the attempt's current step; resending the action recorded at "
            "`step` returns the recorded result (200, `replayed: true`)."
        ),
        request=s.ActionCreateSerializer,
        responses={
            201: s.ActionResultSerializer,
            200: OpenApiResponse(s.ActionResultSerializer, description="A retried action."),
            **_errors(400, 401, 403, 404, 409, 413, 414, 415, 422, 429),
        },
        examples=[
            OpenApiExample(
                "Write 3 in the top left cell",
                value={"step": 0, "kind": "entry", "payload": {"cell": [0, 0], "value": 3}},
                request_only=True,
            )
        ],
    )
    def post(self, request: Request, attempt_id: uuid.UUID) -> Response:
        data = validated(s.ActionCreateSerializer, request.data)
        result = attempt_act(
            attempt_id=attempt_id,
            player=request_player(request),
            step=data["step"],
            kind=data["kind"],
            payload=data.get("payload") or {},
            client_time=data.get("client_time"),
        )
        body = {
            "attempt": attempt_public_view(attempt=result.attempt),
            "action": action_view(result.action),
            "replayed": result.replayed,
        }
        return Response(
            body, status=status.HTTP_200_OK if result.replayed else status.HTTP_201_CREATED
        )


class ActionBatchCreateView(PlayerAPIView):
    @extend_schema(
        operation_id="puzzles_actions_batch_create",
        summary="Send several actions at once",
        description=(
            f"Up to {MAX_BATCH_ACTIONS} actions applied in order and recorded one step each "
            "(filling every candidate, taking a hint's removals off the marks, a restart): "
            "all of them or, when one is refused, none (the error names it as `action N`). "
            "Actions after one that solves the puzzle are not applied. `step` must be the "
            "attempt's current step; resending a recorded batch returns what was recorded "
            "(200, `replayed: true`)."
        ),
        request=s.ActionBatchCreateSerializer,
        responses={
            201: s.ActionBatchResultSerializer,
            200: OpenApiResponse(s.ActionBatchResultSerializer, description="A retried batch."),
            **_errors(400, 401, 403, 404, 409, 413, 414, 415, 422, 429),
        },
        examples=[
            OpenApiExample(
                "Mark 1 and 2 in the top left cell",
                value={
                    "step": 0,
                    "actions": [
                        {"kind": "candidate", "payload": {"cell": [0, 0], "value": 1}},
                        {"kind": "candidate", "payload": {"cell": [0, 0], "value": 2}},
                    ],
                },
                request_only=True,
            )
        ],
    )
    def post(self, request: Request, attempt_id: uuid.UUID) -> Response:
        data = validated(s.ActionBatchCreateSerializer, request.data)
        player = request_player(request)
        wait = count_player_actions(player=player, amount=len(data["actions"]))
        if wait is not None:
            raise exceptions.Throttled(wait=wait)
        result = attempt_act_many(
            attempt_id=attempt_id,
            player=player,
            step=data["step"],
            actions=[
                ActionIn(
                    kind=item["kind"],
                    payload=item.get("payload") or {},
                    client_time=item.get("client_time"),
                )
                for item in data["actions"]
            ],
        )
        body = {
            "attempt": attempt_public_view(attempt=result.attempt),
            "actions": [action_view(action) for action in result.actions],
            "replayed": result.replayed,
        }
        return Response(
            body, status=status.HTTP_200_OK if result.replayed else status.HTTP_201_CREATED
        )


class AttemptFinishView(PlayerAPIView):
    @extend_schema(
        operation_id="puzzles_finish",
        summary="Finish an attempt",
        description="Solved if the grid is solved, else abandoned; finishing twice is harmless.",
        request=None,
        responses={200: s.AttemptSerializer, **_errors(401, 403, 404, 414, 429)},
    )
    def post(self, request: Request, attempt_id: uuid.UUID) -> Response:
        attempt = attempt_finish(attempt_id=attempt_id, player=request_player(request))
        return Response(attempt_public_view(attempt=attempt))


# What describes a player's puzzle (the request's other fields, such as a file's format
# or reveal, are not part of it): the serializer's fields of every kind.
OWN_DEFINITION_FIELDS = ("kind", "size", *sorted(s.OWN_DESCRIBING))
OWN_EXAMPLE = {
    "kind": "futoshiki",
    "size": 4,
    "givens": [[0, 0, 1]],
    "relations": [{"a": [0, 1], "b": [0, 2], "op": "<"}],
}
OWN_REFUSED = (
    "invalid_puzzle: the definition is not a puzzle (cages that overlap, leave a cell out or "
    "are not contiguous, a cell outside the grid, a sign between cells that are not "
    "neighbours, a cage target that no filling meets, a sum in a kenken-multiply...); the "
    "message names the cage, cell, sign or bar. No schema can state these rules."
)


def _own_definition(data: dict[str, object]) -> dict[str, object]:
    return {key: data[key] for key in OWN_DEFINITION_FIELDS if key in data}


class OwnPuzzleCheckView(PlayerAPIView):
    @extend_schema(
        operation_id="puzzles_own_check",
        summary="Check a KenKen, Futoshiki or variant that you made",
        description=(
            "Counts the solutions of the puzzle (stopping at two, or after `max_nodes` search "
            "nodes or `cpu_seconds` of processor time: then `unknown`) and grades it when it "
            "has exactly one. Nothing is stored, but with `reveal`, that the player has seen "
            "this solution: their attempts at any puzzle with it are then marked "
            "`seen_solution` (not research data). " + OWN_REFUSED
        ),
        request=s.OwnCheckSerializer,
        responses={
            200: s.OwnVerdictSerializer,
            **_errors(400, 401, 403, 413, 414, 415, 429, 503),
        },
        examples=[OpenApiExample("A 4 x 4 Futoshiki", value=OWN_EXAMPLE, request_only=True)],
    )
    @heavy_request(PUZZLE)
    def post(self, request: Request) -> Response:
        data = validated(s.OwnCheckSerializer, request.data)
        verdict = own_puzzle_check(definition=_own_definition(data))
        if data["reveal"] and verdict.solution is not None:
            # Shown a solution, the player's attempts at it measure memory from now on.
            solution_revealed(
                player=request_player(request),
                kind=verdict.puzzle.kind,
                size=verdict.puzzle.size,
                solution=verdict.solution,
            )
        return Response(verdict.to_dict(reveal=data["reveal"]))


class OwnPuzzleStartView(PlayerAPIView):
    @extend_schema(
        operation_id="puzzles_own_create",
        summary="Play a KenKen, Futoshiki or variant that you made",
        description=(
            "Checks the puzzle as `check/` does, stores it (the same puzzle entered twice is "
            "one puzzle, of difficulty its level) and starts an attempt at it. Only a puzzle "
            "with exactly one solution can be played. " + OWN_REFUSED
        ),
        request=s.OwnPuzzleSerializer,
        responses={
            201: s.AttemptSerializer,
            **_errors(400, 401, 403, 413, 414, 415, 429, 503),
        },
        examples=[OpenApiExample("A 4 x 4 Futoshiki", value=OWN_EXAMPLE, request_only=True)],
    )
    @heavy_request(PUZZLE)
    def post(self, request: Request) -> Response:
        data = validated(s.OwnPuzzleSerializer, request.data)
        attempt = own_puzzle_start(
            player=request_player(request),
            definition=_own_definition(data),
            source=_source(request),
            client_info={
                "user_agent": request.META.get("HTTP_USER_AGENT", "")[:USER_AGENT_MAX_LENGTH]
            },
        )
        return Response(attempt_public_view(attempt=attempt), status=status.HTTP_201_CREATED)


def _definition_from_id(text: str) -> dict[str, object]:
    """The description a puzzle ID stands for, checked as a puzzle that a player entered."""
    try:
        definition = puzzle_id.decode(text)
    except PuzzleError as exc:
        raise InvalidPuzzle(str(exc)) from None
    # The same shape limits as a definition sent to own/ (cage sizes, targets, kinds).
    return _own_definition(validated(s.OwnPuzzleSerializer, definition))


class PuzzleIdStartView(PlayerAPIView):
    @extend_schema(
        operation_id="puzzles_from_id",
        summary="Play a KenKen or Futoshiki from its puzzle ID",
        description=(
            "Reads the puzzle ID (`kind:size:description`, as `puzzle_id` of an attempt), "
            "then checks, stores and starts the puzzle as `own/` does. A malformed or "
            "damaged ID is refused with 400 `invalid_puzzle`. " + OWN_REFUSED
        ),
        request=s.PuzzleIdSerializer,
        responses={
            201: s.AttemptSerializer,
            **_errors(400, 401, 403, 413, 414, 415, 429, 503),
        },
    )
    @heavy_request(PUZZLE)
    def post(self, request: Request) -> Response:
        data = validated(s.PuzzleIdSerializer, request.data)
        attempt = own_puzzle_start(
            player=request_player(request),
            definition=_definition_from_id(data["id"]),
            source=_source(request),
            client_info={
                "user_agent": request.META.get("HTTP_USER_AGENT", "")[:USER_AGENT_MAX_LENGTH]
            },
        )
        return Response(attempt_public_view(attempt=attempt), status=status.HTTP_201_CREATED)

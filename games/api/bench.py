"""A baseline endpoint for ``bench/api_load.py``, routed only with DECODOKU_BENCH_ENDPOINTS=1.

It does the least database work a move needs: lock one game row with
``SELECT ... FOR UPDATE``, insert one event row and update the game row, in
one transaction, behind the same authentication and parsing as a real move.
The benchmark compares real moves with it to see what the game logic and
the recording add. Its rows (kind ``bench``) belong to the benchmark's own
games and are not valid game records.
"""

from __future__ import annotations

import uuid

from django.db import transaction
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from games.api import serializers as s
from games.api.authentication import request_player
from games.api.views import PlayerAPIView, validated
from games.errors import NotFound
from games.models import Event, Game


class BaselineMoveView(PlayerAPIView):
    @extend_schema(exclude=True)
    def post(self, request: Request, game_id: uuid.UUID) -> Response:
        player = request_player(request)
        validated(s.MoveCreateSerializer, request.data)
        with transaction.atomic():
            game = (
                Game.objects.select_for_update()
                .filter(pk=game_id, player=player)
                .only("id", "next_seq")
                .first()
            )
            if game is None:
                raise NotFound("No such game.")
            Event.objects.create(
                game=game, seq=game.next_seq, kind="bench", server_time=timezone.now()
            )
            Game.objects.filter(pk=game.pk).update(next_seq=game.next_seq + 1)
        return Response({"seq": game.next_seq}, status=201)

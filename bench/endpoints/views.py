"""A baseline endpoint for ``bench/api_load.py``.

It does the least database work a move needs: lock one game row with
``SELECT ... FOR UPDATE``, insert one event row and update one counter row,
in one transaction, behind the same authentication and parsing as a real
move. The benchmark compares real moves with it to see what the game logic
and the recording add. The game row is only locked, never written; the
inserted and updated rows are this app's own.
"""

from __future__ import annotations

import uuid

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from bench.endpoints.models import BaselineEvent, BaselineGame
from core.api.views import PlayerAPIView, validated
from core.errors import NotFound
from games.api import serializers as s
from games.authentication import request_player
from games.models import Game


class BaselineMoveView(PlayerAPIView):
    @extend_schema(exclude=True)
    def post(self, request: Request, game_id: uuid.UUID) -> Response:
        player = request_player(request)
        validated(s.MoveCreateSerializer, request.data)
        with transaction.atomic():
            locked = (
                Game.objects.select_for_update().filter(pk=game_id, player=player)
                .values_list("pk", flat=True).first()
            )
            if locked is None:
                raise NotFound("No such game.")
            counter, _ = BaselineGame.objects.get_or_create(game_id=locked)
            BaselineEvent.objects.create(
                game=counter, seq=counter.next_seq, server_time=timezone.now()
            )
            BaselineGame.objects.filter(pk=counter.pk).update(next_seq=F("next_seq") + 1)
        return Response({"seq": counter.next_seq}, status=201)

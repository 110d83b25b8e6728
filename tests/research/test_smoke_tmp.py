from django.db.models import Q
from research.exports.filters import ExportFilters, filtered_queryset
from research.exports.tables import all_tables
from research.exports.writer import portable_chunks, copy_chunks
from games.models import Event
def test_smoke(researcher_client, lost_game, short_game):
    Event.objects.filter(kind="move").update(note='a, "quoted"\nnote\r')
    for name, table in all_tables().items():
        qs = filtered_queryset(table=table, filters=ExportFilters())
        a = b"".join(portable_chunks(table=table, queryset=qs))
        b = b"".join(copy_chunks(table=table, queryset=qs))
        if a != b:
            al, bl = a.splitlines(), b.splitlines()
            for x, y in zip(al, bl):
                if x != y:
                    print(name, "\n", x, "\n", y); break
        assert a == b, name

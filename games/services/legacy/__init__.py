"""Importing save files of the original apps (2016-2017) as recorded games.

A save file holds the board after every step, not the seed nor the moves.
The importer reads it (``games.engine.legacy.read_save``), checks every step
against the rules (``verify_save``) and refuses a file that breaks one,
naming the step, the file line and the reason. A verified file becomes a
lost game with source ``legacy_upload`` and no seed: one BoardSnapshot per
step (with the player's comments), and one ``move`` event for every move the
boards reveal, followed by the ``loss``. Phi-Lambda files, which show Phi and
Lambda instead of the numbers, and files with missing steps are stored as
partially observed records.

The same file (by SHA-256 of its bytes) is imported once: uploading it again
returns the game made the first time. A file whose boards are those of a
game imported before (an explained copy of a save, with the player's notes
beside the boards) adds the notes that game lacks to it (``merge_comments``).

An upload is bounded whatever it holds: one ``Deadline`` of wall-clock and
processor time (``DECODOKU_SAVE_PARSE_SECONDS``,
``DECODOKU_UPLOAD_CPU_SECONDS``) for the whole upload (a request of the web
page that carries several files shares one among them), and for archives and
workbooks one ``Budget`` for every file in them (``upload_limits``). An
archive or workbook beyond it is refused whole and nothing is stored.

- ``reading``: reading and checking one file within the upload's time, and
  the rules it is stored under;
- ``records``: the snapshots, move events and import report a file becomes;
- ``importing``: storing one file as a game of a player (``legacy_import``);
- ``comments``: merging the notes of an explained copy into the game
  imported before;
- ``collection``: a collection's entries one by one, and uploaded archives
  and workbooks.
"""

from games.services.legacy.collection import (
    OUTCOMES,
    CollectionOutcome,
    import_collection_entry,
    is_archive,
    legacy_import_archive,
    upload_limits,
)
from games.services.legacy.comments import merge_comments
from games.services.legacy.importing import ImportResult, ImportSource, legacy_import
from games.services.legacy.reading import time_allowed, upload_deadline
from games.services.legacy.records import observation

__all__ = [
    "OUTCOMES",
    "CollectionOutcome",
    "ImportResult",
    "ImportSource",
    "import_collection_entry",
    "is_archive",
    "legacy_import",
    "legacy_import_archive",
    "merge_comments",
    "observation",
    "time_allowed",
    "upload_deadline",
    "upload_limits",
]

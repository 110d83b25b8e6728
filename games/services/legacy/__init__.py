"""Importing save files of the original apps (2016-2017) as recorded games."""

from games.services.legacy.importing import (
    OUTCOMES,
    CollectionOutcome,
    ImportResult,
    ImportSource,
    import_collection_entry,
    is_archive,
    legacy_import,
    legacy_import_archive,
    merge_comments,
    observation,
    time_allowed,
    upload_deadline,
    upload_limits,
)

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

"""The play API, version 1: DRF views under /api/v1/ (see docs/api.md)."""

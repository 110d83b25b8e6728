"""The play API, version 1: DRF views under /api/v1/ (see README "The play API")."""

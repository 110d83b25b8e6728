"""Database models of the results app (none yet)."""

"""Admin pages of the results app (none registered yet)."""

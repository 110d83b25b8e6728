"""Research results: aggregated statistics and data exports built from recorded games."""

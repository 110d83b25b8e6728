"""The research area: CSV exports of the recorded games, the codebook, researchers' access."""

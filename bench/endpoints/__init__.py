"""The load benchmark's baseline endpoint, as a Django app production never installs.

``decodoku_site.settings`` adds this app to ``INSTALLED_APPS`` (and its URL
under ``/api/v1/bench/``) only when ``DECODOKU_BENCH_ENDPOINTS=1``, which
``bench/api_load.py`` sets for its own server; the Docker image does not even
contain ``bench/``. Its rows go to its own tables, never to the games'.
"""

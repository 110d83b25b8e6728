"""The web pages of Decodoku Lab: the home page, the tutorial and the play page.

The pages are thin: they render templates, and the game itself runs in the
browser as plain ES modules (``games/static/games/js/``) talking to the play API.
"""

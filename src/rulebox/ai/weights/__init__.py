"""Learned evaluation weights, one JSON file a game (written by ``rulebox train``)."""

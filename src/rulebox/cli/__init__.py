"""The ``rulebox`` command line."""

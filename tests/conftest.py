"""Shared test settings."""

import os

os.environ.setdefault("NO_COLOR", "1")

"""The analysis tests use the toy game of tests/ai (Stones: take 1 or 2, the last stone wins)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "ai"))

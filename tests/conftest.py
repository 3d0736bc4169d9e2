"""The tests' own helpers (``pace``) importable by name under ``--import-mode=importlib``."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

"""Where the project's data files are: `policies/`, `migrations/` and `alembic.ini`.

In a source checkout (an editable install, the tests, CI) they are at its top level, beside
`guardian/`. A regular install (`pip install .`, a wheel, a container image) has no checkout:
setup.py's build step copies them into the package as `guardian/_data/`, and they are read
from there. Every module that needs one asks `data_path` instead of walking up from its own
file (which, installed, pointed into site-packages and failed: the default policy was "not
found" and `guardian serve` did not start).
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]  # guardian/ (this module is guardian/core/)
_CHECKOUT = _PACKAGE.parent
# The names setup.py copies (setup.py keeps the same tuple: it cannot import the package).
DATA = ("policies", "migrations", "alembic.ini")


def data_root() -> Path:
    """The directory holding DATA: the checkout's top level, else the installed copy."""
    if (_CHECKOUT / "pyproject.toml").is_file() and (_CHECKOUT / "policies").is_dir():
        return _CHECKOUT
    return _PACKAGE / "_data"


def data_path(*parts: str) -> Path:
    """A path under `data_root()`, e.g. data_path("policies", "default.yaml")."""
    return data_root().joinpath(*parts)

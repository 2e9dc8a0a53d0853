"""Build hooks (everything else is in pyproject.toml).

* The one optional C extension: `guardian.audit._seal` is the audit writer's per-token hot loop
  (guardian/audit/_seal.c). It needs a C compiler and OpenSSL's headers (Debian:
  libssl-dev); where either is missing the build says so and goes on without it, and the
  pure-Python sealer (same output) runs instead.
* The data a regular install needs: `policies/`, `migrations/` and `alembic.ini` live at the
  top of the checkout (the design card's layout); the build copies them into the package as
  `guardian/_data/`, where `guardian.core.resources` finds them when there is no checkout.
"""

import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

DATA = ("policies", "migrations", "alembic.ini")  # = guardian.core.resources.DATA


class BuildPyWithData(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):  # an editable install reads the checkout
            return
        target = Path(self.build_lib) / "guardian" / "_data"
        for name in DATA:
            src, dst = Path(name), target / name
            if src.is_dir():
                shutil.copytree(src, dst, dirs_exist_ok=True,
                                ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            elif src.is_file():
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dst)
            else:
                raise FileNotFoundError(f"{name} is missing from the source tree")


setup(cmdclass={"build_py": BuildPyWithData},
      ext_modules=[Extension("guardian.audit._seal", ["guardian/audit/_seal.c"],
                             libraries=["crypto", "m"], optional=True,
                             extra_compile_args=["-O2", "-Wall", "-Wextra",
                                                 "-Wno-unused-parameter"])])

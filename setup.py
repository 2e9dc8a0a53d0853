"""Build hook for the one optional C extension (everything else is in pyproject.toml).

`guardian.audit._seal` is the audit writer's per-token hot loop (guardian/audit/_seal.c). It
needs a C compiler and OpenSSL's headers (Debian: libssl-dev); where either is missing the
build says so and goes on without it, and the pure-Python sealer (same output) runs instead.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("guardian.audit._seal", ["guardian/audit/_seal.c"],
                             libraries=["crypto"], optional=True,
                             extra_compile_args=["-O2", "-Wall", "-Wextra",
                                                 "-Wno-unused-parameter"])])

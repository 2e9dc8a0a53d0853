"""Options shared by the commands that load a model pair (`guardian pair build-demo`,
`guardian gate`, `guardian bench tolerance|clean|step-profile`): checked before any model
loads, so a bad value is a usage error (exit 2) naming the option, not a torch traceback after
the weights loaded."""

from __future__ import annotations

import typer

__all__ = ["device_option", "dtype_option"]


def dtype_option(value: str | None) -> str | None:
    """A `--dtype` value checked before any model loads: its canonical name, or None; a
    typer.BadParameter naming the accepted names (a clear CLI error, not a traceback)."""
    if value is None:
        return None
    from engine.loading import resolve_dtype

    try:
        return str(resolve_dtype(value)).removeprefix("torch.")
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--dtype") from None


def device_option(value: str | None) -> str | None:
    """A `--device` value checked before any model loads: cpu or cuda[:N] (CUDA only where
    one is available), or None; else a typer.BadParameter (not a torch traceback after the
    weights loaded)."""
    if value is None:
        return None
    if value.split(":")[0] not in ("cpu", "cuda"):
        raise typer.BadParameter(f"{value!r} is not cpu or cuda", param_hint="--device")
    if value.startswith("cuda"):
        import torch

        if not torch.cuda.is_available():
            raise typer.BadParameter("no CUDA device is available here", param_hint="--device")
    return value

"""A static c2sp.org/tlog-tiles read view of a chain: `guardian audit tiles --out DIR`.

For the chain's latest checkpoint that the database still matches, `write_tiles` writes

* `checkpoint`: that checkpoint's note (with any witness cosignatures);
* `tile/<L>/<N>[.p/<W>]`: the hash tiles - tile N of level L holds the hashes of the nodes
  at height 8*L with indexes [256*N, 256*N + W), 32 bytes each; full tiles hold 256, the
  rightmost of a level the W < 256 left (`.p/W`);
* `tile/entries/<N>[.p/<W>]`: the entry bundles - each entry a big-endian uint16 length and
  the entry, here a record's 32-byte chain hash (the leaf data; record contents stay in the
  database and in receipts, so a tile mirror discloses no prompt text).

`N` is written as 3-digit groups, all but the last prefixed with `x` (1234067 ->
`x001/x234/067`). Any tile-reading client (e.g. golang.org/x/mod/sumdb/tlog's
`TileHashReader`, which checks each tile against the checkpoint's root) can then prove any
record's inclusion and the log's consistency without the sidecar. A chain pruned below the
checkpoint has no leaves for its first tiles: refused.
"""

from __future__ import annotations

import struct
from pathlib import Path

from sqlalchemy import Engine

from guardian.audit.checkpoints import cosigned_checkpoint, read_checkpoints
from guardian.audit.merkle import Tree
from guardian.audit.proofs import ProveError, tree_of
from guardian.core.fileio import write_atomic

HEIGHT = 8
WIDTH = 1 << HEIGHT


def tile_path(level: int | str, index: int, width: int = WIDTH) -> str:
    parts = []
    while True:
        parts.append(f"{index % 1000:03d}")
        index //= 1000
        if index == 0:
            break
    groups = "/".join(["x" + p for p in reversed(parts[1:])] + [parts[0]])
    return f"tile/{level}/{groups}" + (f".p/{width}" if width < WIDTH else "")


def level_hashes(tree: Tree, size: int, level: int) -> list[bytes]:
    """The hashes of the complete nodes at height 8*level of the tree of `size` leaves."""
    span = 1 << (HEIGHT * level)
    return [tree.subtree(i * span, (i + 1) * span) for i in range(size // span)]


def _write(out: Path, rel: str, data: bytes) -> None:
    path = out / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def write_tiles(db: Engine, chain_dir: Path, chain_id: str, out: Path) -> tuple[int, int]:
    """Write the tiles of the chain's latest matching checkpoint under `out`; returns
    (tree size, files written). Raises `ProveError` saying why none can be written."""
    tree, present, prefix = tree_of(db, chain_id)
    if prefix.size:
        raise ProveError(f"chain {chain_id} is pruned below seq {prefix.size}: its first tiles "
                         "have no leaves left")
    matching = [c for c in read_checkpoints(chain_dir)
                if c.size <= tree.size and tree.root(c.size).hex() == c.root]
    if not matching:
        raise ProveError(f"no checkpoint of chain {chain_id} matches the database; run "
                         "`guardian audit verify`")
    cp = max(matching, key=lambda c: c.size)
    size, files = cp.size, 0
    level = 0
    while size >> (HEIGHT * level):
        hashes = level_hashes(tree, size, level)
        for n in range(0, len(hashes), WIDTH):
            chunk = hashes[n:n + WIDTH]
            _write(out, tile_path(level, n // WIDTH, len(chunk)), b"".join(chunk))
            files += 1
        level += 1
    records = [bytes.fromhex(h) for _, h in present[:size]]
    for n in range(0, size, WIDTH):
        chunk = records[n:n + WIDTH]
        _write(out, tile_path("entries", n // WIDTH, len(chunk)),
               b"".join(struct.pack(">H", len(e)) + e for e in chunk))
        files += 1
    write_atomic(out / "checkpoint", cosigned_checkpoint(chain_dir, cp.size, cp.root),
                 mode=0o644)
    return size, files + 1

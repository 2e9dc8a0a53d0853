"""The dashboard may use engine.metrics (torch-free ratios of the stored counters) and
nothing else from the inference package."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ALLOWED = {"engine", "engine.metrics"}


def test_no_dashboard_file_imports_more_of_engine_than_metrics() -> None:
    found = {}
    for path in (ROOT / "dashboard").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [f"{node.module}.{a.name}" if node.module == "engine" else node.module
                      for a in node.names] if isinstance(node, ast.ImportFrom) and node.module
                     else [])
            bad = [n for n in names if n and n.split(".")[0] == "engine" and n not in ALLOWED]
            if bad:
                found[str(path.relative_to(ROOT))] = bad
    assert found == {}


def test_loading_the_dashboard_data_layer_loads_no_other_engine_module_nor_torch() -> None:
    code = ("import sys, dashboard.data, dashboard.queries, dashboard.charts, dashboard.filters\n"
            "from guardian.governance import modes, gatecheck, routestate\n"
            "from guardian.policy import load_policy; load_policy()\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('engine', 'torch')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         check=True)
    assert out.stdout.strip().splitlines()[-1] == str(sorted(ALLOWED))

"""Module import graphs: no cycle anywhere in guardian, engine or dashboard; policy stays below
governance. Built from every `import` / `from ... import` statement in the source (also
those inside functions: a lazy import still ties two modules together)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(package: str = "guardian") -> dict[str, set[str]]:
    """module -> the modules of `package` it imports (`from pkg import sub` points at pkg.sub).
    C extension modules (a `.c` source beside the `.py` files, e.g. guardian/audit/_seal.c)
    are modules too, leaves that import nothing of the package - not their parent package."""
    files = {_module_name(p): p for p in (ROOT / package).rglob("*.py")}
    extensions = {_module_name(p) for p in (ROOT / package).rglob("*.c")}
    graph: dict[str, set[str]] = {name: set() for name in extensions}
    for name, path in files.items():
        is_pkg = path.name == "__init__.py"
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: resolve against this module's package
                    anchor = name.split(".")[: len(name.split(".")) - node.level + (1 if is_pkg else 0)]
                    base = ".".join([*anchor, base] if base else anchor)
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in files else base
                           for a in node.names]
            else:
                continue
            for target in targets:
                # `import a.b.c` of a name inside a.b
                while target and target not in files and target not in extensions:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges.add(target)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("package", ["guardian.policy", "guardian.governance"])
def test_no_import_cycle_touches(package: str) -> None:
    touching = [c for c in cycles(import_graph()) if any(m == package or m.startswith(package + ".")
                                                         for m in c)]
    assert touching == [], f"import cycles through {package}: {touching}"


def test_policy_imports_nothing_from_governance() -> None:
    graph = import_graph()
    upward = {m: sorted(t for t in targets if t.startswith("guardian.governance"))
              for m, targets in graph.items() if m.startswith("guardian.policy")}
    assert {m: t for m, t in upward.items() if t} == {}


@pytest.mark.parametrize("package", ["guardian", "engine", "dashboard"])
def test_no_import_cycle_anywhere_in(package: str) -> None:
    assert cycles(import_graph(package)) == []


def test_engine_imports_nothing_from_guardian_or_dashboard() -> None:
    """The design's layering: the inference package stands alone (lazy imports included)."""
    offenders = []
    for path in (ROOT / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level
                     else [])
            offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names
                          if n.split(".")[0] in ("guardian", "dashboard")]
    assert offenders == []


def test_a_c_extension_is_a_leaf_module_not_its_package() -> None:
    graph = import_graph()
    assert "guardian.audit._seal" in graph["guardian.audit.native"]
    assert "guardian.audit" not in graph["guardian.audit.native"]
    assert graph["guardian.audit._seal"] == set()


# The layers of guardian/, top down (../docs/architecture.md): a module imports only from its
# own layer or one below. Lazy and TYPE_CHECKING imports count too: a type ties two modules.
LAYERS: list[tuple[str, ...]] = [
    ("guardian.cli", "guardian.app", "guardian.devtools"),
    ("guardian.api",),
    ("guardian.governance", "guardian.alerts"),
    ("guardian.equivalence",),
    ("guardian.serving",),
    ("guardian.observability",),  # reads the backends' result type
    ("guardian.backends",),
    ("guardian.policy",),
    ("guardian.audit",),
    ("guardian.settings",),
    ("guardian.security",),
    ("guardian.core",),
]


def _under(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def layer_of(module: str) -> int | None:
    for i, packages in enumerate(LAYERS):
        if any(_under(module, p) for p in packages):
            return i
    return None


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    return sorted(f"{m} -> {t}" for m, targets in graph.items() for t in targets
                  if (lm := layer_of(m)) is not None and (lt := layer_of(t)) is not None and lt < lm)


def test_every_guardian_module_has_a_layer() -> None:
    assert [m for m in import_graph() if m != "guardian" and layer_of(m) is None] == []


def test_no_module_imports_a_layer_above_its_own() -> None:
    assert upward_imports(import_graph()) == []


def test_the_layer_check_finds_an_upward_import() -> None:
    assert upward_imports({"guardian.core.db": {"guardian.serving.core"},
                           "guardian.serving.core": {"guardian.core.db"}}) == [
        "guardian.core.db -> guardian.serving.core"]


@pytest.mark.parametrize(("package", "forbidden"), [
    ("guardian.core", ("guardian.",)),  # core imports nothing else of guardian
    ("guardian.backends", ("guardian.serving", "guardian.api")),
    ("guardian.serving", ("guardian.api", "guardian.governance")),
])
def test_the_issue_42_layer_rules(package: str, forbidden: tuple[str, ...]) -> None:
    offenders = [f"{m} -> {t}" for m, targets in import_graph().items() if _under(m, package)
                 for t in targets if not _under(t, package)
                 and any(t.startswith(f) if f.endswith(".") else _under(t, f) for f in forbidden)]
    assert offenders == []


def test_nothing_at_run_time_imports_devtools() -> None:
    """Only the CLI's developer commands reach into devtools (demo, loadtest, benchmarks)."""
    offenders = [f"{m} -> {t}" for m, targets in import_graph().items()
                 if not _under(m, "guardian.devtools") and not _under(m, "guardian.cli")
                 for t in targets if _under(t, "guardian.devtools")]
    assert offenders == []


def test_guardian_has_no_loose_modules_but_the_composition_root_and_settings() -> None:
    loose = sorted(p.name for p in (ROOT / "guardian").glob("*.py"))
    assert loose == ["__init__.py", "app.py", "settings.py"]

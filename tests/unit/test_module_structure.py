"""The shape of our own code: no import cycle among our modules, no module over 450 lines,
and text analysis depending on nothing else of ours (docs/architecture.md, "Layout").

Imports are read from the source (every ``import`` statement, also those inside functions,
since a deferred import is still a dependency), so nothing is imported to check them.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {
    "hindsight_common": ROOT / "libs" / "common" / "hindsight_common",
    "hindsight_client": ROOT / "libs" / "client" / "hindsight_client",
    "hindsight_services": ROOT / "services" / "hindsight_services",
}
GENERATED = {"hindsight_services.grpc_api.hindsight_pb2", "hindsight_services.grpc_api.hindsight_pb2_grpc"}
MAX_LINES = 450


def _modules() -> dict[str, Path]:
    found = {}
    for package, base in PACKAGES.items():
        for path in sorted(base.rglob("*.py")):
            parts = list(path.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join([package, *parts])] = path
    return found


MODULES = _modules()


def _resolve(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _ours(name: str) -> str | None:
    """The longest module of ours that ``name`` is or lies in."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(module: str) -> set[str]:
    path = MODULES[module]
    tree = ast.parse(path.read_text(), filename=str(path))
    out: set[str] = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, node, path.name == "__init__.py")
            names = [f"{target}.{a.name}" for a in node.names] + [target]
        for name in names:
            ours = _ours(name)
            if ours and ours != module:
                out.add(ours)
    return out


def _without_packages(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Edges into a package's ``__init__`` that only re-exports are real too, but an
    ``__init__`` importing its own submodules is not a cycle with them."""
    return {m: {d for d in deps if not m.startswith(d + ".")} for m, deps in graph.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    WHITE, GREY, BLACK = 0, 1, 2
    colour = dict.fromkeys(graph, WHITE)
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        colour[node] = GREY
        stack.append(node)
        for dep in sorted(graph.get(node, ())):
            if colour.get(dep, BLACK) == GREY:
                return stack[stack.index(dep):] + [dep]
            if colour.get(dep) == WHITE:
                cycle = visit(dep)
                if cycle:
                    return cycle
        stack.pop()
        colour[node] = BLACK
        return None

    for node in sorted(graph):
        if colour[node] == WHITE:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def test_the_checker_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycle_among_our_modules() -> None:
    graph = _without_packages({m: imports_of(m) for m in MODULES})
    assert find_cycle(graph) is None, "import cycle: " + " -> ".join(find_cycle(graph) or [])


def test_no_module_over_450_lines() -> None:
    long = {
        m: n
        for m, path in MODULES.items()
        if m not in GENERATED and (n := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert not long, f"modules over {MAX_LINES} lines (split them): {long}"


#: What text analysis may import of ours: where the embedder's tokenizer file is (token
#: counts use the embedder's own tokenizer).
TEXT_MAY_IMPORT = {"hindsight_common.adapters.model_files"}


def test_text_analysis_imports_nothing_else_of_ours() -> None:
    text = [m for m in MODULES if m == "hindsight_common.text" or m.startswith("hindsight_common.text.")]
    assert len(text) >= 4
    outside = {
        m: sorted(d for d in imports_of(m) if not d.startswith("hindsight_common.text") and d not in TEXT_MAY_IMPORT)
        for m in text
    }
    assert not any(outside.values()), outside


def test_the_kafka_log_works_without_postgresql() -> None:
    kafka = [m for m in MODULES if m.startswith("hindsight_common.adapters.kafka")]
    assert kafka
    for module in kafka:
        assert not any(d.startswith("hindsight_common.adapters.postgres") for d in imports_of(module)), module
        assert "asyncpg" not in MODULES[module].read_text(), module


def test_each_package_sits_in_a_folder_of_its_own_name() -> None:
    """mypy and setuptools find every package by its folder name: no path mapping that renames
    a folder, and no symlink anywhere in the tree (mypy once needed one for services/)."""
    import subprocess
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    mapping = project["tool"]["setuptools"]["package-dir"]
    assert mapping == {"": "services"}, mapping
    for package in project["tool"]["setuptools"]["packages"]:
        assert (ROOT / "services" / package.replace(".", "/")).is_dir(), package
    for package, base in PACKAGES.items():
        assert base.name == package
    mypy = project["tool"]["mypy"]
    assert all(not entry.startswith("build/") for entry in mypy["files"]), mypy["files"]
    tracked = subprocess.run(
        ["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    links = [line.split("\t", 1)[1] for line in tracked if line.startswith("120000")]
    assert links == [], f"symlinks in the tree: {links}"


def constructions_of(name: str) -> dict[str, int]:
    """Modules of ours (libs/ and services/, tests excluded) that call ``name(...)``, with
    how often: ``name(`` or ``something.name(``."""
    found: dict[str, int] = {}
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Call):
                f = node.func
                called = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
                if called == name:
                    found[module] = found.get(module, 0) + 1
    return found


def test_the_recall_engine_is_built_in_one_place() -> None:
    """The composition root (services/hindsight_services/compose.py) builds it for the
    embedded runtime and the cluster gateway alike; a second construction would let the
    two modes drift apart."""
    assert constructions_of("RecallEngine") == {"hindsight_services.compose": 1}
    assert constructions_of("Query") == {"hindsight_services.compose": 1}


def test_test_modules_have_unique_names() -> None:
    """pytest imports a test folder without ``__init__.py`` by the file's basename, so two
    test files of one name in unit/, integration/ and e2e/ stop the whole run at collection."""
    seen: dict[str, Path] = {}
    clashes = []
    for folder in ("unit", "integration", "e2e"):
        for path in sorted((ROOT / "tests" / folder).glob("test_*.py")):
            if path.name in seen:
                clashes.append(f"{seen[path.name].relative_to(ROOT)} and {path.relative_to(ROOT)}")
            seen.setdefault(path.name, path)
    assert clashes == [], clashes

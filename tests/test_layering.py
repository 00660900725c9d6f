"""The house's layering, read from the source: which room may import which, and no import cycles.

Every module of the six packages is parsed (``ast``, nothing imported) into a graph of imports
between the project's modules. An import inside a function or under ``TYPE_CHECKING`` counts as an
edge too, but only module-level imports run when a module is loaded, so cycles are judged twice:
none at all at load time, and no deferred cycle beyond the few listed below with their reasons.
The last tests keep the simulation (``controller.sim``: director, stage, demo; the renderer, the
match-file walkers) out of the live table (``controller.table`` and ``sheshbesh run``): read from the
source, no import path leads from the live table into ``controller.sim``, only the commands that act a
match out import it, and a fresh interpreter that loads every module ``sheshbesh run`` imports holds
none of the simulation.

Run ``python tests/test_layering.py`` to print the graph's figures and every cycle.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterable
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sheshbesh", "controller", "vision", "web", "firmware", "synth")

#: Cycles closed only through imports inside functions, each for a reason; anything new fails.
DEFERRED_CYCLES = {
    # Position's methods (legal plays, notation) hand over to movegen and notation, which build
    # on Position: one engine spread over four files, joined inside those methods.
    frozenset(
        {
            "controller.rules.explain",
            "controller.rules.movegen",
            "controller.rules.notation",
            "controller.rules.position",
        }
    ),
    # calibrate() learns the checkers' profiles with the reader's own code, which reads with a
    # Calibration.
    frozenset({"vision.calibration", "vision.checkers"}),
}

#: What each leaf room may import of the project besides itself.
LEAF_ROOMS = {
    "sheshbesh": set(),
    "firmware": set(),
    "vision": {"sheshbesh"},
    "web": {"sheshbesh"},
    "synth": {"sheshbesh"},
}

#: Inside controller: the referee is pure (rules in, effects out); it knows the rules engine, the
#: event names and the LED scene's words, never the runner, the record, the table or the panel.
REFEREE_MAY_IMPORT = {"controller.rules", "controller.events", "controller.lights"}

#: The simulation: never loaded by the live table. ``controller.sim`` is the package; vision's
#: renderers (``vision.synth``: the synthetic camera and the dice development set), the match-file
#: modules of ``controller.record`` (all but the SQLite store: the text format, the export, the walk
#: and the rules replay) and the photoreal set are simulation too, though they live elsewhere.
SIMULATION = (
    "controller.record.export",
    "controller.record.matfile",
    "controller.record.rules_replay",
    "controller.record.walk",
    "controller.sim",
    "synth",
    "vision.synth",
)

#: The live table: ``sheshbesh run`` and the package it is assembled from.
LIVE_TABLE = ("controller.table", "controller.commands.run")

#: The only modules outside ``controller.sim`` that may import it: the commands that act a match out.
SIMULATION_COMMANDS = {"controller.commands.demo", "controller.commands.replay"}


@cache
def modules() -> dict[str, tuple[Path, bool]]:
    """Dotted name -> (file, is a package) for every module of the project's packages."""
    found: dict[str, tuple[Path, bool]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts = parts[:-1]
            found[".".join(parts)] = (path, is_package)
    return found


def _project_module(name: str) -> str | None:
    """The project module an imported name lands in (a name inside a module: that module)."""
    known = modules()
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def _imported_names(node: ast.Import | ast.ImportFrom, package: str) -> Iterable[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    base = node.module or ""
    if node.level:
        anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
        base = ".".join([*anchor, base] if base else anchor)
    for alias in node.names:
        yield f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules() else base


@cache
def imports(module: str, *, load_time_only: bool) -> frozenset[str]:
    """The project modules ``module`` imports; with ``load_time_only``, only at module level."""
    path, is_package = modules()[module]
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            deferred = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) or (
                isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test)
            )
            if deferred and load_time_only:
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                for name in _imported_names(child, package):
                    target = _project_module(name)
                    if target is not None and target != module:
                        found.add(target)
            else:
                visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
    return frozenset(found)


def third_party_imports(module: str) -> set[str]:
    """Top-level names ``module`` imports from outside the project (anywhere in the file)."""
    path, _ = modules()[module]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return {name.split(".")[0] for name in names if _project_module(name) is None}


def cycles(*, load_time_only: bool) -> list[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    graph = {m: sorted(imports(m, load_time_only=load_time_only)) for m in modules()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[frozenset[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, next_edge = work.pop()
            if next_edge == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if next_edge < len(graph[node]):
                work.append((node, next_edge + 1))
                target = graph[node][next_edge]
                if target not in index:
                    work.append((target, 0))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(frozenset(group))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return groups


def _room(module: str) -> str:
    return module.split(".")[0]


def _inside(module: str, parts: Iterable[str]) -> bool:
    return any(module == part or module.startswith(part + ".") for part in parts)


def reached_from(roots: Iterable[str]) -> set[str]:
    """Every module ``roots`` reach through imports, deferred ones included."""
    seen: set[str] = set()
    work = list(roots)
    while work:
        module = work.pop()
        if module not in seen:
            seen.add(module)
            work.extend(imports(module, load_time_only=False))
    return seen


def test_the_graph_sees_the_project() -> None:
    # A parser that found nothing would pass every rule below.
    assert len(modules()) > 100
    assert "controller.rules.position" in imports("controller.rules.movegen", load_time_only=True)
    assert "controller.rules.movegen" in imports("controller.rules.position", load_time_only=False)
    assert "controller.rules.movegen" not in imports(
        "controller.rules.position", load_time_only=True
    )


def test_no_import_cycle_when_modules_load() -> None:
    assert cycles(load_time_only=True) == []


def test_no_deferred_import_cycle_beyond_the_known_ones() -> None:
    found = set(cycles(load_time_only=False))
    new = [sorted(group) for group in found - DEFERRED_CYCLES]
    assert new == [], f"new import cycles (break them, or list them with a reason): {new}"
    gone = [sorted(group) for group in DEFERRED_CYCLES - found]
    assert gone == [], f"these cycles are gone: take them off DEFERRED_CYCLES: {gone}"


def test_the_rules_engine_imports_the_standard_library_only() -> None:
    for module in modules():
        if module.startswith("controller.rules"):
            outside = third_party_imports(module) - set(sys.stdlib_module_names)
            assert outside == set(), f"{module} imports {sorted(outside)}"
            project = {
                target
                for target in imports(module, load_time_only=False)
                if not target.startswith("controller.rules")
            }
            assert project == set(), f"{module} imports {sorted(project)}"


def test_leaf_rooms_import_only_the_shared_words() -> None:
    for module in modules():
        room = _room(module)
        if room not in LEAF_ROOMS:
            continue
        allowed = LEAF_ROOMS[room] | {room}
        wrong = sorted(
            target
            for target in imports(module, load_time_only=False)
            if _room(target) not in allowed
        )
        assert wrong == [], f"{module} imports {wrong}; {room} may import only {sorted(allowed)}"


def test_vision_reads_without_its_renderers() -> None:
    # The readers of vision never load the renderers (vision.synth) when they load: what the
    # reader and the renderer share (the cube's drawn face) lives outside vision.synth. Only a
    # deferred import may reach them (sources.RenderedSource draws frames when it is opened).
    readers = [
        m for m in modules() if _inside(m, ("vision",)) and not _inside(m, ("vision.synth",))
    ]
    assert "vision.reader" in readers and "vision.synth.render" in modules()
    wrong = {
        module: sorted(
            t for t in imports(module, load_time_only=True) if _inside(t, ("vision.synth",))
        )
        for module in readers
    }
    assert {module: found for module, found in wrong.items() if found} == {}
    renderers = [m for m in modules() if _inside(m, ("vision.synth",))]
    assert sorted(renderers) == [
        "vision.synth",
        "vision.synth.dice_devset",
        "vision.synth.photoreal",
        "vision.synth.render",
    ]


def test_the_referee_knows_nothing_of_the_table() -> None:
    for module in modules():
        if not module.startswith("controller.referee"):
            continue
        wrong = sorted(
            target
            for target in imports(module, load_time_only=False)
            if _room(target) == "controller"
            and not target.startswith("controller.referee")
            and not any(target.startswith(allowed) for allowed in REFEREE_MAY_IMPORT)
        )
        assert wrong == [], f"{module} imports {wrong}"


def test_the_live_table_never_imports_the_simulation_package() -> None:
    # Read from the source, imports inside functions included: no path from the live table to
    # controller.sim, however late it would be taken.
    live = [module for module in modules() if _inside(module, LIVE_TABLE)]
    assert "controller.table.table" in live and "controller.table.reader" in live
    reached = reached_from(live)
    wrong = sorted(module for module in reached if _inside(module, ("controller.sim",)))
    assert wrong == [], f"the live table reaches the simulation: {wrong}"


def test_only_the_acting_commands_import_the_simulation() -> None:
    importers = {
        module
        for module in modules()
        if not _inside(module, ("controller.sim",))
        and any(
            _inside(target, ("controller.sim",)) for target in imports(module, load_time_only=False)
        )
    }
    assert "controller.commands.demo" in importers
    assert importers <= SIMULATION_COMMANDS, sorted(importers - SIMULATION_COMMANDS)


def test_the_live_table_never_loads_the_simulation() -> None:
    # Everything `sheshbesh run` imports, at module level or inside run(): load it all.
    run = "controller.commands.run"
    loaded = sorted({run, *imports(run, load_time_only=False)})
    assert "controller.table.reader" in loaded and "controller.table.controls" in loaded
    script = (
        "import importlib, json, sys\n"
        f"for name in {loaded!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    in_process = json.loads(done.stdout)
    assert "vision.reader" in in_process  # the live reader did load
    simulation = sorted(name for name in in_process if _inside(name, SIMULATION))
    assert simulation == [], f"the live table loads the simulation: {simulation}"


if __name__ == "__main__":
    for load_time_only in (True, False):
        graph = {m: imports(m, load_time_only=load_time_only) for m in modules()}
        groups = cycles(load_time_only=load_time_only)
        kind = "at load time" if load_time_only else "counting deferred imports"
        edges = sum(len(targets) for targets in graph.values())
        print(f"{len(graph)} modules, {edges} import edges {kind}: {len(groups)} cycles")
        for group in groups:
            print("   ", " <-> ".join(sorted(group)))

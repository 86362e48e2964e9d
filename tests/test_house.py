"""The house in order: the package import graph follows the layers of ARCHITECTURE.md and
has no cycle, no package reaches into another's private names, and names do not clash."""
from __future__ import annotations

import ast
import collections
import pathlib
from typing import Iterator

import networkx as nx
import pytest

import synthia

ROOT = pathlib.Path(synthia.__file__).resolve().parent
ARCHITECTURE = ROOT.parent / "ARCHITECTURE.md"


def _layers() -> dict[str, set[str]]:
    """What each package may import: the "Layers" table of the repository's ARCHITECTURE.md."""
    text = ARCHITECTURE.read_text(encoding="utf-8").split("## Layers", 1)[1].split("\n## ", 1)[0]
    allowed: dict[str, set[str]] = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] not in ("package", "") and not set(cells[0]) <= set("-"):
            allowed[cells[0]] = set() if cells[1] == "-" else {name.strip() for name in cells[1].split(",")}
    return allowed


#: What each package may import (ARCHITECTURE.md, "Layers": each depends only on those below it).
ALLOWED = _layers()


def test_the_architecture_names_every_package_and_only_layers_below() -> None:
    packages = {path.name for path in ROOT.iterdir() if (path / "__init__.py").exists()}
    assert set(ALLOWED) == packages
    order = list(ALLOWED)
    for package, uses in ALLOWED.items():
        assert uses <= set(order[: order.index(package)]), package  # no cycle: only rows above


def _modules() -> Iterator[tuple[str, pathlib.Path]]:
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        yield (parts[0] if len(parts) > 1 else ""), path


def _imports(package: str, path: pathlib.Path) -> Iterator[str]:
    """The synthia packages ``path`` imports: at the top, in functions, or for type checking."""
    here = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if here[-1] == "__init__":
        here.append("")
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            target = here[: len(here) - node.level] + (node.module or "").split(".") if node.level else (node.module or "").split(".")
            names = [target]
        elif isinstance(node, ast.Import):
            names = [a.name.split(".") for a in node.names]
        else:
            continue
        for target in names:
            target = [t for t in target if t]
            if len(target) > 1 and target[0] == "synthia":
                yield target[1]


def _graph() -> nx.DiGraph:
    graph = nx.DiGraph()
    for package, path in _modules():
        if package in ALLOWED:
            graph.add_node(package)
            for target in _imports(package, path):
                if target != package and target in ALLOWED:
                    graph.add_edge(package, target, module=str(path.relative_to(ROOT)))
    return graph


def test_packages_import_only_the_layers_above_them() -> None:
    graph = _graph()
    wrong = [
        f"{a} -> {b} ({graph.edges[a, b]['module']})"
        for a, b in graph.edges
        if b not in ALLOWED[a]
    ]
    assert not wrong, wrong


def test_no_import_cycle_between_packages() -> None:
    assert list(nx.simple_cycles(_graph())) == []


def _core_graph() -> nx.DiGraph:
    """The modules of ``synthia/core`` and the core modules each one imports: at the top, in a
    function or for type checking (every import statement counts)."""
    core = ROOT / "core"
    graph = nx.DiGraph()
    for path in sorted(core.glob("*.py")):
        graph.add_node(path.stem)
        for node in ast.walk(ast.parse(path.read_text())):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                if node.level == 1:
                    targets = [module.split(".")[0]] if module else [a.name for a in node.names]
                elif node.level == 2 and module.startswith("core"):
                    targets = [module.split(".")[1]] if "." in module else [a.name for a in node.names]
                elif node.level == 0 and module.startswith("synthia.core"):
                    targets = [module.split(".")[2]] if module.count(".") >= 2 else [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name.split(".")[2] for a in node.names if a.name.startswith("synthia.core.")]
            for target in targets:
                if target != path.stem and (core / f"{target}.py").exists():
                    graph.add_edge(path.stem, target)
    return graph


def test_the_core_modules_import_each_other_without_a_loop() -> None:
    graph = _core_graph()
    assert ("routing", "picker") in graph.edges and graph.number_of_edges() > 20  # the graph is read
    assert list(nx.simple_cycles(graph)) == []


def _defined(path: pathlib.Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


#: Private names still crossing a package boundary, waiting for the lead's work: provenance
#: recording wraps each picker's ``_reset_self`` in its instance dict, which the observer
#: hook on the base class (part of the draw routing) will replace.


def _private_uses() -> list[tuple[str, str, str]]:
    """``(module, name, where)`` for each ``_name`` read off another object (not ``self``,
    ``cls`` or ``super()``), or imported, that is not defined in the same package."""
    defined: dict[str, set[str]] = collections.defaultdict(set)
    for package, path in _modules():
        for name in _defined(path):
            defined[name].add(package)
    crossing = []
    for package, path in _modules():
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[str] = []
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                owner = node.value
                if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                    continue
                if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
                    continue
                names = [node.attr]
            elif isinstance(node, ast.ImportFrom):
                names = [a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
            for name in names:
                if name in ("_replace", "_asdict", "_fields"):  # namedtuple API
                    continue
                if defined[name] and package not in defined[name]:  # names defined nowhere here: the stdlib's
                    where = f"line {getattr(node, 'lineno', '?')}, defined in {sorted(defined[name])}"
                    crossing.append((str(path.relative_to(ROOT)), name, where))
    return crossing


def test_no_private_name_is_used_across_packages() -> None:
    assert _private_uses() == []


def _instance_dict_uses() -> list[str]:
    """Each ``__dict__`` outside ``synthia/core`` but an object's copy of its own state in its
    ``__getstate__`` (``dict(self.__dict__)``): what a picker holds, the stream it draws from
    and what watches its picks change only through the core's routing and instrument APIs."""
    found = []
    for package, path in _modules():
        if package == "core":
            continue
        tree = ast.parse(path.read_text())
        allowed: set[int] = set()
        for function in ast.walk(tree):
            if isinstance(function, ast.FunctionDef) and function.name == "__getstate__":
                for node in ast.walk(function):
                    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict"
                            and len(node.args) == 1 and isinstance(node.args[0], ast.Attribute)
                            and isinstance(node.args[0].value, ast.Name) and node.args[0].value.id == "self"):
                        allowed.add(id(node.args[0]))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "__dict__" and id(node) not in allowed:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_no_instance_dict_is_touched_outside_core() -> None:
    assert _instance_dict_uses() == []


def test_module_names_are_unique_across_packages() -> None:
    seen: dict[str, list[str]] = collections.defaultdict(list)
    for package, path in _modules():
        if path.name != "__init__.py" and package:
            seen[path.stem].append(package)
    assert {stem: pkgs for stem, pkgs in seen.items() if len(pkgs) > 1} == {}


def test_exported_names_mean_one_thing() -> None:
    """A name in the ``__all__`` of two modules is the same object (a re-export), never two things."""
    import importlib

    owners: dict[str, set[int]] = collections.defaultdict(set)
    where: dict[str, list[str]] = collections.defaultdict(list)
    for package, path in _modules():
        name = ".".join(("synthia",) + path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        if ".tour." in name or name.endswith("__main__"):
            continue
        module = importlib.import_module(name)
        for exported in getattr(module, "__all__", []):
            owners[exported].add(id(getattr(module, exported)))
            where[exported].append(name)
    clashes = {n: where[n] for n, ids in owners.items() if len(ids) > 1}
    assert clashes == {}


def test_one_spelling_of_behavior_in_names() -> None:
    """Files and identifiers follow the API's spelling (``BehaviorTree``); prose stays British."""
    repository = ROOT.parent
    paths = [p for p in repository.rglob("*") if ".git" not in p.parts and "egg-info" not in str(p)]
    assert [str(p) for p in paths if "behaviour" in p.name.lower()] == []
    for path in ROOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            name = getattr(node, "name", None) or getattr(node, "id", None) or getattr(node, "attr", None)
            assert not (isinstance(name, str) and "behaviour" in name.lower()), (path, name)


def test_the_old_explanation_leaf_name_still_works_with_a_warning() -> None:
    from synthia.explain import rules

    with pytest.warns(DeprecationWarning, match="renamed Origin"):
        assert rules.Leaf is rules.Origin


#: The most lines a module of ``synthia/`` may have: small modules with one job.
MOST_LINES = 700


def test_no_module_is_over_700_lines() -> None:
    lines = {str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines()) for _, path in _modules()}
    assert {module: n for module, n in lines.items() if n > MOST_LINES} == {}


#: The highest cyclomatic complexity a function of ``synthia/engine`` may have.
MOST_COMPLEX = 15


def _complexity(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The cyclomatic complexity of ``function`` by radon's rules (``radon cc``): 1, plus 1 for
    each ``if``, ``elif`` and ternary, each ``for`` and ``while`` (2 with an ``else``), each
    ``except`` (and 1 for a ``try``'s ``else``), each ``and``/``or`` beyond the first operand,
    each ``for`` and ``if`` of a comprehension, each ``assert`` (whose expression is not looked
    into), each ``case`` of a ``match`` but a bare catch-all. A nested function or class
    counts on its own, not in the function that holds it; a lambda's decisions count in it.
    ``with`` and ``finally`` decide nothing."""
    score = 1
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(node, ast.Assert):
            score += 1
            continue
        if isinstance(node, (ast.If, ast.IfExp)):
            score += 1
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            score += 1 + bool(node.orelse)
        elif isinstance(node, (ast.Try, ast.TryStar)):
            score += len(node.handlers) + bool(node.orelse)
        elif isinstance(node, ast.BoolOp):
            score += len(node.values) - 1
        elif isinstance(node, ast.comprehension):
            score += 1 + len(node.ifs)
        elif isinstance(node, ast.Match):
            catch_all = any(isinstance(case.pattern, ast.MatchAs) and case.pattern.pattern is None for case in node.cases)
            score += max(0, len(node.cases) - catch_all)
        stack.extend(ast.iter_child_nodes(node))
    return score


def _functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function of ``tree`` by its qualified name: methods, nested functions and theirs."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield prefix + node.name, node
            yield from _functions(node, f"{prefix}{node.name}.")
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node, f"{prefix}{node.name}.")
        else:
            yield from _functions(node, prefix)


def _complexities(source: str) -> dict[str, int]:
    return {name: _complexity(node) for name, node in _functions(ast.parse(source))}


def test_the_complexity_count_follows_radons_rules() -> None:
    source = '''
def plain(x):
    return x

def branches(x, xs):
    if x and x > 1 or not xs:          # if: 1, and/or: 2
        return [y for y in xs if y]     # comprehension: for 1, if 1
    elif x:                             # 1
        pass
    for y in xs:                        # 1, and its else 1
        pass
    else:
        pass
    while x:                            # 1
        x -= 1
    try:
        pass
    except ValueError:                  # 1
        pass
    except TypeError:                   # 1
        pass
    else:                               # 1
        pass
    finally:
        pass
    with open(x) as f:                  # nothing
        pass
    assert x or xs                      # 1, its expression not looked into
    f = lambda v: v if v else 0         # the lambda's ternary: 1
    def inner(v):                       # counts on its own
        return v if v else [w for w in v]
    match x:
        case 1: pass                    # 1
        case [a, b]: pass               # 1
        case _: pass                    # the catch-all: nothing
    return 1 if x else 2                # 1

class Box:
    def method(self):
        return self or None
'''
    assert _complexities(source) == {"plain": 1, "branches": 18, "branches.inner": 3, "Box.method": 2}


def test_no_engine_function_is_too_complex() -> None:
    """No function of the engine decides more than ``MOST_COMPLEX`` ways (cyclomatic complexity):
    past that, a function holds several jobs, which take helpers of their own."""
    over = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        for name, score in _complexities(path.read_text(encoding="utf-8")).items():
            if score > MOST_COMPLEX:
                over.append(f"{path.relative_to(ROOT)}: {name} ({score})")
    assert over == []

"""The shape of the code: no import cycles, and the shell uses pystream's public names only.

The tests read the source files with ``ast``; nothing is imported.

**The import graph.** One node per module of ``pystream/`` and ``pyshell/`` (a package is its
``__init__``). An edge ``a -> b`` means that running module ``a`` runs ``b`` first, so only
imports made while the module runs count: the top-level statements, also inside top-level
``if``/``try``/``with`` blocks and class bodies, but not inside functions (they run later) nor
under ``if TYPE_CHECKING:`` (never runs). Python's rules decide the edges:

* ``import a.b.c`` runs the packages ``a`` and ``a.b`` and then the module ``a.b.c``: edges
  to all three;
* ``from a.b import x`` runs ``a`` and ``a.b``, and, where ``a.b.x`` is a module, ``a.b.x``:
  edges to them; relative imports are resolved first;
* except that a module never waits for its own enclosing packages: Python runs them before
  it, so ``pystream/datastream/__init__.py`` importing its submodules (which import other
  submodules through ``pystream.datastream.x``) is no cycle. A ``from <own package> import
  name`` that takes a name (not a submodule) from the package's ``__init__`` does need that
  ``__init__`` to have run, so it is an edge.

A strongly connected component of more than one module is a cycle: a module that, depending
on which one is imported first, sees the other half-initialised. The test fails with each
cycle it finds. An import inside a function can hide a cycle of dependencies from that test:
a second test counts those imports too (but for the two compilers' mutual recursion inside
``MUTUALLY_RECURSIVE``), and ``LAZY_FORBIDDEN`` lists ones that were turned around.

**Layers.** ``LAYERS`` orders the packages (shared types, nodes and worker code, planning,
the compiler, the APIs, the server, the shell, the command); no import, not even inside a
function, runs up from one layer to a higher one.

**Private names.** ``pyshell`` is a client of pystream like any program: it must not reach
into what pystream keeps private (``from pystream.x import _name``, ``import pystream._x``,
``obj._attr``), so pystream can change its insides without breaking the shell. Attributes
with one leading underscore are flagged on anything but ``self``/``cls`` (a class's own
state), apart from the short list in ``FOREIGN_PRIVATE`` of other libraries' objects.
"""
from __future__ import annotations

import ast
from collections import deque
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Set, Tuple

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("pystream", "pyshell")

# (file under pyshell/ or pystream/sql/, the expression the attribute is read on, the
# attribute): private attributes of objects that are not pystream's, read on purpose.
FOREIGN_PRIVATE: Set[Tuple[str, str, str]] = {
    # CPython's documented frame snapshot: where a thread waits (for the Spark session)
    ("background.py", "sys", "_current_frames"),
    # argparse's options of an IPython magic_arguments parser: argparse lists them nowhere else
    ("magics.py", "parser", "_actions"),
    # IPython gives each prompt its lexer from here (no public hook): %sql lines are SQL
    ("extension.py", "ipython", "_extra_prompt_options"),
    # sqlglot's parser, extended by the Flink dialect's (its hooks are its private methods)
    ("dialect.py", "Parser", "_parse_types"),
}


# (module, what it must not import even inside a function): dependencies that ran the wrong
# way and were turned around
LAZY_FORBIDDEN = [
    # the API's functions do not need the runtime (StreamingRuntimeContext gives the cache)
    ("pystream.core.functions", "pystream.runtime"),
    # connected's streams are made by the stream they come from (DataStream._stream)
    ("pystream.datastream.connected", "pystream.datastream.data_stream"),
    # connectors are looked up in compiler.connectors, they do not register with sources/sinks
    ("pystream.compiler.connectors", "pystream.compiler.sources"),
    ("pystream.compiler.connectors", "pystream.compiler.sinks"),
]


def modules() -> Dict[str, Path]:
    """Dotted module name -> source file, for every module of ``PACKAGES``."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _run_at_import(body: List[ast.stmt], functions: bool = False) -> Iterator[ast.stmt]:
    """The statements of ``body`` that run when the module runs (not under ``if
    TYPE_CHECKING:``, and, unless ``functions``, not in functions)."""
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if functions:
                yield from _run_at_import(stmt.body, functions)
            continue
        yield stmt
        if isinstance(stmt, ast.If):
            if not _is_type_checking(stmt.test):
                yield from _run_at_import(stmt.body, functions)
            yield from _run_at_import(stmt.orelse, functions)
        elif isinstance(stmt, ast.Try):
            for block in (stmt.body, stmt.orelse, stmt.finalbody,
                          *[h.body for h in stmt.handlers]):
                yield from _run_at_import(block, functions)
        elif isinstance(stmt, (ast.With, ast.ClassDef, ast.For, ast.While)):
            yield from _run_at_import(stmt.body, functions)


def _with_parents(name: str) -> List[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def _from_base(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module name of ``from <base> import ...``."""
    if not node.level:
        return node.module or ""
    package = module.split(".") if is_package else module.split(".")[:-1]
    package = package[:len(package) - (node.level - 1)]
    return ".".join(package + ([node.module] if node.module else []))


def imports_of(module: str, path: Path, known: Set[str], functions: bool = False) -> Set[str]:
    """The modules of ``known`` that ``module`` runs while it runs (see the docstring), or,
    with ``functions``, also when its functions run."""
    own = set(_with_parents(module))  # the module and its enclosing packages
    edges: Set[str] = set()

    def runs(name: str) -> None:
        edges.update(m for m in _with_parents(name) if m in known and m not in own)

    tree = ast.parse(path.read_text(), str(path))
    for stmt in _run_at_import(tree.body, functions):
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                runs(alias.name)
        elif isinstance(stmt, ast.ImportFrom):
            base = _from_base(module, path.name == "__init__.py", stmt)
            runs(base)
            for alias in stmt.names:
                if "%s.%s" % (base, alias.name) in known:
                    runs("%s.%s" % (base, alias.name))
                elif base in known and base != module:
                    edges.add(base)  # a name from the package's __init__, even our own
    return edges


def import_graph(functions: bool = False) -> Dict[str, Set[str]]:
    """The import graph; with ``functions``, of the imports inside functions too."""
    found = modules()
    return {m: imports_of(m, path, set(found), functions) for m, path in found.items()}


def strongly_connected(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """Tarjan's strongly connected components of ``graph``."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    components: List[List[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
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
            components.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return components


def shortest_cycle(graph: Dict[str, Set[str]], start: str) -> Optional[List[str]]:
    """The shortest path ``start -> ... -> start``, for the failure message."""
    came_from: Dict[str, str] = {}
    queue = deque([start])
    while queue:
        v = queue.popleft()
        for w in sorted(graph[v]):
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [start, *reversed(path[:-1]), start] if v != start else [start, start]
            if w not in came_from:
                came_from[w] = v
                queue.append(w)
    return None


# Where imports inside functions may close a cycle of dependencies: inside the compiler,
# whose two halves call each other (a Table query over a DataStream compiles the stream:
# relational.scans -> compile_stream; a DataStream job reading a Table compiles the query:
# sources -> connectors.table -> relational). A cycle that reaches out of it fails.
MUTUALLY_RECURSIVE = "pystream.compiler"


def import_cycles(functions: bool = False) -> List[str]:
    """One line per cycle: its modules, and the shortest cycle through the first of them;
    with ``functions``, of the dependencies imports inside functions make too, but for
    ``MUTUALLY_RECURSIVE``."""
    graph = import_graph(functions)
    lines = []
    for component in strongly_connected(graph):
        if functions and all(m == MUTUALLY_RECURSIVE or m.startswith(MUTUALLY_RECURSIVE + ".")
                              for m in component):
            continue
        if len(component) > 1:
            members = set(component)
            inside = {v: graph[v] & members for v in component}
            lines.append("%d modules: %s\n    e.g. %s" % (
                len(component), ", ".join(component),
                " -> ".join(shortest_cycle(inside, component[0]) or [])))
    return lines


def test_no_import_cycles():
    cycles = import_cycles()
    assert not cycles, "import cycles (module-level imports):\n" + "\n".join(cycles)


def test_no_cycle_of_dependencies_hides_in_functions():
    cycles = import_cycles(functions=True)
    assert not cycles, "cycles through imports inside functions:\n" + "\n".join(cycles)


def test_the_graph_sees_imports():
    """The graph is not empty by mistake: known edges are in it, lazy ones are not."""
    graph = import_graph()
    assert "pystream.core.functions" in graph["pystream.runtime.stage"]
    assert "pystream.graph" in graph["pystream.datastream.data_stream"]
    assert "pystream.compiler.job" not in graph["pystream.datastream.stream_execution_environment"]


def test_no_lazy_import_turns_a_dependency_around():
    found = modules()
    wrong = []
    for module, path in found.items():
        lazy = imports_of(module, path, set(found), functions=True)
        for importer, target in LAZY_FORBIDDEN:
            if module == importer or module.startswith(importer + "."):
                wrong += ["%s imports %s" % (module, m) for m in sorted(lazy)
                          if m == target or m.startswith(target + ".")]
    assert not wrong, "\n".join(wrong)


# The layers, lowest first: a module imports (at module level or inside a function) only
# modules of its own layer or below. Top-level names of ``pystream``; ``pyshell`` is above
# them all and ``pystream.cli`` (the ``pystream`` command, which also starts the shell)
# above it.
LAYERS = (
    ("util", "errors", "common", "metrics", "cache", "own_code", "jvm_archive",
     "session_settings"),                         # shared by all: data types, errors, config
    ("core",),                                    # what a program hands to a job
    ("graph", "relational", "runtime"),           # the API's nodes; code in Spark's workers
    ("plan", "session", "dependencies", "server_state"),  # pure planning; starting Spark
    ("compiler",),                                # plans to Spark DataFrames and queries
    ("datastream", "table", "sql", "jvm_workload"),  # the APIs
    ("server",),
    ("pyshell",),
    ("cli", "__main__"),
)

def _layer(module: str) -> int:
    parts = module.split(".")
    name = parts[0] if parts[0] != "pystream" or len(parts) == 1 else parts[1]
    if name == "pystream":  # the package's own __init__: the API
        name = "datastream"
    return next(i for i, names in enumerate(LAYERS) if name in names)


def upward_imports() -> Set[Tuple[str, str]]:
    """(module, package of a higher layer it imports), for every module of ``PACKAGES``."""
    found = modules()
    upward = set()
    for module, path in found.items():
        for target in imports_of(module, path, set(found), functions=True):
            if _layer(target) > _layer(module):
                upward.add((module, ".".join(target.split(".")[:2])))
    return upward


def test_no_import_runs_up_the_layers():
    upward = sorted(upward_imports())
    assert not upward, "imports up the layers (see LAYERS):\n" + "\n".join(
        "%s imports %s" % pair for pair in upward)


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_accesses(package: str = "pyshell") -> List[str]:
    """Each place in ``package`` that reaches a private name of another package or object,
    as ``file:line: what``."""
    found = []
    folder = ROOT.joinpath(*package.split("."))

    def outside(name: str) -> bool:
        return name.startswith("pystream") and not (name == package or
                                                    name.startswith(package + "."))

    for module, path in modules().items():
        if not (module == package or module.startswith(package + ".")):
            continue
        rel = str(path.relative_to(folder))
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            what = None
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names if outside(a.name)
                         and any(_private(p) for p in a.name.split("."))]
                what = names and "import " + ", ".join(names)
            elif isinstance(node, ast.ImportFrom) and not node.level and \
                    outside(node.module or ""):
                names = [a.name for a in node.names if _private(a.name)]
                if any(_private(p) for p in node.module.split(".")) or names:
                    what = "from %s import %s" % (node.module, ", ".join(
                        names or [a.name for a in node.names]))
            elif isinstance(node, ast.Attribute) and _private(node.attr):
                owner = ast.unparse(node.value)
                if owner not in ("self", "cls", "super()") and \
                        (rel, owner, node.attr) not in FOREIGN_PRIVATE:
                    what = "%s.%s" % (owner, node.attr)
            if what:
                found.append("%s/%s:%d: %s" % (package.replace(".", "/"), rel, node.lineno,
                                               what))
    return found


def test_the_shell_uses_public_names_only():
    accesses = private_accesses()
    assert not accesses, "pyshell reaches private names:\n" + "\n".join(accesses)


def test_the_sql_front_end_reaches_the_environment_through_public_names():
    """``pystream.sql`` uses the TableEnvironment's internals by their names
    (``catalog_manager``, ``scan_internal``, ...), as Flink's TableEnvironmentInternal."""
    accesses = private_accesses("pystream.sql")
    assert not accesses, "pystream.sql reaches private names:\n" + "\n".join(accesses)


if __name__ == "__main__":
    print("\n".join(import_cycles()) or "no import cycles")
    print("\n".join(private_accesses()) or "no private accesses")


# -- imports inside functions ----------------------------------------------------------------
#
# An import of pystream's own code belongs at the top of the module, where a reader sees what
# the module depends on. It stays inside a function only for one of these reasons (the test
# computes them; nothing is listed by hand):
#   * it runs up the layers (which ``test_no_import_runs_up_the_layers`` fails on);
#   * it takes a name from an enclosing package's ``__init__``, which may not have run yet;
#   * it is in a package's ``__init__`` and imports the package's own submodules: a thread
#     that imports a submodule first holds it while it waits for the package, so a package
#     that imports its submodules as it runs can deadlock two threads (the shell's warm-up
#     and the user's first statement both import the compiler);
#   * at the top it would close an import cycle (the compiler's two halves call each other);
#   * at the top it would load a heavy library (``HEAVY_LIBRARIES``) or the compiler
#     (``HEAVY_PACKAGES``) that the module does not load at import:
#     ``import pystream``, the planner and the shell's prompt come before pyspark.

HEAVY_LIBRARIES = ("pyspark", "py4j", "pandas", "pyarrow", "numpy", "sqlglot", "rich",
                   "IPython", "cloudpickle")
# and pystream's own package that runs Spark jobs (the shell's prompt and the APIs load it
# when a job runs)
HEAVY_PACKAGES = ("pystream.compiler",)
LAZY_PACKAGES = ("pystream.common", "pystream.datastream", "pystream.table")


def lazy_exports(found: Dict[str, Path]) -> Dict[str, Dict[str, str]]:
    """package -> {name -> the module that defines it}, of the packages whose names load when
    first used (``pystream.util.lazy``): ``from pystream.table import Table`` runs
    ``pystream.table.table``."""
    exports: Dict[str, Dict[str, str]] = {}
    for package in LAZY_PACKAGES:
        for stmt in ast.parse(found[package].read_text()).body:
            if isinstance(stmt, ast.Assign) and \
                    getattr(stmt.targets[0], "id", None) == "_EXPORTS":
                exports[package] = {name: module if "." in module else package + "." + module
                                    for name, module in ast.literal_eval(stmt.value).items()}
    return exports


def _targets(module: str, path: Path, stmt: ast.stmt, known: Set[str],
             exports: Dict[str, Dict[str, str]]) -> Set[str]:
    """The modules of ``known`` that running ``stmt`` (an import) in ``module`` runs."""
    own = set(_with_parents(module))
    if isinstance(stmt, ast.Import):
        names = {p for alias in stmt.names for p in _with_parents(alias.name)}
    else:
        base = _from_base(module, path.name == "__init__.py", stmt)
        names = set(_with_parents(base))
        for alias in stmt.names:
            if "%s.%s" % (base, alias.name) in known:
                names.add("%s.%s" % (base, alias.name))
            elif alias.name in exports.get(base, {}):
                names.add(exports[base][alias.name])
    return {n for n in names if n in known and n not in own}


def _own_import(module: str, path: Path, stmt: ast.stmt) -> bool:
    if isinstance(stmt, ast.Import):
        return any(a.name.split(".")[0] in PACKAGES for a in stmt.names)
    base = _from_base(module, path.name == "__init__.py", stmt)
    return isinstance(stmt, ast.ImportFrom) and base.split(".")[0] in PACKAGES


def _heavy_libraries(path: Path) -> Set[str]:
    """The ``HEAVY_LIBRARIES`` the module at ``path`` imports when it runs."""
    found: Set[str] = set()
    for stmt in _run_at_import(ast.parse(path.read_text()).body):
        if isinstance(stmt, ast.Import):
            found.update(a.name.split(".")[0] for a in stmt.names)
        elif isinstance(stmt, ast.ImportFrom) and not stmt.level:
            found.add((stmt.module or "").split(".")[0])
    return found & set(HEAVY_LIBRARIES)


def _reachable(graph: Dict[str, Set[str]], start: str) -> Set[str]:
    seen: Set[str] = set()
    stack = [start]
    while stack:
        v = stack.pop()
        if v not in seen:
            seen.add(v)
            stack.extend(graph[v])
    return seen


def imports_in_functions_without_reason() -> List[str]:
    """``file:line: import`` for each import of own code inside a function that could be at
    the top of its module (see the comment above)."""
    found = modules()
    known = set(found)
    exports = lazy_exports(found)
    graph = import_graph()
    for module, path in found.items():  # names of lazy packages run their defining modules
        for stmt in _run_at_import(ast.parse(path.read_text()).body):
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                graph[module] |= _targets(module, path, stmt, known, exports)
    heavy = {m: _heavy_libraries(path) for m, path in found.items()}

    def libraries(module: str) -> Set[str]:
        reached = _reachable(graph, module)
        return set().union(*[heavy[m] for m in reached]) | {
            p for p in HEAVY_PACKAGES for m in reached if m == p or m.startswith(p + ".")}

    wrong = []
    for module, path in found.items():
        tree = ast.parse(path.read_text())
        loaded = libraries(module)
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for stmt in ast.walk(function):
                if not isinstance(stmt, (ast.Import, ast.ImportFrom)) or \
                        not _own_import(module, path, stmt):
                    continue
                targets = _targets(module, path, stmt, known, exports)
                if isinstance(stmt, ast.ImportFrom):
                    base = _from_base(module, path.name == "__init__.py", stmt)
                    if base in _with_parents(module) and any(
                            "%s.%s" % (base, a.name) not in known for a in stmt.names):
                        continue  # a name of an enclosing package's __init__
                if path.name == "__init__.py" and all(
                        t.startswith(module + ".") for t in targets):
                    continue  # a package's own submodules, from its __init__
                if any(_layer(t) > _layer(module) for t in targets):
                    continue  # up the layers: test_no_import_runs_up_the_layers says so
                if any(libraries(t) - loaded for t in targets):
                    continue  # would load pyspark (or the like) at import
                if any(module in _reachable(graph, t) for t in targets):
                    continue  # would close an import cycle
                wrong.append("%s:%d: %s" % (path.relative_to(ROOT), stmt.lineno,
                                            ast.unparse(stmt)))
    return wrong


def test_imports_of_own_code_are_at_the_top_unless_they_cannot_be():
    wrong = imports_in_functions_without_reason()
    assert not wrong, ("imports inside functions that belong at the top of their module:\n"
                       + "\n".join(wrong))

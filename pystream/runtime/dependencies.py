"""A job's Python dependencies inside Spark's Python workers.

Python files, requirements, archives and cached files travel with the job as a ``Bundle``
(compressed, content-addressed items). Every object pystream sends to the workers goes
through ``shipped(obj, bundle)``: unpickling it installs the bundle first and only then
unpickles ``obj``, so modules that the user's functions refer to are found, wherever the
worker runs: local mode, a cluster's executors, a Spark Connect server (whose streaming
queries do not see the session's artifacts), or the driver-side runner of a streaming source.

Installing extracts each item once per machine into a cache directory, puts Python items on
``sys.path``, makes the archives the content of the worker's working directory (PyFlink:
"extracted to the working directory of the python UDF worker") and makes cached files known
to ``RuntimeContext.get_distributed_cache()``.
"""
from __future__ import annotations

import hashlib
import io
import os
import pickle
import shutil
import sys
import tempfile
import threading
import uuid
import zipfile
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from pystream.errors import PystreamError
from pystream.runtime import debugging, user_logs

PYTHON, ARCHIVE, FILE = "python", "archive", "file"
_ZIP_SUFFIXES = (".zip", ".whl", ".egg", ".jar")


@dataclass(frozen=True)
class Item:
    """One dependency: a Python path entry, an archive or a cached file.

    ``data`` is the content of the file ``filename``; with ``unpack`` it is an archive that
    is extracted into the item's directory (a directory the client packed is a zip).
    """

    kind: str  # PYTHON | ARCHIVE | FILE
    name: str  # the archive's directory or the cached file's name
    filename: str
    data: bytes
    digest: str
    unpack: bool = False
    executable: bool = False

    def local_path(self, root: str) -> str:
        """Where the item is on this machine once installed: its directory, or its file."""
        directory = os.path.join(root, self.digest)
        if self.kind == PYTHON or self.unpack:
            return directory
        return os.path.join(directory, self.filename)

    def materialize(self, root: str) -> str:
        directory = os.path.join(root, self.digest)
        if not os.path.isdir(directory):
            staging = "%s.%s.tmp" % (directory, uuid.uuid4().hex)
            os.makedirs(staging)
            try:
                self._write(staging)
                os.rename(staging, directory)
            except OSError:
                shutil.rmtree(staging, ignore_errors=True)
                if not os.path.isdir(directory):  # not another process having won the race
                    raise
        return self.local_path(root)

    def _write(self, directory: str) -> None:
        if not self.unpack:
            path = os.path.join(directory, self.filename)
            with open(path, "wb") as f:
                f.write(self.data)
            if self.executable:
                os.chmod(path, 0o755)
        elif self.filename.lower().endswith(_ZIP_SUFFIXES):
            _extract_zip(self.data, directory)
        else:  # tar, tar.gz, ...
            archive = os.path.join(directory, ".." + self.filename)
            with open(archive, "wb") as f:
                f.write(self.data)
            try:
                shutil.unpack_archive(archive, directory)
            finally:
                os.remove(archive)


def _extract_zip(data: bytes, directory: str) -> None:
    """Extract a zip keeping the permission bits (zipfile alone drops them)."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for info in archive.infolist():
            path = archive.extract(info, directory)
            mode = (info.external_attr >> 16) & 0o777
            if mode and not info.is_dir():
                os.chmod(path, mode)


@dataclass(frozen=True)
class Bundle:
    """The Python dependencies of a job."""

    items: Tuple[Item, ...] = ()
    # the classes of the job's script (``__main__``), each pickled by value (see script_classes)
    script_classes: Tuple[Tuple[str, bytes], ...] = ()

    @property
    def digest(self) -> str:
        digest = hashlib.sha256(" ".join(sorted(item.digest for item in self.items)).encode())
        for name, data in self.script_classes:
            digest.update(name.encode() + b"\0" + data)
        return digest.hexdigest()[:32]

    def install(self, root: Optional[str] = None) -> None:
        """Make the bundle available to this process (idempotent, cheap when repeated)."""
        with _lock:
            _install(self, root or cache_root())


class DependencyError(RuntimeError):
    """The job's dependencies could not be installed in a worker."""


_lock = threading.RLock()
_state: Dict[str, object] = {"paths": [], "files": {}, "bundle": None}


def cache_root() -> str:
    """Where workers keep extracted dependencies (one directory per item, per machine)."""
    root = os.environ.get("PYSTREAM_DEPS_DIR") or os.path.join(
        tempfile.gettempdir(), "pystream-deps-%d" % os.getuid())
    os.makedirs(root, mode=0o700, exist_ok=True)
    return root


def _install(bundle: Bundle, root: str) -> None:
    if _state["bundle"] == bundle.digest:
        return
    try:
        local = [(item, item.materialize(root)) for item in bundle.items]
    except OSError as e:
        raise DependencyError("pystream could not install the job's dependencies in %s: %s"
                              % (root, e)) from None
    paths = [path for item, path in local if item.kind == PYTHON]
    _replace_python_paths(paths)
    _define_script_classes(bundle.script_classes)
    _state["files"] = {item.name: path for item, path in local if item.kind == FILE}
    archives = [(item.name, path) for item, path in local if item.kind == ARCHIVE]
    if archives:
        _state.setdefault("cwd", os.getcwd())
        _absolute_import_paths()
        os.chdir(_working_directory(root, bundle.digest, archives))
    elif "cwd" in _state:  # an earlier job's archives
        os.chdir(_state["cwd"])  # type: ignore[arg-type]
    _state["bundle"] = bundle.digest


def script_classes() -> Tuple[Tuple[str, bytes], ...]:
    """The classes the running script defines (``__main__``: a job file, the shell's
    namespace), each pickled by value. Their objects pickle by reference (``__main__.Point``),
    which a worker, whose ``__main__`` is Spark's, resolves once the job's bundle defines them
    there (``_define_script_classes``), as PyFlink ships them by value."""
    from pyspark import cloudpickle

    main = sys.modules.get("__main__")
    classes = []
    for name, value in sorted(vars(main).items() if main else ()):
        if isinstance(value, type) and value.__module__ == "__main__" \
                and value.__qualname__ == name:
            try:
                classes.append((name, cloudpickle.dumps(value)))
            except Exception:  # noqa: BLE001 - a class that cannot travel fails where it is used
                continue
    return tuple(classes)


def _define_script_classes(classes: Tuple[Tuple[str, bytes], ...]) -> None:
    """The job script's classes in this process's ``__main__`` (see ``script_classes``).
    User functions unpickled afterwards refer to these same class objects (cloudpickle keeps
    one class per class of the driver), so objects pickle by reference both ways."""
    main = sys.modules.get("__main__")
    if main is None:
        return
    for name, data in classes:
        try:
            setattr(main, name, pickle.loads(data))
        except Exception:  # noqa: BLE001 - a class that cannot load fails where it is used
            continue


def _absolute_import_paths() -> None:
    """Spark puts a job's pyFiles on an executor's path relative to its working directory
    (pystream's own code among them), and packages imported from there keep relative paths:
    before the working directory changes, they become absolute."""
    def absolute(paths):
        return [os.path.abspath(p) if p and not os.path.isabs(p) else p for p in paths]

    sys.path[:] = absolute(sys.path)
    for module in list(sys.modules.values()):
        path = getattr(module, "__path__", None)
        if isinstance(path, list):
            path[:] = absolute(path)
    sys.path_importer_cache.clear()


def _replace_python_paths(paths: List[str]) -> None:
    """Put ``paths`` first on sys.path; forget the paths (and modules) of an earlier job."""
    old = [p for p in _state["paths"] if p not in paths]
    if old:
        for name, module in list(sys.modules.items()):
            location = getattr(module, "__file__", None) or ""
            if any(location.startswith(p + os.sep) for p in old):
                del sys.modules[name]
        sys.path[:] = [p for p in sys.path if p not in old]
    for path in reversed(paths):
        if path in sys.path:
            sys.path.remove(path)
        sys.path.insert(1, path)
    _state["paths"] = list(paths)
    import importlib

    importlib.invalidate_caches()


def _working_directory(root: str, digest: str, archives: List[Tuple[str, str]]) -> str:
    """A directory holding each archive under its name (links into the cache)."""
    directory = os.path.join(root, "work-" + digest)
    if not os.path.isdir(directory):
        staging = "%s.%s.tmp" % (directory, uuid.uuid4().hex)
        os.makedirs(staging)
        for name, path in archives:
            os.symlink(path, os.path.join(staging, name))
        try:
            os.rename(staging, directory)
        except OSError:
            shutil.rmtree(staging, ignore_errors=True)
    return directory


def cached_file(name: str) -> str:
    """The local path of the file registered as ``name`` (``register_cached_file``)."""
    files = _state["files"]
    if name not in files:
        known = ", ".join(sorted(files)) or "none"
        raise PystreamError("No cached file named %r: register it with "
                            "env.register_cached_file(path, %r) (registered: %s)"
                            % (name, name, known))
    return files[name]  # type: ignore[index]


# ---------------------------------------------------------------------------------------------
# shipping objects to the workers


def shipped(obj, bundle: Optional[Bundle]):
    """``obj`` as sent to Spark's Python workers: unpickling installs ``bundle`` first (an
    empty bundle too: a reused worker then forgets the dependencies of an earlier job)."""
    if bundle is None:
        return obj
    return Shipped(obj, bundle)


class Shipped:
    """Pickles as (bundle, pickled object); unpickles as the object, bundle installed."""

    def __init__(self, obj, bundle: Bundle):
        self.obj = obj
        self.bundle = bundle

    def __reduce__(self):
        import logging

        from pyspark import cloudpickle

        return _unship, (self.bundle, cloudpickle.dumps(self.obj),
                         logging.getLogger().getEffectiveLevel())

    def __call__(self, *args, **kwargs):
        return self.obj(*args, **kwargs)

    def __getattr__(self, name: str):
        if name in ("obj", "bundle"):
            raise AttributeError(name)
        return getattr(self.obj, name)


def _unship(bundle: Bundle, payload: bytes, log_level: int = 30):
    bundle.install()
    user_logs.install(log_level)
    debugging.install()
    return pickle.loads(payload)

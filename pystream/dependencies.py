"""The dependencies of a job: Python files, requirements, archives, cached files, jars.

They come from the command line (``pystream run -pyfs ...``: the session settings, for every
job of the process) and from the environment (``env.add_python_file(...)``, stored under
PyFlink's configuration keys). At each job, ``prepare()`` gives the session what it lacks
(jars, classpaths, the workers' Python) and returns the ``Bundle`` that travels with the
job to Spark's Python workers (see ``pystream.runtime.dependencies``): whether the session
started before or after the dependencies were declared does not matter.

Requirements are installed on the client, once per content, with ``pip install --target``
(offline from ``requirements_cache_dir`` if given) into a directory that travels with the job
(zipped, cached in ``cache_dir()``).
"""
from __future__ import annotations

import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import uuid
import warnings
import zipfile
from dataclasses import dataclass
from typing import List, Optional, Tuple

from pystream import session
from pystream.cache import cache_dir
from pystream.errors import PystreamError, UnsupportedFeatureError
from pystream.runtime.dependencies import ARCHIVE, FILE, PYTHON, Bundle, Item, script_classes

__all__ = ["Dependencies", "CachedFile", "prepare", "configure_session", "client_bundle",
           "PYTHON_FILES", "PYTHON_REQUIREMENTS", "PYTHON_ARCHIVES", "PYTHON_EXECUTABLE",
           "JARS", "CLASSPATHS", "CACHED_FILES"]

# PyFlink's configuration keys
PYTHON_FILES = "python.files"
PYTHON_REQUIREMENTS = "python.requirements"
PYTHON_ARCHIVES = "python.archives"
PYTHON_EXECUTABLE = "python.executable"
JARS = "pipeline.jars"
CLASSPATHS = "pipeline.classpaths"
CACHED_FILES = "pipeline.cached-files"

LARGE_BUNDLE = 64 << 20  # bytes; larger dependencies make every task heavy


@dataclass(frozen=True)
class CachedFile:
    """A file (or directory) registered with ``register_cached_file``."""

    path: str
    name: str
    executable: bool = False

    def to_config(self) -> str:
        return "name:%s,path:'%s',executable:%s" % (self.name, self.path,
                                                    str(self.executable).lower())


_CACHED = re.compile(r"name:(?P<name>[^,]+),path:(?:'(?P<quoted>[^']*)'|(?P<plain>[^,;]*))"
                     r"(?:,executable:(?P<x>true|false))?")


@dataclass(frozen=True)
class Dependencies:
    """What a job depends on, in PyFlink's notation (``path#target`` for archives,
    ``requirements.txt#cache_dir`` for requirements)."""

    python_files: Tuple[str, ...] = ()
    requirements: Optional[str] = None
    archives: Tuple[str, ...] = ()
    cached_files: Tuple[CachedFile, ...] = ()
    python_executable: Optional[str] = None
    jars: Tuple[str, ...] = ()
    classpaths: Tuple[str, ...] = ()
    packages: Tuple[str, ...] = ()

    @staticmethod
    def of_configuration(configuration) -> "Dependencies":
        """The dependencies declared in a job's Configuration (PyFlink's keys)."""
        get = configuration.get_string
        cached = tuple(CachedFile(m.group("quoted") if m.group("quoted") is not None
                                  else m.group("plain"), m.group("name"), m.group("x") == "true")
                       for m in _CACHED.finditer(get(CACHED_FILES, "") or ""))
        return Dependencies(
            python_files=split_list(get(PYTHON_FILES, ""), ","),
            requirements=get(PYTHON_REQUIREMENTS, None) or None,
            archives=split_list(get(PYTHON_ARCHIVES, ""), ","),
            cached_files=cached,
            python_executable=get(PYTHON_EXECUTABLE, None) or None,
            jars=split_list(get(JARS, ""), ";"),
            classpaths=split_list(get(CLASSPATHS, ""), ";"))

    @staticmethod
    def of_settings(settings) -> "Dependencies":
        """The dependencies of every job of the process (``pystream run`` options)."""
        return Dependencies(
            python_files=tuple(settings.py_files), requirements=settings.requirements,
            archives=tuple(settings.archives), python_executable=settings.python_executable,
            jars=tuple(settings.jars), classpaths=tuple(settings.classpaths),
            packages=tuple(settings.packages))

    def merged(self, other: "Dependencies") -> "Dependencies":
        """These dependencies and ``other``'s (``other`` wins for single values)."""
        def union(a, b):
            return tuple(dict.fromkeys(a + b))
        return Dependencies(
            python_files=union(self.python_files, other.python_files),
            requirements=other.requirements or self.requirements,
            archives=union(self.archives, other.archives),
            cached_files=union(self.cached_files, other.cached_files),
            python_executable=other.python_executable or self.python_executable,
            jars=union(self.jars, other.jars), classpaths=union(self.classpaths, other.classpaths),
            packages=union(self.packages, other.packages))

    # -- the archive holding the workers' Python, if any

    def interpreter_archive(self) -> Optional[str]:
        """The archive (``path#alias``) that ``python_executable`` is inside of, if any."""
        exe = self.python_executable
        if not exe or os.path.isabs(exe):
            return None
        first = exe.replace("\\", "/").split("/", 1)[0]
        for spec in self.archives:
            path, target = _archive_spec(spec)
            if first == target:
                return "%s#%s" % (path, target)
        return None

    # -- the bundle

    def bundle(self) -> Bundle:
        """The items that travel with the job to the workers."""
        items: List[Item] = []
        if self.requirements:
            requirements, _, cache_dir = self.requirements.partition("#")
            items.append(_python_item(requirements_zip(requirements, cache_dir or None)))
        items += [_python_item(_shippable(p, "add_python_file")) for p in self.python_files]
        interpreter = self.interpreter_archive()
        for spec in self.archives:
            path, target = _archive_spec(spec)
            if "%s#%s" % (path, target) != interpreter:
                items.append(_archive_item(_shippable(path, "add_python_archive"), target))
        items += [_file_item(_shippable(c.path, "register_cached_file"), c.name, c.executable)
                  for c in self.cached_files]
        bundle = Bundle(tuple(items), script_classes())
        size = sum(len(item.data) for item in items)
        if size > LARGE_BUNDLE:
            warnings.warn("The job's Python dependencies take %d MB and travel with every task; "
                          "install large libraries on the cluster's Python instead"
                          % (size >> 20), stacklevel=2)
        return bundle


def split_list(text: Optional[str], sep: str) -> Tuple[str, ...]:
    """The items of a list-valued configuration entry (``a;b``, or PyFlink's ``['a', 'b']``)."""
    text = (text or "").strip()
    if text.startswith("[") and text.endswith("]"):  # PyFlink writes lists as "['a', 'b']"
        text, sep = text[1:-1].replace("'", ""), ","
    return tuple(part.strip() for part in text.split(sep) if part.strip())


def _archive_spec(spec: str) -> Tuple[str, str]:
    path, _, target = spec.partition("#")
    return path, target or os.path.basename(_strip_file_scheme(path))


def _strip_file_scheme(path: str) -> str:
    return path[len("file://"):] if path.startswith("file://") else path


def _shippable(path: str, api: str) -> str:
    """The local file behind ``path`` (a path or a file:// URI), checked to exist."""
    local = _strip_file_scheme(path)
    if "://" in local:
        raise UnsupportedFeatureError("%s: only local files can be shipped, not %r"
                                      % (api, path))
    if not os.path.exists(local):
        raise FileNotFoundError("%s: no such file or directory: %r" % (api, path))
    return os.path.abspath(local)


def check_local(path: str, api: str) -> str:
    """``path`` made absolute (URIs other than file:// unchanged), for the environment."""
    local = _strip_file_scheme(path)
    if "://" in local:
        return path
    if not os.path.exists(local):
        raise FileNotFoundError("%s: no such file or directory: %r" % (api, path))
    return os.path.abspath(local)


# ---------------------------------------------------------------------------------------------
# items


def _item(kind: str, name: str, filename: str, data: bytes, unpack: bool,
          executable: bool = False) -> Item:
    digest = hashlib.sha256()
    for part in (kind, filename, str(unpack), str(executable)):
        digest.update(part.encode() + b"\0")
    digest.update(data)
    return Item(kind=kind, name=name, filename=filename, data=data, digest=digest.hexdigest(),
                unpack=unpack, executable=executable)


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _python_item(path: str) -> Item:
    """A directory (its content importable), a .py file, or a .zip/.egg/.whl."""
    name = os.path.basename(path.rstrip(os.sep))
    if os.path.isdir(path):
        return _item(PYTHON, name, name + ".zip", zip_directory(path), unpack=True)
    unpack = name.lower().endswith((".zip", ".egg", ".whl"))
    return _item(PYTHON, name, name, _read(path), unpack=unpack)


def _archive_item(path: str, target: str) -> Item:
    name = os.path.basename(path)
    if os.path.isdir(path):
        return _item(ARCHIVE, target, name + ".zip", zip_directory(path), unpack=True)
    return _item(ARCHIVE, target, name, _read(path), unpack=True)


def _file_item(path: str, name: str, executable: bool) -> Item:
    filename = os.path.basename(path.rstrip(os.sep))
    if os.path.isdir(path):
        return _item(FILE, name, filename + ".zip", zip_directory(path), unpack=True)
    return _item(FILE, name, filename, _read(path), unpack=False, executable=executable)


def zip_directory(path: str) -> bytes:
    """The content of a directory as a zip, the same bytes for the same content (sorted
    entries, fixed dates), with permission bits; without __pycache__."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for root, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                full = os.path.join(root, name)
                if name.endswith(".pyc") or not os.path.isfile(full):
                    continue
                info = zipfile.ZipInfo(os.path.relpath(full, path), date_time=(1980, 1, 1, 0, 0, 0))
                info.external_attr = (os.stat(full).st_mode & 0o777) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, _read(full))
    return buffer.getvalue()


# ---------------------------------------------------------------------------------------------
# requirements


def requirements_zip(requirements: str, offline_dir: Optional[str] = None) -> str:
    """A zip of the packages of ``requirements``, installed by pip once per content (of the
    file and the offline packages) and Python version and platform."""
    requirements = _shippable(requirements, "set_python_requirements")
    key = hashlib.sha256(_read(requirements))
    if offline_dir:
        offline_dir = _shippable(offline_dir, "set_python_requirements")
        for name in sorted(os.listdir(offline_dir)):
            key.update(name.encode() + str(os.path.getsize(os.path.join(offline_dir, name)))
                       .encode())
    key.update(("%s %s" % (sys.version, sys.platform)).encode())
    target = os.path.join(cache_dir(), "requirements", key.hexdigest()[:32] + ".zip")
    if os.path.isfile(target):
        return target
    os.makedirs(os.path.dirname(target), exist_ok=True)
    staging = "%s.%s.tmp" % (target, uuid.uuid4().hex)
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
               "--no-warn-script-location", "--target", staging, "-r", requirements]
    if offline_dir:
        command += ["--no-index", "--find-links", offline_dir]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        shutil.rmtree(staging, ignore_errors=True)
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-8:])
        raise PystreamError("set_python_requirements: pip could not install %s:\n%s"
                            % (requirements, tail))
    try:
        with open(staging + ".zip", "wb") as f:
            f.write(zip_directory(staging))
        os.replace(staging + ".zip", target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


# ---------------------------------------------------------------------------------------------
# declaring them (the environments' methods: StreamExecutionEnvironment, TableEnvironment)


def add_python_file(configuration, file_path: str) -> None:
    """Add a Python file, directory or archive of modules to ``python.files``."""
    path = check_local(file_path, "add_python_file")
    old = configuration.get_string(PYTHON_FILES, None)
    configuration.set_string(PYTHON_FILES, path if not old else old + "," + path)


def set_python_requirements(configuration, requirements_file_path: str,
                            requirements_cache_dir: Optional[str] = None) -> None:
    """Set ``python.requirements`` (``requirements.txt#cache_dir``)."""
    value = check_local(requirements_file_path, "set_python_requirements")
    if requirements_cache_dir is not None:
        value += "#" + check_local(requirements_cache_dir, "set_python_requirements")
    configuration.set_string(PYTHON_REQUIREMENTS, value)


def add_python_archive(configuration, archive_path: str, target_dir: Optional[str] = None):
    """Add an archive (``path#target_dir``) to ``python.archives``."""
    value = check_local(archive_path, "add_python_archive")
    if target_dir is not None:
        value += "#" + target_dir
    old = configuration.get_string(PYTHON_ARCHIVES, None)
    configuration.set_string(PYTHON_ARCHIVES, value if not old else old + "," + value)


# ---------------------------------------------------------------------------------------------
# applying them


def job_dependencies(configuration) -> Dependencies:
    """The dependencies of a job: the process's (command line) and the environment's."""
    return Dependencies.of_settings(session.settings()).merged(
        Dependencies.of_configuration(configuration))


def configure_session(deps: Dependencies) -> None:
    """Before the session starts, let it start with the jars and classpaths."""
    if deps.jars:
        session.add_jars(*deps.jars)
    if deps.classpaths:
        session.add_classpaths(*deps.classpaths)


def prepare(deps: Dependencies) -> Bundle:
    """Give the running session what the job needs from it; the job's worker bundle."""
    session.get_session()
    configure_session(deps)
    session.use_worker_python(deps.python_executable, deps.interpreter_archive())
    return deps.bundle()


def client_bundle(python_files) -> Bundle:
    """The Python items of ``python_files``, to install on the client (``pystream run``)."""
    return Dependencies(python_files=tuple(python_files)).bundle()

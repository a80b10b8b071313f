"""The compiler: job graphs -> Spark plans.

``compile_stream(ds)`` gives the Spark DataFrame of one DataStream's records (for the shell's
previews and ``explain``); ``Job`` (in ``job``) runs the sinks of a whole job.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional

import pyarrow as pa

from pystream.common.typeinfo import TypeInformation


@dataclass
class CompiledStream:
    """A DataStream compiled to a Spark DataFrame of typed columns."""

    df: object
    type_info: TypeInformation
    streaming: bool
    bounded: bool
    shuffle_partitions: Optional[int]
    temp_dirs: List[str]

    def close(self) -> None:
        """Remove the temporary files the compiled stream reads (after its query stopped)."""
        import shutil

        for path in self.temp_dirs:
            shutil.rmtree(path, ignore_errors=True)

    @property
    def columns(self) -> List[str]:
        from pystream.runtime.records import column_names

        return column_names(self.type_info)

    def decode(self, table: pa.Table) -> list:
        """The records (Python values, as a job's client gets them) in an Arrow table of
        this stream's columns."""
        from pystream.runtime.records import batch_decoder

        return batch_decoder(self.type_info, client=True)([table.column(n).combine_chunks()
                                              for n in self.columns])


def compile_stream(ds, batch: Optional[bool] = None) -> CompiledStream:
    """Compile ``ds`` (and what it reads) into a DataFrame; ``batch`` overrides the env's mode.

    >>> compiled = compile_stream(ds)                          # doctest: +SKIP
    >>> compiled.df.explain()                                  # doctest: +SKIP
    """
    from pystream import graph
    from pystream.compiler.translate import Compiler
    from pystream.runtime.layout import Layout
    from pystream.session import get_session

    env = ds.get_execution_environment()
    node = ds._values_node() if hasattr(ds, "_values_node") else ds._node
    settings = env._job_settings(None)
    if batch is not None:
        from dataclasses import replace

        settings = replace(settings, batch=batch)
    from pystream.compiler.job import _activate

    spark = get_session()
    _activate(spark)  # this thread's SQL settings are the session's
    compiler = Compiler(spark, settings, [node])
    flow = compiler.flow(node)
    flow = compiler.materialize(flow, Layout(flow.type_info))
    bounded = all(n.bounded for n in graph.walk([node]) if isinstance(n, graph.Source))
    return CompiledStream(df=flow.df, type_info=flow.type_info, streaming=not settings.batch,
                          bounded=bounded, shuffle_partitions=compiler.shuffle_partitions,
                          temp_dirs=compiler.temp_dirs)

"""The compiler: plans -> Spark DataFrames and queries.

``plan`` (from ``pystream.plan``) decides; the compiler follows. ``compile_stream(plan)``
gives the Spark DataFrame of one stream's records (for the shell's previews and ``explain``);
``Job`` (in ``job``) runs the sinks of a whole job.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional

import pyarrow as pa

from pystream import graph
from pystream.common.typeinfo import TypeInformation
from pystream.plan import Plan, plan
from pystream.runtime.layout import ORDER, TS, Layout
from pystream.runtime.records import batch_decoder, column_names

__all__ = ["plan", "Plan", "CompiledStream", "compile_stream"]


@dataclass
class CompiledStream:
    """A DataStream compiled to a Spark DataFrame of typed columns (and ``__order``, the
    order PyFlink emits them in, after a keyed operator at parallelism 1)."""

    df: object
    type_info: TypeInformation
    streaming: bool  # a streaming DataFrame (else a batch one)
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
        return column_names(self.type_info)

    def decode(self, table: pa.Table) -> list:
        """The records (Python values, as a job's client gets them) in an Arrow table of
        this stream's columns."""
        return batch_decoder(self.type_info, client=True)([table.column(n).combine_chunks()
                                              for n in self.columns])


def compile_stream(plan: Plan, with_watermark: bool = False) -> CompiledStream:
    """Compile the stream ``plan`` previews (its one root) into a DataFrame.

    Effects: starts the Spark session and prepares the job's dependencies
    (``job.start_session``). ``with_watermark``: the records keep their timestamps and Spark's
    watermark is declared on them, so a streaming query reports it (keyed event-time
    operators declare their own).

    >>> compiled = compile_stream(plan_of(ds))                 # doctest: +SKIP
    >>> compiled.df.explain()                                  # doctest: +SKIP
    """
    from pystream.compiler.job import start_session
    from pystream.compiler.translate import Compiler

    (node,) = plan.roots
    spark, bundle = start_session(plan)
    compiler = Compiler(spark, plan, bundle)
    flow = compiler.flow(node)
    keyed = any(isinstance(n, graph.Keyed) for n in plan.nodes())
    timestamps = with_watermark and flow.event_time and not keyed
    ordered = flow.ordered_df if flow.settled and not timestamps else None
    flow = compiler.materialize(flow, Layout(flow.type_info, timestamped=timestamps))
    # a keyed operator at parallelism 1: its records with ``__order``, PyFlink's order
    df = flow.df if ordered is None else ordered.select(*flow.layout.columns, ORDER)
    if timestamps:
        df = df.withWatermark(TS, "%d milliseconds" % (flow.watermark_delay_ms or 0))
    return CompiledStream(df=df, type_info=flow.type_info, streaming=not plan.batch,
                          bounded=plan.bounded, shuffle_partitions=compiler.shuffle_partitions,
                          temp_dirs=compiler.temp_dirs)

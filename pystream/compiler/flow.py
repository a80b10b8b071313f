"""``Flow``: a stream while it is being compiled, a DataFrame plus operators not yet run."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Optional, Tuple

from pystream.common.typeinfo import TypeInformation
from pystream.runtime.layout import Layout


@dataclass(frozen=True)
class Flow:
    """``df`` has the columns of ``layout``; ``ops`` are fused Python operators still to run on
    it, after which records have ``type_info``. ``parallelism`` is df's number of partitions."""

    df: Any
    layout: Layout
    type_info: TypeInformation
    parallelism: Optional[int]
    bounded: bool
    ops: Tuple = ()
    event_time: bool = False  # records carry timestamps and a watermark is defined
    watermark_delay_ms: Optional[int] = None
    watermarked: bool = False  # Spark's watermark is declared upstream (once per input)
    # a main or side output read from a tagged flow: (tagged flow, tag id or None, df as
    # selected); a union reads the branches of one tagged flow in one pass (RoutedStage)
    selected_from: Optional[Tuple[Any, Optional[str], Any]] = None
    # a keyed operator at parallelism 1: df's rows plus the ``__order`` column, the order
    # PyFlink emits them in within a micro-batch (a client sink sorts by it); any other df
    # (``but(df=...)``) drops it
    ordered_df: Any = None

    def then(self, op, type_info: TypeInformation) -> "Flow":
        return replace(self, ops=self.ops + (op,), type_info=type_info)

    def but(self, **changes) -> "Flow":
        if "df" in changes and "ordered_df" not in changes:
            changes["ordered_df"] = None
        return replace(self, **changes)

    @property
    def settled(self) -> bool:
        """No operator is pending and the columns already hold ``type_info``."""
        return not self.ops and self.layout.type_info == self.type_info

"""Top-N in STREAMING mode over a bounded table: Flink's changelog as the ranking changes.

``groupBy(partition keys).applyInArrow(TopN(...))``: one partition's rows, replayed in their
arrival order (``__seq``) through a buffer of the best N, as Flink's append-only Top-N
operator keeps it. Rows are compared by ``__ord`` (their dense rank under the ORDER BY,
computed by Spark beforehand), then by arrival: among equal sort keys the earlier row ranks
first, and a row equal to the worst of a full buffer does not enter.

Without the rank number in the result, a row entering a full buffer retracts the row it
pushes out (``-D``) and is inserted (``+I``). With it, every rank from the new row's down is
updated (``-U`` old row at that rank, ``+U`` new row), and a rank reached for the first time
is inserted; a row pushed out of the last rank disappears with its rank's update.
"""
from __future__ import annotations

import bisect
from typing import List

INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE = 0, 1, 2, 3


class TopN:
    """The changelog of one partition's best ``n`` rows (see the module's docstring)."""

    def __init__(self, n: int, fields: List[str], with_rank: bool, seq: str = "__seq",
                 order: str = "__ord"):
        self.n = n
        self.fields = fields
        self.with_rank = with_rank
        self.seq = seq
        self.order = order

    def __call__(self, table):
        import pyarrow as pa

        columns = {name: table.column(name).to_pylist() for name in self.fields}
        seqs = table.column(self.seq).to_pylist()
        orders = table.column(self.order).to_pylist()
        keys: list = []  # (order, seq) of the buffer's rows, best first
        rows: list = []  # their field values
        out: list = []
        for i in sorted(range(len(seqs)), key=seqs.__getitem__):
            key = (orders[i], seqs[i])
            position = bisect.bisect_right(keys, key)
            if position >= self.n:
                continue
            row = tuple(columns[name][i] for name in self.fields)
            before = list(rows)
            keys.insert(position, key)
            rows.insert(position, row)
            seq = seqs[i]
            if not self.with_rank:
                sub = 0
                if len(rows) > self.n:
                    keys.pop()
                    out.append(rows.pop() + (0, seq, DELETE, sub))
                    sub += 1
                out.append(row + (0, seq, INSERT, sub))
                continue
            del keys[self.n:], rows[self.n:]
            sub = 0
            for rank in range(position, len(rows)):
                if rank < len(before):
                    out.append(before[rank] + (rank + 1, seq, UPDATE_BEFORE, sub))
                    out.append(rows[rank] + (rank + 1, seq, UPDATE_AFTER, sub + 1))
                    sub += 2
                else:
                    out.append(rows[rank] + (rank + 1, seq, INSERT, sub))
                    sub += 1
        schema = pa.schema([table.schema.field(name) for name in self.fields] + [
            pa.field("__rank", pa.int64()), pa.field(self.seq, pa.int64()),
            pa.field("__op", pa.int32()), pa.field("__sub", pa.int32())])
        return pa.Table.from_pylist([dict(zip(schema.names, values)) for values in out],
                                    schema=schema)

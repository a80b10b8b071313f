"""An upsert changelog (+I, +U, -D of rows identified by a primary key, without -U) as a full
changelog, as Flink's ChangelogNormalize makes it: the first row of a key is +I, a later one
with other values is -U of the key's previous row then +U (an equal one changes nothing), a
-D carries the previous row (a -D of an unknown key changes nothing)."""
from __future__ import annotations

from typing import Sequence

from pystream.common.typeinfo import Types
from pystream.common.types import Row, RowKind
from pystream.core.functions import KeyedProcessFunction, KeySelector
from pystream.core.state import ValueStateDescriptor
from pystream.util.exceptions import ValidationException


class PrimaryKeyOf(KeySelector):
    """The values of the primary key's fields of a row."""

    def __init__(self, positions: Sequence[int]):
        self.positions = tuple(positions)

    def get_key(self, value):
        return tuple(value[i] for i in self.positions)


class UpsertsToChanges(KeyedProcessFunction):
    """Per key, the row last written (see the module docstring)."""

    def open(self, runtime_context):
        self.current = runtime_context.get_state(
            ValueStateDescriptor("row", Types.PICKLED_BYTE_ARRAY()))

    def process_element(self, row, ctx):
        previous = self.current.value()
        if row.get_row_kind() in (RowKind.DELETE, RowKind.UPDATE_BEFORE):
            if previous is not None:
                self.current.clear()
                yield Row.of_kind(RowKind.DELETE, *previous)
            return
        values = tuple(row)
        if previous is None:
            yield Row.of_kind(RowKind.INSERT, *values)
        elif tuple(previous) != values:
            yield Row.of_kind(RowKind.UPDATE_BEFORE, *previous)
            yield Row.of_kind(RowKind.UPDATE_AFTER, *values)
        self.current.update(values)


def upserts_as_changes(data_stream, field_names: Sequence[str], primary_key: Sequence[str]):
    """``data_stream``'s upsert changelog as a full changelog of the same row type."""
    if not primary_key:
        raise ValidationException(
            "An upsert changelog needs a primary key: from_changelog_stream(ds, "
            "Schema.new_builder().primary_key('id').build(), ChangelogMode.upsert()).")
    missing = [k for k in primary_key if k not in field_names]
    if missing:
        raise ValidationException("The primary key's fields %s are not fields of the stream "
                                  "[%s]." % (missing, ", ".join(field_names)))
    positions = [list(field_names).index(k) for k in primary_key]
    return data_stream.key_by(PrimaryKeyOf(positions)) \
        .process(UpsertsToChanges(), output_type=data_stream.get_type()) \
        .name("ChangelogNormalize")

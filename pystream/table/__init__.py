"""PyFlink's Table API (``pyflink.table``): TableEnvironment, Table, DataTypes, descriptors.

Names are loaded when first used (PEP 562), so ``import pystream.table`` stays cheap and the
modules below can import from it without a cycle.
"""
from importlib import import_module

_EXPORTS = {
    "DataType": "types", "DataTypes": "types", "RowType": "types", "RowField": "types",
    "TableEnvironment": "table_environment", "StreamTableEnvironment": "table_environment",
    "StatementSet": "statement_set", "TablePipeline": "table_pipeline",
    "EnvironmentSettings": "environment_settings",
    "TableConfig": "table_config", "Table": "table", "GroupedTable": "table",
    "GroupWindowedTable": "table", "WindowGroupedTable": "table",
    "OverWindowedTable": "table", "TableResult": "table_result",
    "CloseableIterator": "table_result", "ResultKind": "result_kind",
    "TableSchema": "table_schema", "Schema": "schema", "TableDescriptor": "table_descriptor",
    "FormatDescriptor": "table_descriptor", "Expression": "expression",
    "ExplainDetail": "explain_detail", "FunctionContext": "udf", "ScalarFunction": "udf",
    "TableFunction": "udf", "AggregateFunction": "udf", "TableAggregateFunction": "udf",
    "AsyncScalarFunction": "udf", "DataView": "data_view", "ListView": "data_view",
    "MapView": "data_view", "ChangelogMode": "changelog_mode",
}

__all__ = sorted(_EXPORTS) + ["Row", "RowKind"]


def __getattr__(name: str):
    if name in ("Row", "RowKind"):
        return getattr(import_module("pystream.common.types"), name)
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError("module 'pystream.table' has no attribute %r" % name)
    return getattr(import_module("pystream.table." + module), name)


def __dir__():
    return __all__

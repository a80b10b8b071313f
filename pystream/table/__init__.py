"""PyFlink's Table API (``pyflink.table``): TableEnvironment, Table, DataTypes, descriptors.

Names are loaded when first used (PEP 562), so ``import pystream.table`` stays cheap and the
modules below can import from it without a cycle.
"""
from pystream.util.lazy import lazy_names

_EXPORTS = {
    "DataType": "types", "DataTypes": "types", "RowType": "types", "RowField": "types",
    "UserDefinedType": "types", "SqlDialect": "sql_dialect",
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
    "Row": "pystream.common.types", "RowKind": "pystream.common.types",
}

__all__ = sorted(_EXPORTS)


__getattr__, __dir__ = lazy_names(__name__, _EXPORTS, __all__)

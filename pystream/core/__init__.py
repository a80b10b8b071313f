"""What a program hands to a job: the DataStream API's function classes, state descriptors,
windows and output tags, the Table API's user-defined function classes (``udf``), and the
connectors pystream runs (``connectors``).

Below the APIs that take them (``pystream.datastream`` and ``pystream.table`` export them at
PyFlink's paths: ``pystream.datastream.functions``, ``.state``, ``.window``,
``.output_tag``, ``.connectors.*``, ``pystream.table.udf``) and below the planner, compiler
and runtime that read and call them, so that none of those imports an API for them."""

"""What user code implements and Spark's workers call: the function classes, state
descriptors, windows and output tags of the DataStream API.

Below both the API that hands them to a job (``pystream.datastream``, which exports them at
PyFlink's paths: ``pystream.datastream.functions``, ``.state``, ``.window``, ``.output_tag``)
and the runtime that runs them (``pystream.runtime``), so that neither imports the other's
layer."""

"""The connectors pystream runs, as a program hands them to a job: the base classes, the
sources and sinks that need no external system (collections, generators, the print,
collect and discarding sinks, a Table query as a stream), and Kafka, files and JDBC. Below
the planner and the compiler that read them; ``pystream.datastream.connectors`` exports
them at PyFlink's paths, beside the connectors pystream only names (Java-only ones, which
fail with a clear error)."""

"""The sources and sinks that need no external system (collections, generators, the print,
collect and discarding sinks, a Table query as a stream) and the connectors' base classes:
what a program hands to a job, below the planner and the compiler that read them.
``pystream.datastream.connectors`` exports them at PyFlink's paths."""

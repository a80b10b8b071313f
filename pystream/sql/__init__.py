"""Flink SQL: a sqlglot dialect for Flink's syntax and its translation to relational nodes."""

"""Parsing Flink SQL (no Spark): statements, scripts, expressions, types and errors."""
import pytest
from sqlglot import exp

from pystream.sql.dialect import LateralTable, WindowTVF, to_sql
from pystream.sql.parse import (
    CreateFunction,
    Explain,
    Reset,
    Show,
    StatementSet,
    parse_expression,
    parse_statement,
    parse_statements,
)
from pystream.sql.types import parse_data_type
from pystream.table import DataTypes
from pystream.util.exceptions import SqlParserException

DDL = """CREATE TEMPORARY TABLE orders (
  id INT NOT NULL, name STRING, price DECIMAL(10, 2), ts TIMESTAMP(3),
  cost AS price * 2,
  meta TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND,
  PRIMARY KEY (id) NOT ENFORCED
) PARTITIONED BY (name) WITH ('connector' = 'datagen', 'number-of-rows' = '10')"""


def test_create_table_keeps_every_kind_of_column():
    node = parse_statement(DDL)
    kinds = [type(c).__name__ for c in node.this.expressions]
    assert kinds == ["ColumnDef"] * 6 + ["WatermarkColumnConstraint", "PrimaryKey"]
    options = {p.this.name: p.args["value"].name for p in node.args["properties"].expressions
               if type(p) is exp.Property}
    assert options == {"connector": "datagen", "number-of-rows": "10"}


@pytest.mark.parametrize(("sql", "kind"), [
    ("SHOW TABLES", Show), ("SHOW CURRENT DATABASE", Show), ("EXPLAIN SELECT 1", Explain),
    ("EXPLAIN PLAN FOR SELECT 1", Explain), ("RESET 'a.b'", Reset),
    ("CREATE TEMPORARY SYSTEM FUNCTION f AS 'm.f' LANGUAGE PYTHON", CreateFunction),
    ("EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT * FROM b; "
     "INSERT INTO c SELECT * FROM b; END", StatementSet),
    ("SELECT * FROM t;", exp.Select), ("USE CATALOG c", exp.Use), ("DESC t", exp.Describe),
])
def test_statements_sqlglot_has_no_grammar_for(sql, kind):
    assert isinstance(parse_statement(sql), kind)


def test_window_tvfs_and_lateral_tables_in_from():
    tvf = parse_statement("SELECT * FROM TABLE(HOP(DATA => TABLE bids, TIMECOL => "
                          "DESCRIPTOR(ts), SLIDE => INTERVAL '5' MINUTES, SIZE => INTERVAL "
                          "'10' MINUTES))").args["from_"].this
    assert isinstance(tvf, WindowTVF) and tvf.name == "HOP" and len(tvf.args["intervals"]) == 2
    join = parse_statement("SELECT a, w FROM t, LATERAL TABLE(split(a)) AS T(w)").args["joins"]
    assert isinstance(join[0].this, LateralTable)


def test_a_script_keeps_statement_sets_together():
    script = """-- a script
CREATE TABLE a (x INT) WITH ('connector' = 'datagen');
BEGIN STATEMENT SET;
INSERT INTO b SELECT * FROM a;
INSERT INTO c SELECT 'x;y' FROM a;
END;
SELECT 1;"""
    kinds = [type(s).__name__ for s in parse_statements(script)]
    assert kinds == ["Create", "StatementSet", "Select"]


def test_strings_double_their_quotes_and_identifiers_may_hold_dollars():
    node = parse_statement("SELECT 'it''s' FROM UnnamedTable$0")
    assert node.expressions[0].name == "it's"
    assert node.args["from_"].this.name == "UnnamedTable$0"


def test_types_as_flink_names_them():
    assert parse_data_type("ROW<a INT NOT NULL, b ARRAY<STRING>>").summary_string() == \
        "ROW<`a` INT NOT NULL, `b` ARRAY<STRING>>"
    assert parse_data_type("VARCHAR(10)") == DataTypes.VARCHAR(10)
    assert parse_data_type("TIMESTAMP(3) WITH LOCAL TIME ZONE") == DataTypes.TIMESTAMP_LTZ(3)
    assert parse_data_type("DECIMAL") == DataTypes.DECIMAL(10, 0)
    assert parse_data_type("BYTES") == DataTypes.BYTES()


def test_expressions():
    assert isinstance(parse_expression("ts - INTERVAL '5' SECOND"), exp.Sub)


@pytest.mark.parametrize(("sql", "line", "column", "caret_line"), [
    ("SELEC a FROM t", 1, 9, "SELEC a FROM t"),
    ("SELECT a,\nFROM t WHERE", 2, 8, "FROM t WHERE"),
])
def test_errors_point_at_the_token(sql, line, column, caret_line):
    with pytest.raises(SqlParserException) as raised:
        parse_statement(sql)
    text = str(raised.value).splitlines()
    assert "line %d, column %d" % (line, column) in text[0]
    assert text[1:] == [caret_line, " " * (column - 1) + "^"]


def test_statements_pystream_does_not_know_are_errors_not_commands():
    with pytest.raises(SqlParserException, match="Unsupported statement: LOAD MODULE"):
        parse_statement("LOAD MODULE hive")


@pytest.mark.parametrize("sql", ["CAST(ts AS TIMESTAMP(3))", "CAST(ts AS TIMESTAMP_LTZ(3))",
                                 "CAST(ts AS TIMESTAMP)", "CAST(x AS DECIMAL(5, 2))"])
def test_a_computed_column_written_back_keeps_its_types_precision(sql):
    assert to_sql(parse_expression(sql)) == sql


@pytest.mark.xfail(strict=True, reason="not supported: Flink's postfix collection types "
                   "(`INT ARRAY`, `INT MULTISET`) before another column: sqlglot's parser "
                   "reads the next column as the array's size")
def test_a_postfix_collection_type_before_another_column():
    node = parse_statement("CREATE TABLE t (a INT MULTISET, b INT ARRAY, c BIGINT)")
    assert node is not None

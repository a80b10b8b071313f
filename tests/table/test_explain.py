"""``explain()`` shows the relational tree and the Spark plan that runs it; relational work
runs in Spark's own operators, with no Python stage."""
from pystream.table.expressions import col

PYTHON_STAGES = ("PythonUDF", "EvalPython", "MapInArrow", "MapInPandas", "FlatMapGroupsInPandas",
                 "PythonMapInArrow", "ArrowEvalPython", "BatchEvalPython")


def test_a_relational_query_plans_no_python_stage(t_env):
    orders = t_env.from_elements([(1, "a", 2.5), (2, "b", 1.0)], ["id", "name", "price"])
    query = (orders.where(col("price") > 1).group_by(col("name"))
             .select(col("name"), col("price").sum.alias("total"), col("id").count))
    text = query.explain()
    assert text.startswith("== Abstract Syntax Tree ==")
    assert "GroupAggregate(groupBy=[name]" in text
    plan = text.split("== Optimized Execution Plan ==")[1]
    assert "HashAggregate" in plan or "Window" in plan
    assert not [stage for stage in PYTHON_STAGES if stage in plan]


def test_explain_sql_of_an_insert_shows_its_query(batch_t_env):
    batch_t_env.execute_sql("CREATE TEMPORARY TABLE sink (name STRING, n BIGINT) "
                            "WITH ('connector' = 'blackhole')")
    orders = batch_t_env.from_elements([(1, "a"), (2, "b")], ["id", "name"])
    batch_t_env.create_temporary_view("orders", orders)
    text = batch_t_env.explain_sql(
        "INSERT INTO sink SELECT name, COUNT(id) FROM orders GROUP BY name")
    assert text.startswith("== Abstract Syntax Tree ==")
    assert "GroupAggregate(groupBy=[name]" in text

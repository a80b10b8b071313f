"""UNION, INTERSECT and EXCEPT in STREAMING mode: each row of the result once (+I); INTERSECT
ALL and EXCEPT ALL as counts per row whose changes are replicated (-U/+U as often as the row
was and is in the result)."""
# oracle: unordered
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set('parallelism.default', '1')
t_env.create_temporary_view('a', t_env.from_elements([(1,), (2,), (2,), (3,), (4,)], ['x']))
t_env.create_temporary_view('b', t_env.from_elements([(2,), (3,), (3,), (5,)], ['y']))
for query in ("SELECT x FROM a UNION SELECT y FROM b",
              "SELECT x FROM a UNION SELECT y FROM b UNION SELECT x + 10 FROM a",
              "SELECT x FROM a INTERSECT SELECT y FROM b",
              "SELECT x FROM a EXCEPT SELECT y FROM b",
              "SELECT x FROM a INTERSECT ALL SELECT y FROM b",
              "SELECT x FROM a EXCEPT ALL SELECT y FROM b"):
    print(query)
    t_env.execute_sql(query).print()

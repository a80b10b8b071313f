"""Errors: an unknown column, then a valid query right after."""
from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t = t_env.from_elements([(1, 'a')], ['id', 'name'])
try:
    t.select(col('nme'))
except Exception as e:  # noqa: BLE001 - PyFlink raises Py4JJavaError
    message = str(e)
    start = message.find('Cannot resolve field')
    end = message.find('\n', start)
    print(message[start:end if end >= 0 else None])
t.select(col('id')).execute().print()

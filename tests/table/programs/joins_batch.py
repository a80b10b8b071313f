"""Inner, left, right and full outer joins in BATCH mode."""
# oracle: unordered
from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
orders = t_env.from_elements([(1, 'apple', 3), (2, 'pear', 5), (3, 'fig', 1)],
                             ['id', 'fruit', 'qty'])
prices = t_env.from_elements([('apple', 10), ('pear', 20), ('kiwi', 30)], ['name', 'price'])
orders.join(prices, col('fruit') == col('name')).select(col('id'), col('fruit'),
                                                         col('price')).execute().print()
orders.left_outer_join(prices, col('fruit') == col('name')).execute().print()
orders.right_outer_join(prices, col('fruit') == col('name')).execute().print()
orders.full_outer_join(prices, col('fruit') == col('name')).execute().print()

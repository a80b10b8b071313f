"""Records that do not parse: a CSV or JSON file with a value that does not fit its column,
a line that is not JSON and a missing field. Without 'ignore-parse-errors' the query fails;
with it, the fields that parse are read and the others are NULL."""
import os
import tempfile

from pyflink.table import EnvironmentSettings, TableEnvironment

files = {"csv": "1,apple,1.5\n2,pear,oops\nthree,fig,3.0\n4,kiwi\n5,plum,5.0\n",
         "json": '{"id":1,"name":"apple","price":1.5}\n{"id":2,"name":"pear","price":"oops"}\n'
                 '{not json\n{"id":4,"name":"kiwi"}\n{"id":5,"name":"plum","price":5.0}\n'}
for settings in (EnvironmentSettings.in_streaming_mode(), EnvironmentSettings.in_batch_mode()):
    for fmt, text in files.items():
        directory = tempfile.mkdtemp()
        with open(os.path.join(directory, "part-0." + fmt), "w") as f:
            f.write(text)
        for lenient in ("false", "true"):
            t_env = TableEnvironment.create(settings)
            t_env.get_config().set("parallelism.default", "1")
            t_env.execute_sql("""CREATE TABLE products (id INT, name STRING, price DOUBLE)
                WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = '%s',
                      '%s.ignore-parse-errors' = '%s')""" % (directory, fmt, fmt, lenient))
            print(fmt, "ignore-parse-errors =", lenient)
            try:
                t_env.execute_sql("SELECT * FROM products").print()
            except Exception:  # noqa: BLE001 - PyFlink raises Py4JJavaError
                print("the query failed")

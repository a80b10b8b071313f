"""The Nexmark source's shape: ROW columns read by field name (``person.id``, ``t.person.id``),
a computed column ``CASE WHEN ... THEN person.`dateTime` ...`` in the DDL, DATE_FORMAT of a
timestamp, REGEXP_EXTRACT that matches, does not match, and takes no index."""
import json
import os
import tempfile

from pyflink.table import EnvironmentSettings, TableEnvironment

directory = tempfile.mkdtemp()
events = [
    {"event_type": 0, "person": {"id": 1, "name": "Ann Lee", "dateTime": "2026-03-01 10:00:00"},
     "bid": None},
    {"event_type": 2, "person": None,
     "bid": {"auction": 7, "price": 120, "dateTime": "2026-03-02 23:59:59"}},
    {"event_type": 0, "person": {"id": 2, "name": "Bo", "dateTime": "2026-03-03 00:00:01"},
     "bid": None},
]
with open(os.path.join(directory, "events.json"), "w") as f:
    f.write("\n".join(json.dumps(e) for e in events) + "\n")

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("""
CREATE TABLE nexmark (
    event_type INT,
    person ROW<id BIGINT, name VARCHAR, `dateTime` TIMESTAMP(3)>,
    bid ROW<auction BIGINT, price BIGINT, `dateTime` TIMESTAMP(3)>,
    dt AS CASE
        WHEN event_type = 0 THEN person.`dateTime`
        ELSE bid.`dateTime`
    END
) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'json')""" % directory)
t_env.execute_sql("""
SELECT event_type, person.id, n.person.name, bid.price, dt,
       DATE_FORMAT(dt, 'yyyy-MM-dd'), DATE_FORMAT(dt, 'HH:mm')
FROM nexmark AS n ORDER BY dt""").print()
t_env.execute_sql("""
SELECT person.id, person.name,
       REGEXP_EXTRACT(person.name, '(\\w+) (\\w+)', 2) AS last_name,
       REGEXP_EXTRACT(person.name, '(\\w+) (\\w+)') AS whole,
       REGEXP_EXTRACT(person.name, 'x(y)', 1) AS no_match
FROM nexmark WHERE event_type = 0 ORDER BY person.id""").print()

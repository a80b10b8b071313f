"""MATCH_RECOGNIZE over a bounded table, STREAMING and BATCH: Flink's ticker examples (a V
shape with SKIP TO LAST, an average with A+ B), quantifiers ({n}, {n,m}, ?, reluctant +? and
*?), SKIP TO NEXT ROW and PAST LAST ROW, WITHIN, FIRST/LAST/PREV, MATCH_ROWTIME and
aggregates in DEFINE and MEASURES; then what PyFlink refuses (PREV of the variable being
defined, PREV in MEASURES, a pattern that does not parse)."""
# oracle: unordered
import os
import re
import tempfile

from pyflink.table import EnvironmentSettings, TableEnvironment

ROWS = [("ACME", 12, 1), ("ACME", 17, 2), ("ACME", 19, 1), ("ACME", 21, 3), ("ACME", 25, 2),
        ("ACME", 18, 1), ("ACME", 15, 1), ("ACME", 14, 2), ("ACME", 24, 2), ("ACME", 25, 2),
        ("ACME", 19, 1)]
directory = tempfile.mkdtemp()
with open(os.path.join(directory, "ticker.csv"), "w") as f:
    for second, (symbol, price, tax) in enumerate(ROWS):
        f.write("%s,%d,%d,2024-04-01 10:00:%02d\n" % (symbol, price, tax, second))
        f.write("BETA,%d,%d,2024-04-01 10:00:%02d\n" % (30 - price, tax, second))

QUERIES = [
    # Flink's V shape: a start, falling prices, then a rise
    """SELECT * FROM ticker MATCH_RECOGNIZE (
        PARTITION BY symbol ORDER BY rowtime
        MEASURES START_ROW.rowtime AS start_tstamp, LAST(PRICE_DOWN.rowtime) AS bottom_tstamp,
                 LAST(PRICE_UP.rowtime) AS end_tstamp
        ONE ROW PER MATCH
        AFTER MATCH SKIP TO LAST PRICE_UP
        PATTERN (START_ROW PRICE_DOWN+ PRICE_UP)
        DEFINE PRICE_DOWN AS (LAST(PRICE_DOWN.price, 1) IS NULL
                              AND PRICE_DOWN.price < START_ROW.price)
                             OR PRICE_DOWN.price < LAST(PRICE_DOWN.price, 1),
               PRICE_UP AS PRICE_UP.price > LAST(PRICE_DOWN.price, 1)) MR""",
    # rows while the running average stays below 20, then one row
    """SELECT * FROM ticker MATCH_RECOGNIZE (
        PARTITION BY symbol ORDER BY rowtime
        MEASURES FIRST(A.rowtime) AS start_tstamp, LAST(A.rowtime) AS end_tstamp,
                 AVG(A.price) AS avg_price, COUNT(A.price) AS n, SUM(A.tax) AS taxes
        ONE ROW PER MATCH
        AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A+ B)
        DEFINE A AS AVG(A.price) < 20)""",
    # exactly two rises after a row, an optional fall; every start
    """SELECT symbol, first_price, last_rise, fall FROM ticker MATCH_RECOGNIZE (
        PARTITION BY symbol ORDER BY rowtime
        MEASURES FIRST(S.price) AS first_price, LAST(R.price) AS last_rise,
                 F.price AS fall
        AFTER MATCH SKIP TO NEXT ROW
        PATTERN (S R{2} F?)
        DEFINE R AS (LAST(R.price, 1) IS NULL AND R.price > S.price)
                    OR R.price > LAST(R.price, 1),
               F AS F.price < LAST(R.price))""",
    # two or three cheap rows, then an expensive one; every start
    """SELECT * FROM ticker MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY rowtime
        MEASURES FIRST(A.price) AS fa, LAST(A.price) AS la, B.price AS b, COUNT(A.price) AS n
        AFTER MATCH SKIP TO NEXT ROW PATTERN (A{2,3} B)
        DEFINE A AS A.price < 20, B AS B.price >= 20)""",
    # a greedy B* gives way to C only when B does not hold
    """SELECT * FROM ticker MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY rowtime
        MEASURES A.price AS a, COUNT(B.price) AS nb, C.price AS c, LAST(B.price) AS lb
        AFTER MATCH SKIP PAST LAST ROW PATTERN (A B* C) WITHIN INTERVAL '3' SECOND
        DEFINE A AS A.price < 15, B AS B.price < 22, C AS C.price > 22)""",
    # reluctant *? with an undefined (always true) B
    """SELECT * FROM ticker MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY rowtime
        MEASURES A.price AS a, COUNT(B.price) AS nb, C.price AS c
        PATTERN (A B*? C) DEFINE A AS A.price < 15, C AS C.price > 20)""",
    # PREV: the row before, within the match; MATCH_ROWTIME: the last row's time
    """SELECT * FROM ticker MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY rowtime
        MEASURES MATCH_ROWTIME() AS t, S.price AS s, R.price AS r
        AFTER MATCH SKIP PAST LAST ROW PATTERN (S R{2})
        DEFINE R AS price > PREV(price) AND PREV(S.price, 0) < 20)""",
    # reluctant: the fewest rows before a price above 20, within 5 seconds
    """SELECT symbol, start_price, end_price, rows_between FROM ticker MATCH_RECOGNIZE (
        PARTITION BY symbol ORDER BY rowtime
        MEASURES FIRST(A.price) AS start_price, C.price AS end_price,
                 COUNT(B.price) AS rows_between
        PATTERN (A B+? C) WITHIN INTERVAL '5' SECOND
        DEFINE A AS A.price < 20, C AS C.price > 20)""",
]

for settings in (EnvironmentSettings.in_streaming_mode(), EnvironmentSettings.in_batch_mode()):
    t_env = TableEnvironment.create(settings)
    t_env.get_config().set("parallelism.default", "1")
    t_env.execute_sql("""CREATE TABLE ticker (symbol STRING, price BIGINT, tax BIGINT,
        rowtime TIMESTAMP(3), WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND)
        WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')""" % directory)
    for query in QUERIES:
        t_env.execute_sql(query).print()
    for wrong in ["PATTERN (A B) DEFINE B AS B.price > PREV(B.price)",
                  "PATTERN (A B+*) DEFINE B AS B.price > 1",
                  ", PREV(B.price) AS pb PATTERN (A B) DEFINE B AS B.price > 1"]:
        try:
            t_env.execute_sql("""SELECT * FROM ticker MATCH_RECOGNIZE (PARTITION BY symbol
                ORDER BY rowtime MEASURES A.price AS a %s)""" % wrong).print()
        except Exception as e:  # noqa: BLE001 - PyFlink raises Py4JJavaError
            java = re.search(r"\.(\w+Exception): ", str(e))  # PyFlink's Java exception
            print(java.group(1) if java else type(e).__name__)

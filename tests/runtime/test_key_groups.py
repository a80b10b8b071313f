"""Keys on Flink's subtasks (``runtime.key_groups``): Spark's hash computed in Python agrees
with Spark's, and salted keys land on the subtasks PyFlink 2.3 gave them (recorded:
``tests/conformance/programs/keyed_subtask_assignment.py``)."""
import pickle

from pystream.runtime.java_hashes import bytes_hash, int32, string_hash
from pystream.runtime.key_groups import KeyPlacement, flink_subtask, spark_hash

NAMES = ["Alice", "Bob", "Carol", "Dave", "Eve", "Frank", "Grace", "Heidi", "x", "yy"]


def test_spark_hash_of_binary_values_is_sparks(spark):
    from pyspark.sql import functions as F

    samples = [bytes(range(n)) for n in range(12)] + [b"\xff\x80" * 5] + \
        [pickle.dumps(k, 5) for k in NAMES]
    df = spark.createDataFrame([(s,) for s in samples], "b binary")
    assert [r[0] for r in df.select(F.hash("b")).collect()] == [spark_hash(s) for s in samples]


def test_flink_subtasks_of_pickled_and_typed_keys_at_parallelism_2():
    # as PyFlink 2.3 placed them: a key Row hashes to 62 + its field's hash
    pickled = [flink_subtask(int32(62 + bytes_hash(pickle.dumps(k, 5))), 2, 128) for k in NAMES]
    typed = [flink_subtask(int32(62 + string_hash(k)), 2, 128) for k in NAMES]
    assert (pickled, typed) == ([0, 0, 1, 0, 1, 0, 0, 0, 0, 0], [0, 1, 1, 1, 1, 1, 0, 1, 0, 0])


def test_salted_keys_unpickle_to_the_key_and_hash_onto_the_subtask():
    placement = KeyPlacement(parallelism=2, max_parallelism=128, partitions=3)
    encoded = [pickle.dumps(k, 5) for k in NAMES]
    salted = placement.place(NAMES, encoded)
    assert ([pickle.loads(s) for s in salted], [spark_hash(s) % 3 for s in salted]) == (
        NAMES, [0, 0, 1, 0, 1, 0, 0, 0, 0, 0])

"""The Nexmark queries, as nexmark/nexmark writes them, give PyFlink 2.3's results.

Each query of ``bench/nexmark/queries`` runs in STREAMING mode over the suite's small seeded
event file (``tests/nexmark/events.py``) with its sinks printing (``bench/nexmark/job.py
--print``); PyFlink's output over the same file is recorded in ``expected/`` by
``tests/oracle/record_nexmark.py``. Projections and filters are compared line by line in
order; the others by their result: the rows their changelog leaves (+I/+U add a row, -U/-D
take one away), as a multiset, since the order of a window's rows or the steps of an
update differ between engines while the result may not. A query PyFlink refuses (q6 as
nexmark writes it: ``rownum`` is used in the WHERE of the SELECT that defines it) must be
refused with PyFlink's message. q23 is nexmark's with ``A.dateTime``, which PyFlink's parser
refuses (DATETIME is one of its keywords, not one of SQL's) and pystream reads as the field;
its rows are PyFlink's for ``A.`dateTime` ``. q6_corrected (q6 with its filter in an outer
query), which PyFlink refuses in STREAMING mode, is compared with PyFlink's rows in BATCH
mode.
"""
from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from bench.nexmark import job
from bench.nexmark.results import result_rows
from tests.nexmark.events import QUERIES, small_events

EXPECTED = Path(__file__).resolve().parent / "expected"
IN_ORDER = {"q0", "q1", "q2", "q14", "q21", "q22"}
# queries PyFlink prints as an upsert stream (+U without -U): how many leading fields key it
UPSERT_KEYS = {"q9": 1}

# query -> what pystream is missing to give PyFlink's result
NOT_YET: dict = {}


def selected():
    for query in QUERIES:
        marks = [pytest.mark.xfail(strict=True, reason=NOT_YET[query])] \
            if query in NOT_YET else []
        yield pytest.param(query, id=query, marks=marks)


@pytest.fixture(scope="module")
def events(tmp_path_factory):
    return small_events(tmp_path_factory.mktemp("nexmark"))


@pytest.mark.parametrize("query", list(selected()))
def test_query_gives_pyflinks_result(query, events):
    expected = (EXPECTED / ("%s.out" % query)).read_text()
    if expected.startswith("ERROR: "):
        with pytest.raises(Exception) as refused:
            job.run(query, str(events), printed=True)
        assert expected[len("ERROR: "):].strip() in str(refused.value)
        return
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        job.run(query, str(events), printed=True)
    if query in IN_ORDER:
        assert printed.getvalue().splitlines() == expected.splitlines()
    else:
        key_fields = UPSERT_KEYS.get(query, 0)
        got = result_rows(printed.getvalue(), key_fields)
        want = result_rows(expected, key_fields)
        missing, extra = want - got, got - want
        assert not missing and not extra, "%d rows missing, %d extra; first:\n-%s\n+%s" % (
            sum(missing.values()), sum(extra.values()),
            "\n-".join(r[:150] for r in sorted(missing.elements())[:5]),
            "\n+".join(r[:150] for r in sorted(extra.elements())[:5]))

from pyshell import render
from tests.shell.driver import plain


def test_table_has_one_column_per_field_and_right_aligns_numbers():
    text = render.table(["f0", "f1"], [(0, "a"), (12, "bb")], terminal=False)
    assert text.splitlines() == ["| f0 | f1 |", "|----|----|", "|  0 | a  |", "| 12 | bb |"]


def test_table_of_plain_values_is_one_value_column():
    text = render.table(["value"], [{"a": 1}, None], terminal=False)
    assert text.splitlines() == ["| value    |", "|----------|", "| {'a': 1} |", "| None     |"]


def test_a_terminal_gets_box_lines_and_bold_names():
    text = render.table(["f0"], [1], terminal=True)
    lines = plain(text).splitlines()
    assert (lines, "\x1b[1m" in text) == (
        ["╭────╮", "│ f0 │", "├────┤", "│  1 │", "╰────╯"], True)


def test_long_cells_are_cut():
    assert render.cell("x" * 50, limit=10) == "xxxxxxxxx…"


def test_footer_says_why_the_preview_stopped():
    lines = [render.footer(10, 14, "rows", 1.5, n=10),
             render.footer(3, 3, "timeout", 10.0, timeout=10),
             render.footer(1, 1, "idle", 7.25, idle=5),
             render.footer(0, 0, "interrupted", 75)]
    assert lines == ["10 rows shown, 14 seen · stopped: 10 rows reached · 1.50 s",
                     "3 rows shown · stopped: timeout (10 s) · 10.0 s",
                     "1 row shown · stopped: no new rows for 5 s · 7.25 s",
                     "0 rows shown · stopped: interrupted (Ctrl-C) · 1m 15s"]


def test_jobs_table():
    rows = [{"id": 1, "name": "clicks", "age": 65.0, "rows": 1200, "rate": 20.0,
             "status": "RUNNING (streaming)"},
            {"id": 3, "name": "q", "age": None, "rows": None, "rate": None, "status": "RUNNING"}]
    assert render.jobs_table(rows, terminal=False).splitlines() == [
        "| ID | NAME   | AGE    | ROWS | RATE   | STATUS              |",
        "|----|--------|--------|------|--------|---------------------|",
        "|  1 | clicks | 1m 05s | 1200 | 20.0/s | RUNNING (streaming) |",
        "|  3 | q      | -      | -    | -      | RUNNING             |",
    ]


def test_jobs_table_with_metrics():
    rows = [{"id": 2, "name": "j", "age": 3.0, "rows": None, "rate": None,
             "status": "FINISHED (batch)",
             "metrics": {"f.rows": 3, "f.events": {"count": 3, "rate": 0.05},
                         "f.sizes.len": {"count": 3, "sum": 6, "min": 1, "max": 3}}}]
    assert render.jobs_table(rows, terminal=False).splitlines()[4:] == [
        "| ID | METRIC      | VALUE                  |",
        "|----|-------------|------------------------|",
        "|  2 | f.events    | 3 (0.1/s)              |",
        "|  2 | f.rows      | 3                      |",
        "|  2 | f.sizes.len | n=3 mean=2 min=1 max=3 |",
    ]


def test_no_jobs():
    assert render.jobs_table([]) == "No running jobs."


def test_watch_frame_shows_rate_and_watermark():
    frame = render.watch_frame(["value"], [7, 8], 8, 2.0, "2024-01-01T00:00:05.000Z", 4.0,
                               terminal=False)
    assert frame.splitlines() == [
        "8 rows · 2.0 rows/s · watermark 2024-01-01T00:00:05.000Z · 4.00 s · Ctrl-C stops",
        "| value |", "|-------|", "|     7 |", "|     8 |"]


def test_watch_frame_of_a_table_view_says_what_it_shows():
    frame = render.watch_frame(["k", "n"], [("a", 2)], 3, None, None, 1.0, "1 keys (by key)",
                               terminal=False)
    assert frame.splitlines()[0] == "1 keys (by key) · 3 rows · - rows/s · 1.00 s · Ctrl-C stops"

"""docs/notebook.ipynb in a real Jupyter kernel (ipykernel, executed by nbclient): the magics
load, a preview and a %sql result are HTML tables holding their rows, %chart draws an image
that updates in place, and interrupting the kernel during %watch stops its query."""
from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[2] / "docs" / "notebook.ipynb"
INTERRUPT_AFTER = 12.0  # seconds of %watch (the session is warm by then)


def outputs_of(cell, kind: str) -> list:
    return [o["data"][kind] for o in cell.outputs
            if o.get("output_type") in ("display_data", "execute_result") and kind in o["data"]]


def text_of(cell) -> str:
    return "".join(o.get("text", "") for o in cell.outputs if o.get("output_type") == "stream")


def test_the_docs_notebook_runs_in_a_jupyter_kernel(tmp_path):
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = NotebookClient(notebook, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    with client.setup_kernel(env={**os.environ, "PYSTREAM_MASTER": "local[2]"}):
        for index, cell in enumerate(notebook.cells):
            if cell.cell_type != "code":
                continue
            timer = None
            if "interrupt" in cell.metadata.get("tags", []):
                pid = client.km.provisioner.pid
                timer = threading.Timer(INTERRUPT_AFTER, os.kill, args=(pid, signal.SIGINT))
                timer.start()
            try:
                client.execute_cell(cell, index)
            finally:
                if timer is not None:
                    timer.cancel()
    cells = [c for c in notebook.cells if c.cell_type == "code"]
    preview, sql_rows, chart, watch, active = (cells[1], cells[3], cells[4], cells[5], cells[6])
    html = "".join(outputs_of(preview, "text/html"))
    assert all("<td>%d</td>" % v in html for v in (10, 20, 30)), preview.outputs
    html = "".join(outputs_of(sql_rows, "text/html"))
    assert "<td>to</td><td>2</td>" in html and "<td>be</td><td>1</td>" in html, sql_rows.outputs
    assert "2 rows in set" in text_of(sql_rows)
    images = outputs_of(chart, "image/png")
    assert len(images) == 1 and "stopped: 9 rows reached" in text_of(chart), chart.outputs
    assert "interrupted" in text_of(watch), watch.outputs
    assert outputs_of(active, "text/plain") == ["[]"], active.outputs

"""docs/example.ipynb runs from top to bottom in a fresh kernel, and its drawings come out as SVG."""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOK = Path(__file__).resolve().parent.parent / "docs" / "example.ipynb"


def test_example_notebook_runs() -> None:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )
    client.execute()
    outputs = [
        output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs
    ]
    assert not [output for output in outputs if output.output_type == "error"]
    rich = [output.get("data", {}) for output in outputs if output.output_type == "execute_result"]
    assert (
        sum("image/svg+xml" in data for data in rich) >= 3
    )  # a board, a position, a finished game, mega
    assert (
        sum("text/html" in data for data in rich) >= 3
    )  # the count table, the solved board, analyses
    import oxo

    table = oxo.Board("3x3").count()
    texts = [data.get("text/plain", "") for data in rich]
    assert f"({table.total_positions}, {table.total_classes})" in texts

"""The README's Python quick start (examples/quick_start.py, the same lines) runs, and its results are
what its comments say."""

import os
import pathlib
import re
import runpy
import subprocess
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_readme_python_block_is_examples_quick_start_py():
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"```python\n(.*?)```", readme, re.S).group(1)
    assert block == (ROOT / "examples" / "quick_start.py").read_text()


def test_quick_start_runs_and_its_comments_hold(capsys):
    g = runpy.run_path(str(ROOT / "examples" / "quick_start.py"))
    x = g["x"]
    exact = np.cumsum(x, axis=1, dtype=np.float64)
    assert np.max(np.abs(g["y"] - exact) / exact) < 1e-6
    assert g["r"].shape == (1000, 1) and g["s"].shape == (4096,) and g["i"].shape == (1000,)
    np.testing.assert_array_equal(g["i"], np.argmax(x, axis=1))
    assert g["y"].dtype == g["z"].dtype == g["r"].dtype == np.float32
    assert g["z"][-1].tolist() == [1.0] * 4096  # exclusive and reversed: the last row is the empty product
    assert "compiles" in capsys.readouterr().out


def test_readme_one_liner():
    readme = (ROOT / "README.md").read_text()
    line = re.search(r'PYTHONPATH=build/dev/python /usr/bin/python3 -c "(.*)"', readme).group(1)
    out = subprocess.run([sys.executable, "-c", line], capture_output=True, text=True, check=True,
                         env=dict(os.environ), timeout=120).stdout
    assert out.strip() == "[ 0.  1.  3.  6. 10.]"

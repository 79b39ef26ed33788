"""tools/bench_python.py, the README's Python numbers, runs end to end (tiny sizes) and prints its table."""

import os
import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "tools" / "bench_python.py"


def test_bench_python_prints_its_table():
    out = subprocess.run([sys.executable, str(SCRIPT), "--elements", "65536", "--small", "256", "--repeat", "2"],
                         capture_output=True, text=True, env=dict(os.environ), check=True, timeout=300).stdout
    rows = [line for line in out.splitlines() if line.startswith("| ") and "---" not in line]
    assert rows[0].startswith("| case | vkdml ms")
    names = [r.split("|")[1].strip() for r in rows[1:7]]
    assert names == ["cumsum 256 float32: call overhead", "cumsum 65536 float32", "sum 65536 float32",
                     "cumsum 65536 float32, vkdml.Array", "sum 65536 float32, vkdml.Array",
                     "sum(cumsum) 65536 float32, vkdml.Array"]
    for r in rows[2:4]:
        vkdml_err = float(r.split("|")[6])
        assert vkdml_err < 1e-6  # the contract's float32 bound
    assert rows[7].startswith("| cumsum then sum, numpy arrays |")
    assert [r.split("|")[1].strip() for r in rows[8:]] == ["default cache", "unlimited cache"] * 2
    assert "(the sum of the cumsum: 0 host copies in 3 chains)" in out
    assert "Over these 12 repetitions: 0 compiles, 0 buffer allocations" in out

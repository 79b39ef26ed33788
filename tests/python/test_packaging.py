"""vkdml._load.load_native's errors, on scratch packages holding fake builds of the native module: another
interpreter's build is named as such, a missing build as missing, and a build this interpreter would load
keeps its own error. _load.py is loaded from the source tree, so no native module is needed."""

import importlib
import importlib.machinery
import importlib.util
import itertools
import pathlib
import platform
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]  # this interpreter's: .cpython-311-x86_64-linux-gnu.so
FOREIGN = "_native.cpython-39-x86_64-linux-gnu.so"
_counter = itertools.count()


def load_module():
    path = ROOT / "python" / "vkdml" / "_load.py"
    spec = importlib.util.spec_from_file_location("vkdml_load_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_load = load_module()


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A scratch package on sys.path (a new name each time, so that no import is cached): (folder, the
    dotted name of its _native module). Tests add the files."""
    name = f"vkdml_scratch_{next(_counter)}"
    folder = tmp_path / name
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield folder, name + "._native"
    for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        del sys.modules[module]


def load(folder, name):
    importlib.invalidate_caches()
    return _load.load_native(str(folder), name)


def this_interpreter():
    return f"{platform.python_implementation()} {platform.python_version()} ({sys.executable})"


def test_another_interpreters_build_is_named(package):
    folder, name = package
    if FOREIGN.endswith(SUFFIX):
        pytest.skip("this interpreter is the one the fake build names")
    (folder / FOREIGN).write_bytes(b"not an ELF file")
    with pytest.raises(ImportError) as raised:
        load(folder, name)
    message = str(raised.value)
    assert message.startswith("vkdml's native module was built for another Python interpreter: ")
    assert (f"{folder} holds _native.cpython-39-x86_64-linux-gnu.so (built for cpython-39-x86_64-linux-gnu), "
            f"but this interpreter is {this_interpreter()}, which loads _native{SUFFIX}. ") in message
    assert message.endswith(
        "Run vkdml with the interpreter it was built for, or build it for this one: "
        f"`{sys.executable} -m pip install --no-build-isolation .` from vkdml's source tree, or "
        f"CMake with -DPython3_EXECUTABLE={sys.executable}.")
    assert raised.value.name == name
    assert isinstance(raised.value.__cause__, ModuleNotFoundError)
    assert "partially initialized" not in message and "circular import" not in message


def test_every_foreign_build_is_listed(package):
    folder, name = package
    names = ["_native.cpython-38-x86_64-linux-gnu.so", FOREIGN, "_native_d.cp39-win_amd64.pyd"]
    if any(n.endswith(SUFFIX) for n in names):
        pytest.skip("this interpreter is one the fake builds name")
    not_builds = ["_native.txt", "native.cpython-310-x86_64-linux-gnu.so", "_native2.cpython-39.so"]
    for n in names + not_builds:
        (folder / n).write_bytes(b"")
    with pytest.raises(ImportError) as raised:
        load(folder, name)
    listed = (f"{folder} holds "
              "_native.cpython-38-x86_64-linux-gnu.so (built for cpython-38-x86_64-linux-gnu), "
              "_native.cpython-39-x86_64-linux-gnu.so (built for cpython-39-x86_64-linux-gnu), "
              "_native_d.cp39-win_amd64.pyd (built for cp39-win_amd64), but this interpreter is ")
    assert listed in str(raised.value)


def test_no_build_says_not_built(package):
    folder, name = package
    (folder / "_native.txt").write_text("")
    with pytest.raises(ImportError) as raised:
        load(folder, name)
    assert str(raised.value) == (
        f"vkdml's native module was not built: {folder} has no _native*.so or _native*.pyd. "
        f"Build it for this interpreter ({this_interpreter()}): "
        f"`{sys.executable} -m pip install --no-build-isolation .` from vkdml's source tree, or "
        "CMake with -DVKDML_BUILD_PYTHON=ON (the dev preset) and PYTHONPATH=<build>/python.")
    assert raised.value.name == name
    assert isinstance(raised.value.__cause__, ModuleNotFoundError)


def test_a_build_for_this_interpreter_keeps_its_own_error(package):
    folder, name = package
    broken = folder / ("_native" + SUFFIX)
    broken.write_bytes(b"not an ELF file")
    (folder / FOREIGN).write_bytes(b"")
    with pytest.raises(ImportError) as raised:
        load(folder, name)
    message = str(raised.value)
    assert str(broken) in message  # the dynamic loader's own words (Linux: "...: invalid ELF header")
    assert "vkdml's native module" not in message
    assert raised.value.__cause__ is None


def test_a_module_that_imports_is_returned(package):
    folder, name = package
    (folder / "_native.py").write_text("version = 'fake'\n")
    (folder / FOREIGN).write_bytes(b"")
    module = load(folder, name)
    assert module.version == "fake" and module is sys.modules[name]


def test_default_folder_is_the_package():
    with pytest.raises(ImportError) as raised:
        _load.load_native(name="vkdml_no_such_package._native")
    assert f"{ROOT / 'python' / 'vkdml'} h" in str(raised.value)  # has no / holds (an in-place build)


def test_setup_names_the_missing_wheel_package(tmp_path):
    """A wheel build on an interpreter without the 'wheel' package (and a setuptools older than 70.1, which
    has no bdist_wheel of its own) stops with one line naming the package and the interpreter."""
    code = (
        "import runpy, sys\n"
        "for name in ('wheel', 'wheel.bdist_wheel', 'setuptools.command.bdist_wheel'):\n"
        "    sys.modules[name] = None\n"
        "sys.argv = ['setup.py', 'bdist_wheel']\n"
        f"runpy.run_path({str(ROOT / 'setup.py')!r}, run_name='__main__')\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 1
    version = sys.version.split()[0]
    assert run.stderr == (
        f"setup.py: building a wheel needs the 'wheel' package in {sys.executable} (Python {version}), which "
        f"lacks it: install it there ({sys.executable} -m pip install wheel; Debian's python3-wheel for "
        "/usr/bin/python3), or let pip fetch it (leave out --no-build-isolation)\n"
    )

"""Imports the native half of the package, vkdml._native, with an error that says what is wrong.

An extension module is built for one interpreter ABI (its file name says which: _native.cpython-311-
x86_64-linux-gnu.so). Another interpreter does not see such a file as a module at all, and a bare
`from . import _native` then fails with a misleading "partially initialized module ... (most likely due
to a circular import)". load_native() names the interpreter the module was built for instead, and how to
build it for this one.
"""

import importlib
import importlib.machinery
import os
import platform
import sys


def _module_files(folder, stem):
    """The names of the files in folder that look like a build of the extension module stem (_native):
    stem.<tag>.so, stem.so, stem.<tag>.pyd, stem_d.<tag>.pyd (a Windows debug build), sorted."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return sorted(n for n in names
                  if n.startswith((stem + ".", stem + "_d.")) and n.endswith((".so", ".pyd")))


def _built_for(name):
    """The interpreter tag in a module file name: 'cpython-311-x86_64-linux-gnu' for
    _native.cpython-311-x86_64-linux-gnu.so, 'cp311-win_amd64' for _native.cp311-win_amd64.pyd, and
    'no interpreter tag' for a plain _native.so."""
    parts = name.split(".")
    return ".".join(parts[1:-1]) or "no interpreter tag"


def load_native(folder=None, name="vkdml._native"):
    """Imports and returns the module `name` (vkdml._native), whose files are in folder (default: this
    package's folder).

    On ImportError: if _native files are there but none is named _native plus one of this interpreter's
    extension suffixes (importlib.machinery.EXTENSION_SUFFIXES), raises ImportError naming the
    interpreters they were built for, this one, and how to rebuild; if there are none, raises ImportError
    saying the module was not built (both with the original error chained as __cause__); otherwise (a
    matching file that fails to load: a missing library, an undefined symbol) re-raises the original error.
    """
    folder = os.path.dirname(os.path.abspath(__file__)) if folder is None else folder
    try:
        return importlib.import_module(name)
    except ImportError as error:
        stem = name.rpartition(".")[2]
        files = _module_files(folder, stem)
        suffixes = importlib.machinery.EXTENSION_SUFFIXES
        if any(stem + suffix in files for suffix in suffixes):
            raise  # a file this interpreter would load, which failed: its own error says why
        this = f"{platform.python_implementation()} {platform.python_version()} ({sys.executable})"
        if files:
            built = ", ".join(f"{f} (built for {_built_for(f)})" for f in files)
            message = (
                f"vkdml's native module was built for another Python interpreter: {folder} holds {built}, "
                f"but this interpreter is {this}, which loads {stem}{suffixes[0]}. "
                "Run vkdml with the interpreter it was built for, or build it for this one: "
                f"`{sys.executable} -m pip install --no-build-isolation .` from vkdml's source tree, or "
                f"CMake with -DPython3_EXECUTABLE={sys.executable}."
            )
        else:
            message = (
                f"vkdml's native module was not built: {folder} has no {stem}*.so or {stem}*.pyd. "
                f"Build it for this interpreter ({this}): "
                f"`{sys.executable} -m pip install --no-build-isolation .` from vkdml's source tree, or "
                "CMake with -DVKDML_BUILD_PYTHON=ON (the dev preset) and PYTHONPATH=<build>/python."
            )
        raise ImportError(message, name=name) from error

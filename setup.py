"""Builds the vkdml Python package with pip (PEP 517, setuptools.build_meta; see pyproject.toml).

The pure-Python part is python/vkdml/*.py. Its native half, vkdml._native, is built by CMake (the target
vkdml_python of python/CMakeLists.txt) with the library linked in statically, so the extension needs no
libvkdml.so (volk opens the Vulkan loader, libvulkan.so.1, at run time). The CMake build folder,
build/pip/cmake-<interpreter tag>-<hash>, is kept between runs: a second `pip install` only rebuilds what
changed. Typical use, with Debian 12's pip, setuptools and wheel (no download):

    python3 -m venv --system-site-packages venv
    venv/bin/pip install --no-build-isolation .

Environment: CMAKE (the cmake program, default `cmake`), VKDML_CMAKE_ARGS (extra configure arguments,
split on spaces), CMAKE_BUILD_PARALLEL_LEVEL (jobs; default: the number of CPUs).
"""

import hashlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
BUILD_BASE = Path("build", "pip")  # setuptools' own build folders and the CMake build, relative to ROOT


def project_version():
    """The version of `project(vkdml VERSION x.y.z ...)` in the top CMakeLists.txt."""
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    match = re.search(r"project\(\s*vkdml\s+VERSION\s+(\d+\.\d+\.\d+)", text)
    if not match:
        raise RuntimeError("setup.py: no `project(vkdml VERSION x.y.z)` in CMakeLists.txt")
    return match.group(1)


def cmake_build_dir():
    """The CMake build folder for this interpreter: build/pip/cmake-<ABI tag>-<hash>, the tag from the
    extension suffix (cpython-311-x86_64-linux-gnu), the hash from the installation (sys.base_prefix,
    sys.version). Virtual environments of one interpreter share it; two installations of one Python
    version (Debian's and a pyenv one, say) do not, since CMake would keep the first one's headers."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    tag = suffix.strip(".").rsplit(".", 1)[0].replace(".", "-")
    identity = hashlib.sha256(f"{sys.base_prefix}\n{sys.version}".encode()).hexdigest()[:8]
    return ROOT / BUILD_BASE / f"cmake-{tag}-{identity}"


class CleanBuildPy(build_py):
    """build_py that first empties build/pip/lib.*/vkdml, which setuptools keeps between runs: a module
    removed from python/vkdml must not stay in the next wheel."""

    def run(self):
        shutil.rmtree(Path(self.build_lib, "vkdml"), ignore_errors=True)
        super().run()


class CMakeBuild(build_ext):
    """build_ext for the one extension vkdml._native: configures and builds it with CMake."""

    def build_extension(self, ext):
        build_dir = cmake_build_dir()
        self.configure(build_dir)
        cmake = os.environ.get("CMAKE", "cmake")
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(self.parallel or os.cpu_count() or 1)
        self.spawn([cmake, "--build", str(build_dir), "--target", "vkdml_python", "--parallel", jobs])

        # python/CMakeLists.txt puts the module in <build>/python/vkdml, named with pybind11's suffix,
        # which is this interpreter's EXT_SUFFIX: the name setuptools expects.
        target = Path(self.get_ext_fullpath(ext.name))
        built = build_dir / "python" / "vkdml" / target.name
        if not built.is_file():
            found = sorted(p.name for p in built.parent.glob("_native*"))
            raise RuntimeError(f"setup.py: CMake built {found}, not {target.name} (the interpreter's suffix)")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)

    def configure(self, build_dir):
        """Configures build_dir for this interpreter; a folder that no longer configures (another
        interpreter's, a moved source tree) is removed and configured afresh."""
        cmake = os.environ.get("CMAKE", "cmake")
        command = [
            cmake, "-S", str(ROOT), "-B", str(build_dir),
            "-DCMAKE_BUILD_TYPE=Release",
            "-DVKDML_BUILD_PYTHON=ON",
            "-DVKDML_BUILD_SHARED=OFF",  # linked into the extension: no libvkdml.so to find at run time
            "-DCMAKE_POSITION_INDEPENDENT_CODE=ON",
            "-DVKDML_BUILD_TESTS=OFF",
            "-DVKDML_BUILD_TOOLS=OFF",
            "-DVKDML_BUILD_EXAMPLES=OFF",
            "-DVKDML_BUILD_FUZZERS=OFF",
            "-DVKDML_INSTALL=OFF",
            "-DVKDML_WERROR=OFF",
            "-DPython3_EXECUTABLE=" + sys.executable,
        ] + os.environ.get("VKDML_CMAKE_ARGS", "").split()
        cache = build_dir / "CMakeCache.txt"
        if cache.exists():
            if subprocess.run(command, stdout=subprocess.DEVNULL).returncode == 0:
                return
            print(f"setup.py: {build_dir} does not configure again; configuring it afresh", file=sys.stderr)
            shutil.rmtree(build_dir)
        self.spawn(command)


def require_bdist_wheel():
    """pip's --no-build-isolation builds with this interpreter's own setuptools, whose bdist_wheel command
    comes from the 'wheel' package (setuptools 70.1 and later have their own). A pyenv or conda Python
    without it would fail with setuptools' bare "invalid command 'bdist_wheel'": name what is missing."""
    if "bdist_wheel" not in sys.argv[1:]:
        return
    for module in ("setuptools.command.bdist_wheel", "wheel.bdist_wheel"):
        try:
            __import__(module)
            return
        except ImportError:
            pass
    sys.exit(
        f"setup.py: building a wheel needs the 'wheel' package in {sys.executable} (Python "
        f"{sys.version.split()[0]}), which lacks it: install it there ({sys.executable} -m pip install wheel; "
        "Debian's python3-wheel for /usr/bin/python3), or let pip fetch it (leave out --no-build-isolation)"
    )


require_bdist_wheel()
(ROOT / BUILD_BASE).mkdir(parents=True, exist_ok=True)  # egg_info writes vkdml.egg-info there
setup(
    version=project_version(),
    package_dir={"": "python"},
    packages=["vkdml"],
    ext_modules=[Extension("vkdml._native", sources=[])],
    cmdclass={"build_py": CleanBuildPy, "build_ext": CMakeBuild},
    options={"build": {"build_base": str(BUILD_BASE)}, "egg_info": {"egg_base": str(BUILD_BASE)}},
)

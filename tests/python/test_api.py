"""The Python module's surroundings: devices, the operator cache, errors and threads."""

import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import vkdml
from vkdml import dml


def test_devices_lists_the_device_the_calls_use():
    devs = vkdml.devices()
    assert devs and all({"index", "name", "type", "driver", "api_version"} <= d.keys() for d in devs)
    usable = [d for d in devs if "error" not in d]
    assert usable and all(d["subgroup_size"] >= 1 and d["max_storage_buffer_range"] > 0 for d in usable)
    # Multiprocessors where the driver states them (NVIDIA, AMD); lavapipe does not.
    assert all(d["compute_units"] == 0 for d in usable if d["driver"] == "llvmpipe")
    # Subgroup sizes and full subgroups: lavapipe runs one size and can require full subgroups.
    assert all(d["min_subgroup_size"] <= d["subgroup_size"] <= d["max_subgroup_size"] for d in usable)
    assert all(d["full_subgroups"] and d["min_subgroup_size"] == d["max_subgroup_size"]
               for d in usable if d["driver"] == "llvmpipe")
    # Subnormals kept, per float width: Mesa 22.3's lavapipe states no DenormPreserve.
    assert all(set(d["subnormals_kept"]) == {"float16", "float32", "float64"} for d in usable)
    assert all(not any(d["subnormals_kept"].values()) for d in usable
               if d["driver"] == "llvmpipe" and d["driver_info"].startswith("Mesa 22."))
    dev = vkdml.Device(usable[0]["index"])
    assert dev.info["name"] == usable[0]["name"] and dev.name in repr(dev)
    # The policy rows it plans with: a CPU device's serial rows (lavapipe), a GPU's.
    expected_rows = {"serial-cpu"} if dev.info["type"] == "cpu" else {"cooperative-gpu", "serial-gpu"}
    assert dev.policy_rows in expected_rows
    assert vkdml.Device(usable[0]["name"].upper()[:6]).name == dev.name  # a case-insensitive substring
    x = np.arange(6, dtype=np.float32)
    np.testing.assert_array_equal(vkdml.cumsum(x, 0, device=dev), np.cumsum(x))
    np.testing.assert_array_equal(vkdml.cumsum(x, 0, device=str(usable[0]["index"])), np.cumsum(x))


def test_an_unknown_device_raises_no_device():
    with pytest.raises(vkdml.NoDevice) as e:
        vkdml.Device("no such device, surely")
    assert e.value.code == "no_device" and "no such device, surely" in e.value.message
    assert not isinstance(e.value, ValueError)


def test_no_vulkan_driver_lists_no_devices_and_raises_no_device():
    # In a child process: the loader looks for drivers when an instance is made.
    code = ("import vkdml\n"
            "assert vkdml.devices() == []\n"
            "try:\n"
            "    vkdml.Device('')\n"
            "except vkdml.NoDevice as e:\n"
            "    print(e.code, e.message)\n")
    env = dict(os.environ, VK_DRIVER_FILES="/nonexistent")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.startswith("no_device no Vulkan driver was found") and "mesa-vulkan-drivers" in out


def test_a_repeated_shape_compiles_once_and_allocates_nothing_more():
    dev = vkdml.Device("")
    dev.clear_cache()
    before = dev.cache_info()
    x = np.arange(1000, dtype=np.float32).reshape(10, 100)
    for _ in range(3):
        vkdml.cumsum(x, 1, device=dev)
    after = dev.cache_info()
    assert after["compiles"] - before["compiles"] == 1
    assert after["hits"] - before["hits"] == 2
    assert after["entries"] == 1
    vkdml.cumsum(x, 0, device=dev)  # another description: another operator
    vkdml.cumsum(x.T, 0, device=dev)  # other strides too
    dml.cumulative_sum(x, 1, exclusive=True, device=dev)  # DirectML's flags: another operator
    assert dev.cache_info()["compiles"] - before["compiles"] == 4
    assert vkdml.cache_info(dev) == dev.cache_info()


def test_the_cache_frees_its_least_recently_used_operators_past_its_limits():
    dev = vkdml.Device("")
    dev.clear_cache()
    try:
        heap = dev.info["host_visible_heap"]
        assert dev.cache_info()["max_bytes"] == min(max(256 << 20, heap // 2), 1 << 30)
        assert dev.cache_info()["max_entries"] == 64
        dev.set_cache_limits(max_entries=2)
        xs = [np.zeros((4, n), np.float32) for n in (10, 20, 30)]
        start = dev.cache_info()
        for x in xs:
            vkdml.cumsum(x, 1, device=dev)
        info = dev.cache_info()
        assert info["entries"] == 2 and info["evictions"] - start["evictions"] == 1
        vkdml.cumsum(xs[2], 1, device=dev)  # still cached
        vkdml.cumsum(xs[0], 1, device=dev)  # evicted first: compiled again
        info = dev.cache_info()
        assert info["compiles"] - start["compiles"] == 4 and info["hits"] - start["hits"] == 1
        vkdml.cumsum(xs[0], 1, device=dev)  # a shape seen: its buffers come from the pool
        again = dev.cache_info()
        assert again["allocations"] == info["allocations"] and again["reuses"] > info["reuses"]
        assert again["bytes"] > 0 and again["bytes_in_use"] == 0
        dev.set_cache_limits(max_entries=64, max_bytes=0)  # no idle buffer stays
        assert dev.cache_info()["bytes"] == 0 and dev.cache_info()["buffers"] == 0
        assert dev.cache_info()["entries"] == 2
        np.testing.assert_array_equal(vkdml.cumsum(xs[1], 1, device=dev), xs[1])
        assert dev.cache_info()["bytes"] == 0
        dev.set_cache_limits(max_entries=0)
        assert dev.cache_info()["entries"] == 0
        with pytest.raises(vkdml.InvalidArgument):
            dev.set_cache_limits(max_entries=-1)
        with pytest.raises(vkdml.InvalidArgument):
            dev.set_cache_limits(max_bytes=-1)
    finally:
        dev.set_cache_limits()


def test_buffers_come_from_size_classes_and_a_repeated_size_allocates_nothing():
    sizes = (1, 256, 257, 4000, 4096, 4097, 4608, 4609, 1 << 30, (1 << 30) + 1)
    assert [vkdml._native.buffer_size_class(n) for n in sizes] == [
        256, 256, 288, 4096, 4096, 4608, 4608, 5120, 1 << 30, (1 << 30) + (1 << 27)]
    dev = vkdml.Device("", shared=False)
    vkdml.sum(np.ones(1000, np.float32), device=dev)  # 4,000 bytes in: a buffer of 4,096
    first = dev.cache_info()
    assert first["allocations"] >= 2 and first["bytes"] >= 4096 + 256 and first["bytes_in_use"] == 0
    vkdml.sum(np.ones(1024, np.float32), device=dev)  # 4,096 bytes: the same buffers again
    second = dev.cache_info()
    assert second["allocations"] == first["allocations"] and second["reuses"] == first["allocations"]
    assert second["compiles"] == 2 and second["bytes"] == first["bytes"]


def test_out_of_device_memory_frees_the_idle_buffers_and_tries_again():
    own = vkdml.Device("", shared=False)
    vkdml.cumsum(np.ones(100, np.float32), 0, device=own)  # 400 bytes each way: two idle buffers of 416
    assert own.cache_info()["bytes"] == 2 * 416
    vkdml._native.testing_fail_vulkan_call(own._handle, "allocate_memory", "out_of_device_memory")
    np.testing.assert_array_equal(vkdml.cumsum(np.ones(1000, np.float32), 0, device=own), np.arange(1, 1001))
    info = own.cache_info()
    assert info["frees"] == 2 and info["bytes"] == 2 * 4096


def test_errors_carry_the_code_and_vkdml_message():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    cases = [
        (lambda: vkdml.cumsum(x, 2), vkdml.InvalidArgument, "axis 2 is out of range"),
        (lambda: vkdml.cumsum(x, -3), vkdml.InvalidArgument, "axis -3 is out of range"),
        (lambda: vkdml.sum(x, (1, -1)), vkdml.InvalidArgument, "repeat an axis"),
        (lambda: vkdml.argmax(x, -3), vkdml.InvalidArgument, "axis -3 is out of range"),
        (lambda: dml.reduce(x, "sum", (1, -1)), vkdml.InvalidArgument, "repeat an axis"),
        (lambda: dml.reduce(x, "median", 0), vkdml.InvalidArgument, "not one of argmax"),
        (lambda: dml.reduce(x.astype(np.int32), "l2", 0), vkdml.UnsupportedType, "L2"),
        (lambda: dml.argmax(x, 0, output_type="float32"), vkdml.UnsupportedType, "int32, int64"),
        (lambda: dml.cumulative_sum(x, 2), vkdml.InvalidArgument, "axis 2 is out of range"),
        (lambda: vkdml.cumsum(x.astype(np.complex64), 0), vkdml.UnsupportedType, "complex64"),
        (lambda: dml.cumulative_sum(x > 2, 0), vkdml.UnsupportedType, "bool"),  # numpy's cumsum takes bools
        (lambda: vkdml.cumsum(np.array(["a", "b"]), 0), vkdml.UnsupportedType, "<U1"),
        (lambda: vkdml.cumsum(np.zeros((1,) * 9, np.float32), 0), vkdml.InvalidDescriptor, "rule 2"),
    ]
    for call, kind, text in cases:
        with pytest.raises(kind) as e:
            call()
        assert isinstance(e.value, vkdml.Error) and isinstance(e.value, ValueError)
        assert e.value.code == {vkdml.InvalidArgument: "invalid_argument", vkdml.UnsupportedType: "unsupported_type",
                                vkdml.InvalidDescriptor: "invalid_descriptor"}[kind]
        assert text in str(e.value), str(e.value)
    # A non-integer axis is a TypeError, as in numpy (not a vkdml.Error).
    for call in (lambda: vkdml.cumsum(x, 1.0), lambda: vkdml.argmax(x, (0,)), lambda: dml.cumulative_sum(x, "1")):
        with pytest.raises(TypeError, match="not an integer") as e:
            call()
        assert not isinstance(e.value, vkdml.Error)


def test_threads_calling_at_once_get_their_own_results():
    rng = np.random.default_rng(11)
    arrays = [rng.integers(-100, 100, size=(64, 257)).astype(np.int32) for _ in range(8)]
    results = [None] * len(arrays)
    errors = []

    def work(i):
        try:
            for _ in range(5):
                got = dml.cumulative_sum(arrays[i], 1)  # every thread the same shape: one cached operator
                np.testing.assert_array_equal(got, np.cumsum(arrays[i], 1, dtype=np.int32))
                assert got.dtype == np.int32
                results[i] = vkdml.sum(arrays[i], axis=0)
        except Exception as e:  # noqa: BLE001 (reported below)
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(arrays))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for a, r in zip(arrays, results):
        np.testing.assert_array_equal(r, np.sum(a, axis=0))


def test_the_gil_is_released_while_the_device_works():
    # Another Python thread records timestamps while the main thread runs a long scan. Were the GIL held
    # during the native call, none could fall in the middle third of it (only just before it enters
    # native code, or in the switch interval after it returns).
    x = np.ones(1 << 25, dtype=np.float32)
    vkdml.cumsum(x, 0)  # compiled and cached first
    stamps = []
    done = threading.Event()

    def stamp():
        while not done.is_set():
            stamps.append(time.perf_counter())

    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    t = threading.Thread(target=stamp)
    t.start()
    try:
        time.sleep(0.01)
        begin = time.perf_counter()
        vkdml.cumsum(x, 0)
        end = time.perf_counter()
    finally:
        done.set()
        t.join()
        sys.setswitchinterval(interval)
    third = (end - begin) / 3
    assert end - begin > 0.01  # long enough to tell
    assert any(begin + third < s < end - third for s in stamps)


def test_version():
    assert vkdml.__version__.count(".") == 2


def test_concurrent_first_calls_on_one_shape_compile_once():
    dev = vkdml.Device("")
    dev.clear_cache()
    before = dev.cache_info()["compiles"]
    x = np.arange(3 * 517, dtype=np.float64).reshape(3, 517)
    barrier = threading.Barrier(8)
    out = []

    def work():
        barrier.wait()
        out.append(vkdml.cumsum(x, 1, device=dev))

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(out) == 8 and all(np.array_equal(o, np.cumsum(x, 1)) for o in out)
    assert dev.cache_info()["compiles"] - before == 1


def test_a_lost_device_refuses_work_and_a_new_one_is_opened():
    own = vkdml.Device("", shared=False)
    x = np.ones(16, np.float32)
    vkdml.cumsum(x, 0, device=own)
    vkdml._native.testing_fail_vulkan_call(own._handle, "queue_submit", "device_lost")
    for _ in range(2):  # lost for good
        with pytest.raises(vkdml.DeviceLost) as e:
            vkdml.cumsum(x, 0, device=own)
        assert e.value.code == "device_lost" and not isinstance(e.value, ValueError)
    assert own.lost
    # The shared handle of a lost device is dropped: the next call opens the device again.
    shared = vkdml.Device("")
    vkdml._native.testing_fail_vulkan_call(shared._handle, "queue_submit", "device_lost")
    with pytest.raises(vkdml.DeviceLost):
        vkdml.cumsum(x, 0)
    np.testing.assert_array_equal(vkdml.cumsum(x, 0), np.arange(1, 17, dtype=np.float32))
    assert not vkdml.Device("").lost and vkdml.Device("")._handle is not shared._handle


def test_out_of_device_memory_is_a_memory_error_and_keeps_no_buffer():
    own = vkdml.Device("", shared=False)
    vkdml._native.testing_fail_vulkan_call(own._handle, "allocate_memory", "out_of_device_memory")
    with pytest.raises(vkdml.OutOfMemory) as e:
        vkdml.cumsum(np.ones(8, np.float32), 0, device=own)
    assert isinstance(e.value, MemoryError) and e.value.code == "out_of_memory"
    info = own.cache_info()  # the operator compiled first and stays; no buffer was made
    assert info["compiles"] == 1 and info["allocations"] == 0 and info["bytes"] + info["bytes_in_use"] == 0
    np.testing.assert_array_equal(vkdml.cumsum(np.ones(8, np.float32), 0, device=own), np.arange(1, 9))


def test_selectors_of_one_device_share_its_cache():
    index = vkdml.default_device().info["index"]
    assert vkdml.Device(index)._handle is vkdml.Device("")._handle
    assert vkdml.Device("", shared=False)._handle is not vkdml.Device("")._handle


def test_reduced_shapes_come_from_the_native_builder():
    # dml.reduce's output shape is vkdml::ops::reduced_sizes' (size 1 on each reduced axis), sizes past
    # 2^32 - 1 (array parts only) kept, bad axes refused by the library.
    from vkdml._errors import _native
    assert _native.reduced_shape((2, 3, 4), [2, 0]) == (1, 3, 1)
    assert _native.reduced_shape((0, 5), [1]) == (0, 1)
    assert _native.reduced_shape((5, 2**33), [0]) == (1, 2**33)
    assert _native.reduced_shape((5, 2**33), [1]) == (5, 1)
    with pytest.raises(Exception, match="out of range"):
        _native.reduced_shape((2, 3), [2])
    assert dml.reduce(np.ones((2, 3, 4), np.float32), "sum", (0, 2)).shape == (1, 3, 1)

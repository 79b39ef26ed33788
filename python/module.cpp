// python/module.cpp — the native half of the Python module (`vkdml._native`): numpy arrays in and out
// of vkdml's HostExecution, with the compiled operator and its mapped buffers cached per device and
// operator description. The public API, its argument checks and numpy's conventions are in
// python/vkdml/__init__.py.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <vkdml/ops.hpp>
#include <vkdml/testing.hpp>
#include <vkdml/version.hpp>
#include <vkdml/vkdml.hpp>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace py = pybind11;

namespace {

/// A vkdml error on its way to Python: __init__.py turns it into the vkdml.Error subclass of its code.
struct NativeError {
    std::string code, message;
};

[[noreturn]] void raise(const vkdml::Error& e) {
    throw NativeError{vkdml::to_string(e.code), e.message};
}
[[noreturn]] void raise(const char* code, std::string message) {
    throw NativeError{code, std::move(message)};
}

std::string dtype_name(const py::dtype& dt) {
    return py::str(static_cast<const py::handle&>(dt)).cast<std::string>();
}

/// The DirectML type of a numpy dtype of native byte order, else NativeError unsupported_type.
DML_TENSOR_DATA_TYPE dml_type(const py::dtype& dt) {
    const char order = dt.attr("byteorder").cast<std::string>()[0];
    if (order == '>')
        raise("unsupported_type",
              "byte-swapped dtype " + dtype_name(dt) + ": vkdml reads native (little-endian) data only");
    const char kind = dt.kind();
    const auto size = dt.itemsize();
    for (const vkdml::TypeInfo& row : vkdml::kTypeInfo)
        if (row.numpy_kind == kind && row.size == static_cast<uint32_t>(size)) return row.type;
    raise("unsupported_type",
          "dtype " + dtype_name(dt) +
              " is not one of vkdml's 11 types (float16/32/64, int8/16/32/64, uint8/16/32/64)");
}

/// One cached operator: compiled, its buffers allocated and mapped, its command buffer recorded. Used by
/// one call at a time (its mutex).
struct Entry {
    std::mutex mutex;
    std::unique_ptr<vkdml::HostExecution> exec;
    std::atomic<uint64_t> bytes{0};  ///< of its input and output buffers, once compiled
    uint64_t last_used = 0;          ///< DeviceHandle::clock at its last call (under the handle's mutex)
};

/// A device and its cache of operators, keyed by the operator's full description.
/// Past either limit, the least recently used entries not in use are freed after a call.
struct DeviceHandle {
    std::shared_ptr<vkdml::Device> device;
    std::mutex mutex;  // guards everything below
    std::map<std::string, std::shared_ptr<Entry>> entries;
    uint64_t compiles = 0, hits = 0, evictions = 0, clock = 0;
    uint64_t max_entries = 64, max_bytes = uint64_t(256) << 20;  // __init__.py's defaults

    uint64_t bytes() const {
        uint64_t total = 0;
        for (const auto& [key, e] : entries) total += e->bytes.load();
        return total;
    }
    /// Frees least recently used entries that no call holds until both limits are kept (or none is left
    /// to free). Under `mutex`.
    void evict() {
        while (entries.size() > max_entries || bytes() > max_bytes) {
            auto victim = entries.end();
            for (auto it = entries.begin(); it != entries.end(); ++it)
                if (it->second.use_count() == 1 &&
                    (victim == entries.end() || it->second->last_used < victim->second->last_used))
                    victim = it;
            if (victim == entries.end()) return;
            entries.erase(victim);
            ++evictions;
        }
    }
};

std::shared_ptr<DeviceHandle> open_device(const std::string& selector) {
    vkdml::DeviceOptions options;
    options.selector = selector;
    auto device = vkdml::Device::create(options);
    if (!device) raise(device.error());
    auto handle = std::make_shared<DeviceHandle>();
    handle->device = *device;
    return handle;
}

/// What one call runs: the operator built by vkdml::ops (its description and inferred output) and the
/// cache key.
struct Call {
    std::optional<vkdml::ops::Operation> op;
    vkdml::OperatorOptions options;
    std::string key;
};

/// The built operation of a builder's result, else NativeError.
vkdml::ops::Operation built(vkdml::Result<vkdml::ops::Operation> r) {
    if (!r) raise(r.error());
    return std::move(r).value();
}

/// Bytes of `a` from its first element to the end of its last (what its strides reach).
size_t reach_bytes(const py::array& a) {
    size_t last = 0;
    for (py::ssize_t i = 0; i < a.ndim(); ++i)
        if (a.shape(i) > 1) last += static_cast<size_t>(a.shape(i) - 1) * static_cast<size_t>(a.strides(i));
    return last + static_cast<size_t>(a.itemsize());
}

/// Whether `a` must be copied before vkdml can read it through its strides, which count elements, not
/// bytes, and are not negative (broadcasts, stride 0, are read as they are).
bool needs_copy(const py::array& a) {
    for (py::ssize_t i = 0; i < a.ndim(); ++i) {
        if (a.shape(i) <= 1) continue;
        const py::ssize_t s = a.strides(i);
        if (s < 0 || s % a.itemsize() != 0 || s / a.itemsize() > 0xFFFFFFFFll) return true;
    }
    // A sparse view (a column of a wide array) would upload everything between its elements.
    if (reach_bytes(a) > 2 * static_cast<size_t>(a.nbytes()) + 64) return true;
    return reinterpret_cast<uintptr_t>(a.data()) % static_cast<uintptr_t>(a.itemsize()) != 0;
}

std::vector<uint32_t> sizes_of(const py::array& a) {
    std::vector<uint32_t> sizes;
    for (py::ssize_t i = 0; i < a.ndim(); ++i) {
        if (a.shape(i) > 0xFFFFFFFFll)
            raise("invalid_argument", "axis " + std::to_string(i) + " has " + std::to_string(a.shape(i)) +
                                          " elements, more than 2^32 - 1");
        sizes.push_back(static_cast<uint32_t>(a.shape(i)));
    }
    return sizes;
}

vkdml::ops::TensorDesc input_tensor(const py::array& a) {
    std::vector<uint32_t> strides;
    for (py::ssize_t i = 0; i < a.ndim(); ++i)
        strides.push_back(a.shape(i) <= 1 ? 0u : static_cast<uint32_t>(a.strides(i) / a.itemsize()));
    return {dml_type(a.dtype()), sizes_of(a), std::move(strides), 0};
}

std::string join(std::span<const uint32_t> v) {
    std::string s;
    for (uint32_t x : v) s += std::to_string(x) + ",";
    return s;
}

std::string tensor_key(const vkdml::ops::TensorDesc& t) {
    return std::to_string(t.data_type) + "[" + join(t.sizes) + "/" + join(t.strides) + "]";
}

/// Under the entry's mutex, without the GIL: compiles the entry's operator if it has none, copies the
/// input in, runs it and copies the output out.
void run_entry(const vkdml::Device& device, const Call& call, Entry& entry, const std::byte* src,
               size_t src_bytes, std::byte* dst, size_t dst_bytes, std::optional<vkdml::Error>& failure,
               bool& compiled) {
    if (!entry.exec) {
        auto exec =
            vkdml::HostExecution::create(device, call.op->desc(), DML_EXECUTION_FLAG_NONE, call.options);
        if (!exec) {
            failure = exec.error();
            return;
        }
        entry.exec = std::make_unique<vkdml::HostExecution>(std::move(*exec));
        entry.bytes = entry.exec->input(0).size() + entry.exec->output(0).size();
        compiled = true;
    }
    const std::span<std::byte> in = entry.exec->input(0);
    const size_t n = std::min(in.size(), src_bytes);
    std::memcpy(in.data(), src, n);
    if (n < in.size()) std::memset(in.data() + n, 0, in.size() - n);
    if (auto st = entry.exec->run(); !st) {
        failure = st.error();
        return;
    }
    const std::span<std::byte> result = entry.exec->output(0);
    std::memcpy(dst, result.data(), std::min(result.size(), dst_bytes));
}

/// Runs `call` on `a` through the cached HostExecution of its description and returns a new array of
/// `out_dtype` and the output tensor's sizes. The GIL is released while the data moves and the device
/// works.
py::array run(DeviceHandle& h, Call& call, const py::array& a, const py::dtype& out_dtype) {
    std::shared_ptr<Entry> entry;
    {
        std::lock_guard<std::mutex> lock(h.mutex);
        auto& slot = h.entries[call.key];
        if (!slot) slot = std::make_shared<Entry>();
        slot->last_used = ++h.clock;
        entry = slot;
    }
    const std::vector<uint32_t>& sizes = call.op->output().sizes;
    std::vector<py::ssize_t> shape(sizes.begin(), sizes.end());
    py::array out(out_dtype, shape);
    const auto* src = static_cast<const std::byte*>(a.data());
    const size_t src_bytes = reach_bytes(a);
    auto* dst = static_cast<std::byte*>(out.mutable_data());
    const auto dst_bytes = static_cast<size_t>(out.nbytes());
    std::optional<vkdml::Error> failure;
    bool compiled = false, cached = false;
    {
        py::gil_scoped_release release;
        std::lock_guard<std::mutex> lock(entry->mutex);
        try {
            run_entry(*h.device, call, *entry, src, src_bytes, dst, dst_bytes, failure, compiled);
        } catch (const std::bad_alloc&) {
            failure = vkdml::Error{vkdml::ErrorCode::out_of_memory,
                                   "out of host memory for the operator's buffers"};
        }
        cached = entry->exec != nullptr;
    }
    {
        std::lock_guard<std::mutex> lock(h.mutex);
        if (compiled)
            ++h.compiles;
        else if (!failure)
            ++h.hits;
        if (!cached) {  // nothing cached for a refused one
            auto it = h.entries.find(call.key);
            if (it != h.entries.end() && it->second == entry) h.entries.erase(it);
        }
        entry.reset();
        h.evict();
    }
    if (failure) raise(*failure);
    return out;
}

py::array prepared(py::array a) {
    if (a.ndim() == 0) raise("invalid_argument", "a 0-d array has no axes (reshape it to (1,))");
    if (needs_copy(a)) a = py::module_::import("numpy").attr("ascontiguousarray")(a);
    return a;
}

py::array cumulative(DeviceHandle& h, py::array a, uint32_t axis, bool product, bool exclusive,
                     bool reverse) {
    a = prepared(a);
    const vkdml::ops::TensorDesc in = input_tensor(a);
    const DML_AXIS_DIRECTION dir = reverse ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING;
    Call c;
    c.op = built(product ? vkdml::ops::cumulative_product(in, axis, dir, exclusive)
                         : vkdml::ops::cumulative_sum(in, axis, dir, exclusive));
    c.key = std::string(product ? "cumprod " : "cumsum ") + tensor_key(in) + " axis " + std::to_string(axis) +
            (exclusive ? " exclusive" : "") + (reverse ? " reverse" : "");
    return run(h, c, a, a.dtype());
}

/// REDUCE with `function`, or (function < 0) ARGMAX (-1) / ARGMIN (-2); output keeps the rank. nan_ignore:
/// vkdml::NanMode::ignore.
py::array reduction(DeviceHandle& h, py::array a, int function, std::vector<uint32_t> axes,
                    py::dtype out_dtype, bool select_last, bool nan_ignore) {
    a = prepared(a);
    const vkdml::ops::TensorDesc in = input_tensor(a);
    const DML_TENSOR_DATA_TYPE out_type = dml_type(out_dtype);
    const DML_AXIS_DIRECTION dir =
        select_last ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING;
    Call c;
    c.op = built(function >= 0
                     ? vkdml::ops::reduce(in, static_cast<DML_REDUCE_FUNCTION>(function), axes, out_type)
                 : function == -1 ? vkdml::ops::argmax(in, axes, dir, out_type)
                                  : vkdml::ops::argmin(in, axes, dir, out_type));
    c.key = "reduce " + std::to_string(function) + " " + tensor_key(in) + " -> " +
            std::to_string(c.op->output().data_type) + "[" + join(c.op->output().sizes) + "]" + " axes " +
            join(axes) + (select_last ? " last" : "") + (nan_ignore ? " nan-ignore" : "");
    c.options.nan_mode = nan_ignore ? vkdml::NanMode::ignore : vkdml::NanMode::propagate;
    return run(h, c, a, out_dtype);
}

/// The shape a reduction over `axes` gives an array of `shape` (vkdml::ops::reduced_sizes: size 1 on each
/// reduced axis). Sizes past 2^32 - 1, which no tensor has but an array split into parts may, are judged as
/// 2^32 - 1 and kept as they are.
py::tuple reduced_shape(const std::vector<uint64_t>& shape, const std::vector<uint32_t>& axes) {
    std::vector<uint32_t> sizes;
    for (uint64_t n : shape) sizes.push_back(static_cast<uint32_t>(std::min<uint64_t>(n, 0xFFFFFFFF)));
    auto reduced = vkdml::ops::reduced_sizes(sizes, axes);
    if (!reduced) raise(reduced.error());
    py::tuple out(shape.size());
    for (size_t i = 0; i < shape.size(); ++i) out[i] = (*reduced)[i] == sizes[i] ? shape[i] : (*reduced)[i];
    return out;
}

py::dict device_dict(const vkdml::PhysicalDeviceInfo& p) {
    static const std::map<VkPhysicalDeviceType, const char*> types = {
        {VK_PHYSICAL_DEVICE_TYPE_OTHER, "other"},
        {VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU, "integrated"},
        {VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, "discrete"},
        {VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU, "virtual"},
        {VK_PHYSICAL_DEVICE_TYPE_CPU, "cpu"}};
    py::dict d;
    d["index"] = p.index;
    d["name"] = p.name;
    auto t = types.find(p.type);
    d["type"] = t == types.end() ? "other" : t->second;
    d["api_version"] = std::to_string(VK_API_VERSION_MAJOR(p.api_version)) + "." +
                       std::to_string(VK_API_VERSION_MINOR(p.api_version)) + "." +
                       std::to_string(VK_API_VERSION_PATCH(p.api_version));
    d["driver"] = p.driver_name;
    d["driver_info"] = p.driver_info;
    return d;
}

py::dict info_dict(const vkdml::DeviceInfo& i) {
    py::dict d = device_dict(i.physical);
    d["subgroup_size"] = i.subgroup_size;
    d["min_subgroup_size"] = i.min_subgroup_size;
    d["max_subgroup_size"] = i.max_subgroup_size;
    d["full_subgroups"] = i.full_subgroups;
    d["compute_units"] = i.compute_units;
    d["max_storage_buffer_range"] = i.max_storage_buffer_range;
    d["max_workgroup_invocations"] = i.max_workgroup_invocations;
    d["max_memory_allocation_size"] = i.max_memory_allocation_size;
    d["max_buffer_size"] = i.max_buffer_size;
    d["host_visible_heap"] = i.host_visible_heap;
    d["float64"] = i.shader_float64;
    d["int64"] = i.shader_int64;
    d["int8"] = i.storage_buffer_8bit;
    d["float16"] = i.storage_buffer_16bit;
    py::dict kept;  // float widths whose subnormals every kernel keeps (DeviceInfo::denorm_preserve_*)
    kept["float16"] = i.denorm_preserve_float16;
    kept["float32"] = i.denorm_preserve_float32;
    kept["float64"] = i.denorm_preserve_float64;
    d["subnormals_kept"] = kept;
    return d;
}

}  // namespace

PYBIND11_MODULE(_native, m) {
    m.doc() = "vkdml's native half; use the vkdml package.";
    static py::exception<NativeError> native_error(m, "NativeError");
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const NativeError& e) {
            py::object error = py::reinterpret_borrow<py::object>(native_error.ptr())(e.code, e.message);
            PyErr_SetObject(native_error.ptr(), error.ptr());
        }
    });

    py::class_<DeviceHandle, std::shared_ptr<DeviceHandle>>(m, "DeviceHandle")
        .def_property_readonly("info", [](const DeviceHandle& h) { return info_dict(h.device->info()); })
        .def_property_readonly("index", [](const DeviceHandle& h) { return h.device->info().physical.index; })
        .def_property_readonly("lost", [](const DeviceHandle& h) { return h.device->is_lost(); })
        .def("cache_info",
             [](DeviceHandle& h) {
                 std::lock_guard<std::mutex> lock(h.mutex);
                 py::dict d;
                 d["compiles"] = h.compiles;
                 d["hits"] = h.hits;
                 d["entries"] = h.entries.size();
                 d["bytes"] = h.bytes();
                 d["evictions"] = h.evictions;
                 d["max_entries"] = h.max_entries;
                 d["max_bytes"] = h.max_bytes;
                 return d;
             })
        .def("set_cache_limits",
             [](DeviceHandle& h, uint64_t max_entries, uint64_t max_bytes) {
                 std::lock_guard<std::mutex> lock(h.mutex);
                 h.max_entries = max_entries;
                 h.max_bytes = max_bytes;
                 h.evict();
             })
        .def("clear_cache", [](DeviceHandle& h) {
            std::lock_guard<std::mutex> lock(h.mutex);
            h.entries.clear();
        });
    m.def("open_device", &open_device, py::arg("selector"));
#ifdef VKDML_TESTING_HOOKS
    // Tests only: make the next `call` of a device fail with `result` (vkdml/testing.hpp).
    m.def("testing_fail_vulkan_call", [](DeviceHandle& h, const std::string& call,
                                         const std::string& result) {
        static const std::map<std::string, vkdml::testing::VulkanCall> calls = {
            {"create_buffer", vkdml::testing::VulkanCall::create_buffer},
            {"allocate_memory", vkdml::testing::VulkanCall::allocate_memory},
            {"queue_submit", vkdml::testing::VulkanCall::queue_submit}};
        static const std::map<std::string, VkResult> results = {
            {"device_lost", VK_ERROR_DEVICE_LOST}, {"out_of_device_memory", VK_ERROR_OUT_OF_DEVICE_MEMORY}};
        if (!calls.count(call) || !results.count(result)) raise("invalid_argument", "unknown call or result");
        vkdml::testing::fail_vulkan_call(*h.device, calls.at(call), results.at(result));
    });
#endif
    // The type table's NumPy names (vkdml::kTypeInfo): every type, and those an arg function may output.
    py::list type_names, index_types;
    for (const vkdml::TypeInfo& row : vkdml::kTypeInfo) {
        type_names.append(row.numpy_name);
        if (row.index_output) index_types.append(row.numpy_name);
    }
    m.attr("type_names") = py::tuple(type_names);
    m.attr("index_types") = py::tuple(index_types);
    py::list operators;  // the operator table (vkdml::operators()): (DirectML name, value, vkdml.dml name)
    for (const vkdml::OperatorInfo& op : vkdml::operators())
        operators.append(py::make_tuple(op.name, static_cast<int>(op.type), op.python));
    m.attr("operators") = py::tuple(operators);
    m.def("enumerate", [] {
        auto list = vkdml::Device::enumerate();
        if (!list) raise(list.error());
        py::list out;
        for (const auto& p : *list) out.append(device_dict(p));
        return out;
    });
    m.def("cumulative", &cumulative);
    m.def("reduction", &reduction);
    m.def("reduced_shape", &reduced_shape, py::arg("shape"), py::arg("axes"));
    m.attr("version") = VKDML_VERSION_STRING;
}

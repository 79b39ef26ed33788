// python/module.cpp — the native half of the Python module (`vkdml._native`): numpy arrays in and out
// of vkdml's HostExecution, with the compiled operator and its mapped buffers cached per device and
// operator description. The public API, its argument checks and numpy's conventions are in
// python/vkdml/__init__.py.
#include <dlpack/dlpack.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "native/device_cache.hpp"

#include <vkdml/ops.hpp>
#include <vkdml/testing.hpp>
#include <vkdml/version.hpp>
#include <vkdml/vkdml.hpp>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
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

using vkdml_python::DeviceHandle;
using vkdml_python::Lease;
using vkdml_python::Pending;

/// Copies between the host and device buffers (each direction of each call counts one; a numpy view of an
/// Array counts one, though it copies nothing): what the tests read to prove that a chain of calls on
/// Arrays stays on the device.
std::atomic<uint64_t> host_transfers{0};

/// The handle of a created device, or its error raised.
std::shared_ptr<DeviceHandle> handle_of(vkdml::Result<std::shared_ptr<vkdml::Device>> device) {
    if (!device) raise(device.error());
    return std::make_shared<DeviceHandle>(*device);
}

std::shared_ptr<DeviceHandle> open_device(const std::string& selector) {
    vkdml::DeviceOptions options;
    options.selector = selector;
    return handle_of(vkdml::Device::create(options));
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

/// The value of `r`, else NativeError.
template <class T>
T value_of(vkdml::Result<T> r) {
    if (!r) raise(r.error());
    return std::move(r).value();
}

/// Runs `work` with the GIL released (it must touch no Python object), then raises its error, if any, as
/// NativeError; host memory running out is out_of_memory.
void without_gil(const std::function<vkdml::Status()>& work) {
    std::optional<vkdml::Error> failure;
    {
        py::gil_scoped_release release;
        try {
            if (auto st = work(); !st) failure = st.error();
        } catch (const std::bad_alloc&) {
            failure = vkdml::Error{vkdml::ErrorCode::out_of_memory,
                                   "out of host memory for the operator's buffers"};
        }
    }
    if (failure) raise(*failure);
}

/// `call`'s operator from the device's cache (compiled on a miss).
vkdml::Result<vkdml::CompiledOperator> compiled_for(DeviceHandle& h, const Call& call) {
    return h.compiled(call.key, [&]() -> vkdml::Result<vkdml::CompiledOperator> {
        auto op = h.device()->create_operator(call.op->desc(), call.options);
        if (!op) return op.error();
        return h.device()->compile_operator(*op);
    });
}

/// Submits `compiled` from `in` to `outs` (leases of the pool, one per output) with a temporary buffer of
/// the pool, and registers the submission with each buffer it uses. No GIL needed.
vkdml::Result<std::shared_ptr<Pending>> submit_on(DeviceHandle& h, const vkdml::CompiledOperator& compiled,
                                                  const Lease& in, std::span<const Lease* const> outs) {
    const uint64_t temp_bytes = compiled.binding_properties().TemporaryResourceSize;
    std::shared_ptr<Lease> temp;
    if (temp_bytes > 0) {
        auto t = h.lend(temp_bytes);
        if (!t) return t.error();
        temp = *t;
    }
    std::vector<vkdml::MappedBuffer> out_buffers;
    for (const Lease* out : outs) out_buffers.push_back(out->buffer());
    auto s = vkdml::submit(compiled, std::span(&in.buffer(), 1), out_buffers,
                           temp ? temp->buffer() : vkdml::MappedBuffer());
    if (!s) return s.error();
    auto pending = std::make_shared<Pending>(std::move(*s));
    in.slot().add_user(pending);
    for (const Lease* out : outs)
        if (out != &in) out->slot().add_user(pending);
    if (temp) temp->slot().add_user(pending);
    return pending;
}

/// Calls whose arrays the pool could not hold, run through vkdml::execute (run_through_execute), for the
/// tests.
std::atomic<uint64_t> execute_runs{0};

/// The bytes one pooled buffer may take: one allocation and a third of the host-visible heap (the input,
/// the output and a temporary buffer are held at once).
uint64_t pool_limit(DeviceHandle& h) {
    const vkdml::DeviceInfo& info = h.device()->info();
    return std::min({info.max_memory_allocation_size, info.max_buffer_size, info.host_visible_heap / 3});
}

/// One output array of a call: where its bytes go, how many the array holds, and its tensor's
/// TotalTensorSizeInBytes.
struct OutputArray {
    std::byte* data;
    size_t bytes;
    uint64_t tensor_bytes;
};

/// The operation's output tensors' byte counts: the values, then a selection's indices.
std::vector<uint64_t> output_tensor_bytes(const Call& call) {
    std::vector<uint64_t> bytes = {call.op->output_bytes()};
    if (call.op->index_output()) bytes.push_back(call.op->index_output_bytes());
    return bytes;
}

/// `call` on arrays the pool cannot hold: vkdml::execute runs it on the host memory itself (in windows
/// or in parts where one buffer per tensor does not fit the device). Arrays shorter than their tensors (the
/// last element of a byte or 16-bit type rounded up to 4 bytes) go through a copy of that length. No GIL
/// needed.
vkdml::Status run_through_execute(DeviceHandle& h, const Call& call, const std::byte* src, size_t src_bytes,
                                  std::span<const OutputArray> outs) {
    std::vector<std::byte> in_copy;
    std::vector<std::vector<std::byte>> out_copies(outs.size());
    std::span<const std::byte> in(src, src_bytes);
    if (src_bytes < call.op->input_bytes()) {
        in_copy.assign(call.op->input_bytes(), std::byte{0});
        std::memcpy(in_copy.data(), src, src_bytes);
        in = in_copy;
    }
    std::vector<std::span<std::byte>> outputs;
    for (size_t i = 0; i < outs.size(); ++i) {
        if (outs[i].bytes < outs[i].tensor_bytes) {
            out_copies[i].assign(outs[i].tensor_bytes, std::byte{0});
            outputs.emplace_back(out_copies[i]);
        } else {
            outputs.emplace_back(outs[i].data, outs[i].bytes);
        }
    }
    const std::span<const std::byte> inputs[] = {in};
    ++host_transfers;
    if (auto st = vkdml::execute(*h.device(), call.op->desc(), inputs, outputs, DML_EXECUTION_FLAG_NONE,
                                 call.options);
        !st)
        return st;
    ++host_transfers;
    ++execute_runs;
    for (size_t i = 0; i < outs.size(); ++i)
        if (!out_copies[i].empty()) std::memcpy(outs[i].data, out_copies[i].data(), outs[i].bytes);
    return {};
}

/// Runs `call` on `a` with buffers of the pool: copies the input in, submits, waits, and copies each
/// result into a new array of its dtype (`out_dtypes`, one per output) and the output tensor's sizes. An
/// array the pool cannot hold runs through vkdml::execute (run_through_execute). The GIL is released while
/// the data moves and the device works.
std::vector<py::array> run_outputs(DeviceHandle& h, const Call& call, const py::array& a,
                                   const std::vector<py::dtype>& out_dtypes) {
    const std::vector<uint32_t>& sizes = call.op->output().sizes;
    const std::vector<py::ssize_t> shape(sizes.begin(), sizes.end());
    const std::vector<uint64_t> tensor_bytes = output_tensor_bytes(call);
    std::vector<py::array> results;
    std::vector<OutputArray> outs;
    for (size_t i = 0; i < out_dtypes.size(); ++i) {
        results.emplace_back(out_dtypes[i], shape);
        outs.push_back({static_cast<std::byte*>(results.back().mutable_data()),
                        static_cast<size_t>(results.back().nbytes()), tensor_bytes[i]});
    }
    const auto* src = static_cast<const std::byte*>(a.data());
    const size_t src_bytes = reach_bytes(a);
    without_gil([&]() -> vkdml::Status {
        const uint64_t limit = pool_limit(h);
        const bool too_large =
            call.op->input_bytes() > limit || std::any_of(tensor_bytes.begin(), tensor_bytes.end(),
                                                          [&](uint64_t bytes) { return bytes > limit; });
        if (too_large) return run_through_execute(h, call, src, src_bytes, outs);
        auto compiled = compiled_for(h, call);
        if (!compiled) return compiled.error();
        if (compiled->binding_properties().TemporaryResourceSize > limit)
            return run_through_execute(h, call, src, src_bytes, outs);
        auto in = h.lend(call.op->input_bytes());
        if (!in) return in.error();
        std::vector<std::shared_ptr<Lease>> leases;
        for (uint64_t bytes : tensor_bytes) {
            auto lease = h.lend(bytes);
            if (!lease) return lease.error();
            leases.push_back(*lease);
        }
        const std::span<std::byte> in_bytes = (*in)->buffer().data();
        const size_t n = std::min<size_t>(call.op->input_bytes(), src_bytes);
        std::memcpy(in_bytes.data(), src, n);
        ++host_transfers;
        if (n < call.op->input_bytes()) std::memset(in_bytes.data() + n, 0, call.op->input_bytes() - n);
        std::vector<const Lease*> out_leases;
        for (const auto& lease : leases) out_leases.push_back(lease.get());
        auto pending = submit_on(h, *compiled, **in, out_leases);
        if (!pending) return pending.error();
        if (auto st = (*pending)->wait(); !st) return st;
        for (size_t i = 0; i < outs.size(); ++i)
            std::memcpy(outs[i].data, leases[i]->buffer().data().data(),
                        std::min<size_t>(tensor_bytes[i], outs[i].bytes));
        ++host_transfers;
        return {};
    });
    return results;
}

/// run_outputs() of a call with one output.
py::array run(DeviceHandle& h, const Call& call, const py::array& a, const py::dtype& out_dtype) {
    return run_outputs(h, call, a, {out_dtype})[0];
}

py::array prepared(py::array a) {
    if (a.ndim() == 0) raise("invalid_argument", "a 0-d array has no axes (reshape it to (1,))");
    if (needs_copy(a)) a = py::module_::import("numpy").attr("ascontiguousarray")(a);
    return a;
}

/// The call of a cumulative operator on `in`, by `combine`: 0 sum, 1 product, 2 maximum, 3 minimum, 4
/// log-sum-exp (a Python bool is 0 or 1: sum or product); nan_ignore: vkdml::NanMode::ignore (NaN read as the
/// identity).
Call scan_call(const vkdml::ops::TensorDesc& in, uint32_t axis, int combine, bool exclusive, bool reverse,
               bool nan_ignore) {
    const DML_AXIS_DIRECTION dir = reverse ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING;
    static const char* const kNames[] = {"cumsum ", "cumprod ", "cummax ", "cummin ", "logcumsumexp "};
    if (combine < 0 || combine > 4)
        raise("invalid_argument", "combine " + std::to_string(combine) + " is not 0 to 4");
    Call c;
    c.op = built(combine == 1   ? vkdml::ops::cumulative_product(in, axis, dir, exclusive)
                 : combine == 2 ? vkdml::ops::cumulative_maximum(in, axis, dir, exclusive)
                 : combine == 3 ? vkdml::ops::cumulative_minimum(in, axis, dir, exclusive)
                 : combine == 4 ? vkdml::ops::log_cumulative_sum_exp(in, axis, dir, exclusive)
                                : vkdml::ops::cumulative_sum(in, axis, dir, exclusive));
    c.key = std::string(kNames[combine]) + tensor_key(in) + " axis " + std::to_string(axis) +
            (exclusive ? " exclusive" : "") + (reverse ? " reverse" : "") + (nan_ignore ? " nan-ignore" : "");
    c.options.nan_mode = nan_ignore ? vkdml::NanMode::ignore : vkdml::NanMode::propagate;
    return c;
}

/// The call of REDUCE with `function` (a DML_REDUCE_FUNCTION value), or (function < 0) ARGMAX (-1) / ARGMIN
/// (-2), on `in`; the output keeps the rank. nan_ignore: vkdml::NanMode::ignore; correction: the
/// variances' (OperatorOptions::correction).
Call reduce_call(const vkdml::ops::TensorDesc& in, int function, const std::vector<uint32_t>& axes,
                 DML_TENSOR_DATA_TYPE out_type, bool select_last, bool nan_ignore, uint32_t correction) {
    const DML_AXIS_DIRECTION dir =
        select_last ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING;
    Call c;
    c.op = built(function >= 0
                     ? vkdml::ops::reduce(in, static_cast<DML_REDUCE_FUNCTION>(function), axes, out_type)
                 : function == -1 ? vkdml::ops::argmax(in, axes, dir, out_type)
                                  : vkdml::ops::argmin(in, axes, dir, out_type));
    c.key = "reduce " + std::to_string(function) + " " + tensor_key(in) + " -> " +
            std::to_string(c.op->output().data_type) + "[" + join(c.op->output().sizes) + "]" + " axes " +
            join(axes) + (select_last ? " last" : "") + (nan_ignore ? " nan-ignore" : "") +
            (correction ? " correction " + std::to_string(correction) : "");
    c.options.nan_mode = nan_ignore ? vkdml::NanMode::ignore : vkdml::NanMode::propagate;
    c.options.correction = correction;
    return c;
}

py::array cumulative(DeviceHandle& h, py::array a, uint32_t axis, int combine, bool exclusive, bool reverse,
                     bool nan_ignore) {
    a = prepared(a);
    Call c = scan_call(input_tensor(a), axis, combine, exclusive, reverse, nan_ignore);
    return run(h, c, a, a.dtype());
}

/// The call of vkdml's CUMULATIVE_MAXIMUM (combine 2) or CUMULATIVE_MINIMUM (3) on `in` with its INT64
/// index output (output 1).
Call selection_index_call(const vkdml::ops::TensorDesc& in, uint32_t axis, int combine, bool exclusive,
                          bool reverse, bool nan_ignore) {
    const DML_AXIS_DIRECTION dir = reverse ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING;
    if (combine != 2 && combine != 3)
        raise("invalid_argument",
              "combine " + std::to_string(combine) + " is not 2 (maximum) or 3 (minimum)");
    Call c;
    c.op = built(combine == 2 ? vkdml::ops::cumulative_maximum_with_indices(in, axis, dir, exclusive)
                              : vkdml::ops::cumulative_minimum_with_indices(in, axis, dir, exclusive));
    c.key = std::string(combine == 2 ? "cummax-indices " : "cummin-indices ") + tensor_key(in) + " axis " +
            std::to_string(axis) + (exclusive ? " exclusive" : "") + (reverse ? " reverse" : "") +
            (nan_ignore ? " nan-ignore" : "");
    c.options.nan_mode = nan_ignore ? vkdml::NanMode::ignore : vkdml::NanMode::propagate;
    return c;
}

/// A selection's values and int64 indices of the numpy array `a`, as run() runs one output.
py::tuple cumulative_with_indices(DeviceHandle& h, py::array a, uint32_t axis, int combine, bool exclusive,
                                  bool reverse, bool nan_ignore) {
    a = prepared(a);
    const Call call = selection_index_call(input_tensor(a), axis, combine, exclusive, reverse, nan_ignore);
    const std::vector<py::array> results = run_outputs(h, call, a, {a.dtype(), py::dtype::of<int64_t>()});
    return py::make_tuple(results[0], results[1]);
}

py::array reduction(DeviceHandle& h, py::array a, int function, std::vector<uint32_t> axes,
                    py::dtype out_dtype, bool select_last, bool nan_ignore, uint32_t correction) {
    a = prepared(a);
    Call c = reduce_call(input_tensor(a), function, axes, dml_type(out_dtype), select_last, nan_ignore,
                         correction);
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

/// An array on the device (vkdml.Array's native half): a buffer of the pool, shared by reshaped views,
/// holding `shape` elements of `type` in C order. Work that writes or reads it is tracked on the buffer
/// (Slot::users): the host waits for it before touching the memory.
struct DeviceArray {
    std::shared_ptr<DeviceHandle> handle;
    std::shared_ptr<Lease> lease;
    DML_TENSOR_DATA_TYPE type;
    std::vector<uint64_t> shape;  // () for a 0-d array

    uint64_t size() const {
        uint64_t n = 1;
        for (uint64_t d : shape) n *= d;
        return n;
    }
    uint64_t nbytes() const { return size() * vkdml::element_size(type); }
};
using ArrayPtr = std::shared_ptr<DeviceArray>;

const vkdml::TypeInfo& type_row(DML_TENSOR_DATA_TYPE type) {
    for (const vkdml::TypeInfo& row : vkdml::kTypeInfo)
        if (row.type == type) return row;
    raise("unsupported_type", "no such type");
}

py::dtype dtype_of(DML_TENSOR_DATA_TYPE type) {
    return py::dtype(std::string(type_row(type).numpy_name));
}

py::tuple shape_tuple(const std::vector<uint64_t>& shape) {
    py::tuple t(shape.size());
    for (size_t i = 0; i < shape.size(); ++i) t[i] = shape[i];
    return t;
}

/// A C-contiguous, native-order array of one of the 11 types (vkdml.asarray makes it so) copied into a
/// buffer of `h`'s pool.
ArrayPtr to_device(const std::shared_ptr<DeviceHandle>& h, const py::array& a) {
    auto arr = std::make_shared<DeviceArray>();
    arr->handle = h;
    arr->type = dml_type(a.dtype());
    for (py::ssize_t i = 0; i < a.ndim(); ++i) arr->shape.push_back(static_cast<uint64_t>(a.shape(i)));
    const auto* src = static_cast<const std::byte*>(a.data());
    const uint64_t bytes = arr->nbytes();
    without_gil([&]() -> vkdml::Status {
        auto lease = h->lend(std::max<uint64_t>(bytes, 1));
        if (!lease) return lease.error();
        arr->lease = *lease;
        if (bytes) std::memcpy(arr->lease->buffer().data().data(), src, bytes);
        ++host_transfers;
        return {};
    });
    return arr;
}

/// Waits for the work on `arr`'s buffer (the GIL released).
void wait_array(const DeviceArray& arr) {
    without_gil([&] { return arr.lease->slot().wait_users(); });
}

/// The array's memory as a numpy array, without a copy (after the work on it is done): the mapped
/// buffer, kept alive by the numpy array.
py::array host_view(const ArrayPtr& arr) {
    wait_array(*arr);
    ++host_transfers;
    std::vector<py::ssize_t> shape;
    for (uint64_t d : arr->shape) shape.push_back(static_cast<py::ssize_t>(d));
    auto* keep = new std::shared_ptr<Lease>(arr->lease);
    py::capsule base(keep, [](void* p) { delete static_cast<std::shared_ptr<Lease>*>(p); });
    return py::array(dtype_of(arr->type), shape, arr->lease->buffer().data().data(), base);  // C order
}

/// The array as a DLPack capsule ("dltensor", DLPack 0.6 as numpy.from_dlpack reads it): the mapped
/// memory as kDLCPU, after the work on it is done, kept alive until the consumer's deleter runs.
py::capsule to_dlpack(const ArrayPtr& arr) {
    wait_array(*arr);
    ++host_transfers;
    struct Holder {
        DLManagedTensor managed{};
        std::shared_ptr<Lease> lease;
        std::vector<int64_t> shape;
    };
    auto holder = std::make_unique<Holder>();
    holder->lease = arr->lease;
    for (uint64_t d : arr->shape) holder->shape.push_back(static_cast<int64_t>(d));
    const vkdml::TypeInfo& row = type_row(arr->type);
    const uint8_t code = row.type_class == vkdml::TypeClass::floating_point   ? kDLFloat
                         : row.type_class == vkdml::TypeClass::signed_integer ? kDLInt
                                                                              : kDLUInt;
    DLTensor& t = holder->managed.dl_tensor;
    t.data = arr->lease->buffer().data().data();
    t.device = DLDevice{kDLCPU, 0};
    t.ndim = static_cast<int>(holder->shape.size());
    t.dtype = DLDataType{code, static_cast<uint8_t>(row.size * 8), 1};
    t.shape = holder->shape.data();
    t.strides = nullptr;  // compact, row-major
    t.byte_offset = 0;
    holder->managed.manager_ctx = holder.get();
    holder->managed.deleter = [](DLManagedTensor* self) { delete static_cast<Holder*>(self->manager_ctx); };
    DLManagedTensor* managed = &holder.release()->managed;
    // A capsule no consumer took (still named "dltensor") frees the tensor itself.
    return py::capsule(managed, "dltensor", [](PyObject* capsule) {
        if (PyCapsule_IsValid(capsule, "dltensor")) {
            auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
            m->deleter(m);
        }
    });
}

/// The packed tensor of an array (explicit strides, 0 on axes of size 1, as input_tensor gives a
/// C-contiguous numpy array: one cache key for both).
vkdml::ops::TensorDesc packed_tensor(const DeviceArray& a) {
    std::vector<uint32_t> sizes, strides(a.shape.size());
    uint64_t stride = 1;
    for (size_t i = a.shape.size(); i-- > 0;) {
        strides[i] = a.shape[i] <= 1 ? 0u : static_cast<uint32_t>(stride);
        stride *= a.shape[i];
    }
    for (size_t i = 0; i < a.shape.size(); ++i) {
        if (a.shape[i] > 0xFFFFFFFFull)
            raise("invalid_argument", "axis " + std::to_string(i) + " has more than 2^32 - 1 elements");
        sizes.push_back(static_cast<uint32_t>(a.shape[i]));
    }
    return {a.type, std::move(sizes), std::move(strides), 0};
}

/// Submits `call` on `a` into `out` (or a new array of the pool) without waiting; returns the result.
ArrayPtr submit_array(const std::shared_ptr<DeviceHandle>& h, const Call& call, const DeviceArray& a,
                      const ArrayPtr& out) {
    if (a.handle != h) raise("invalid_argument", "the array is on another device than the call's");
    const vkdml::ops::TensorDesc& o = call.op->output();
    auto result = std::make_shared<DeviceArray>();
    result->handle = h;
    result->type = o.data_type;
    for (uint32_t n : o.sizes) result->shape.push_back(n);
    if (out) {
        if (out->handle != h) raise("invalid_argument", "out is on another device than the call's");
        if (out->type != o.data_type || out->size() != result->size())
            raise("invalid_argument", "out does not hold the result's type and size");
        result->shape = out->shape;
    }
    without_gil([&]() -> vkdml::Status {
        auto compiled = compiled_for(*h, call);
        if (!compiled) return compiled.error();
        if (out) {
            result->lease = out->lease;
        } else {
            auto lease = h->lend(call.op->output_bytes());
            if (!lease) return lease.error();
            result->lease = *lease;
        }
        const Lease* const out_lease[] = {result->lease.get()};
        auto pending = submit_on(*h, *compiled, *a.lease, out_lease);
        if (!pending) return pending.error();
        return {};
    });
    return out ? out : result;
}

ArrayPtr cumulative_array(const std::shared_ptr<DeviceHandle>& h, const ArrayPtr& a, uint32_t axis,
                          int combine, bool exclusive, bool reverse, bool nan_ignore, const ArrayPtr& out) {
    return submit_array(h, scan_call(packed_tensor(*a), axis, combine, exclusive, reverse, nan_ignore), *a,
                        out);
}

/// A selection's values and int64 indices of the device array `a`: two new arrays of the pool, not
/// waited for.
py::tuple cumulative_with_indices_array(const std::shared_ptr<DeviceHandle>& h, const ArrayPtr& a,
                                        uint32_t axis, int combine, bool exclusive, bool reverse,
                                        bool nan_ignore) {
    if (a->handle != h) raise("invalid_argument", "the array is on another device than the call's");
    const Call call = selection_index_call(packed_tensor(*a), axis, combine, exclusive, reverse, nan_ignore);
    auto values = std::make_shared<DeviceArray>(), indices = std::make_shared<DeviceArray>();
    values->handle = indices->handle = h;
    values->type = a->type;
    indices->type = DML_TENSOR_DATA_TYPE_INT64;
    values->shape = indices->shape = a->shape;
    without_gil([&]() -> vkdml::Status {
        auto compiled = compiled_for(*h, call);
        if (!compiled) return compiled.error();
        auto first = h->lend(call.op->output_bytes());
        if (!first) return first.error();
        auto second = h->lend(call.op->index_output_bytes());
        if (!second) return second.error();
        values->lease = *first;
        indices->lease = *second;
        const Lease* const out_leases[] = {values->lease.get(), indices->lease.get()};
        auto pending = submit_on(*h, *compiled, *a->lease, out_leases);
        if (!pending) return pending.error();
        return {};
    });
    return py::make_tuple(values, indices);
}

ArrayPtr reduction_array(const std::shared_ptr<DeviceHandle>& h, const ArrayPtr& a, int function,
                         std::vector<uint32_t> axes, py::dtype out_dtype, bool select_last, bool nan_ignore,
                         uint32_t correction, const ArrayPtr& out) {
    return submit_array(h,
                        reduce_call(packed_tensor(*a), function, axes, dml_type(out_dtype), select_last,
                                    nan_ignore, correction),
                        *a, out);
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
        .def_property_readonly("info", [](const DeviceHandle& h) { return info_dict(h.device()->info()); })
        .def_property_readonly("index",
                               [](const DeviceHandle& h) { return h.device()->info().physical.index; })
        .def_property_readonly("lost", [](const DeviceHandle& h) { return h.device()->is_lost(); })
        .def_property_readonly("policy_rows",
                               [](const DeviceHandle& h) { return std::string(h.device()->policy_rows()); })
        .def("cache_info",
             [](DeviceHandle& h) {
                 const DeviceHandle::Info i = h.info();
                 py::dict d;
                 d["compiles"] = i.counters.compiles;
                 d["hits"] = i.counters.hits;
                 d["entries"] = i.entries;
                 d["evictions"] = i.counters.evictions;
                 d["max_entries"] = i.max_entries;
                 d["bytes"] = i.idle_bytes;
                 d["buffers"] = i.idle_buffers;
                 d["bytes_in_use"] = i.lent_bytes;
                 d["allocations"] = i.counters.allocations;
                 d["reuses"] = i.counters.reuses;
                 d["frees"] = i.counters.frees;
                 d["max_bytes"] = i.max_bytes;
                 return d;
             })
        .def("set_cache_limits",
             [](DeviceHandle& h, uint64_t max_entries, std::optional<uint64_t> max_bytes) {
                 py::gil_scoped_release release;
                 h.set_limits(max_entries, max_bytes);
             })
        .def("clear_cache", [](DeviceHandle& h) {
            py::gil_scoped_release release;
            h.clear();
        });
    py::class_<DeviceArray, ArrayPtr>(m, "DeviceArray")
        .def_property_readonly("shape", [](const DeviceArray& a) { return shape_tuple(a.shape); })
        .def_property_readonly("dtype", [](const DeviceArray& a) { return dtype_of(a.type); })
        .def_property_readonly("nbytes", &DeviceArray::nbytes)
        .def_property_readonly("handle", [](const DeviceArray& a) { return a.handle; })
        .def_property_readonly("device_local",
                               [](const DeviceArray& a) { return a.lease->buffer().device_local(); })
        .def_property_readonly("ready", [](const DeviceArray& a) { return a.lease->slot().idle(); })
        .def("host", &host_view)
        .def("dlpack", &to_dlpack)
        .def("wait", [](const DeviceArray& a) { wait_array(a); })
        .def("shares_memory", [](const DeviceArray& a, const DeviceArray& b) { return a.lease == b.lease; })
        .def("reshape", [](const ArrayPtr& a, const std::vector<uint64_t>& shape) {
            auto view = std::make_shared<DeviceArray>(*a);
            view->shape = shape;
            if (view->size() != a->size())
                raise("invalid_argument", "reshape changes the number of elements");
            return view;
        });
    m.def("to_device", &to_device);
    m.def("buffer_size_class", &vkdml_python::size_class);
    m.def("host_transfers", [] { return host_transfers.load(); });
    m.def("execute_runs", [] { return execute_runs.load(); });
    m.def("cumulative_array", &cumulative_array);
    m.def("cumulative_with_indices_array", &cumulative_with_indices_array);
    m.def("reduction_array", &reduction_array);
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
        vkdml::testing::fail_vulkan_call(*h.device(), calls.at(call), results.at(result));
    });
    // Tests only: a device whose allocations stop at `max_allocation` bytes, as on a device
    // with that maxMemoryAllocationSize: arrays past it run through vkdml::execute at small sizes.
    m.def("testing_open_device", [](const std::string& selector, uint64_t max_allocation) {
        vkdml::DeviceOptions options;
        options.selector = selector;
        vkdml::testing::DeviceOverrides overrides;
        overrides.limits.max_memory_allocation_size = max_allocation;
        return handle_of(vkdml::testing::create_device(options, overrides));
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
    m.def("cumulative_with_indices", &cumulative_with_indices);
    m.def("reduction", &reduction);
    m.def("reduced_shape", &reduced_shape, py::arg("shape"), py::arg("axes"));
    m.attr("version") = VKDML_VERSION_STRING;
}

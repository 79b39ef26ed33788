// examples/device_chain.cpp — keeping data on the device: a cumulative sum whose output feeds a sum, on
// buffers the host maps, submitted one after the other with one wait at the end (vkdml/submission.hpp).
#include <vkdml/ops.hpp>
#include <vkdml/submission.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

int fail(const vkdml::Error& e) {
    std::fprintf(stderr, "%s\n", e.message.c_str());
    return 1;
}

}  // namespace

int main() {
    auto device = vkdml::Device::create();
    if (!device) return fail(device.error());
    const uint32_t n = 1000000;
    auto scan = vkdml::ops::cumulative_sum({DML_TENSOR_DATA_TYPE_INT64, {n}}, 0);
    auto sum = vkdml::ops::reduce({DML_TENSOR_DATA_TYPE_INT64, {n}}, DML_REDUCE_FUNCTION_SUM, {0});
    if (!scan) return fail(scan.error());
    if (!sum) return fail(sum.error());

    // Compile each operator once; a real program keeps them and submits them again.
    std::vector<vkdml::CompiledOperator> compiled;
    std::vector<vkdml::MappedBuffer> temporaries;
    for (const vkdml::ops::Operation* op : {&*scan, &*sum}) {
        auto o = (*device)->create_operator(op->desc());
        if (!o) return fail(o.error());
        auto c = (*device)->compile_operator(*o);
        if (!c) return fail(c.error());
        compiled.push_back(*c);
        vkdml::MappedBuffer temporary;  // empty unless the plan needs one
        if (uint64_t bytes = c->binding_properties().TemporaryResourceSize; bytes > 0) {
            auto t = vkdml::MappedBuffer::create(**device, bytes);
            if (!t) return fail(t.error());
            temporary = *t;
        }
        temporaries.push_back(temporary);
    }

    auto x = vkdml::MappedBuffer::create(**device, scan->input_bytes());
    auto running = vkdml::MappedBuffer::create(**device, scan->output_bytes());
    auto total = vkdml::MappedBuffer::create(**device, sum->output_bytes());
    if (!x || !running || !total) return fail(!x ? x.error() : !running ? running.error() : total.error());
    std::vector<int64_t> ones(n, 1);
    std::memcpy(x->data().data(), ones.data(), x->size());  // written straight into the mapped buffer

    auto first = vkdml::submit(compiled[0], {{*x}}, {{*running}}, temporaries[0]);
    if (!first) return fail(first.error());
    auto second = vkdml::submit(compiled[1], {{*running}}, {{*total}}, temporaries[1]);  // ordered after
    if (!second) return fail(second.error());
    if (vkdml::Status st = second->wait(); !st) return fail(st.error());

    int64_t result = 0;
    std::memcpy(&result, total->data().data(), sizeof result);
    const int64_t expected = int64_t(n) * (int64_t(n) + 1) / 2;  // 1 + 2 + ... + n
    std::printf("sum of the running sums of %u ones: %lld (expected %lld)\n", n,
                static_cast<long long>(result), static_cast<long long>(expected));
    return result == expected ? 0 : 1;
}

// Helpers every planner shares (see plan.hpp).
#include "core/plan.hpp"

#include "core/errors.hpp"
#include "core/window.hpp"

#include <algorithm>

namespace vkdml::detail {

uint64_t allocate_scratch(const DeviceInfo& info, Plan& plan, uint64_t bytes) {
    uint64_t align = std::max<uint64_t>(16, info.min_storage_buffer_offset_alignment);
    uint64_t offset = ceil_div(plan.temporary_bytes, align) * align;
    plan.temporary_bytes = offset + bytes;
    return offset;
}

PassBinding unused_binding(PassBinding like) {
    like.base_word = -1;
    like.unused = true;
    return like;
}

Status check_item_count(const char* what, uint64_t lines, uint64_t lanes, uint64_t chunks) {
    if (lines * lanes * chunks > 0xFFFFFFFFull)
        return make_error(ErrorCode::unsupported_device, "the ", what, " has ", lines * lanes * chunks,
                          " chunks, more than 32-bit indexing allows");
    return {};
}

uint32_t workgroup_of(const KernelParams& params) {
    return std::visit(
        [](const auto& k) {
            if constexpr (requires { k.scan; })
                return k.scan.workgroup;
            else
                return k.workgroup;
        },
        params);
}

PipelineKey pipeline_key(const Pass& pass, const KernelParams& params) {
    PipelineKey key{pass.key.kernel, pass.key.storage,
                    std::visit([](const auto& k) { return k.to_spec(); }, params)};
    key.spec[ABI_SPEC_LINE_MAJOR] = pass.line_major;
    key.spec[ABI_SPEC_LOCKSTEP] = pass.lockstep;
    return key;
}

KernelParams in_place_params(KernelParams params) {
    std::visit(
        [](auto& k) {
            if constexpr (requires { k.scan; }) k.scan.in_place = true;
        },
        params);
    return params;
}

Status append_pass(const DeviceInfo& info, PassSpec spec, Plan& plan) {
    Pass pass;
    pass.groups = spec.lines;
    pass.chunks = spec.chunks;
    pass.chunk_len = spec.chunk_len;
    pass.line_length = spec.line_length;
    pass.chunk_major = !spec.cooperative && !spec.line_major;
    pass.line_major = !spec.cooperative && spec.line_major;
    const uint32_t workgroup = workgroup_of(spec.params);
    pass.items_per_workgroup = spec.cooperative ? 1 : workgroup;
    // Lockstep (serial kernels) where a workgroup's invocations take neighbouring lines of one long
    // chunk: fewer lines put its invocations on chunks far apart, and there, as on short chunks, the
    // barriers only cost. (Its position loop runs to chunk start + chunk length, below 2^32.)
    const uint64_t positions = std::min(spec.chunk_len, spec.line_length);
    pass.lockstep = !spec.cooperative && pass.chunk_major && spec.lockstep_min_len > 0 &&
                    positions >= spec.lockstep_min_len && spec.lines >= workgroup &&
                    spec.line_length + positions <= 0xFFFFFFFFull;
    pass.access = std::move(spec.access);
    pass.bindings = spec.bindings;
    pass.item_begin_word = spec.item_begin_word;
    pass.item_end_word = spec.item_end_word;
    pass.key = {spec.kernel, spec.storage, {}};
    pass.params = std::move(spec.params);
    pass.key = pipeline_key(pass, pass.params);
    pass.push = std::visit([](const auto& k) { return k.to_push(); }, pass.params);
    pass.push[spec.chunk_len_word] = static_cast<uint32_t>(std::min(spec.chunk_len, spec.line_length));
    if (auto st = cut_into_segments(info, pass); !st) return st;
    plan.passes.push_back(std::move(pass));
    return {};
}

}  // namespace vkdml::detail

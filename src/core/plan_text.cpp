// plan_text (see plan_text.hpp).
#include "core/plan_text.hpp"

#include <sstream>
#include <string>

namespace vkdml::detail {

namespace {

bool is_scan(const Pass& p) {
    return detail::is_scan(p.key.kernel);
}

/// scan_chained: whether each line is one tile of the pass's workgroup (vectors of 2 elements of 8 bytes
/// or 4 of fewer, storage_types.glsl's VEC_W).
bool tile_per_line(const Pass& p) {
    const auto& k = p.key.spec;
    const uint64_t width = p.bindings[1].element_bytes == 8 ? 2 : 4;
    return p.chunks == 1 && p.line_length <= uint64_t(k[ABI_SPEC_WORKGROUP]) * k[SCAN_SPEC_ROUNDS] * width;
}

std::string mode(const Pass& p) {
    const auto& k = p.key.spec;
    if (is_scan(p)) {
        if (k[SCAN_SPEC_MODE] == SCAN_MODE_REDUCE) return "reduce to partials";
        if (k[SCAN_SPEC_MODE] == SCAN_MODE_CLEAR) return "clear tile states";
        if (k[SCAN_SPEC_MODE] == SCAN_MODE_CHAINED)
            return "chained scan (look-back over windows of " +
                   std::to_string(SCAN_CHAINED_WINDOW_TILES(k[ABI_SPEC_WORKGROUP])) + " tiles, blocks of " +
                   std::to_string(SCAN_CHAINED_BLOCK_TILES) + ")";
        std::string m = k[SCAN_SPEC_HAS_CARRY] ? "scan with carries" : "scan";
        if (p.key.kernel == Kernel::scan_chained && tile_per_line(p)) m += ", a tile per line";
        if (k[SCAN_SPEC_IN_PLACE]) m += ", in place";
        return m;
    }
    std::string m = k[REDUCE_SPEC_SRC_PARTIALS] ? "fold partials" : "fold";
    return m + (k[REDUCE_SPEC_DST_PARTIALS] ? " to partials" : " to the output");
}

std::string blocks(const Pass& p) {
    const auto& k = p.key.spec;
    if (p.key.kernel == Kernel::scan_chained) {
        if (k[SCAN_SPEC_MODE] == SCAN_MODE_CLEAR) return "words";
        return "tiles of " + std::to_string(k[SCAN_SPEC_ROUNDS]) +
               (k[SCAN_SPEC_ROUNDS] == 1 ? " vector" : " vectors") + " per invocation";
    }
    const uint32_t vectors = is_scan(p) ? k[SCAN_SPEC_VEC_K] : k[REDUCE_SPEC_VEC_K];
    const uint32_t lines = is_scan(p) ? k[SCAN_SPEC_VEC_F] : k[REDUCE_SPEC_VEC_F];
    if (vectors == 0) return "elements";
    std::ostringstream s;
    s << "blocks of " << vectors << (vectors == 1 ? " vector, " : " vectors, ") << lines
      << (lines == 1 ? " line" : " lines");
    if (is_scan(p)) s << (k[SCAN_SPEC_VEC_AXIS_INNER] ? ", axis inner" : ", lines inner");
    return s.str();
}

/// Bytes of a binding its dispatches bind: the windows' spans, added up over the dispatches.
uint64_t bound_bytes(const Pass& p, uint32_t binding) {
    uint64_t elements = 0;
    for (const Segment& seg : p.segments)
        elements += uint64_t(seg.window[binding].hi - seg.window[binding].lo + 1);
    return elements * p.bindings[binding].element_bytes;
}

std::string binding_text(const Pass& p, uint32_t i) {
    static const char* const kNames[] = {"src", "dst", "partials"};
    const PassBinding& b = p.bindings[i];
    std::ostringstream s;
    s << kNames[i] << " ";
    if (b.unused) return s.str() + "-";
    switch (b.slot) {
    case Slot::input: s << "input"; break;
    case Slot::output: s << "output"; break;
    default: s << "scratch@" << b.offset; break;
    }
    s << " " << bound_bytes(p, i) << " B";
    return s.str();
}

}  // namespace

std::string plan_text(const Plan& plan) {
    std::ostringstream s;
    for (size_t i = 0; i < plan.passes.size(); ++i) {
        const Pass& p = plan.passes[i];
        uint64_t workgroups = 0;
        for (const Segment& seg : p.segments) workgroups += uint64_t(seg.groups_x) * seg.groups_y;
        s << "pass " << i + 1 << ": " << name(p.key.kernel) << "/" << name(p.key.storage) << " " << mode(p)
          << " | " << blocks(p) << (p.key.spec[ABI_SPEC_LOCKSTEP] ? ", lockstep" : "") << " | " << p.groups
          << " lines x " << p.chunks << (p.chunks == 1 ? " chunk" : " chunks") << " of "
          << std::min(p.chunk_len, p.line_length) << " | " << p.groups * p.chunks << " items, workgroup "
          << p.key.spec[ABI_SPEC_WORKGROUP] << ", " << workgroups << " workgroups in " << p.segments.size()
          << (p.segments.size() == 1 ? " dispatch" : " dispatches") << " | ";
        for (uint32_t b = 0; b < kBindingCount; ++b) s << (b ? ", " : "") << binding_text(p, b);
        s << "\n";
    }
    s << "temporary " << plan.temporary_bytes << " bytes\n";
    return s.str();
}

}  // namespace vkdml::detail

// plan_text (see plan_text.hpp).
#include "core/plan_text.hpp"

#include <sstream>
#include <string>

namespace vkdml::detail {

namespace {

/// scan_chained: whether each line is one tile of the pass's workgroup (its elements' vector_width).
bool tile_per_line(const Pass& p, const TileScanParams& t) {
    const uint64_t width = vector_width({p.key.storage, p.bindings[1].element_bytes, 0, 0});
    return p.chunks == 1 && p.line_length <= uint64_t(t.scan.workgroup) * t.rounds * width;
}

std::string scan_mode(const Pass& p, const ScanParams& k, const TileScanParams* tile) {
    if (k.mode == SCAN_MODE_REDUCE) return "reduce to partials";
    if (k.mode == SCAN_MODE_CLEAR) return "clear tile states";
    if (k.mode == SCAN_MODE_MARK32 || k.mode == SCAN_MODE_MARK64) return "mark the index output";
    if (k.mode == SCAN_MODE_CHAINED)
        return "chained scan (look-back over windows of " +
               std::to_string(SCAN_CHAINED_WINDOW_TILES(k.workgroup)) + " tiles, blocks of " +
               std::to_string(SCAN_CHAINED_BLOCK_TILES) + ")";
    std::string m = k.has_carry ? "scan with carries" : "scan";
    if (tile && tile_per_line(p, *tile)) m += ", a tile per line";
    if (k.in_place) m += ", in place";
    return m;
}

/// The pass's mode, then how its kernel reads the data.
struct Described {
    std::string mode, blocks;
};

std::string serial_blocks(uint32_t vectors, uint32_t lines) {
    std::ostringstream s;
    s << "blocks of " << vectors << (vectors == 1 ? " vector, " : " vectors, ") << lines
      << (lines == 1 ? " line" : " lines");
    return s.str();
}

Described describe(const Pass& p) {
    if (const auto* t = std::get_if<TileScanParams>(&p.params)) {
        if (t->scan.mode == SCAN_MODE_CLEAR) return {scan_mode(p, t->scan, t), "words"};
        if (p.key.kernel == Kernel::scan_canonical_chained)
            return {"chained scan (look-back over the canonical tree's totals)",
                    "tiles of blocks of 32 elements, a block per invocation"};
        return {scan_mode(p, t->scan, t), "tiles of " + std::to_string(t->rounds) +
                                              (t->rounds == 1 ? " vector" : " vectors") + " per invocation"};
    }
    if (const auto* c = std::get_if<CanonicalTileParams>(&p.params))
        return {scan_mode(p, c->scan, nullptr),
                std::string("tiles of blocks of 32 elements, a block per invocation") +
                    (p.key.kernel == Kernel::scan_canonical_tile_staged ? ", whole tiles staged" : "")};
    if (const auto* k = std::get_if<SerialScanParams>(&p.params)) {
        if (k->vec_k == 0) return {scan_mode(p, k->scan, nullptr), "elements"};
        return {scan_mode(p, k->scan, nullptr),
                serial_blocks(k->vec_k, k->vec_f) + (k->vec_axis_inner ? ", axis inner" : ", lines inner")};
    }
    const auto& r = std::get<ReduceParams>(p.params);
    std::string m = r.src_partials ? "fold partials" : "fold";
    m += r.dst_partials ? " to partials" : " to the output";
    return {m, r.vec_k == 0 ? "elements" : serial_blocks(r.vec_k, r.vec_f)};
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
        const Described d = describe(p);
        s << "pass " << i + 1 << ": " << name(p.key.kernel) << "/" << name(p.key.storage) << " " << d.mode
          << " | " << d.blocks << (p.lockstep ? ", lockstep" : "") << " | " << p.groups << " lines x "
          << p.chunks << (p.chunks == 1 ? " chunk" : " chunks") << " of "
          << std::min(p.chunk_len, p.line_length) << " | " << p.groups * p.chunks << " items, workgroup "
          << workgroup_of(p.params) << ", " << workgroups << " workgroups in " << p.segments.size()
          << (p.segments.size() == 1 ? " dispatch" : " dispatches") << " | ";
        for (uint32_t b = 0; b < kBindingCount; ++b) s << (b ? ", " : "") << binding_text(p, b);
        s << "\n";
    }
    s << "temporary " << plan.temporary_bytes << " bytes\n";
    return s.str();
}

}  // namespace vkdml::detail

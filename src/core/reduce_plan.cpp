// Reduce planning (see reduce_plan.hpp): fold, then fold the fold states.
//
// Every output's n reduced elements are cut into chunks (policy.hpp). One chunk per output: a single
// pass writes the results. Several: the pass writes one fold state per (output, chunk) to scratch, and
// the same planner folds the chunk states again until one remains. Reductions whose reduced elements
// are the inner ones in memory, and long enough, use reduce_tree (a workgroup per chunk) where the
// device class is cooperative; other shapes use reduce_serial (an invocation per chunk, neighbouring
// invocations on neighbouring outputs), whose first pass reads vector blocks wherever the layout allows
// (blocks.hpp).
#include "core/reduce_plan.hpp"

#include "core/blocks.hpp"
#include "core/canonical.hpp"
#include "core/kernel_params.hpp"
#include "core/window.hpp"

#include <algorithm>
#include <bit>

namespace vkdml::detail {

namespace {

/// Kept dimensions of `l` with row-major weights × `scale`: partial state slots (o·chunks + c)·words.
std::vector<AccessDim> output_weights(const Problem& l, uint64_t scale) {
    std::vector<AccessDim> dims(l.kept.size());
    for (size_t i = dims.size(); i-- > 0;) {
        dims[i] = {l.kept[i].size, int64_t(scale)};
        scale *= l.kept[i].size;
    }
    return dims;
}

/// Where one fold reads: the input, or the chunk states of a previous pass.
struct Source {
    PassBinding binding;
    bool partials = false;
    uint64_t n = 0;  ///< elements (or states) per output
};

/// The kernel chosen for one fold, and how it sees the problem.
struct Shape {
    bool tree = false;
    uint32_t workgroup = 0;
    Blocks blocks;
    uint64_t positions = 0;      ///< per output, in the units the kernel indexes (elements, blocks or states)
    uint32_t element_bytes = 0;  ///< of the source, per kernel index
    uint64_t chunk_len = 0, chunks = 0;
    const Problem& layout() const { return blocks.layout; }
    /// Leaves (reduced elements or states) per output and position.
    uint64_t steps(uint32_t width) const { return blocks.k == 0 ? 1 : uint64_t(blocks.k) * width / blocks.f; }
};

/// reduce_tree's canonical chunks hold at most 32^3 leaves (its three levels: blocks in registers, two in
/// shared memory).
constexpr uint64_t kTreeMaxLeaves = kCanonicalArity * kCanonicalArity * kCanonicalArity;

struct Planner {
    const PlanTarget& target;
    const ReducePolicy policy;
    const ReduceRequest& r;
    Plan& plan;
    StorageVariant v;
    uint32_t state_words;  ///< words of a fold state between passes
    /// Float sums and products: the canonical association (canonical.hpp), so that the result depends on
    /// element indices alone.
    bool canonical = is_float_type(r.type) && is_compensated(r.function);

    /// Which elements each item (output, chunk) of a pass folding n elements (or states) reads; `l` is the
    /// layout the pass indexes.
    Access source_access(const Problem& l, bool src_partials, uint64_t n) const {
        Access a;
        if (src_partials) {  // states o·n + r, state_words words each
            a.group = output_weights(l, n * state_words);
            a.line = {{static_cast<uint32_t>(n), int64_t(state_words)}};
            a.extent = state_words;
            return a;
        }
        for (const Dim& d : l.kept) a.group.push_back({d.size, d.stride_in});
        for (const Dim& d : l.line) a.line.push_back({d.size, d.stride_in});
        return a;
    }

    /// Which elements each item writes: its output element(s), or its state(s) o·chunks + c. With
    /// `lanes` outputs per item (blocks across outputs or rows), those are lanes consecutive elements, or
    /// lanes states `chunks` slots apart.
    Access destination_access(const Problem& l, bool dst_partials, uint64_t chunks, uint32_t lanes) const {
        Access a;
        a.per_chunk = true;
        if (dst_partials) {
            a.group = output_weights(l, lanes * chunks * state_words);
            a.line = {{static_cast<uint32_t>(chunks), int64_t(state_words)}};
            a.extent = static_cast<uint32_t>(((lanes - 1) * chunks + 1) * state_words);
            return a;
        }
        for (const Dim& d : l.kept) a.group.push_back({d.size, d.stride_out});
        a.extent = lanes;
        return a;
    }

    /// reduce_tree's workgroup for about `invocations` invocations: a power of two, at least the policy's
    /// least and a subgroup, at most the policy's most and the device's.
    /// reduce_tree's most invocations: the policy's and the device's, a power of two.
    uint32_t tree_cap() const {
        return std::bit_floor(std::min(policy.tree_max_workgroup, cooperative_workgroup_limit(target.info)));
    }

    uint32_t tree_workgroup(uint64_t invocations) const {
        const uint32_t cap = tree_cap();
        const uint32_t floor = std::max(policy.tree_min_workgroup, target.info.subgroup_size);
        return static_cast<uint32_t>(std::clamp<uint64_t>(std::bit_ceil(std::max<uint64_t>(invocations, 1)),
                                                          std::min(floor, cap), cap));
    }

    /// reduce_tree where the source is contiguous per output and long: a workgroup of about n/8
    /// invocations (a power of two, at least a subgroup), as long as a chunk of a workgroup's length fits
    /// a window.
    void choose_kernel(const Source& src, Shape& s) const {
        const DeviceInfo& info = target.info;
        const bool contiguous = src.partials || r.problem.line_innermost();
        // (A tree's most invocations below a subgroup: no tree, whose subgroups must be whole.)
        s.tree = policy.inner_lines == KernelFamily::cooperative && info.subgroup_shuffle &&
                 src.n >= policy.tree_min_length && contiguous && tree_cap() >= info.subgroup_size;
        s.workgroup = policy.serial_workgroup;
        if (!s.tree) return;
        // (Canonical: an invocation per block of 32 leaves of a chunk of up to 32^3; chunked() fits it to
        // the chunk.)
        const uint32_t wg = canonical
                                ? tree_workgroup(ceil_div(std::min(src.n, kTreeMaxLeaves), kCanonicalArity))
                                : tree_workgroup(ceil_div(src.n, 8));
        const Access source = source_access(r.problem, src.partials, src.n);
        s.tree = max_chunk_in_window(source.line, src.binding.element_bytes, source.extent,
                                     window_bytes(info)) >= wg;
        if (s.tree) s.workgroup = wg;
    }

    /// Positions and chunks of the fold with `blocks`.
    Shape chunked(const Source& src, Shape s, const Blocks& blocks) const {
        s.blocks = blocks;
        const Problem& l = s.layout();
        s.positions = blocks.k > 0 ? l.line_length() : src.n;
        s.element_bytes = src.binding.element_bytes * (blocks.k > 0 ? vector_width(v) : 1);
        ChunkPolicy c = policy.serial;
        // (A canonical tree's invocation folds whole blocks of 32: a chunk of at least one each.)
        const uint64_t tree_min = uint64_t(s.workgroup) * (canonical ? kCanonicalArity : 1);
        if (s.tree)
            c = {.target_items = src.partials ? policy.tree_partials_target_items : policy.tree_target_items,
                 .min_len = tree_min,
                 .max_len = std::max(tree_min, uint64_t(s.workgroup) * policy.tree_max_items),
                 .quantum = s.workgroup};
        const Access source = source_access(l, src.partials, s.positions);
        const uint64_t window_cap = max_chunk_in_window(
            source.line, s.element_bytes, std::max(source.extent, blocks.k), window_bytes(target.info));
        s.chunk_len = std::min(chunk_length(c, s.positions, l.lines()), window_cap);
        const uint64_t steps = s.steps(vector_width(v));
        const uint64_t max_leaves = s.tree ? kTreeMaxLeaves : kCanonicalMaxLeaves;
        if (canonical && (s.chunk_len < s.positions || s.positions * steps > max_leaves))
            s.chunk_len =
                canonical_chunk(s.chunk_len, steps,
                                s.tree ? window_cap : std::min(window_cap, canonical_serial_positions(steps)),
                                max_leaves, s.positions, ChunkRounding::nearest);
        if (canonical && s.tree)  // no more invocations than the chunk has blocks
            s.workgroup = std::min(
                s.workgroup, tree_workgroup(ceil_div(std::min(s.chunk_len, s.positions), kCanonicalArity)));
        s.chunks = ceil_div(s.positions, s.chunk_len);
        return s;
    }

    /// Whether blocks of `steps` leaves suit the canonical walk of a line of `leaves`: every block of 32
    /// closes at the end of a position (or the line is one block).
    static bool walkable(uint64_t steps, uint64_t leaves) {
        return leaves <= kCanonicalArity || (std::has_single_bit(steps) && steps <= kCanonicalArity);
    }

    /// The kernel, blocks and chunks of one fold.
    Shape choose(const Source& src) const {
        Shape s;
        choose_kernel(src, s);
        const Blocks plain{0, 1, true, r.problem};
        if (s.tree || src.partials) return chunked(src, s, plain);
        const BlockRules rules{4, policy.row_block_vectors, false, false};
        Shape blocked = chunked(src, s, block_layout(r.problem, vector_width(v), rules));
        if (canonical && !walkable(blocked.steps(vector_width(v)), r.problem.line_length()))
            return chunked(src, s, plain);
        // Blocks across outputs write their states `chunks` slots apart: all of them must fit a window.
        const uint32_t lanes = blocked.blocks.lanes();
        if (lanes > 1 && blocked.chunks > 1 &&
            ((lanes - 1) * blocked.chunks + 1) * state_words * 4 > window_bytes(target.info))
            return chunked(src, s, plain);
        return blocked;
    }

    Status add_pass(const Shape& s, const Source& src, PassBinding dst, bool dst_partials) {
        const bool arg = is_arg_function(r.function);
        const bool sign_matters =
            arg || r.function == REDUCE_F_MIN || r.function == REDUCE_F_MAX || r.function == REDUCE_F_L1;
        const ReduceParams params{
            .workgroup = s.workgroup,
            .function = r.function,
            .src_partials = src.partials,
            .dst_partials = dst_partials,
            .tie_last = arg && r.tie_last,
            .is_signed = sign_matters && is_signed_integer_type(r.type),
            .index64 =
                (arg || is_logical_function(r.function)) && !dst_partials && element_size(r.output_type) == 8,
            // (Only where the data can hold a NaN: integer pipelines stay shared
            // with propagate.)
            .nan_ignore = r.nan_ignore && is_float_type(r.type),
            .vec_k = s.blocks.k,
            .vec_f = s.blocks.f,
            .walk_top =
                canonical ? canonical_top(std::min(s.chunk_len, s.positions) * s.steps(vector_width(v))) : 0,
            .layout = s.layout(),
            .n = s.positions,
            .n_total = r.problem.line_length(),
            .correction = r.correction};
        PassSpec p;
        p.kernel = canonical ? (s.tree ? Kernel::reduce_tree_canonical : Kernel::reduce_serial_canonical)
                             : (s.tree ? Kernel::reduce_tree : Kernel::reduce_serial);
        p.storage = v.storage;
        p.params = params;
        p.cooperative = s.tree;
        // Outputs whose elements (or states) are far apart: chunks of one output side by side.
        p.line_major = src.partials || s.layout().line_innermost();
        p.lockstep_min_len = policy.lockstep_min_len;
        p.lines = s.layout().lines();
        p.chunks = s.chunks;
        p.chunk_len = s.chunk_len;
        p.line_length = s.positions;
        PassBinding source = src.binding;
        source.element_bytes = s.element_bytes;
        source.base_word = REDUCE_W_BASE_IN;
        p.bindings = {source, dst, unused_binding(dst)};
        p.access = {source_access(s.layout(), src.partials, s.positions),
                    destination_access(s.layout(), dst_partials, s.chunks, s.blocks.lanes()), Access{}};
        if (s.blocks.k > 0) p.access[0].extent = s.blocks.k;
        p.chunk_len_word = REDUCE_W_CHUNK_LEN;
        p.item_begin_word = REDUCE_W_ITEM_BEGIN;
        p.item_end_word = REDUCE_W_ITEM_END;
        return append_pass(target.info, std::move(p), plan);
    }

    /// Folds src.n elements (or chunk states) per output into the output, through as many passes as
    /// the chunks need.
    Status fold(const Source& src) {
        const Shape s = choose(src);
        const uint64_t outputs = s.layout().lines();
        const uint32_t lanes = s.blocks.lanes();
        // Several chunks: a fold state per (output, chunk), folded again.
        return one_pass_or_partials(
            target.info, plan, "reduction", outputs, lanes, s.chunks, uint64_t(state_words) * 4, 4,
            REDUCE_W_BASE_OUT,
            [&] {
                PassBinding dst{Slot::output, 0};
                dst.element_bytes = is_arg_function(r.function) || is_logical_function(r.function)
                                        ? element_size(r.output_type)
                                        : v.element_bytes;
                dst.base_word = REDUCE_W_BASE_OUT;
                return add_pass(s, src, dst, false);
            },
            [&](const PassBinding& partials) -> Status {
                if (auto st = add_pass(s, src, partials, true); !st) return st;
                return fold({partials, true, s.chunks});
            });
    }
};

}  // namespace

Status plan_reduce(const PlanTarget& target, const ReduceRequest& request, Plan& plan) {
    const StorageVariant v = storage_variant(request.type);
    Planner p{
        target,
        select_policy(target).reduce,
        request,
        plan,
        v,
        state_words(v.accumulator_bytes, request.function, is_float_type(request.type), request.nan_ignore)};
    PassBinding src{Slot::input, 0};
    src.element_bytes = v.element_bytes;
    return p.fold({src, false, request.problem.line_length()});
}

}  // namespace vkdml::detail

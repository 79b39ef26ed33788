// The kernel ABI (glsl/kernel_abi.h) as the embedded SPIR-V has it: in every kernel variant, each
// specialization constant carries the id kernel_abi.h gives its name, and each push-constant member sits
// at 4 × its word index. Read straight from the modules (OpName, OpMemberName, OpDecorate SpecId,
// OpMemberDecorate Offset), so a kernel edited without the header fails here.
#include <catch2/catch.hpp>

#include "core/kernel_abi.hpp"
#include "core/kernel_params.hpp"
#include "core/kernel_registry.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

using namespace vkdml::detail;

namespace {

struct Reflection {
    std::map<uint32_t, std::string> names;                         // id -> OpName
    std::map<std::pair<uint32_t, uint32_t>, std::string> members;  // (struct, member) -> OpMemberName
    std::map<uint32_t, uint32_t> spec_ids;                         // id -> SpecId
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> offsets;     // (struct, member) -> Offset
    uint32_t push_struct = 0;
    std::map<uint32_t, std::vector<uint32_t>> struct_members;  // OpTypeStruct -> member type ids
    std::map<uint32_t, uint32_t> array_lengths;                // OpTypeArray -> its length's id
    std::map<uint32_t, uint32_t> constants;                    // OpConstant (32-bit) -> value
    uint32_t workgroup_size = 0;                               // the id decorated BuiltIn WorkgroupSize
    size_t workgroup_size_reads = 0;   // instructions taking it as an operand (its definition aside)
    std::set<uint32_t> early_returns;  // OpFunction ids with a return before their last instruction
    std::vector<uint32_t> callees;     // OpFunctionCall's function, once per call
    size_t no_contraction = 0;         // OpDecorate NoContraction (GLSL's `precise`)
    bool floats = false;               // an OpTypeFloat
};

std::string literal(const uint32_t* words, size_t count) {
    std::string s;
    for (size_t i = 0; i < count * 4; ++i) {
        const char c = static_cast<char>((words[i / 4] >> (8 * (i % 4))) & 0xFF);
        if (c == 0) break;
        s += c;
    }
    return s;
}

Reflection reflect(const KernelBinary& k) {
    constexpr uint32_t OpName = 5, OpMemberName = 6, OpDecorate = 71, OpMemberDecorate = 72, OpVariable = 59,
                       OpTypePointer = 32;
    constexpr uint32_t SpecId = 1, Offset = 35, PushConstant = 9, BuiltIn = 11, WorkgroupSize = 25;
    constexpr uint32_t OpSpecConstantComposite = 51, OpTypeStruct = 30, OpTypeArray = 28, OpConstant = 43;
    constexpr uint32_t OpFunction = 54, OpFunctionEnd = 56, OpFunctionCall = 57, OpReturn = 253,
                       OpReturnValue = 254, NoContraction = 42, OpTypeFloat = 22;
    Reflection r;
    uint32_t function = 0, returns = 0, last_op = 0;  // the function being read
    std::map<uint32_t, uint32_t> pointee;             // push-constant pointer type -> struct
    const size_t n = k.bytes / 4;
    REQUIRE(n > 5);
    REQUIRE(k.words[0] == 0x07230203u);
    for (size_t i = 5; i < n;) {
        const uint32_t op = k.words[i] & 0xFFFF, len = k.words[i] >> 16;
        REQUIRE(len > 0);
        const uint32_t* w = k.words + i;
        if (op == OpName) r.names[w[1]] = literal(w + 2, len - 2);
        if (op == OpMemberName) r.members[{w[1], w[2]}] = literal(w + 3, len - 3);
        if (op == OpDecorate && w[2] == SpecId) r.spec_ids[w[1]] = w[3];
        if (op == OpMemberDecorate && w[3] == Offset) r.offsets[{w[1], w[2]}] = w[4];
        if (op == OpTypePointer && w[2] == PushConstant) pointee[w[1]] = w[3];
        if (op == OpVariable && w[3] == PushConstant) r.push_struct = pointee[w[1]];
        if (op == OpDecorate && w[2] == BuiltIn && w[3] == WorkgroupSize) r.workgroup_size = w[1];
        if (op == OpTypeStruct) r.struct_members[w[1]].assign(w + 2, w + len);
        if (op == OpTypeArray) r.array_lengths[w[1]] = w[3];
        if (op == OpConstant && len == 4) r.constants[w[2]] = w[3];
        if (op == OpFunction) function = w[2], returns = 0;
        if (op == OpReturn || op == OpReturnValue) ++returns;
        if (op == OpFunctionEnd && (returns > 1 || (last_op != OpReturn && last_op != OpReturnValue)))
            r.early_returns.insert(function);
        if (op == OpFunctionCall) r.callees.push_back(w[3]);
        last_op = op;
        if (op == OpDecorate && w[2] == NoContraction) ++r.no_contraction;
        if (op == OpTypeFloat) r.floats = true;
        i += len;
    }
    for (size_t i = 5; i < n;) {  // a second walk: the readers of that id
        const uint32_t op = k.words[i] & 0xFFFF, len = k.words[i] >> 16;
        const bool about_it = op == OpName || op == OpDecorate || op == OpSpecConstantComposite;
        for (uint32_t j = 1; j < len && !about_it && r.workgroup_size != 0; ++j)
            if (k.words[i + j] == r.workgroup_size) {
                ++r.workgroup_size_reads;
                break;
            }
        i += len;
    }
    return r;
}

// The constants of scan_common.glsl, then each scan kernel's own (ids may repeat across kernels).
std::map<std::string, uint32_t> scan_spec(std::initializer_list<std::pair<const std::string, uint32_t>> own) {
    std::map<std::string, uint32_t> spec = {{"OP", SCAN_SPEC_OP},
                                            {"REVERSE", SCAN_SPEC_REVERSE},
                                            {"EXCLUSIVE", SCAN_SPEC_EXCLUSIVE},
                                            {"MODE", SCAN_SPEC_MODE},
                                            {"HAS_CARRY", SCAN_SPEC_HAS_CARRY},
                                            {"LOCKSTEP", ABI_SPEC_LOCKSTEP},
                                            {"OTHER_DIMS", SCAN_SPEC_OTHER_DIMS},
                                            {"IN_PLACE", SCAN_SPEC_IN_PLACE},
                                            {"NAN_IGNORE", SCAN_SPEC_NAN_IGNORE},
                                            {"SIGNED", SCAN_SPEC_SIGNED},
                                            {"LINE_MAJOR", ABI_SPEC_LINE_MAJOR}};
    spec.insert(own);
    return spec;
}
const std::map<std::string, uint32_t> kSerialScanSpec =
    scan_spec({{"VEC_K", SCAN_SPEC_VEC_K},
               {"VEC_F", SCAN_SPEC_VEC_F},
               {"VEC_AXIS_INNER", SCAN_SPEC_VEC_AXIS_INNER},
               {"WALK_TOP", SCAN_SPEC_WALK_TOP}});
const std::map<std::string, uint32_t> kChainedScanSpec =
    scan_spec({{"ROUNDS_SPEC", SCAN_SPEC_ROUNDS}, {"SPIN_LIMIT", SCAN_SPEC_SPIN_LIMIT}});
const std::map<std::string, uint32_t> kCanonicalTileSpec = scan_spec({{"WALK_TOP", SCAN_SPEC_WALK_TOP}});
const std::map<std::string, uint32_t> kScanWords = {
    {"fibers", SCAN_W_FIBERS},         {"len", SCAN_W_LEN},           {"chunk_len", SCAN_W_CHUNK_LEN},
    {"item_end", SCAN_W_ITEM_END},     {"axis_in", SCAN_W_AXIS_IN},   {"axis_out", SCAN_W_AXIS_OUT},
    {"base_in", SCAN_W_BASE_IN},       {"base_out", SCAN_W_BASE_OUT}, {"base_part", SCAN_W_BASE_PART},
    {"item_begin", SCAN_W_ITEM_BEGIN}, {"size", SCAN_W_SIZE},         {"stride_in", SCAN_W_STRIDE_IN},
    {"stride_out", SCAN_W_STRIDE_OUT}};
const std::map<std::string, uint32_t> kReduceSpec = {{"FUNCTION", REDUCE_SPEC_FUNCTION},
                                                     {"SRC_PARTIALS", REDUCE_SPEC_SRC_PARTIALS},
                                                     {"DST_PARTIALS", REDUCE_SPEC_DST_PARTIALS},
                                                     {"TIE_LAST", REDUCE_SPEC_TIE_LAST},
                                                     {"SIGNED", REDUCE_SPEC_SIGNED},
                                                     {"INDEX64", REDUCE_SPEC_INDEX64},
                                                     {"VEC_K", REDUCE_SPEC_VEC_K},
                                                     {"VEC_F", REDUCE_SPEC_VEC_F},
                                                     {"LOCKSTEP", ABI_SPEC_LOCKSTEP},
                                                     {"KEPT_DIMS", REDUCE_SPEC_KEPT_DIMS},
                                                     {"LINE_DIMS", REDUCE_SPEC_LINE_DIMS},
                                                     {"NAN_IGNORE", REDUCE_SPEC_NAN_IGNORE},
                                                     {"WALK_TOP", REDUCE_SPEC_WALK_TOP},
                                                     {"LINE_MAJOR", ABI_SPEC_LINE_MAJOR}};
const std::map<std::string, uint32_t> kReduceWords = {{"n", REDUCE_W_N},
                                                      {"chunk_len", REDUCE_W_CHUNK_LEN},
                                                      {"item_end", REDUCE_W_ITEM_END},
                                                      {"base_in", REDUCE_W_BASE_IN},
                                                      {"base_out", REDUCE_W_BASE_OUT},
                                                      {"item_begin", REDUCE_W_ITEM_BEGIN},
                                                      {"n_total", REDUCE_W_N_TOTAL},
                                                      {"correction", REDUCE_W_CORRECTION},
                                                      {"dim", REDUCE_W_DIM}};

}  // namespace

TEST_CASE("every kernel's specialization constants and push block match kernel_abi.h", "[unit]") {
    REQUIRE(kKernelBinaryCount >= 30);
    for (size_t i = 0; i < kKernelBinaryCount; ++i) {
        const KernelBinary& k = kKernelBinaries[i];
        const bool scan = is_scan(k.kernel);
        INFO(name(k.kernel) << " " << name(k.storage));
        const Reflection r = reflect(k);
        const auto& spec =
            !scan                             ? kReduceSpec
            : k.kernel == Kernel::scan_serial ? kSerialScanSpec
            : k.kernel == Kernel::scan_canonical_tile || k.kernel == Kernel::scan_canonical_tile_staged
                ? kCanonicalTileSpec
                : kChainedScanSpec;
        const auto& words = scan ? kScanWords : kReduceWords;
        size_t named_constants = 0;
        for (const auto& [id, spec_id] : r.spec_ids) {
            auto name = r.names.find(id);
            if (name == r.names.end()) {  // the workgroup size (local_size_x_id) has no name
                CHECK(spec_id == ABI_SPEC_WORKGROUP);
                continue;
            }
            INFO(name->second);
            REQUIRE(spec.count(name->second) == 1);
            CHECK(spec_id == spec.at(name->second));
            ++named_constants;
        }
        CHECK(named_constants >= 5);
        REQUIRE(r.push_struct != 0);
        size_t members = 0;
        for (const auto& [key, offset] : r.offsets) {
            if (key.first != r.push_struct) continue;
            const std::string& name = r.members.at(key);
            INFO(name);
            REQUIRE(words.count(name) == 1);
            CHECK(offset == 4 * words.at(name));
            ++members;
        }
        CHECK(members == words.size());
        // REDUCE's dim words: an array of REDUCE_MAX_DIM_WORDS words, which REDUCE_D_* index.
        if (!scan) {
            uint32_t dim_member = UINT32_MAX;
            for (const auto& [key, member] : r.members)
                if (key.first == r.push_struct && member == "dim") dim_member = key.second;
            REQUIRE(dim_member != UINT32_MAX);
            const uint32_t array = r.struct_members.at(r.push_struct).at(dim_member);
            CHECK(r.constants.at(r.array_lengths.at(array)) == REDUCE_MAX_DIM_WORDS);
        }
        // The serial kernels size their items by the workgroup (work_items.glsl): the specialised size
        // must be what they read. (GLSL read before the local_size declaration sees (1, 1, 1), a
        // constant, and the serial kernels then skipped most items of large dispatches.)
        if (k.kernel == Kernel::scan_serial || k.kernel == Kernel::reduce_serial ||
            k.kernel == Kernel::reduce_serial_canonical) {
            REQUIRE(r.workgroup_size != 0);
            CHECK(r.workgroup_size_reads > 0);
        }
    }
}

// spirv-opt rewrote every kernel at build time (cmake/spirv_embed.cmake): every function with a single
// return at its end is inlined into its callers (a call left is to a function with an early return,
// which the passes keep by design), so that a driver has less to inline before specialization prunes
// it; and the `precise` steps of the compensated arithmetic (compensated.glsl) are still NoContraction,
// copied to every place they were inlined (a pass that dropped them would let a driver fuse or reorder
// them).
TEST_CASE("every kernel was inlined at build time, its precise steps kept", "[unit]") {
    size_t float_kernels = 0, calls = 0;
    for (size_t i = 0; i < kKernelBinaryCount; ++i) {
        const KernelBinary& k = kKernelBinaries[i];
        INFO(name(k.kernel) << " " << name(k.storage));
        const Reflection r = reflect(k);
        for (uint32_t callee : r.callees) {
            INFO("a call to function %" << callee << (r.names.count(callee) ? " " + r.names.at(callee) : ""));
            CHECK(r.early_returns.count(callee) == 1);
        }
        calls += r.callees.size();
        if (!r.floats) continue;
        ++float_kernels;
        CHECK(r.no_contraction > 0);
        // The kernels that fold compensated sums and products: compensated.glsl's 20 precise steps,
        // inlined twice or more (the plain reduce kernels fold MIN, MAX and the arg functions only).
        if (k.kernel != Kernel::reduce_serial && k.kernel != Kernel::reduce_tree)
            CHECK(r.no_contraction >= 40);
    }
    CHECK(float_kernels >= 15);
    CHECK(calls > 0);  // (the functions with early returns: the check above has calls to look at)
}

TEST_CASE("the scan and reduce parameters place every field at its kernel_abi.h slot", "[unit]") {
    Problem layout;
    layout.kept = {{5, 100, 200}, {6, 1, 2}};
    layout.line = {{7, 30, 40}};
    const ScanParams common{.workgroup = 64,
                            .op = SCAN_OP_PRODUCT,
                            .reverse = true,
                            .exclusive = true,
                            .mode = SCAN_MODE_REDUCE,
                            .has_carry = true,
                            .in_place = true,
                            .layout = layout};
    const SerialScanParams scan{.scan = common, .vec_k = 4, .vec_f = 2, .vec_axis_inner = true};
    const SpecConstants s = scan.to_spec();
    CHECK(s == SpecConstants{64, 1, 1, 1, 1, 1, 4, 2, 1, 0, 0, 2, 1, 0});  // ids 0..13
    const TileScanParams tile{.scan = common, .rounds = 3, .spin_limit = 9};
    CHECK(tile.to_spec() == SpecConstants{64, 1, 1, 1, 1, 1, 3, 0, 0, 0, 0, 2, 1, 9});
    CHECK(tile.to_push() == scan.to_push());
    const PushWords w = scan.to_push();
    CHECK(w[0] == 30);  // fibers
    CHECK(w[1] == 7);   // len
    CHECK(w[4] == 30);  // axis_in
    CHECK(w[5] == 40);  // axis_out
    CHECK(w[11] == 5);  // size[0]
    CHECK(w[12] == 6);
    CHECK(w[18] == 100);  // stride_in[0]
    CHECK(w[19] == 1);
    CHECK(w[25] == 200);  // stride_out[0]
    CHECK(w[26] == 2);

    Problem folded;
    folded.kept = {{5, 100, 200}, {6, 1, 2}};
    folded.line = {{3, 11, 0}, {4, 12, 0}, {2, 13, 0}};
    const ReduceParams reduce{.workgroup = 128,
                              .function = REDUCE_F_ARGMIN,
                              .src_partials = true,
                              .dst_partials = true,
                              .tie_last = true,
                              .is_signed = true,
                              .index64 = true,
                              .nan_ignore = true,
                              .vec_k = 3,
                              .vec_f = 5,
                              .layout = folded,
                              .n = 24,
                              .n_total = 48};
    CHECK(reduce.to_spec() == SpecConstants{128, 1, 1, 1, 1, 1, 1, 3, 5, 0, 0, 2, 3, 1});
    const PushWords r = reduce.to_push();
    CHECK(r[0] == 24);  // n
    CHECK(r[7] == 48);  // n_total
    // dim: (size, stride_in, stride_out) per kept dimension, then (size, stride_in) per reduced one.
    const std::vector<uint32_t> dim(r.begin() + 8, r.end());
    CHECK(dim == std::vector<uint32_t>{5, 100, 200, 6, 1, 2, 3, 11, 4, 12, 2, 13,
                                       0, 0,   0,   0, 0, 0, 0, 0,  0, 0,  0, 0});
}

// The knob table (see policy_tuning.hpp). Each range keeps every plan valid on any device: workgroups are
// still capped by the device's limits where the planners choose them, no serial chunk passes 32,768
// positions (lavapipe ends a loop after 65,535 trips) and none is shorter than 2 (a level of chunks of one
// position would leave as many partials as positions, and the planners recurse on the partials).
#include "core/policy_tuning.hpp"

#include "core/canonical.hpp"
#include "core/errors.hpp"

#include <algorithm>
#include <bit>
#include <charconv>

namespace vkdml::detail {

namespace {

struct Knob {
    TuningKnob public_part;
    uint64_t (*get)(const Policy&);
    void (*set)(Policy&, uint64_t);
};

#define VKDML_KNOB(member, type)                                                 \
    [](const Policy& p) -> uint64_t { return static_cast<uint64_t>(p.member); }, \
        [](Policy& p, uint64_t v) { p.member = static_cast<type>(v); }

constexpr uint64_t kMaxItems = uint64_t(1) << 24;

const Knob kKnobs[] = {
    {{"scan.tile_workgroup",
      "scan_chained's and scan_canonical_tile's invocations per workgroup, at most (fewer for a short line, "
      "at most the device's); CPU and GPU rows 256",
      32, 1024, true},
     VKDML_KNOB(scan.tile_workgroup, uint32_t)},
    {{"scan.tile_bytes",
      "scan_chained: about this many bytes of elements per tile (1 to 16 vectors per invocation); CPU and "
      "GPU rows 16384",
      16, 1 << 20, false},
     VKDML_KNOB(scan.tile_bytes, uint32_t)},
    {{"scan.tile_min_length",
      "the cooperative scans: inner-axis lines shorter than this run serially; CPU and GPU rows 64", 64,
      UINT32_MAX, false},
     VKDML_KNOB(scan.tile_min_length, uint32_t)},
    {{"scan.tile_target_items",
      "the cooperative scans: chunks of whole tiles wanted over all lines (more than one per line: "
      "reduce-then-scan or a chained pass); CPU rows 8, GPU rows 512",
      1, kMaxItems, false},
     VKDML_KNOB(scan.tile_target_items, uint64_t)},
    {{"scan.tile_max_tiles",
      "the cooperative scans: tiles per chunk, at most (scan_canonical_tile's chunks are 32^n elements "
      "from 32^3 up, whole tiles); CPU and GPU rows 16",
      1, 16, false},
     VKDML_KNOB(scan.tile_max_tiles, uint32_t)},
    {{"scan.chained",
      "1: scan_chained's lines of several tiles in one chained pass (decoupled look-back), 0: "
      "reduce-then-scan; CPU rows 0, GPU rows 1",
      0, 1, false},
     [](const Policy& p) -> uint64_t { return p.scan.chained ? 1 : 0; },
     [](Policy& p, uint64_t v) { p.scan.chained = v != 0; }},
    {{"scan.chained_spin_limit",
      "the chained pass: flag reads of a silent predecessor before its tile is reduced here (at least 1: "
      "with none, every tile would walk back to its line's start); CPU and GPU rows 64",
      1, 4096, false},
     VKDML_KNOB(scan.chained_spin_limit, uint32_t)},
    {{"scan.canonical_stage",
      "1: scan_canonical_tile's whole tiles through workgroup memory, coalesced "
      "(scan_canonical_tile_staged), "
      "0: each invocation loads and stores its own block's vectors; CPU and GPU rows 0",
      0, 1, false},
     [](const Policy& p) -> uint64_t { return p.scan.canonical_stage ? 1 : 0; },
     [](Policy& p, uint64_t v) { p.scan.canonical_stage = v != 0; }},
    {{"scan.canonical_chained",
      "1: scan_canonical_tile's lines of several tiles in one pass, the look-back over the canonical "
      "tree's totals (scan_canonical_chained), 0: reduce-then-scan; CPU and GPU rows 0",
      0, 1, false},
     [](const Policy& p) -> uint64_t { return p.scan.canonical_chained ? 1 : 0; },
     [](Policy& p, uint64_t v) { p.scan.canonical_chained = v != 0; }},
    {{"scan.serial_target_items",
      "scan_serial: chunks (items) wanted over all lines; CPU rows 256, GPU rows 65536", 1, kMaxItems, false},
     VKDML_KNOB(scan.serial.target_items, uint64_t)},
    {{"scan.serial_min_len", "scan_serial: positions per chunk, at least; CPU rows 1024, GPU rows 32", 2,
      kMaxSerialTrips, false},
     VKDML_KNOB(scan.serial.min_len, uint64_t)},
    {{"scan.serial_max_len", "scan_serial: positions per chunk, at most; CPU rows 8192, GPU rows 512", 2,
      kMaxSerialTrips, false},
     VKDML_KNOB(scan.serial.max_len, uint64_t)},
    {{"scan.row_block_vectors",
      "scan_serial: vectors per block of whole short rows, at most; CPU rows 16, GPU rows 4", 1, 16, false},
     VKDML_KNOB(scan.row_block_vectors, uint32_t)},
    {{"scan.mark_max_len",
      "scan_serial's marks of a cummax or cummin index output: positions per chunk, at most, under the "
      "serial chunks (1: an element per invocation, neighbours side by side); CPU and GPU rows 32768",
      1, kMaxSerialTrips, false},
     VKDML_KNOB(scan.mark_max_len, uint64_t)},
    {{"reduce.tree_max_workgroup",
      "reduce_tree: invocations per workgroup, at most (at most the device's); CPU and GPU rows 256", 32,
      1024, true},
     VKDML_KNOB(reduce.tree_max_workgroup, uint32_t)},
    {{"reduce.tree_min_workgroup",
      "reduce_tree: invocations per workgroup, at least (and a subgroup); CPU and GPU rows 32", 32, 1024,
      true},
     VKDML_KNOB(reduce.tree_min_workgroup, uint32_t)},
    {{"reduce.tree_max_items",
      "reduce_tree: elements per invocation and chunk, at most; CPU rows 64, GPU rows 256", 1, 4096, false},
     VKDML_KNOB(reduce.tree_max_items, uint32_t)},
    {{"reduce.tree_target_items",
      "reduce_tree: workgroups wanted over all outputs; CPU rows 8, GPU rows 8 per compute unit where the "
      "device states its count (else 2048)",
      1, kMaxItems, false},
     VKDML_KNOB(reduce.tree_target_items, uint64_t)},
    {{"reduce.tree_partials_target_items",
      "reduce_tree folding a previous pass's states: workgroups wanted; CPU rows 8, GPU rows 1", 1, kMaxItems,
      false},
     VKDML_KNOB(reduce.tree_partials_target_items, uint64_t)},
    {{"reduce.tree_min_length",
      "reduce_tree: contiguous folds shorter than this run serially; CPU and GPU rows 64", 64, UINT32_MAX,
      false},
     VKDML_KNOB(reduce.tree_min_length, uint64_t)},
    {{"reduce.serial_target_items",
      "reduce_serial: chunks (items) wanted over all outputs; CPU rows 2048, GPU rows 131072", 1, kMaxItems,
      false},
     VKDML_KNOB(reduce.serial.target_items, uint64_t)},
    {{"reduce.serial_min_len", "reduce_serial: positions per chunk, at least; CPU rows 1024, GPU rows 16", 2,
      kMaxSerialTrips, false},
     VKDML_KNOB(reduce.serial.min_len, uint64_t)},
    {{"reduce.serial_max_len", "reduce_serial: positions per chunk, at most; CPU rows 8192, GPU rows 256", 2,
      kMaxSerialTrips, false},
     VKDML_KNOB(reduce.serial.max_len, uint64_t)},
    {{"reduce.row_block_vectors",
      "reduce_serial: vectors per block of whole short rows, at most; CPU rows 16, GPU rows 4", 1, 16, false},
     VKDML_KNOB(reduce.row_block_vectors, uint32_t)},
};
#undef VKDML_KNOB

const Knob* find_knob(std::string_view name) {
    for (const Knob& k : kKnobs)
        if (k.public_part.name == name) return &k;
    return nullptr;
}

std::string knob_names() {
    std::string s;
    for (const Knob& k : kKnobs) s += (s.empty() ? "" : ", ") + std::string(k.public_part.name);
    return s;
}

/// A setting against its knob alone: known, in range.
Status check_setting(const Tuning& t, std::string_view who) {
    const Knob* k = find_knob(t.knob);
    if (!k)
        return make_error(ErrorCode::invalid_argument, who, "unknown knob '", t.knob,
                          "' (the knobs: ", knob_names(), ")");
    const TuningKnob& p = k->public_part;
    if (t.value < p.min || t.value > p.max || (p.power_of_two && !std::has_single_bit(t.value)))
        return make_error(ErrorCode::invalid_argument, who, t.knob, " is ", t.value, ": it takes ",
                          p.power_of_two ? "a power of two" : "a value", " from ", p.min, " to ", p.max);
    return {};
}

/// Every setting against its knob alone, and no knob set twice.
Status check_settings(std::span<const Tuning> tuning, std::string_view who) {
    for (size_t i = 0; i < tuning.size(); ++i) {
        if (auto st = check_setting(tuning[i], who); !st) return st;
        for (size_t j = 0; j < i; ++j)
            if (tuning[j].knob == tuning[i].knob)
                return make_error(ErrorCode::invalid_argument, who, tuning[i].knob, " is set twice");
    }
    return {};
}

}  // namespace

Status check_tuning(std::span<const Tuning> tuning, const Policy& rows, std::string_view who) {
    if (auto st = check_settings(tuning, who); !st) return st;
    Policy p = rows;
    apply_tuning(tuning, p);
    const struct {
        const ChunkPolicy& chunks;
        const char* least;
        const char* most;
    } pairs[] = {{p.scan.serial, "scan.serial_min_len", "scan.serial_max_len"},
                 {p.reduce.serial, "reduce.serial_min_len", "reduce.serial_max_len"}};
    for (const auto& c : pairs)
        if (c.chunks.min_len > c.chunks.max_len)
            return make_error(ErrorCode::invalid_argument, who, c.least, " ", c.chunks.min_len, " is above ",
                              c.most, " ", c.chunks.max_len, " (", p.name, " rows)");
    if (p.reduce.tree_min_workgroup > p.reduce.tree_max_workgroup)
        return make_error(ErrorCode::invalid_argument, who, "reduce.tree_min_workgroup ",
                          p.reduce.tree_min_workgroup, " is above reduce.tree_max_workgroup ",
                          p.reduce.tree_max_workgroup, " (", p.name, " rows)");
    return {};
}

void apply_tuning(std::span<const Tuning> tuning, Policy& p) {
    for (const Tuning& t : tuning)
        if (const Knob* k = find_knob(t.knob)) k->set(p, t.value);
}

bool tuning_value(const Policy& p, std::string_view name, uint64_t& value) {
    const Knob* k = find_knob(name);
    if (k) value = k->get(p);
    return k != nullptr;
}

std::string tuning_text(std::span<const Tuning> tuning) {
    std::string s;
    for (const Tuning& t : tuning) s += (s.empty() ? "" : ",") + t.knob + "=" + std::to_string(t.value);
    return s;
}

}  // namespace vkdml::detail

namespace vkdml {

std::span<const TuningKnob> tuning_knobs() noexcept {
    static const auto knobs = [] {
        std::vector<TuningKnob> v;
        for (const auto& k : detail::kKnobs) v.push_back(k.public_part);
        return v;
    }();
    return knobs;
}

std::string format_tuning(std::span<const Tuning> tuning) {
    return detail::tuning_text(tuning);
}

Result<std::vector<Tuning>> parse_tuning(std::string_view text) {
    std::vector<Tuning> tuning;
    while (!text.empty()) {
        const size_t comma = text.find(',');
        const std::string_view item = text.substr(0, comma);
        text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
        const size_t eq = item.find('=');
        if (item.empty() || eq == std::string_view::npos || eq == 0)
            return detail::make_error(ErrorCode::invalid_argument, "tuning: '", item,
                                      "' is not knob=value (e.g. scan.tile_workgroup=512)");
        const std::string_view digits = item.substr(eq + 1);
        Tuning t{std::string(item.substr(0, eq)), 0};
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), t.value);
        if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size())
            return detail::make_error(ErrorCode::invalid_argument, "tuning: ", t.knob, "'s value '", digits,
                                      "' is not a decimal number");
        tuning.push_back(std::move(t));
        if (comma != std::string_view::npos && text.empty())
            return detail::make_error(ErrorCode::invalid_argument, "tuning: a ',' ends the text");
    }
    // Each against its knob alone (the rows are checked where the tuning is applied).
    if (auto st = detail::check_settings(tuning, "tuning: "); !st) return st.error();
    return tuning;
}

}  // namespace vkdml

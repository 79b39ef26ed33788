// The knobs of the policy rows (policy.hpp) that a Tuning sets by name: one table of names, ranges,
// getters and setters, read by tuning_knobs and parse_tuning (the public side), by the checks of a test
// device's and describe_plan's tuning, and by select_policy, which applies it.
#pragma once

#include "core/policy.hpp"

#include <span>
#include <string>
#include <string_view>

namespace vkdml::detail {

/// Checks each setting of `tuning` against its knob (a known name, in range, set once) and against the
/// policy `rows` it will be applied to (no chunk length's or tree workgroup's least above its most once
/// applied); `who` begins each message ("create_device: tuning: ...").
Status check_tuning(std::span<const Tuning> tuning, const Policy& rows, std::string_view who);

/// Sets the knobs of `p` that `tuning` (checked) names.
void apply_tuning(std::span<const Tuning> tuning, Policy& p);

/// The value knob `name` has in `p`; false where no knob has that name.
bool tuning_value(const Policy& p, std::string_view name, uint64_t& value);

/// "scan.tile_workgroup=512,reduce.tree_max_items=64", as parse_tuning reads it (empty for none).
std::string tuning_text(std::span<const Tuning> tuning);

}  // namespace vkdml::detail

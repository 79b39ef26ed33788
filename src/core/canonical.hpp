// The canonical association's chunks (docs/internals.md, "Determinism"): where a plan cuts a float line of
// compensated sums or products, so that its passes make the same tree as one walk (glsl/
// canonical_walk.glsl). Blocks of 32 leaves fold left, 32-ary nodes above them; a chunk of a line of
// several chunks is one node, 32^n leaves.
#pragma once

#include <cstdint>

namespace vkdml::detail {

/// Children per node (and leaves per block).
inline constexpr uint64_t kCanonicalArity = 32;
/// Leaves of a serial walk's chunk at most: canonical_walk.glsl's four levels.
inline constexpr uint64_t kCanonicalMaxLeaves = uint64_t(1) << 20;
/// Positions a serial chunk walks at most: lavapipe ends a loop after 65,535 trips.
inline constexpr uint64_t kMaxSerialTrips = 32768;

/// How canonical_chunk picks between the two powers of 32 around the policy's chunk: the longer one
/// where it still leaves half the policy's chunks or more (scans: measured), or the nearer one on a
/// logarithmic scale (reductions: fewer, longer chunks where the policy's lies midway).
enum class ChunkRounding { half_the_chunks, nearest };

/// The chunk length, in positions of `steps` leaves, of a line of `positions` positions that a policy cuts
/// into chunks of `want`: 32^n leaves, at most `most` positions and `max_leaves` leaves, the longest up to
/// the policy's length or the next longer one by `rounding`. Where `most` positions hold fewer than 32
/// leaves (windows of a few KiB: tests), `want` itself: the results are right, their association is the
/// plan's.
uint64_t canonical_chunk(uint64_t want, uint64_t steps, uint64_t most, uint64_t max_leaves,
                         uint64_t positions, ChunkRounding rounding);

/// Positions a serial canonical walk (reduce_serial_canonical) takes per chunk at most, with positions of
/// `steps` leaves: lavapipe ends a loop after 65,535 trips, its nested loops' counted together, and the
/// walk makes, per group of max(1, 32 / steps) positions (a block of 32 leaves, after which it climbs),
/// a trip per position, one to leave the inner loop and one of the outer loop.
uint64_t canonical_serial_positions(uint64_t steps);

/// The node level of a chunk of `leaves` leaves: the least top with 32^(top + 1) >= leaves.
uint32_t canonical_top(uint64_t leaves);

}  // namespace vkdml::detail

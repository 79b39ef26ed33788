// Canonical chunks (canonical.hpp).
#include "core/canonical.hpp"

#include <algorithm>

namespace vkdml::detail {

uint64_t canonical_chunk(uint64_t want, uint64_t steps, uint64_t most, uint64_t max_leaves,
                         uint64_t positions, ChunkRounding rounding) {
    auto allowed = [&](uint64_t span) { return span <= max_leaves && span / steps <= most; };
    if (!allowed(kCanonicalArity)) return want;
    const uint64_t want_leaves = want * steps;
    uint64_t span = kCanonicalArity;
    while (span * kCanonicalArity <= want_leaves && allowed(span * kCanonicalArity)) span *= kCanonicalArity;
    const uint64_t longer = span * kCanonicalArity;
    if (!allowed(longer)) return span / steps;
    const bool take_longer =
        rounding == ChunkRounding::nearest
            ? double(want_leaves) * double(want_leaves) >
                  double(span) * double(longer)  // want/span > longer/want
            : 2 * ((positions + longer / steps - 1) / (longer / steps)) >= (positions + want - 1) / want;
    return (take_longer ? longer : span) / steps;
}

uint64_t canonical_serial_positions(uint64_t steps) {
    const uint64_t group = std::max<uint64_t>(1, kCanonicalArity / std::max<uint64_t>(steps, 1));
    return std::min(kMaxSerialTrips, 65535 * group / (group + 2));
}

uint32_t canonical_top(uint64_t leaves) {
    uint32_t top = 0;
    for (uint64_t span = kCanonicalArity; span < leaves; span *= kCanonicalArity) ++top;
    return top;
}

}  // namespace vkdml::detail

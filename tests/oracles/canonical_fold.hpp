// canonical_fold.hpp — the fixed float association docs/internals.md ("Determinism") plans for every
// kernel, on the host: the definition the kernels will be held to, bit for bit.
//
// Values are compensated pairs combined exactly as glsl/compensated.glsl does (TwoSum for sums,
// Veltkamp-split TwoProduct for products), in float or double. The association is a function of element
// indices alone: blocks of kCanonicalArity elements fold left from the empty pair; a level-k node folds
// its (up to) kCanonicalArity level-(k−1) children left from the empty pair; a reduction is the root. A
// scan's output at i is the exclusive prefix of i's block combined (pair with pair) with the left fold of
// the block's elements to i from the empty pair (exclusive: the output at i − 1, the prefix itself at a
// block's first element), where a node's exclusive prefix is its parent's, folded left with the totals
// of its earlier siblings. Every node total and every prefix is normalized when made (pair_normalized: the
// form in which a kernel stores it between passes), so a chunk boundary changes nothing. Two
// implementations: the definition over whole levels (canonical_*), and a
// walker in one pass with one running pair per level (CanonicalWalker), as a serial kernel will run it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vkdml_test {

/// Children per node of the canonical tree (and elements per block).
inline constexpr size_t kCanonicalArity = 32;

/// A compensated value: hi rounded at every step, lo the sum of hi's rounding errors.
template <class T>
struct CompensatedPair {
    T hi;
    T lo;
};

enum class CanonicalOp { sum, product };

/// The result of a fold of `x` in the canonical association, rounded once (compensated.glsl's
/// pair_value). An empty `x` gives the identity.
template <class T>
T canonical_reduce(CanonicalOp op, const std::vector<T>& x);

/// The scan of `x` in the canonical association, each output rounded once; exclusive: the first output
/// is the identity (+0 for sums).
template <class T>
std::vector<T> canonical_scan(CanonicalOp op, const std::vector<T>& x, bool exclusive);

/// The same scan by one pass with a running pair per level: the serial kernels' form.
template <class T>
std::vector<T> canonical_scan_walk(CanonicalOp op, const std::vector<T>& x, bool exclusive);

/// A plain left fold from the empty pair (the canonical association for at most kCanonicalArity elements).
template <class T>
T sequential_fold(CanonicalOp op, const std::vector<T>& x);

}  // namespace vkdml_test

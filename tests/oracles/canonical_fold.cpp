// canonical_fold.cpp — the canonical association on the host (canonical_fold.hpp).
#include "canonical_fold.hpp"

#include <cmath>
#include <limits>

namespace vkdml_test {
namespace {

template <class T>
using Pair = CompensatedPair<T>;

// Each step below is one rounded IEEE operation in order, as compensated.glsl's `precise` lines are
// (x86-64's SSE arithmetic, no contraction into fma: the baseline ISA has none).
template <class T>
T two_sum_error(T a, T b, T s) {
    const T z = s - a;
    return (a - (s - z)) + (b - z);
}

template <class T>
T two_product_error(T a, T b, T p) {
    const T splitter = sizeof(T) == 8 ? T(134217729.0) : T(4097.0);
    const T ca = splitter * a;
    const T ah = ca - (ca - a);
    const T al = a - ah;
    const T cb = splitter * b;
    const T bh = cb - (cb - b);
    const T bl = b - bh;
    const T e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
    return std::fabs(e) < std::numeric_limits<T>::infinity() ? e : T(0);
}

template <class T>
Pair<T> identity(CanonicalOp op) {
    return op == CanonicalOp::sum ? Pair<T>{-T(0), T(0)} : Pair<T>{T(1), T(0)};
}

template <class T>
Pair<T> combine_value(CanonicalOp op, Pair<T> a, T b) {
    if (op == CanonicalOp::sum) {
        const T s = a.hi + b;
        return {s, a.lo + two_sum_error(a.hi, b, s)};
    }
    const T p = a.hi * b;
    return {p, a.lo * b + two_product_error(a.hi, b, p)};
}

template <class T>
Pair<T> combine_pair(CanonicalOp op, Pair<T> a, Pair<T> b) {
    if (op == CanonicalOp::sum) {
        const T s = a.hi + b.hi;
        return {s, (a.lo + b.lo) + two_sum_error(a.hi, b.hi, s)};
    }
    const T p = a.hi * b.hi;
    return {p, ((a.lo * b.hi + a.hi * b.lo) + a.lo * b.lo) + two_product_error(a.hi, b.hi, p)};
}

// The pair as stored between levels (compensated.glsl's pair_normalized): hi + lo rounded once and its
// exact remainder; (hi, 0) where lo is 0 or not finite.
template <class T>
Pair<T> normalized(Pair<T> a) {
    if (!(a.lo != T(0) && std::fabs(a.lo) < std::numeric_limits<T>::infinity())) return {a.hi, T(0)};
    const T v = a.hi + a.lo;
    return {v, a.lo - (v - a.hi)};
}

template <class T>
T value_of(Pair<T> a) {
    const T v = a.hi + a.lo;
    return std::fabs(v) > T(0) ? v : a.hi;
}

// What an exclusive scan writes at position 0: +0 for sums, 1 for products.
template <class T>
T exclusive_first(CanonicalOp op) {
    return op == CanonicalOp::sum ? T(0) : T(1);
}

// Levels of the tree over n elements: the smallest h with kCanonicalArity^h >= n (at least 1).
size_t levels_for(size_t n) {
    size_t h = 1;
    for (size_t span = kCanonicalArity; span < n; span *= kCanonicalArity) ++h;
    return h;
}

// Node totals per level: totals[0] the blocks' (level 1), totals[k] level k + 1's.
template <class T>
std::vector<std::vector<Pair<T> > > node_totals(CanonicalOp op, const std::vector<T>& x) {
    std::vector<std::vector<Pair<T> > > totals(1);
    for (size_t b = 0; b * kCanonicalArity < x.size(); ++b) {
        Pair<T> t = identity<T>(op);
        for (size_t i = b * kCanonicalArity; i < x.size() && i < (b + 1) * kCanonicalArity; ++i)
            t = combine_value(op, t, x[i]);
        totals[0].push_back(normalized(t));
    }
    while (totals.back().size() > 1) {
        const std::vector<Pair<T> >& below = totals.back();
        std::vector<Pair<T> > level;
        for (size_t j = 0; j * kCanonicalArity < below.size(); ++j) {
            Pair<T> t = identity<T>(op);
            for (size_t c = j * kCanonicalArity; c < below.size() && c < (j + 1) * kCanonicalArity; ++c)
                t = combine_pair(op, t, below[c]);
            level.push_back(normalized(t));
        }
        totals.push_back(std::move(level));
    }
    return totals;
}

}  // namespace

template <class T>
T sequential_fold(CanonicalOp op, const std::vector<T>& x) {
    Pair<T> run = identity<T>(op);
    for (T v : x) run = combine_value(op, run, v);
    return value_of(run);
}

template <class T>
T canonical_reduce(CanonicalOp op, const std::vector<T>& x) {
    if (x.empty()) return value_of(identity<T>(op));
    return value_of(node_totals(op, x).back()[0]);
}

template <class T>
std::vector<T> canonical_scan(CanonicalOp op, const std::vector<T>& x, bool exclusive) {
    std::vector<T> y(x.size());
    if (x.empty()) return y;
    const auto totals = node_totals(op, x);
    // Exclusive prefixes top down: the root's is the identity; a node's is its parent's, folded left
    // with its earlier siblings' totals.
    std::vector<std::vector<Pair<T> > > prefix(totals.size());
    prefix.back() = {identity<T>(op)};
    for (size_t k = totals.size() - 1; k-- > 0;) {
        prefix[k].resize(totals[k].size());
        for (size_t j = 0; j < totals[k].size(); ++j)
            prefix[k][j] = j % kCanonicalArity == 0
                               ? prefix[k + 1][j / kCanonicalArity]
                               : normalized(combine_pair(op, prefix[k][j - 1], totals[k][j - 1]));
    }
    // At an element: its block's prefix combined with the block's elements so far (folded from the
    // identity); exclusive, the value at the element before (the prefix itself at a block's first).
    for (size_t b = 0; b < totals[0].size(); ++b) {
        Pair<T> run = prefix[0][b], block = identity<T>(op);
        for (size_t i = b * kCanonicalArity; i < x.size() && i < (b + 1) * kCanonicalArity; ++i) {
            block = combine_value(op, block, x[i]);
            const Pair<T> next = combine_pair(op, prefix[0][b], block);
            y[i] = exclusive ? (i == 0 ? exclusive_first<T>(op) : value_of(run)) : value_of(next);
            run = next;
        }
    }
    return y;
}

template <class T>
std::vector<T> canonical_scan_walk(CanonicalOp op, const std::vector<T>& x, bool exclusive) {
    std::vector<T> y(x.size());
    const size_t h = levels_for(x.size());
    // Per level k (0: blocks): the exclusive prefix of the node in progress, its total so far, and its
    // children so far.
    std::vector<Pair<T> > prefix(h + 1, identity<T>(op)), total(h + 1, identity<T>(op));
    std::vector<size_t> children(h + 1, 0);
    Pair<T> run = identity<T>(op);
    for (size_t i = 0; i < x.size(); ++i) {
        total[0] = combine_value(op, total[0], x[i]);
        const Pair<T> next = combine_pair(op, prefix[0], total[0]);
        y[i] = exclusive ? (i == 0 ? exclusive_first<T>(op) : value_of(run)) : value_of(next);
        run = next;
        if (++children[0] < kCanonicalArity) continue;
        // Block complete: climb while nodes complete. The next node at the top completed level starts
        // from that level's prefix folded with the completed total; every node below it is a first child.
        size_t k = 0;
        for (;;) {
            const Pair<T> done = normalized(total[k]);
            total[k] = identity<T>(op);
            children[k] = 0;
            prefix[k] = normalized(combine_pair(op, prefix[k], done));
            total[k + 1] = combine_pair(op, total[k + 1], done);
            if (k + 1 >= h || ++children[k + 1] < kCanonicalArity) break;
            ++k;
        }
        for (size_t j = k; j-- > 0;) prefix[j] = prefix[j + 1];
        run = prefix[0];
    }
    return y;
}

#define VKDML_CANONICAL_FOLD(T)                                                          \
    template T sequential_fold<T>(CanonicalOp, const std::vector<T>&);                   \
    template T canonical_reduce<T>(CanonicalOp, const std::vector<T>&);                  \
    template std::vector<T> canonical_scan<T>(CanonicalOp, const std::vector<T>&, bool); \
    template std::vector<T> canonical_scan_walk<T>(CanonicalOp, const std::vector<T>&, bool);
VKDML_CANONICAL_FOLD(float)
VKDML_CANONICAL_FOLD(double)
#undef VKDML_CANONICAL_FOLD

}  // namespace vkdml_test

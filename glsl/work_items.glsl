// Work items, shared by every kernel (src/plan.hpp, Pass): a pass's items are (line, chunk) pairs, and a
// dispatch runs the items [item_begin, item_end) of it, below 2^32. Cooperative kernels (scan_tile,
// reduce_tree) give a workgroup one item, numbered line-major; serial kernels (scan_serial,
// reduce_serial) give an invocation one, numbered chunk-major (item = chunk · lines + line), so that
// neighbouring invocations work on neighbouring lines. Include it after the kernel's local_size
// declaration: gl_WorkGroupSize read before that is (1, 1, 1).
#ifndef WORK_ITEMS_GLSL
#define WORK_ITEMS_GLSL

// This workgroup's index in the folded 2-D dispatch (src/plan.cpp, fold_groups).
uint workgroup_index() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }

// Chunks of chunk_len positions in a line of len.
uint chunks_of(uint len, uint chunk_len) { return (len - 1u) / chunk_len + 1u; }

// A cooperative kernel's item: false for a workgroup past the dispatch's items (uniform across it).
bool workgroup_item(uint item_begin, uint item_end, out uint id) {
    uint group = workgroup_index();
    id = item_begin + group;
    return group < item_end - item_begin;
}

// One chunk of one line: positions [start, end).
struct SerialItem {
    uint line, chunk, start, end;
};

// A serial kernel's item, or false for an invocation past the dispatch's items. No arithmetic here
// passes 2^32 - 1.
bool serial_item(uint item_begin, uint item_end, uint lines, uint len, uint chunk_len, out SerialItem it) {
    uint items = item_end - item_begin;
    uint group = workgroup_index();
    it = SerialItem(0u, 0u, 0u, 0u);
    if (group >= items / gl_WorkGroupSize.x + (items % gl_WorkGroupSize.x != 0u ? 1u : 0u)) return false;
    uint first = group * gl_WorkGroupSize.x;
    if (gl_LocalInvocationIndex >= items - first) return false;
    uint id = item_begin + first + gl_LocalInvocationIndex;
    bool one_chunk = chunk_len >= len;
    it.chunk = one_chunk ? 0u : id / lines;
    it.line = one_chunk ? id : id - it.chunk * lines;
    it.start = it.chunk * chunk_len;
    it.end = it.start + min(chunk_len, len - it.start);
    return true;
}

#endif

// Work items, shared by every kernel (src/core/plan.hpp, Pass): a pass's items are (line, chunk) pairs, and a
// dispatch runs the items [item_begin, item_end) of it, below 2^32. Cooperative kernels (scan_chained,
// reduce_tree) give a workgroup one item, numbered line-major; serial kernels (scan_serial,
// reduce_serial) give an invocation one, numbered chunk-major (item = chunk · lines + line), so that
// neighbouring invocations work on neighbouring lines, whose elements are neighbours in memory when the
// line is not the inner dimension; or, with LINE_MAJOR, line-major (item = line · chunks + chunk), so
// that they work on neighbouring chunks of one line when lines are far apart in memory (lines of the
// inner dimension, few and long: invocations spread over several lines ran 3-4 times slower on
// lavapipe). Include it after the kernel's local_size declaration: gl_WorkGroupSize read before that is
// (1, 1, 1).
#ifndef WORK_ITEMS_GLSL
#define WORK_ITEMS_GLSL

// This workgroup's index in the folded 2-D dispatch (src/core/window.cpp, fold_groups).
uint workgroup_index() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }

// Chunks of chunk_len positions in a line of len.
uint chunks_of(uint len, uint chunk_len) { return (len - 1u) / chunk_len + 1u; }

const uint NO_ITEM = 0xFFFFFFFFu;  // item ids are below item_end <= 2^32 - 1
layout(constant_id = ABI_SPEC_LINE_MAJOR) const bool LINE_MAJOR = false;  // serial items' numbering

// LOCKSTEP (serial kernels on CPU devices, lines side by side in memory, long chunks): the workgroup's
// invocations walk their chunks together and meet at a barrier every SYNC_STEPS positions. A CPU driver
// that runs a workgroup's SIMD groups one after another (lavapipe) then sweeps the workgroup's whole run
// of neighbouring lines row by row, instead of one narrow strip of columns down the full chunk at a time
// (along axis 0 of [4096, 4096]: a cumsum 38 -> 24 ms, a sum 16.8 -> 10.8 ms). Every invocation, past
// the dispatch's items or past its chunk's end too, runs the same trips (chunk_len), so each barrier is
// reached in uniform control flow.
layout(constant_id = ABI_SPEC_LOCKSTEP) const bool LOCKSTEP = false;
const uint SYNC_STEPS = 8u;

// Whether the position loop's trip k of a chunk starting at `start` meets the workgroup at a barrier.
bool lockstep_barrier(uint k, uint start) { return LOCKSTEP && k > start && (k - start) % SYNC_STEPS == 0u; }

// A cooperative kernel's item, or NO_ITEM for a workgroup past the dispatch's items (uniform across it).
uint workgroup_item(uint item_begin, uint item_end) {
    uint group = workgroup_index();
    return group < item_end - item_begin ? item_begin + group : NO_ITEM;
}

// Whether this workgroup holds any of a serial pass's items [item_begin, item_end) (uniform across it).
bool workgroup_has_items(uint item_begin, uint item_end) {
    uint items = item_end - item_begin;
    return workgroup_index() < items / gl_WorkGroupSize.x + (items % gl_WorkGroupSize.x != 0u ? 1u : 0u);
}

// A serial kernel's item, or NO_ITEM for an invocation past the dispatch's items. Its chunk of its line:
// chunk_of_item and line_of_item. No arithmetic here passes 2^32 - 1.
uint serial_item(uint item_begin, uint item_end) {
    if (!workgroup_has_items(item_begin, item_end)) return NO_ITEM;
    uint items = item_end - item_begin;
    uint first = workgroup_index() * gl_WorkGroupSize.x;
    if (gl_LocalInvocationIndex >= items - first) return NO_ITEM;
    return item_begin + first + gl_LocalInvocationIndex;
}

// The chunk and the line of a serial item, for lines of len positions.
uint chunk_of_item(uint id, uint lines, uint len, uint chunk_len) {
    if (chunk_len >= len) return 0u;
    return LINE_MAJOR ? id % chunks_of(len, chunk_len) : id / lines;
}
uint line_of_item(uint id, uint chunk, uint lines, uint len, uint chunk_len) {
    return LINE_MAJOR ? (id - chunk) / chunks_of(len, chunk_len) : id - chunk * lines;
}

#endif

#version 460
// Copy baseline of `vkdml bench`: a blocked vec4 copy. Each workgroup moves one contiguous block of
// LOCAL * VECS vec4s; in step j, lane i moves vec4 j * LOCAL + i of the block, so neighbouring lanes touch
// neighbouring addresses (lavapipe runs 8 lanes as one SIMD vector) and every invocation's loop is VECS
// steps long, far below lavapipe's 65,535-iteration cut-off. Grids wider than the device's x limit are
// folded into x * y; the host binds windows no larger than maxStorageBufferRange.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint VECS = 16u;
// true: lane i moves the VECS consecutive vec4s of its own run instead (what CPU devices run fastest).
layout(constant_id = 2) const bool CONTIGUOUS = false;

layout(set = 0, binding = 0, std430) readonly buffer Src { uvec4 src[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Dst { uvec4 dst[]; };

layout(push_constant) uniform Push {
    uint count;     // vec4s in this window
    uint groups;    // workgroups that have work: ceil(count / (LOCAL * VECS))
    uint groups_x;  // width of the folded grid
    uint out_base;  // unused by the copy (shared layout with bench_read)
} p;

void main() {
    uint group = gl_WorkGroupID.y * p.groups_x + gl_WorkGroupID.x;
    if (group >= p.groups) return;
    uint local = gl_WorkGroupSize.x;
    uint first = CONTIGUOUS ? (group * local + gl_LocalInvocationID.x) * VECS
                            : group * local * VECS + gl_LocalInvocationID.x;
    uint step = CONTIGUOUS ? 1u : local;
    if (first + (VECS - 1u) * step < p.count) {
        for (uint j = 0u; j < VECS; ++j) dst[first + j * step] = src[first + j * step];
    } else {
        for (uint j = 0u; j < VECS; ++j) {
            uint i = first + j * step;
            if (i < p.count) dst[i] = src[i];
        }
    }
}

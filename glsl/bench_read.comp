#version 460
// Read baseline of `vkdml bench`: a blocked vec4 fold. Each workgroup reads one contiguous block of
// LOCAL * VECS vec4s (lane i reads vec4 j * LOCAL + i in step j: neighbouring lanes, neighbouring
// addresses; VECS independent loads in flight), adds them as integers so no load can be dropped, and
// writes its total's XOR as one word per invocation (1/(4·VECS) of the bytes read: no atomics and no
// barriers, which cost a GPU more than the word). Loops stay VECS steps long (lavapipe ends a loop
// after 65,535 iterations); grids wider than the x limit are folded into x * y; the host binds windows
// no larger than maxStorageBufferRange.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint VECS = 16u;
// true: lane i moves the VECS consecutive vec4s of its own run instead (what CPU devices run fastest).
layout(constant_id = 2) const bool CONTIGUOUS = false;

layout(set = 0, binding = 0, std430) readonly buffer Src { uvec4 src[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Dst { uint dst[]; };

layout(push_constant) uniform Push {
    uint count;     // vec4s in this window
    uint groups;    // workgroups that have work: ceil(count / (LOCAL * VECS))
    uint groups_x;  // width of the folded grid
    uint out_base;  // this window's first workgroup: its words start at out_base * LOCAL
} p;

void main() {
    uint group = gl_WorkGroupID.y * p.groups_x + gl_WorkGroupID.x;
    if (group >= p.groups) return;
    uint local = gl_WorkGroupSize.x;
    uint first = CONTIGUOUS ? (group * local + gl_LocalInvocationID.x) * VECS
                            : group * local * VECS + gl_LocalInvocationID.x;
    uint step = CONTIGUOUS ? 1u : local;
    uvec4 acc = uvec4(0u);
    if (first + (VECS - 1u) * step < p.count) {
        for (uint j = 0u; j < VECS; ++j) acc += src[first + j * step];
    } else {
        for (uint j = 0u; j < VECS; ++j) {
            uint i = first + j * step;
            if (i < p.count) acc += src[i];
        }
    }
    dst[(p.out_base + group) * local + gl_LocalInvocationID.x] = acc.x ^ acc.y ^ acc.z ^ acc.w;
}

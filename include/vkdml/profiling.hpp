// vkdml/profiling.hpp — what a plan is and what it costs: the passes a compiled operator records, its plan
// as text, per-pass GPU timestamps, and the plans of a device class without a device (the planner is
// pure, so a GPU's plans can be read on any machine). For benchmarks and for reading why a shape runs as
// it does; an application that only runs operators needs vkdml.hpp alone.
#pragma once

#include "vkdml/vkdml.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace vkdml {

/// Which kernel family runs the shapes both families can run (lines along the innermost axis of some
/// length). serial: an invocation per chunk of a line, with vector loads where the layout allows (what
/// CPUs run fastest). cooperative: a workgroup per chunk with subgroup scans and reductions (what GPUs
/// run fastest). automatic: the device class's choice — serial on CPU devices, cooperative on GPUs.
/// Every other shape runs serially. Results are the same bits either way (docs/SPEC.md, "Determinism
/// across devices").
enum class KernelChoice { automatic, serial, cooperative };

/// Where record() writes a timestamp (vkCmdWriteTimestamp at the compute-shader stage) after each pass
/// p: query first_query + p of `pool`, a VK_QUERY_TYPE_TIMESTAMP pool with at least first_query +
/// pass_count() queries, reset before use (vkdml checks neither, nor resets). Pass p took the time from
/// the timestamp before it (the application's own, for p = 0) to its own; the values are ticks, and
/// DeviceInfo::timestamp_period_ns converts them to nanoseconds. A null pool writes no timestamps.
struct PassTimestamps {
    VkQueryPool pool = VK_NULL_HANDLE;  ///< the query pool, or VK_NULL_HANDLE for none
    uint32_t first_query = 0;           ///< index of the query written after pass 0
};

/// Number of passes record() emits, separated by barriers; a pass is one or more dispatches (more when
/// its bindings exceed maxStorageBufferRange or its grid maxComputeWorkGroupCount). The number of
/// timestamps PassTimestamps receives. 0 for a moved-from CompiledOperator.
VKDML_API uint32_t pass_count(const CompiledOperator& compiled) noexcept;

/// The plan as text, one line per pass (the format of describe_plan below): what record() emits when the
/// input and output are bound apart (bound to one range, the passes that read the one and write the
/// other run their in-place variants, every access through the output's binding).
VKDML_API std::string describe(const CompiledOperator& compiled);

/// CompiledOperator::record, also writing a GPU timestamp after each pass, for a per-pass time breakdown
/// (see PassTimestamps). The same errors.
VKDML_API Status record(const CompiledOperator& compiled, VkCommandBuffer command_buffer,
                        const Bindings& bindings, const PassTimestamps& timestamps);

/// What the chained scan's look-back did in one execution (`vkdml bench --passes` prints it), summed over
/// the operator's chained-scan passes: their tiles, and the predecessor tiles a tile reduced from their
/// input itself because they had published no aggregate within the spin limit (the fallback; a
/// predecessor reduced by several tiles counts once per tile; the canonical single pass,
/// scan.canonical_chained: the node totals a tile computed itself). Many fallbacks mean tiles waited on
/// predecessors that had not run yet.
struct ChainedScanStats {
    uint64_t tiles = 0;      ///< tiles of the chained passes (0: the plan has none)
    uint64_t fallbacks = 0;  ///< predecessor tiles reduced by a later tile
};

/// The look-back's work in the last execution of `compiled`, read from the temporary buffer's bytes as
/// that execution left them (a host copy of all binding_properties().TemporaryResourceSize bytes; the
/// states are cleared by each execution's first pass). Both fields 0 for a plan without a chained scan.
/// Errors: invalid_argument (a moved-from CompiledOperator, or `temporary` shorter than the temporary
/// size).
VKDML_API Result<ChainedScanStats> chained_scan_stats(const CompiledOperator& compiled,
                                                      std::span<const std::byte> temporary);

/// The same for the last run() of `execution` (its temporary buffer is host-visible; before the first
/// run, no fallbacks). Errors: invalid_argument for a moved-from HostExecution.
VKDML_API Result<ChainedScanStats> chained_scan_stats(const HostExecution& execution);

/// A knob of the policy rows that a Tuning (vkdml.hpp) may set (tuning_knobs lists them).
struct TuningKnob {
    std::string_view name;         ///< "scan.tile_workgroup", ...
    std::string_view description;  ///< what it sets, and the CPU and GPU rows' values
    uint64_t min = 0, max = 0;     ///< the values it takes
    bool power_of_two = false;     ///< and only powers of two among them
};

/// Every knob, scans' first, in a fixed order.
VKDML_API std::span<const TuningKnob> tuning_knobs() noexcept;

/// Parses "knob=value[,knob=value...]" (decimal values; the empty text is no tuning) and checks each
/// setting against its knob: an unknown knob, a value out of range or not a power of two where the knob
/// takes only those, and a knob set twice are invalid_argument errors naming it. A tuning is checked again
/// against the rows it is applied to (a chunk length's or a tree workgroup's least above its most is refused
/// there).
VKDML_API Result<std::vector<Tuning>> parse_tuning(std::string_view text);

/// "knob=value,knob=value": the text parse_tuning reads back (empty for no tuning).
VKDML_API std::string format_tuning(std::span<const Tuning> tuning);

/// A device to plan for without one: its class and the limits that shape a plan. The planner is pure,
/// so a GPU's plans can be read on any machine (`vkdml plan`).
struct PlanDevice {
    bool gpu = true;  ///< the GPU policy rows and kernel choices; false: a CPU device's, as lavapipe gets
    /// The kernel family: automatic is cooperative on GPUs, serial on CPUs.
    KernelChoice kernels = KernelChoice::automatic;
    uint32_t subgroup_size = 32;      ///< 4 to 128, a power of two
    bool subgroup_operations = true;  ///< arithmetic and shuffles (DeviceOptions)
    /// The smallest subgroup size the device may run (DeviceInfo::min_subgroup_size); 0: subgroup_size,
    /// a device of one subgroup size. Otherwise a power of two from 4 to subgroup_size.
    uint32_t min_subgroup_size = 0;
    /// Pipelines can require full subgroups of subgroup_size (DeviceInfo::full_subgroups). Where they
    /// cannot and the subgroup size varies, every shape is planned with the serial kernels.
    bool full_subgroups = true;
    uint64_t max_storage_buffer_range = 0xFFFFFFFF;  ///< bytes
    uint32_t max_workgroup_count = 65535;            ///< per dimension
    uint32_t min_storage_buffer_offset_alignment = 16;
    uint32_t compute_units = 0;  ///< multiprocessors (DeviceInfo::compute_units); 0: not known
    /// Settings of the class's policy rows to plan with instead (see Tuning); the header line names them.
    std::vector<Tuning> tuning;
};

/// The passes vkdml plans for `desc` on such a device, as text: a header line (operator, input type and
/// sizes, policy row and its tuning, subgroup size, and where the size varies the range and whether full
/// subgroups are required, passes), then per pass its kernel and storage variant, mode (scan, reduce to
/// partials, scan with carries, in place), block kind (vectors per block, lines per block, axis inner),
/// lines, chunk length and chunks, items, workgroup size and dispatches, and the bytes each binding's windows
/// span (summed over its dispatches); the last line gives the temporary bytes. The description is validated
/// as create_operator validates it on a device with every optional feature (invalid_descriptor); a PlanDevice
/// out of range is invalid_argument.
VKDML_API Result<std::string> describe_plan(const DML_OPERATOR_DESC& desc, const PlanDevice& device,
                                            const OperatorOptions& options = {});

}  // namespace vkdml

// gpu_fixture.hpp — the process-wide test device (validation layer on) and its message log.
#pragma once

#include "vkdml/testing.hpp"
#include "vkdml/vkdml.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace vkdml_test {

/// The device shared by all GPU tests: vkdml::Device::create with validation enabled and every
/// validation message appended to a global log (or, inside a UseLimitedDevice scope, its device). If no
/// device can be created the calling test FAILS (with the library's error message); it never passes silently
/// without a device. The selector is the library's default (VKDML_DEVICE in the environment, else the best
/// device).
vkdml::Device& test_device();

/// While alive, test_device() is a second validated device planning with `limits` (created once per
/// distinct limits and kept): the sweeps then run through windows and split dispatches at small sizes.
class UseLimitedDevice {
public:
    explicit UseLimitedDevice(const vkdml::testing::DeviceOverrides::Limits& limits);
    ~UseLimitedDevice();
    UseLimitedDevice(const UseLimitedDevice&) = delete;
    UseLimitedDevice& operator=(const UseLimitedDevice&) = delete;
};

/// A second validated device (messages in the same log) planning with the given kernel family and
/// policy rows, whatever VKDML_TEST_KERNELS and VKDML_TEST_POLICY say: for tests of one family or row.
/// FAILs the test if it cannot be created.
std::shared_ptr<vkdml::Device> make_test_device(vkdml::KernelChoice kernels,
                                                vkdml::testing::DeviceOverrides::PolicyClass policy =
                                                    vkdml::testing::DeviceOverrides::PolicyClass::automatic,
                                                bool chained_scan_always_falls_back = false);

/// A second validated device (messages in the same log) with these overrides, whatever the environment
/// asks for. FAILs the test if it cannot be created.
std::shared_ptr<vkdml::Device> make_test_device(const vkdml::testing::DeviceOverrides& overrides);
/// The same with `options` (their validation fields replaced by the test bench's).
std::shared_ptr<vkdml::Device> make_test_device(vkdml::DeviceOptions options,
                                                const vkdml::testing::DeviceOverrides& overrides = {});

/// make_test_device(kernels, policy) whose buffers are bound through windows of `window` bytes and whose
/// dispatches have at most 64 workgroups per dimension; `window` 0: the device's own limits.
std::shared_ptr<vkdml::Device> make_windowed_test_device(vkdml::KernelChoice kernels,
                                                         vkdml::testing::DeviceOverrides::PolicyClass policy,
                                                         uint64_t window);

/// The device of one configuration of a test over the kernel families: 0 the serial kernels with the CPU
/// rows, 1 the cooperative kernels with the GPU rows (the chained scan, the trees), 2 the latter through
/// 64 KiB windows (at most 64 workgroups per dimension). `name` (optional) says which, for INFO.
std::shared_ptr<vkdml::Device> make_family_test_device(int config, std::string* name = nullptr);

/// The DirectML float type of T (float or double).
template <class T>
constexpr DML_TENSOR_DATA_TYPE float_type_of() {
    return sizeof(T) == 4 ? DML_TENSOR_DATA_TYPE_FLOAT32 : DML_TENSOR_DATA_TYPE_FLOAT64;
}

/// The plan `dev` compiles for `desc` (vkdml::describe), its pipelines created; REQUIREs that it compiles.
std::string compiled_plan(const vkdml::Device& dev, const DML_OPERATOR_DESC& desc);

/// Whether this run goes without the validation layer: only on Windows, where Wine has no layer for
/// Windows programs, and only when VKDML_TEST_WITHOUT_VALIDATION=1 says so. On Linux the layer is
/// mandatory: the variable is refused there (the first GPU test fails).
bool validation_layer_waived();

/// Turns on the validation layer's synchronization validation (hazards between the commands vkdml and the
/// tests record) for every instance the process creates with the layer: VK_LAYER_ENABLES, which the layer
/// reads at vkCreateInstance, unless the environment sets it. The test programs' main() calls it before
/// anything else (before any thread or instance). Nothing in sanitized builds: there the layer's own
/// synchronization state is what LeakSanitizer would report at exit
/// (tools/sanitizers/lsan_sync_validation.supp).
void enable_synchronization_validation();

/// Opens a test that needs the validation layer itself (it checks the layer's silence through the tool's
/// --validation): skipped, with the reason, when validation_layer_waived().
#define VKDML_NEEDS_VALIDATION_LAYER()                                                          \
    do {                                                                                        \
        if (::vkdml_test::validation_layer_waived()) {                                          \
            WARN("skipped: no validation layer in this run (VKDML_TEST_WITHOUT_VALIDATION=1)"); \
            return;                                                                             \
        }                                                                                       \
    } while (false)

/// Destroys the test device (if created) so that messages emitted at teardown are logged too.
void release_test_device();

/// Returns the validation messages logged since the last call and clears that list.
std::vector<std::string> take_validation_messages();

/// Number of validation messages logged since the process started (never reset).
size_t validation_message_total();

/// The first (at most `limit`) validation messages logged since the process started.
std::vector<std::string> first_validation_messages(size_t limit);

/// Takes the pending validation messages and REQUIREs that there are none, showing them if any.
void require_no_validation_messages();

}  // namespace vkdml_test

// gpu_fixture.cpp — creates the shared validated device lazily and collects validation messages.
#include "gpu_fixture.hpp"

#include "vkdml/profiling.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <memory>
#include <mutex>

namespace vkdml_test {

namespace {

struct MessageLog {
    std::mutex mutex;
    std::vector<std::string> pending;
    std::vector<std::string> first;  // the first few ever seen, for the final report
    size_t total = 0;
};

MessageLog& message_log() {
    static MessageLog* log = new MessageLog;  // never destroyed: callbacks may come late in teardown
    return *log;
}

void log_message(std::string_view message) {
    MessageLog& log = message_log();
    std::lock_guard<std::mutex> lock(log.mutex);
    log.pending.emplace_back(message);
    if (log.first.size() < 64) log.first.emplace_back(message);
    ++log.total;
}

struct DeviceSlot {
    std::mutex mutex;
    std::shared_ptr<vkdml::Device> device;
    std::shared_ptr<vkdml::Device> limited;  // in force inside a UseLimitedDevice scope
    std::vector<std::pair<std::pair<uint64_t, uint32_t>, std::shared_ptr<vkdml::Device>>> limited_devices;
    bool tried = false;
    std::string error;  // why creation failed (kept so that every later test fails the same way)
};

DeviceSlot& device_slot() {
    static DeviceSlot slot;
    return slot;
}

}  // namespace

/// VKDML_TEST_KERNELS=serial|cooperative: the kernel family every test device prefers (ctest runs the
/// suite once with each); unset: the device's own choice.
static vkdml::KernelChoice test_kernels() {
    const char* env = std::getenv("VKDML_TEST_KERNELS");
    if (env && std::string(env) == "serial") return vkdml::KernelChoice::serial;
    if (env && std::string(env) == "cooperative") return vkdml::KernelChoice::cooperative;
    return vkdml::KernelChoice::automatic;
}

/// VKDML_TEST_POLICY=cpu|gpu: the policy rows every test device plans with (CI runs the GPU rows on
/// lavapipe this way); unset: the device's own class.
static vkdml::testing::DeviceOverrides::PolicyClass test_policy() {
    const char* env = std::getenv("VKDML_TEST_POLICY");
    if (env && std::string(env) == "cpu") return vkdml::testing::DeviceOverrides::PolicyClass::cpu;
    if (env && std::string(env) == "gpu") return vkdml::testing::DeviceOverrides::PolicyClass::gpu;
    if (env && *env) FAIL("VKDML_TEST_POLICY is '" << env << "': expected cpu or gpu");
    return vkdml::testing::DeviceOverrides::PolicyClass::automatic;
}

bool validation_layer_waived() {
    const char* env = std::getenv("VKDML_TEST_WITHOUT_VALIDATION");
#ifdef _WIN32
    return env && std::string(env) == "1";
#else
    if (env) FAIL("VKDML_TEST_WITHOUT_VALIDATION is set, but on Linux the validation layer is mandatory");
    return false;
#endif
}

// Built with AddressSanitizer or ThreadSanitizer (the asan and tsan presets).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define VKDML_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define VKDML_TEST_SANITIZED 1
#endif
#endif

void enable_synchronization_validation() {
#if !defined(VKDML_TEST_SANITIZED)
    const char* name = "VK_LAYER_ENABLES";
    const char* value = "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT";
    if (std::getenv(name)) return;
#ifdef _WIN32
    _putenv_s(name, value);
#else
    ::setenv(name, value, 0);
#endif
#endif
}

/// A test device's validation: the layer (unless waived), its messages logged.
static void validate(vkdml::DeviceOptions& options) {
    options.validation = !validation_layer_waived();
    options.on_validation_message = log_message;
}

vkdml::Device& test_device() {
    DeviceSlot& slot = device_slot();
    std::unique_lock<std::mutex> lock(slot.mutex);
    if (slot.limited) return *slot.limited;
    if (!slot.tried) {
        slot.tried = true;
        vkdml::DeviceOptions options;
        validate(options);
        vkdml::testing::DeviceOverrides overrides;
        overrides.kernels = test_kernels();
        overrides.policy_class = test_policy();
        auto created = vkdml::testing::create_device(options, overrides);
        if (created) {
            slot.device = std::move(created.value());
            const vkdml::DeviceInfo& info = slot.device->info();
            WARN("vkdml test device: "
                 << info.physical.name << " (" << info.physical.driver_name << ", "
                 << info.physical.driver_info << "), subgroup size " << info.subgroup_size << ", kernels "
                 << (std::getenv("VKDML_TEST_KERNELS") ? std::getenv("VKDML_TEST_KERNELS") : "automatic")
                 << ", policy rows "
                 << (std::getenv("VKDML_TEST_POLICY") ? std::getenv("VKDML_TEST_POLICY") : "automatic")
                 << (options.validation
                         ? ""
                         : ", WITHOUT the validation layer (VKDML_TEST_WITHOUT_VALIDATION=1)"));
        } else {
            slot.error = std::string(vkdml::to_string(created.error().code)) + ": " + created.error().message;
        }
    }
    if (!slot.device) {
        const std::string error =
            slot.error.empty() ? std::string("the test device was released") : slot.error;
        lock.unlock();
        FAIL("vkdml::Device::create for the tests failed, so no GPU test can run: " << error);
    }
    return *slot.device;
}

std::shared_ptr<vkdml::Device> make_test_device(vkdml::KernelChoice kernels,
                                                vkdml::testing::DeviceOverrides::PolicyClass policy,
                                                bool chained_scan_always_falls_back) {
    vkdml::testing::DeviceOverrides overrides;
    overrides.kernels = kernels;
    overrides.policy_class = policy;
    overrides.chained_scan_always_falls_back = chained_scan_always_falls_back;
    return make_test_device(overrides);
}

std::shared_ptr<vkdml::Device> make_test_device(const vkdml::testing::DeviceOverrides& overrides) {
    return make_test_device(vkdml::DeviceOptions{}, overrides);
}

std::shared_ptr<vkdml::Device> make_test_device(vkdml::DeviceOptions options,
                                                const vkdml::testing::DeviceOverrides& overrides) {
    validate(options);
    auto created = vkdml::testing::create_device(options, overrides);
    if (!created) FAIL("vkdml::testing::create_device failed: " << created.error().message);
    return std::move(created.value());
}

std::shared_ptr<vkdml::Device> make_windowed_test_device(vkdml::KernelChoice kernels,
                                                         vkdml::testing::DeviceOverrides::PolicyClass policy,
                                                         uint64_t window) {
    vkdml::testing::DeviceOverrides o;
    o.kernels = kernels;
    o.policy_class = policy;
    o.limits.max_storage_buffer_range = window;
    o.limits.max_workgroup_count = window > 0 ? 64 : 0;
    return make_test_device(o);
}

std::shared_ptr<vkdml::Device> make_family_test_device(int config, std::string* name) {
    using PC = vkdml::testing::DeviceOverrides::PolicyClass;
    const auto kernels = config == 0 ? vkdml::KernelChoice::serial : vkdml::KernelChoice::cooperative;
    if (name)
        *name = config == 0   ? "serial kernels, CPU rows"
                : config == 1 ? "cooperative kernels, GPU rows"
                              : "cooperative kernels, GPU rows, 64 KiB windows";
    return make_windowed_test_device(kernels, config == 0 ? PC::cpu : PC::gpu,
                                     config == 2 ? uint64_t{64} << 10 : 0);
}

UseLimitedDevice::UseLimitedDevice(const vkdml::testing::DeviceOverrides::Limits& limits) {
    DeviceSlot& slot = device_slot();
    std::lock_guard<std::mutex> lock(slot.mutex);
    const std::pair<uint64_t, uint32_t> key{limits.max_storage_buffer_range, limits.max_workgroup_count};
    for (const auto& [k, device] : slot.limited_devices)
        if (k == key) slot.limited = device;
    if (!slot.limited) {
        vkdml::DeviceOptions options;
        validate(options);
        vkdml::testing::DeviceOverrides overrides;
        overrides.limits = limits;
        overrides.kernels = test_kernels();
        overrides.policy_class = test_policy();
        auto created = vkdml::testing::create_device(options, overrides);
        if (!created) FAIL("vkdml::Device::create(limits) failed: " << created.error().message);
        slot.limited = std::move(created.value());
        slot.limited_devices.emplace_back(key, slot.limited);
    }
}

UseLimitedDevice::~UseLimitedDevice() {
    DeviceSlot& slot = device_slot();
    std::lock_guard<std::mutex> lock(slot.mutex);
    slot.limited.reset();
}

void release_test_device() {
    DeviceSlot& slot = device_slot();
    std::lock_guard<std::mutex> lock(slot.mutex);
    slot.device.reset();
    slot.limited.reset();
    slot.limited_devices.clear();
}

std::vector<std::string> take_validation_messages() {
    MessageLog& log = message_log();
    std::lock_guard<std::mutex> lock(log.mutex);
    std::vector<std::string> out;
    out.swap(log.pending);
    return out;
}

size_t validation_message_total() {
    MessageLog& log = message_log();
    std::lock_guard<std::mutex> lock(log.mutex);
    return log.total;
}

std::vector<std::string> first_validation_messages(size_t limit) {
    MessageLog& log = message_log();
    std::lock_guard<std::mutex> lock(log.mutex);
    const size_t n = std::min(limit, log.first.size());
    return {log.first.begin(), log.first.begin() + static_cast<std::ptrdiff_t>(n)};
}

void require_no_validation_messages() {
    const std::vector<std::string> messages = take_validation_messages();
    std::string text;
    for (size_t i = 0; i < messages.size() && i < 16; ++i)
        text += "\n[" + std::to_string(i) + "] " + messages[i];
    if (messages.size() > 16) text += "\n... and " + std::to_string(messages.size() - 16) + " more";
    INFO("Vulkan validation messages:" << text);
    REQUIRE(messages.empty());
}

}  // namespace vkdml_test

namespace vkdml_test {

std::string compiled_plan(const vkdml::Device& dev, const DML_OPERATOR_DESC& desc) {
    auto op = dev.create_operator(desc);
    INFO((op ? std::string() : op.error().message));
    REQUIRE(op);
    auto compiled = dev.compile_operator(*op);
    INFO((compiled ? std::string() : compiled.error().message));
    REQUIRE(compiled);
    return vkdml::describe(*compiled);
}

}  // namespace vkdml_test

// Subnormals kept (core/float_controls.hpp), without a device: DenormPreserve added to a hand-made module
// word for word, the rules of denormBehaviorIndependence, malformed modules refused, and every embedded
// kernel still valid SPIR-V once patched (spirv-val, where the build found it).
#include <catch2/catch.hpp>

#include "core/float_controls.hpp"
#include "core/kernel_registry.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace vkdml::detail;

namespace {

constexpr uint32_t kMagic = 0x07230203u;
// "SPV_KHR_float_controls" as SPIR-V's literal string: 23 bytes with the NUL, 6 words.
const std::vector<uint32_t> kExtensionName = {0x5f565053, 0x5f52484b, 0x616f6c66,
                                              0x6f635f74, 0x6f72746e, 0x0000736c};

/// Capability Shader, the memory model, a GLCompute entry point %4 "main", LocalSize 64 1 1, and
/// (with_float) a 32-bit float type %5; SPIR-V `version`.
std::vector<uint32_t> module_words(uint32_t version, bool with_float) {
    std::vector<uint32_t> m = {kMagic,     version, 0,  8,          0,  //
                               0x00020011, 1,                           // OpCapability Shader
                               0x0003000E, 0,       1,                  // OpMemoryModel Logical GLSL450
                               0x0005000F, 5,       4,  0x6e69616d, 0,  // OpEntryPoint GLCompute %4 "main"
                               0x00060010, 4,       17, 64,         1, 1};  // OpExecutionMode %4 LocalSize
    if (with_float) m.insert(m.end(), {0x00030016, 5, 32});                 // %5 = OpTypeFloat 32
    return m;
}

}  // namespace

TEST_CASE("DenormPreserve goes after the capabilities and the entry points, word for word",
          "[float-controls]") {
    const std::vector<uint32_t> in = module_words(0x00010300, true);
    std::vector<uint32_t> want = {kMagic,     0x00010300, 0,          8,    0,
                                  0x00020011, 1,          0x00020011, 4464,  // OpCapability DenormPreserve
                                  0x0007000A};  // OpExtension "SPV_KHR_float_controls"
    want.insert(want.end(), kExtensionName.begin(), kExtensionName.end());
    want.insert(want.end(), {0x0003000E, 0,    1,    0x0005000F, 5, 4, 0x6e69616d, 0, 0x00040010,
                             4,          4459, 32,        // OpExecutionMode %4 DenormPreserve 32
                             0x00040010, 4,    4459, 64,  // OpExecutionMode %4 DenormPreserve 64
                             0x00060010, 4,    17,   64,         1, 1, 0x00030016, 5, 32});
    const std::vector<uint32_t> out = with_denorm_preserve(in, {false, true, true});
    CHECK(out == want);
    // Idempotent: a module that has them gets nothing twice.
    CHECK(with_denorm_preserve(out, {false, true, true}) == out);

    SECTION("SPIR-V 1.4 and later have float controls in the core: no extension") {
        const std::vector<uint32_t> v15 = module_words(0x00010500, true);
        const std::vector<uint32_t> patched = with_denorm_preserve(v15, {true, false, false});
        std::vector<uint32_t> expected = {
            kMagic, 0x00010500, 0,          8,  0,  0x00020011, 1, 0x00020011, 4464, 0x0003000E,
            0,      1,          0x0005000F, 5,  4,  0x6e69616d, 0, 0x00040010, 4,    4459,
            16,     0x00060010, 4,          17, 64, 1,          1, 0x00030016, 5,    32};
        CHECK(patched == expected);
        // A width already there is not added again; another one is, after the last entry point.
        std::vector<uint32_t> more = with_denorm_preserve(patched, {true, true, false});
        expected.insert(expected.begin() + 17, {0x00040010, 4, 4459, 32});
        CHECK(more == expected);
    }
    SECTION("unchanged: no width asked for, or no float type in the module") {
        CHECK(with_denorm_preserve(in, {}) == in);
        const std::vector<uint32_t> integers = module_words(0x00010300, false);
        CHECK(with_denorm_preserve(integers, {true, true, true}) == integers);
    }
    SECTION("malformed modules: empty") {
        std::vector<uint32_t> bad = in;
        bad[0] = 0x03022307;  // the magic number byte-swapped
        CHECK(with_denorm_preserve(bad, {false, true, false}).empty());
        bad = in;
        bad[7] = 0x0000000E;  // an instruction of zero words
        CHECK(with_denorm_preserve(bad, {false, true, false}).empty());
        bad = in;
        bad.pop_back();  // OpTypeFloat runs past the end
        CHECK(with_denorm_preserve(bad, {false, true, false}).empty());
        CHECK(with_denorm_preserve(std::vector<uint32_t>{kMagic, 0x00010300}, {false, true, false}).empty());
    }
}

TEST_CASE("the widths kept follow shaderDenormPreserveFloat* within denormBehaviorIndependence",
          "[float-controls]") {
    VkPhysicalDeviceFloatControlsProperties p{};
    p.shaderDenormPreserveFloat16 = VK_FALSE;
    p.shaderDenormPreserveFloat32 = VK_TRUE;
    p.shaderDenormPreserveFloat64 = VK_TRUE;
    p.denormBehaviorIndependence = VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL;
    CHECK(denorm_preserve_widths(p) == FloatWidths{false, true, true});
    // 16 and 64 bits share a mode: without 16-bit preservation, 64 bits are left as the device has them.
    p.denormBehaviorIndependence = VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_32_BIT_ONLY;
    CHECK(denorm_preserve_widths(p) == FloatWidths{false, true, false});
    p.shaderDenormPreserveFloat16 = VK_TRUE;
    CHECK(denorm_preserve_widths(p) == FloatWidths{true, true, true});
    // One mode for all widths: all three, or none when any is missing.
    p.denormBehaviorIndependence = VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_NONE;
    CHECK(denorm_preserve_widths(p) == FloatWidths{true, true, true});
    p.shaderDenormPreserveFloat64 = VK_FALSE;
    CHECK(denorm_preserve_widths(p) == FloatWidths{false, false, false});
    // A device without float controls at all (lavapipe of Mesa 22.3 says no for every width).
    CHECK(denorm_preserve_widths(VkPhysicalDeviceFloatControlsProperties{}) == FloatWidths{});
}

#ifdef VKDML_SPIRV_VAL
TEST_CASE("every embedded kernel, with DenormPreserve at every width where it has floats, is valid SPIR-V",
          "[float-controls]") {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "vkdml-float-controls";
    std::filesystem::create_directories(dir);
    size_t patched = 0;
    for (size_t i = 0; i < kKernelBinaryCount; ++i) {
        const KernelBinary& k = kKernelBinaries[i];
        std::ostringstream label_text;
        label_text << name(k.kernel) << "-" << name(k.storage);
        const std::string label = label_text.str();
        INFO(label);
        const std::span<const uint32_t> words(k.words, k.bytes / 4);
        const std::vector<uint32_t> out = with_denorm_preserve(words, {true, true, true});
        REQUIRE(!out.empty());
        if (out.size() != words.size()) ++patched;  // (unpatched: no float type; spirv-opt wrote it all)
        const std::filesystem::path file = dir / (label + ".spv");
        std::ofstream(file, std::ios::binary)
            .write(reinterpret_cast<const char*>(out.data()), static_cast<std::streamsize>(out.size() * 4));
        std::ostringstream command;
        command << VKDML_SPIRV_VAL << " --target-env vulkan1.2 \"" << file.string() << "\"";
        CHECK(std::system(command.str().c_str()) == 0);
    }
    std::filesystem::remove_all(dir);
    CHECK(patched > 0);
}
#endif

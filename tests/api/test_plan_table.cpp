// The plan table (tests/data/plan_table.txt, embedded at build time): 13 shapes of the five operators on 8
// device settings — CPU rows at subgroups 4, 8 and 16, GPU rows at 16, 32 and 64, each family forced,
// small windows, no subgroup operations — each planned again through describe_plan and compared with the
// text `vkdml plan` printed when the table was made (tests/data/make_plan_table.sh).
#include <catch2/catch.hpp>

#include "vkdml/profiling.hpp"
#include "vkdml/vkdml.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <string>
#include <vector>

namespace {

const unsigned char kPlanTable[] = {
#include "plan_table.inc"
};

/// One case of the table: the arguments of its `vkdml plan` command and the text it printed.
struct TableCase {
    std::string args;
    std::string expected;
};

std::vector<TableCase> read_table() {
    std::istringstream in(std::string(reinterpret_cast<const char*>(kPlanTable), sizeof kPlanTable));
    std::vector<TableCase> cases;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("## ", 0) == 0)
            cases.push_back({line.substr(3), {}});
        else if (!cases.empty())
            cases.back().expected += line + "\n";
    }
    return cases;
}

std::string upper(std::string s) {
    for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

std::vector<uint32_t> numbers(const std::string& list) {
    std::vector<uint32_t> out;
    std::istringstream in(list);
    for (std::string n; std::getline(in, n, ',');) out.push_back(static_cast<uint32_t>(std::stoul(n)));
    return out;
}

/// A case's arguments as a description and a PlanDevice (the options make_plan_table.sh uses).
struct Planned {
    std::string op = "cumsum";
    DML_TENSOR_DATA_TYPE type = DML_TENSOR_DATA_TYPE_FLOAT32;
    std::vector<uint32_t> sizes, axes;
    bool all_axes = false, exclusive = false, reverse = false;
    DML_REDUCE_FUNCTION function = DML_REDUCE_FUNCTION_SUM;
    vkdml::PlanDevice device;

    explicit Planned(const std::string& args) {
        std::istringstream in(args);
        for (std::string flag; in >> flag;) {
            if (flag == "--exclusive")
                exclusive = true;
            else if (flag == "--reverse")
                reverse = true;
            else if (flag == "--no-subgroup-ops")
                device.subgroup_operations = false;
            else {
                std::string value;
                REQUIRE(in >> value);
                apply(flag, value);
            }
        }
    }

    void apply(const std::string& flag, const std::string& value) {
        using K = vkdml::KernelChoice;
        if (flag == "--op")
            op = value;
        else if (flag == "--dtype")
            type = data_type(value);
        else if (flag == "--shape")
            sizes = numbers(value);
        else if (flag == "--axis" || flag == "--axes") {
            all_axes = value == "all";
            if (!all_axes) axes = numbers(value);
        } else if (flag == "--function")
            function = reduce_function(value);
        else if (flag == "--class")
            device.gpu = value == "gpu";
        else if (flag == "--kernels")
            device.kernels = value == "serial" ? K::serial : K::cooperative;
        else if (flag == "--subgroup")
            device.subgroup_size = static_cast<uint32_t>(std::stoul(value));
        else if (flag == "--max-range")
            device.max_storage_buffer_range = std::stoull(value);
        else
            FAIL("unknown option " << flag);
    }

    static DML_TENSOR_DATA_TYPE data_type(const std::string& name) {
        for (DML_TENSOR_DATA_TYPE t : vkdml::all_data_types())
            if (upper(name) == vkdml::to_string(t)) return t;
        FAIL("unknown type " << name);
        return DML_TENSOR_DATA_TYPE_UNKNOWN;
    }

    static DML_REDUCE_FUNCTION reduce_function(const std::string& name) {
        for (int f = DML_REDUCE_FUNCTION_ARGMAX; f <= DML_REDUCE_FUNCTION_SUM_SQUARE; ++f)
            if (upper(name) == vkdml::to_string(static_cast<DML_REDUCE_FUNCTION>(f)))
                return static_cast<DML_REDUCE_FUNCTION>(f);
        FAIL("unknown function " << name);
        return DML_REDUCE_FUNCTION_SUM;
    }

    /// describe_plan's text for the case.
    std::string describe() {
        const auto rank = static_cast<uint32_t>(sizes.size());
        if (all_axes)
            for (uint32_t a = 0; a < rank; ++a) axes.push_back(a);
        std::vector<uint32_t> out_sizes = sizes;
        if (op != "cumsum" && op != "cumprod")
            for (uint32_t a : axes) out_sizes[a] = 1;
        const bool arg = op == "argmax" || op == "argmin";
        const DML_TENSOR_DATA_TYPE out_type = arg ? DML_TENSOR_DATA_TYPE_INT64 : type;  // as vkdml plan
        DML_BUFFER_TENSOR_DESC in_buffer{type,    DML_TENSOR_FLAG_NONE,
                                         rank,    sizes.data(),
                                         nullptr, DMLCalcBufferTensorSize(type, rank, sizes.data(), nullptr),
                                         0};
        DML_BUFFER_TENSOR_DESC out_buffer{
            out_type, DML_TENSOR_FLAG_NONE,
            rank,     out_sizes.data(),
            nullptr,  DMLCalcBufferTensorSize(out_type, rank, out_sizes.data(), nullptr),
            0};
        const DML_TENSOR_DESC in{DML_TENSOR_TYPE_BUFFER, &in_buffer},
            out{DML_TENSOR_TYPE_BUFFER, &out_buffer};
        const auto direction = reverse ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING;
        const auto count = static_cast<uint32_t>(axes.size());
        const uint32_t axis = axes.empty() ? 0 : axes[0];
        const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC cumsum{&in, &out, axis, direction, exclusive};
        const DML_CUMULATIVE_PRODUCT_OPERATOR_DESC cumprod{&in, &out, axis, direction, exclusive};
        const DML_REDUCE_OPERATOR_DESC reduce{function, &in, &out, count, axes.data()};
        const DML_ARGMAX_OPERATOR_DESC argmax{&in, &out, count, axes.data(), direction};
        const DML_ARGMIN_OPERATOR_DESC argmin{&in, &out, count, axes.data(), direction};
        DML_OPERATOR_DESC desc{DML_OPERATOR_CUMULATIVE_SUMMATION, &cumsum};
        if (op == "cumprod") desc = {DML_OPERATOR_CUMULATIVE_PRODUCT, &cumprod};
        if (op == "reduce") desc = {DML_OPERATOR_REDUCE, &reduce};
        if (op == "argmax") desc = {DML_OPERATOR_ARGMAX, &argmax};
        if (op == "argmin") desc = {DML_OPERATOR_ARGMIN, &argmin};
        auto text = vkdml::describe_plan(desc, device);
        INFO((text ? std::string() : text.error().message));
        REQUIRE(text);
        return *text;
    }
};

}  // namespace

TEST_CASE("the plan table: every shape on every device setting plans as recorded", "[unit][plan]") {
    const std::vector<TableCase> cases = read_table();
    REQUIRE(cases.size() == 13 * 8);
    size_t gpu_rows_32_64 = 0, cpu_rows = 0;
    for (const TableCase& c : cases) {
        INFO("vkdml plan " << c.args);
        Planned planned(c.args);
        CHECK(planned.describe() == c.expected);
        gpu_rows_32_64 += planned.device.gpu && planned.device.subgroup_size >= 32;
        cpu_rows += !planned.device.gpu;
    }
    CHECK(gpu_rows_32_64 == 13 * 4);
    CHECK(cpu_rows == 13 * 3);
}

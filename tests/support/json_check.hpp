// json_check.hpp — reading the tool's JSON output in the tests (test_cli_bench.cpp) with nlohmann-json:
// documents keep their keys in document order (ordered_json), so the tests can check the order too; a syntax
// error throws nlohmann::json::parse_error, a missing key (at) or a value of another type (get) throws too.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace vkdml_test::json {

using Value = nlohmann::ordered_json;

/// Parses a whole JSON document.
inline Value parse(std::string_view text) {
    return Value::parse(text);
}

/// An object's keys in document order.
inline std::vector<std::string> keys(const Value& object) {
    std::vector<std::string> names;
    for (const auto& [name, value] : object.items()) names.push_back(name);
    return names;
}

}  // namespace vkdml_test::json

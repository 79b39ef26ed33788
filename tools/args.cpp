// tools/args.cpp — parsing a command line against a CommandSpec, and the usage text generated from it.
#include "args.hpp"

#include <algorithm>
#include <charconv>

namespace vkdml::cli {

void usage_error(const std::string& message) {
    throw CliError(2, message);
}

void fail(const std::string& message) {
    throw CliError(1, message);
}

void check(const Status& status) {
    if (!status) fail(status.error().message);
}

namespace {

// "--axis N" or "--reverse".
std::string spelling(const OptionSpec& option) {
    return option.value_name.empty() ? std::string(option.name)
                                     : std::string(option.name) + " " + std::string(option.value_name);
}

// As the usage line shows it: optional options in brackets.
std::string synopsis(const OptionSpec& option) {
    if (option.required) return spelling(option);
    return "[" + spelling(option) + "]" + (option.repeatable ? "..." : "");
}

const OptionSpec* find_option(const CommandSpec& spec, std::string_view name) {
    for (const OptionSpec& option : spec.options)
        if (option.name == name) return &option;
    return nullptr;
}

}  // namespace

std::string usage(const CommandSpec& spec) {
    std::string text = "usage: vkdml " + std::string(spec.name);
    for (const OptionSpec& option : spec.options) text += " " + synopsis(option);
    for (std::string_view operand : spec.operands) text += " " + std::string(operand);
    text += "\n\n" + std::string(spec.summary) + "\n";
    if (spec.options.empty()) return text;
    size_t width = 0;
    for (const OptionSpec& option : spec.options) width = std::max(width, spelling(option).size());
    text += "\noptions:\n";
    for (const OptionSpec& option : spec.options) {
        std::string left = spelling(option);
        left.resize(width + 2, ' ');
        text += "  " + left + std::string(option.help) + "\n";
    }
    return text;
}

Args Args::parse(const CommandSpec& spec, std::span<const std::string_view> args) {
    const std::string command = "'vkdml " + std::string(spec.name) + "'";
    Args parsed;
    bool options_ended = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string_view arg = args[i];
        if (options_ended || arg == "-" || !arg.starts_with('-')) {
            parsed.operands_.emplace_back(arg);
            continue;
        }
        if (arg == "--") {
            options_ended = true;
            continue;
        }
        if (arg == "-h" || arg == "--help") {
            parsed.help_ = true;
            return parsed;
        }
        const size_t equals = arg.find('=');
        const std::string_view name = arg.substr(0, equals);
        const OptionSpec* option = find_option(spec, name);
        if (!option) usage_error("unknown option '" + std::string(name) + "' for " + command);
        if (parsed.has(name) && !option->repeatable)
            usage_error("option '" + std::string(name) + "' is given twice");
        std::string value;
        if (option->value_name.empty()) {
            if (equals != std::string_view::npos)
                usage_error("option '" + std::string(name) + "' takes no value");
        } else if (equals != std::string_view::npos) {
            value = arg.substr(equals + 1);
        } else if (i + 1 < args.size() && !args[i + 1].starts_with("--")) {
            value = args[++i];
        } else {
            usage_error("option '" + std::string(name) + "' needs a value (" + spelling(*option) + ")");
        }
        parsed.values_.emplace(name, std::move(value));
    }
    for (const OptionSpec& option : spec.options)
        if (option.required && !parsed.has(option.name))
            usage_error(command + " needs the option " + spelling(option));
    if (parsed.operands_.size() != spec.operands.size()) {
        std::string names;
        for (std::string_view operand : spec.operands)
            names += (names.empty() ? "" : " ") + std::string(operand);
        usage_error(command + " takes " + std::to_string(spec.operands.size()) + " operand(s)" +
                    (names.empty() ? "" : " (" + names + ")") + ", got " +
                    std::to_string(parsed.operands_.size()));
    }
    return parsed;
}

std::optional<std::string> Args::value(std::string_view name) const {
    auto it = values_.lower_bound(name);
    if (it == values_.end() || it->first != name) return std::nullopt;
    return it->second;
}

std::vector<std::string> Args::values(std::string_view name) const {
    std::vector<std::string> all;
    for (auto [it, end] = values_.equal_range(name); it != end; ++it) all.push_back(it->second);
    return all;
}

std::optional<int64_t> Args::integer(std::string_view name) const {
    const auto text = value(name);
    if (!text) return std::nullopt;
    int64_t number = 0;
    const char* end = text->data() + text->size();
    const auto [stop, error] = std::from_chars(text->data(), end, number);
    if (text->empty() || error != std::errc() || stop != end)
        usage_error("option '" + std::string(name) + "' expects an integer, got '" + *text + "'");
    return number;
}

}  // namespace vkdml::cli

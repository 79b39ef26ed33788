// tools/args.hpp — the vkdml tool's command-line grammar: how a command declares its options and operands,
// parsing a command line against that declaration, generated usage text, and the tool's error type.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vkdml/vkdml.hpp"

namespace vkdml::cli {

/// A failure the tool reports as "vkdml: error: <what()>" before exiting with exit_code.
struct CliError : std::runtime_error {
    int exit_code;
    CliError(int code, const std::string& message) : std::runtime_error(message), exit_code(code) {}
};

/// Throws a CliError with exit code 2 (the command line is wrong).
[[noreturn]] void usage_error(const std::string& message);
/// Throws a CliError with exit code 1 (the command could not do its job).
[[noreturn]] void fail(const std::string& message);

/// The value of a library result, or fail() with its message.
template <class T>
T take(Result<T> result) {
    if (!result) fail(result.error().message);
    return std::move(result).value();
}
/// fail() with the message of a failed status.
void check(const Status& status);

/// An option of a command: a switch ("--reverse", empty value_name) or an option with a value ("--axis N").
struct OptionSpec {
    std::string_view name;        ///< with its leading "--"
    std::string_view value_name;  ///< placeholder shown in usage; empty for a switch
    std::string_view help;
    bool required = false;
    bool repeatable = false;  ///< may be given several times (Args::values lists them all)
};

/// What a command accepts: its options and its operands (positional arguments, all required).
struct CommandSpec {
    std::string_view name;
    std::string_view summary;  ///< one line, shown in the tool's usage and the command's
    std::span<const OptionSpec> options;
    std::span<const std::string_view> operands;  ///< placeholders such as "IN.npy"
};

/// Multi-line usage of one command, generated from its spec.
std::string usage(const CommandSpec& spec);

/// A parsed command line. Options may be written "--name value" or "--name=value"; "--" ends the options;
/// "-h" / "--help" ask for the command's usage (then nothing else is checked).
class Args {
public:
    /// Parses `args` (the words after the command name); throws a usage error for an unknown, repeated or
    /// malformed option, a missing required option or value, or a wrong number of operands.
    static Args parse(const CommandSpec& spec, std::span<const std::string_view> args);

    bool help() const { return help_; }
    /// Whether the option (switch or valued) was given.
    bool has(std::string_view name) const { return values_.find(name) != values_.end(); }
    /// The value of a valued option, if given.
    std::optional<std::string> value(std::string_view name) const;
    /// The value of a valued option as an integer; a usage error if it is not one.
    std::optional<int64_t> integer(std::string_view name) const;
    /// Every value of a repeatable option, in command-line order.
    std::vector<std::string> values(std::string_view name) const;
    const std::vector<std::string>& operands() const { return operands_; }

private:
    bool help_ = false;
    std::multimap<std::string, std::string, std::less<>> values_;
    std::vector<std::string> operands_;
};

}  // namespace vkdml::cli

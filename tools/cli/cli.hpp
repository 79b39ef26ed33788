// tools/cli/cli.hpp — the vkdml tool's command line on CLI11: the error type every command throws, the
// helpers that declare a command's options on its CLI::App (with the tool's own wording for bad values), and
// Args, a parsed command line. The command line reads as it always has: options as "--name value" or
// "--name=value", "--" ends them, "-h" / "--help" ask for the command's usage.
//
// CLI11 itself is included by cli.cpp alone: Debian's CLI11 2.1 is header-only, about 14 s of compiling
// per file that includes it, and the commands only need to name an App and declare options on it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vkdml/vkdml.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace vkdml::cli {

/// A failure the tool reports as "vkdml: error: <what()>" before exiting with exit_code.
struct CliError : std::runtime_error {
    int exit_code;
    CliError(int code, const std::string& message) : std::runtime_error(message), exit_code(code) {}
};

/// Throws a CliError with exit code 2 (the command line is wrong).
[[noreturn]] void usage_error(const std::string& message);
/// " (did you mean 'X'?)" for the candidate X closest to `word`, compared case-insensitively by edit
/// distance (a transposition is one step), when it is at most 2 and under half of `word`'s length; else
/// "". The first of equally close candidates wins.
std::string did_you_mean(std::string_view word, std::span<const std::string> candidates);

/// Throws a CliError with exit code 1 (the command could not do its job).
[[noreturn]] void fail(const std::string& message);

/// The index of `value` among `names` (compared exactly); otherwise the usage error
/// "unknown OPTION 'VALUE' (did you mean ...?) (one of: NAMES)".
size_t choose(const std::string& option, const std::string& value, const std::vector<std::string>& names);
/// The sizes of an option '--shape' such as "40,16": 1 to 8 of them, each 1 or more; else a usage error.
std::vector<uint32_t> parse_shape(const std::string& text);
/// The type an option '--dtype' names as numpy does ("float32", "uint8", ...); else a usage error.
DML_TENSOR_DATA_TYPE parse_dtype(const std::string& name);

/// The value of a library result, or fail() with its message.
template <class T>
T take(Result<T> result) {
    if (!result) fail(result.error().message);
    return std::move(result).value();
}
/// fail() with the message of a failed status.
void check(const Status& status);

// ---- declaring a command's options (name with its leading "--"; value_name is shown in the usage) ----

/// An option just declared, for the conditions a command puts on it.
class OptionRef {
public:
    explicit OptionRef(CLI::Option* option) : option_(option) {}
    /// The option must be given: otherwise a usage error naming it.
    OptionRef required();
    /// For add_integer's options: `accept(value)`, or the usage error "<expectation>, got 'TEXT'".
    OptionRef check(bool (*accept)(int64_t value), const std::string& expectation);

private:
    CLI::Option* option_;
};

/// An option with one value ("--json FILE"), given at most once.
OptionRef add_value(CLI::App& app, const std::string& name, const std::string& value_name,
                    const std::string& help);
/// An option with an integer value ("--axis N"): anything else is a usage error.
OptionRef add_integer(CLI::App& app, const std::string& name, const std::string& value_name,
                      const std::string& help);
/// An option with one value per use that may be given several times ("--case NAME").
OptionRef add_repeatable(CLI::App& app, const std::string& name, const std::string& value_name,
                         const std::string& help);
/// A switch ("--reverse"), given at most once and with no value.
OptionRef add_switch(CLI::App& app, const std::string& name, const std::string& help);

/// A command: its name, its one-line summary, its operands (placeholders such as "IN.npy", all required),
/// the function that declares its options and the one that runs it.
class Args;
struct Command {
    std::string_view name;
    std::string_view summary;  ///< shown in the tool's usage and the command's
    std::span<const std::string_view> operands;
    void (*define)(CLI::App& app);
    void (*run)(const Args& args);
};

/// A command line parsed against a command's options (CLI11).
class Args {
public:
    /// Parses `words` (those after the command name); throws a usage error for an unknown, repeated or
    /// malformed option, a missing required option or value, or a wrong number of operands. Nothing is
    /// checked when -h / --help is among the options.
    static Args parse(const Command& command, std::span<const std::string_view> words);

    Args();
    Args(Args&&) noexcept;
    Args& operator=(Args&&) noexcept;
    ~Args();

    bool help() const { return help_; }
    /// The command's usage (see -h).
    std::string usage() const;
    /// Whether the option (switch or valued) was given (false for one the command does not declare).
    bool has(const std::string& name) const;
    /// The value of a valued option, if given.
    std::optional<std::string> value(const std::string& name) const;
    /// The value of an integer option (add_integer), if given.
    std::optional<int64_t> integer(const std::string& name) const;
    /// Every value of a repeatable option, in command-line order.
    std::vector<std::string> values(const std::string& name) const;
    const std::vector<std::string>& operands() const { return operands_; }

private:
    std::unique_ptr<CLI::App> app_;
    bool help_ = false;
    std::vector<std::string> operands_;
};

}  // namespace vkdml::cli

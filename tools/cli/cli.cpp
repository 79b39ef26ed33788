// tools/cli/cli.cpp — the vkdml tool's command line on CLI11: option helpers whose validators carry the
// tool's messages, the usage text (a CLI11 formatter), and Args::parse, which turns CLI11's errors and
// leftovers into the tool's usage errors.
#include "cli/cli.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <string>
#include <vector>

namespace vkdml::cli {

void usage_error(const std::string& message) {
    throw CliError(2, message);
}

std::string did_you_mean(std::string_view word, std::span<const std::string> candidates) {
    const auto lower = [](std::string_view text) {
        std::string out(text);
        for (char& c : out) c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
        return out;
    };
    // Edit distance with transpositions (optimal string alignment): "unit32" is one step from "uint32".
    const auto distance = [](const std::string& a, const std::string& b) {
        std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
        for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
        for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
        for (size_t i = 1; i <= a.size(); ++i)
            for (size_t j = 1; j <= b.size(); ++j) {
                d[i][j] = std::min(
                    {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
                if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                    d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
            }
        return d[a.size()][b.size()];
    };
    const std::string target = lower(word);
    const std::string* best = nullptr;
    size_t best_distance = 3;
    for (const std::string& candidate : candidates) {
        const size_t d = distance(target, lower(candidate));
        if (d < best_distance && 2 * d < word.size()) {
            best = &candidate;
            best_distance = d;
        }
    }
    return best ? " (did you mean '" + *best + "'?)" : "";
}

size_t choose(const std::string& option, const std::string& value, const std::vector<std::string>& names) {
    for (size_t i = 0; i < names.size(); ++i)
        if (names[i] == value) return i;
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    usage_error("unknown " + option + " '" + value + "'" + did_you_mean(value, names) + " (one of: " + list +
                ")");
}

std::vector<uint32_t> parse_shape(const std::string& text) {
    std::vector<uint32_t> sizes;
    for (size_t start = 0; start <= text.size();) {
        const size_t comma = std::min(text.find(',', start), text.size());
        uint32_t n = 0;
        const auto [stop, error] = std::from_chars(text.data() + start, text.data() + comma, n);
        if (start == comma || error != std::errc() || stop != text.data() + comma || n == 0)
            usage_error("option '--shape' expects comma-separated sizes of 1 or more, got '" + text + "'");
        sizes.push_back(n);
        start = comma + 1;
    }
    if (sizes.size() > 8)
        usage_error("option '--shape' has " + std::to_string(sizes.size()) + " sizes, at most 8");
    return sizes;
}

DML_TENSOR_DATA_TYPE parse_dtype(const std::string& name) {
    std::vector<std::string> names;  // DML_TENSOR_DATA_TYPE 1 (FLOAT32) to 11 (INT64), as numpy names them
    for (int t = DML_TENSOR_DATA_TYPE_FLOAT32; t <= DML_TENSOR_DATA_TYPE_INT64; ++t)
        names.push_back(type_info(static_cast<DML_TENSOR_DATA_TYPE>(t))->numpy_name);
    return static_cast<DML_TENSOR_DATA_TYPE>(DML_TENSOR_DATA_TYPE_FLOAT32 + choose("--dtype", name, names));
}

void fail(const std::string& message) {
    throw CliError(1, message);
}

void check(const Status& status) {
    if (!status) fail(status.error().message);
}

namespace {

// A whole decimal integer (no sign other than '-', no spaces, no base prefix), or nothing.
std::optional<int64_t> parse_integer(std::string_view text) {
    int64_t number = 0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, number);
    if (text.empty() || error != std::errc() || stop != end) return std::nullopt;
    return number;
}

// A switch has no value name (add_switch).
bool is_switch(const CLI::Option& option) {
    return option.get_type_name().empty();
}

// add_repeatable's options keep every value; the others keep the last, and Args::parse refuses a second.
bool is_repeatable(const CLI::Option& option) {
    return option.get_multi_option_policy() == CLI::MultiOptionPolicy::TakeAll;
}

// "--axis N" or "--reverse", as the usage and the messages write an option.
std::string spelling(const CLI::Option& option) {
    return is_switch(option) ? option.get_name() : option.get_name() + " " + option.get_type_name();
}

// The options a command declared, in order (not -h / --help).
std::vector<const CLI::Option*> declared(const CLI::App& app) {
    std::vector<const CLI::Option*> options = app.get_options();
    std::erase(options, app.get_help_ptr());
    return options;
}

// The first validator of every valued option: CLI11 takes the next word as the value whatever it is, the
// tool never one that starts with "--" ("--axis --reverse" lacks a value).
CLI::Validator value_given(const std::string& name, const std::string& spelled) {
    return CLI::Validator(
        [=](const std::string& text) {
            return text.starts_with("--") ? "option '" + name + "' needs a value (" + spelled + ")"
                                          : std::string();
        },
        "");
}

CLI::Option* valued(CLI::App& app, const std::string& name, const std::string& value_name,
                    const std::string& help, CLI::MultiOptionPolicy policy) {
    CLI::Option* option = app.add_option(name, help)->type_name(value_name)->multi_option_policy(policy);
    return option->check(value_given(name, name + " " + value_name));
}

// The usage text of a command: its synopsis (optional options in brackets), its summary, its options.
class UsageFormatter : public CLI::FormatterBase {
public:
    explicit UsageFormatter(std::span<const std::string_view> operands) : operands_(operands) {}

    std::string make_help(const CLI::App* app, std::string, CLI::AppFormatMode) const override {
        const std::vector<const CLI::Option*> options = declared(*app);
        std::string text = "usage: " + app->get_name();
        for (const CLI::Option* option : options) {
            if (option->get_required())
                text += " " + spelling(*option);
            else
                text += " [" + spelling(*option) + "]" + (is_repeatable(*option) ? "..." : "");
        }
        for (std::string_view operand : operands_) text += " " + std::string(operand);
        text += "\n\n" + app->get_description() + "\n";
        if (options.empty()) return text;
        size_t width = 0;
        for (const CLI::Option* option : options) width = std::max(width, spelling(*option).size());
        text += "\noptions:\n";
        for (const CLI::Option* option : options) {
            std::string left = spelling(*option);
            left.resize(width + 2, ' ');
            text += "  " + left + option->get_description() + "\n";
        }
        return text;
    }

private:
    std::span<const std::string_view> operands_;
};

// The words as CLI11's parse() takes them: in reverse order. Two forms CLI11 reads otherwise are settled
// here: "--name=" (an empty value) becomes "--name" "" for a valued option (CLI11 would take the next word as
// its value), and a switch given a value ("--reverse=yes", "--reverse=") is refused (CLI11 reads "true" or
// "" as the switch itself).
std::vector<std::string> cli11_words(const CLI::App& app, std::span<const std::string_view> words) {
    std::vector<std::string> out;
    bool options_ended = false;
    for (std::string_view word : words) {
        options_ended = options_ended || word == "--";
        const size_t equals = word.find('=');
        const CLI::Option* option =
            !options_ended && word.starts_with("--") && equals != std::string_view::npos
                ? app.get_option_no_throw(std::string(word.substr(0, equals)))
                : nullptr;
        if (option && is_switch(*option)) usage_error("option '" + option->get_name() + "' takes no value");
        if (option && equals + 1 == word.size()) {
            out.emplace_back(word.substr(0, equals));
            out.emplace_back();
        } else {
            out.emplace_back(word);
        }
    }
    std::reverse(out.begin(), out.end());
    return out;
}

// What CLI11 could not place, in command-line order: before "--", a word starting with '-' (other than "-"
// itself) is an unknown option, any other an operand; after it, every word is an operand.
std::vector<std::string> operands_of(const CLI::App& app, const std::string& command) {
    std::vector<std::string> operands;
    bool options_ended = false;
    for (const std::string& word : app.remaining()) {
        if (!options_ended && word == "--") {
            options_ended = true;
        } else if (!options_ended && word.size() > 1 && word.starts_with('-')) {
            const std::string option = word.substr(0, word.find('='));
            std::vector<std::string> names;
            for (const CLI::Option* o : app.get_options())
                for (const std::string& long_name : o->get_lnames()) names.push_back("--" + long_name);
            usage_error("unknown option '" + option + "' for " + command + did_you_mean(option, names));
        } else {
            operands.push_back(word);
        }
    }
    return operands;
}

// A second use of an option that takes one.
void refuse_repeats(const CLI::App& app) {
    for (const CLI::Option* option : declared(app))
        if (!is_repeatable(*option) && option->count() > 1)
            usage_error("option '" + option->get_name() + "' is given twice");
}

// A CLI11 parse error in the tool's words.
std::string message(const CLI::ParseError& error, const CLI::App& app, const std::string& command,
                    std::span<const std::string_view> words) {
    if (dynamic_cast<const CLI::ValidationError*>(&error)) {
        // "NAME: <the validator's message>"
        const std::string what = error.what();
        const size_t colon = what.find(": ");
        return colon == std::string::npos ? what : what.substr(colon + 2);
    }
    if (dynamic_cast<const CLI::RequiredError*>(&error)) {
        for (const CLI::Option* option : declared(app))
            if (option->get_required() && option->count() == 0)
                return command + " needs the option " + spelling(*option);
    }
    if (dynamic_cast<const CLI::ArgumentMismatch*>(&error) && !words.empty()) {
        // The words ran out before the value of the option that ends them.
        std::string last(words.back());
        if (last.ends_with('=')) last.pop_back();
        if (const CLI::Option* option = app.get_option_no_throw(last))
            return "option '" + option->get_name() + "' needs a value (" + spelling(*option) + ")";
    }
    return error.what();
}

}  // namespace

OptionRef OptionRef::required() {
    option_->required();
    return *this;
}

OptionRef OptionRef::check(bool (*accept)(int64_t value), const std::string& expectation) {
    option_->check(CLI::Validator(
        [=](const std::string& text) {
            const auto number = parse_integer(text);
            return number && accept(*number) ? std::string() : expectation + ", got '" + text + "'";
        },
        ""));
    return *this;
}

OptionRef add_value(CLI::App& app, const std::string& name, const std::string& value_name,
                    const std::string& help) {
    return OptionRef(valued(app, name, value_name, help, CLI::MultiOptionPolicy::TakeLast));
}

OptionRef add_integer(CLI::App& app, const std::string& name, const std::string& value_name,
                      const std::string& help) {
    return OptionRef(valued(app, name, value_name, help, CLI::MultiOptionPolicy::TakeLast)
                         ->check(CLI::Validator(
                             [name](const std::string& text) {
                                 return parse_integer(text)
                                            ? std::string()
                                            : "option '" + name + "' expects an integer, got '" + text + "'";
                             },
                             "")));
}

OptionRef add_repeatable(CLI::App& app, const std::string& name, const std::string& value_name,
                         const std::string& help) {
    return OptionRef(valued(app, name, value_name, help, CLI::MultiOptionPolicy::TakeAll));
}

OptionRef add_switch(CLI::App& app, const std::string& name, const std::string& help) {
    return OptionRef(
        app.add_flag(name, help)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast));  // see cli11_words
}

Args::Args() = default;
Args::Args(Args&&) noexcept = default;
Args& Args::operator=(Args&&) noexcept = default;
Args::~Args() = default;

std::string Args::usage() const {
    return app_->help();
}

Args Args::parse(const Command& command, std::span<const std::string_view> words) {
    const std::string name = "vkdml " + std::string(command.name), quoted = "'" + name + "'";
    Args args;
    args.app_ = std::make_unique<CLI::App>(std::string(command.summary), name);
    CLI::App& app = *args.app_;
    app.allow_extras();                      // unknown options and operands: operands_of
    app.allow_windows_style_options(false);  // "/x" is a file name on Windows too
    app.set_help_flag("-h,--help", "show this usage");
    app.formatter(std::make_shared<UsageFormatter>(command.operands));
    command.define(app);

    std::vector<std::string> reversed = cli11_words(app, words);
    try {
        app.parse(reversed);
    } catch (const CLI::CallForHelp&) {
        args.help_ = true;
        return args;
    } catch (const CLI::ParseError& error) {
        if (app.get_help_ptr()->count() > 0) {
            args.help_ = true;
            return args;
        }
        // The tool's order: unknown and repeated options first.
        operands_of(app, quoted);
        refuse_repeats(app);
        usage_error(message(error, app, quoted, words));
    }
    args.operands_ = operands_of(app, quoted);
    refuse_repeats(app);
    if (args.operands_.size() != command.operands.size()) {
        std::string names;
        for (std::string_view operand : command.operands)
            names += (names.empty() ? "" : " ") + std::string(operand);
        usage_error(quoted + " takes " + std::to_string(command.operands.size()) + " operand(s)" +
                    (names.empty() ? "" : " (" + names + ")") + ", got " +
                    std::to_string(args.operands_.size()));
    }
    return args;
}

bool Args::has(const std::string& name) const {
    const CLI::Option* option = app_->get_option_no_throw(name);
    return option && option->count() > 0;
}

std::optional<std::string> Args::value(const std::string& name) const {
    if (!has(name)) return std::nullopt;
    return app_->get_option(name)->results().back();
}

std::optional<int64_t> Args::integer(const std::string& name) const {
    const auto text = value(name);
    if (!text) return std::nullopt;
    return parse_integer(*text);  // checked by add_integer's validator
}

std::vector<std::string> Args::values(const std::string& name) const {
    const CLI::Option* option = app_->get_option_no_throw(name);
    return option ? option->results() : std::vector<std::string>();
}

}  // namespace vkdml::cli

// tools/cli/vkdml_cli.cpp — main() of the vkdml tool: the command table, tool-level usage and --version, and
// the one place where failures become "vkdml: error: ..." and an exit code: always one line on stderr and
// a non-zero exit, never a signal (a closed stdout is an error like any other: see platform.hpp).
#include <algorithm>
#include <cstdio>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.hpp"
#include "npy/platform.hpp"
#include "vkdml/version.hpp"

namespace vkdml::cli {
namespace {

// The commands, in the order the usage lists them.
const Command* const kCommands[] = {
    &kCumsumCommand,       &kCumprodCommand, &kCummaxCommand, &kCumminCommand,
    &kLogcumsumexpCommand, &kReduceCommand,  &kArgmaxCommand, &kArgminCommand,
    &kInfoCommand,         &kShowCommand,    &kBenchCommand,  &kPlanCommand,
};

std::string tool_usage() {
    std::string text =
        "usage: vkdml <command> [options] [operands]\n"
        "       vkdml --help | --version\n"
        "\n"
        "DirectML's cumulative and reduction operators on Vulkan compute, on .npy files.\n"
        "\n"
        "commands:\n";
    size_t column = 0;  // the summaries' column: two spaces past the longest name
    for (const Command* command : kCommands) column = std::max(column, command->name.size() + 2);
    for (const Command* command : kCommands) {
        std::string name(command->name);
        name.resize(column, ' ');
        text += "  " + name + std::string(command->summary) + "\n";
    }
    return text +
           "\nIN.npy (or FILE.npy) '-' reads standard input, OUT.npy '-' writes standard output, so that "
           "commands chain.\nRun 'vkdml <command> --help' for a command's options.\n";
}

// Writes to stdout; fails if it cannot (a closed pipe, a full disk).
void print(const std::string& text) {
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size())
        fail("cannot write to standard output");
}

int run(const std::vector<std::string_view>& words) {
    if (words.empty()) {
        std::fputs(tool_usage().c_str(), stderr);
        return 2;
    }
    if (words[0] == "--help" || words[0] == "-h") {
        print(tool_usage());
        return 0;
    }
    if (words[0] == "--version") {
        print("vkdml " VKDML_VERSION_STRING "\n");
        return 0;
    }
    for (const Command* command : kCommands) {
        if (command->name != words[0]) continue;
        const Args args = Args::parse(*command, std::span(words).subspan(1));
        if (args.help())
            print(args.usage());
        else
            command->run(args);
        return 0;
    }
    const bool option = words[0].starts_with('-');
    std::vector<std::string> names;  // what the word could have meant: the options, or the commands
    if (option)
        names = {"--help", "--version"};
    else
        for (const Command* command : kCommands) names.emplace_back(command->name);
    usage_error("unknown " + std::string(option ? "option" : "command") + " '" + std::string(words[0]) + "'" +
                did_you_mean(words[0], names) + " (see 'vkdml --help')");
}

// Runs the command line and flushes stdout, failing if anything written to it was lost.
int run_and_flush(const std::vector<std::string_view>& words) {
    const int code = run(words);
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) fail("cannot write to standard output");
    return code;
}

// A message as one line: control characters (a newline in a file name, say) written as \xNN.
std::string one_line(std::string_view message) {
    std::string out;
    for (char ch : message) {
        const auto byte = static_cast<unsigned char>(ch);
        if (byte >= 0x20 && byte != 0x7f) {
            out += ch;
        } else {
            char hex[5];
            std::snprintf(hex, sizeof hex, "\\x%02x", byte);
            out += hex;
        }
    }
    return out;
}

int report(std::string_view message, int exit_code) {
    const std::string line = "vkdml: error: " + one_line(message) + "\n";
    std::fwrite(line.data(), 1, line.size(), stderr);
    return exit_code;
}

}  // namespace
}  // namespace vkdml::cli

int main(int argc, char** argv) {
    vkdml::platform::prepare_standard_streams();
    using vkdml::cli::report;
    try {
        const std::vector<std::string> args = vkdml::platform::utf8_arguments(argc, argv);
        return vkdml::cli::run_and_flush(std::vector<std::string_view>(args.begin(), args.end()));
    } catch (const vkdml::cli::CliError& error) {
        return report(error.what(), error.exit_code);
    } catch (const std::bad_alloc&) {
        return report("out of host memory", 1);
    } catch (const std::exception& error) {
        return report(error.what(), 1);
    } catch (...) {
        return report("unexpected internal failure", 1);
    }
}

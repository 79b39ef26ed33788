// tools/vkdml_cli.cpp — main() of the vkdml tool: the command table, tool-level usage and --version, and
// the one place where failures become "vkdml: error: ..." and an exit code.
#include <cstdio>
#include <iostream>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"

#ifndef VKDML_VERSION
#define VKDML_VERSION "0.0.0-dev"
#endif

namespace vkdml::cli {
namespace {

// The commands, in the order the usage lists them.
const Command* const kCommands[] = {
    &kCumsumCommand, &kCumprodCommand, &kReduceCommand, &kArgmaxCommand,
    &kArgminCommand, &kInfoCommand,    &kShowCommand,
};

std::string tool_usage() {
    std::string text =
        "usage: vkdml <command> [options] [operands]\n"
        "       vkdml --help | --version\n"
        "\n"
        "DirectML's cumulative and reduction operators on Vulkan compute, on .npy files.\n"
        "\n"
        "commands:\n";
    for (const Command* command : kCommands) {
        std::string name(command->spec.name);
        name.resize(10, ' ');
        text += "  " + name + std::string(command->spec.summary) + "\n";
    }
    return text + "\nRun 'vkdml <command> --help' for a command's options.\n";
}

int run(const std::vector<std::string_view>& words) {
    if (words.empty()) {
        std::fputs(tool_usage().c_str(), stderr);
        return 2;
    }
    if (words[0] == "--help" || words[0] == "-h") {
        std::fputs(tool_usage().c_str(), stdout);
        return 0;
    }
    if (words[0] == "--version") {
        std::puts("vkdml " VKDML_VERSION);
        return 0;
    }
    for (const Command* command : kCommands) {
        if (command->spec.name != words[0]) continue;
        const Args args = Args::parse(command->spec, std::span(words).subspan(1));
        if (args.help())
            std::fputs(usage(command->spec).c_str(), stdout);
        else
            command->run(args);
        return 0;
    }
    usage_error("unknown " + std::string(words[0].starts_with('-') ? "option" : "command") + " '" +
                std::string(words[0]) + "' (see 'vkdml --help')");
}

}  // namespace
}  // namespace vkdml::cli

int main(int argc, char** argv) {
    try {
        return vkdml::cli::run(std::vector<std::string_view>(argv + 1, argv + argc));
    } catch (const vkdml::cli::CliError& error) {
        std::cerr << "vkdml: error: " << error.what() << '\n';
        return error.exit_code;
    } catch (const std::bad_alloc&) {
        std::cerr << "vkdml: error: out of host memory\n";
        return 1;
    } catch (const std::exception& error) {
        std::cerr << "vkdml: error: " << error.what() << '\n';
        return 1;
    }
}

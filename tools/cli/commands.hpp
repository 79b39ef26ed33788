// tools/cli/commands.hpp — the vkdml tool's commands: each is a Command (cli.hpp): its options, declared on a
// CLI::App, and the function that runs it. A command reports failure by throwing CliError; returning means
// success.
#pragma once

#include "cli/cli.hpp"

namespace vkdml::cli {

extern const Command kCumsumCommand;        // cmd_cumulative.cpp
extern const Command kCumprodCommand;       // cmd_cumulative.cpp
extern const Command kCummaxCommand;        // cmd_cumulative.cpp
extern const Command kCumminCommand;        // cmd_cumulative.cpp
extern const Command kLogcumsumexpCommand;  // cmd_cumulative.cpp
extern const Command kReduceCommand;        // cmd_reduce.cpp
extern const Command kArgmaxCommand;        // cmd_reduce.cpp
extern const Command kArgminCommand;        // cmd_reduce.cpp
extern const Command kInfoCommand;          // cmd_info.cpp
extern const Command kShowCommand;          // cmd_show.cpp
extern const Command kBenchCommand;         // cmd_bench.cpp
extern const Command kPlanCommand;          // cmd_plan.cpp

}  // namespace vkdml::cli

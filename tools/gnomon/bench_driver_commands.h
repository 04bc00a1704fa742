// Registration of `gnomon bench load`, `run-queries`, `report` and `profile` (each in its own *_command.cc),
// called from RegisterBenchCommand with the `bench` subcommand.
#pragma once

#include <CLI/CLI.hpp>

namespace gnomon::tools {

void RegisterBenchLoadCommand(CLI::App* bench);
void RegisterBenchRunQueriesCommand(CLI::App* bench);
void RegisterBenchReportCommand(CLI::App* bench);
void RegisterBenchProfileCommand(CLI::App* bench);

}  // namespace gnomon::tools

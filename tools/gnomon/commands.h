// Subcommand registration: each verb lives in its own *_command.cc and registers itself here.
#pragma once

#include <CLI/CLI.hpp>

namespace gnomon::tools {

void RegisterCommands(CLI::App& app);
// The exit code set by the subcommand that ran.
int ExitCode();
void SetExitCode(int code);

void RegisterVersionCommand(CLI::App& app);
void RegisterBenchCommand(CLI::App& app);
void RegisterServerCommand(CLI::App& app);
void RegisterTortureCommand(CLI::App& app);
void RegisterDataDirCommands(CLI::App& app);
void RegisterTokenCommand(CLI::App& app);

}  // namespace gnomon::tools

#include "tools/gnomon/commands.h"

namespace gnomon::tools {
namespace {
int exit_code = 0;
}  // namespace

int ExitCode() { return exit_code; }
void SetExitCode(int code) { exit_code = code; }

void RegisterCommands(CLI::App& app) {
  RegisterVersionCommand(app);
  RegisterBenchCommand(app);
  RegisterServerCommand(app);
  RegisterTortureCommand(app);
  RegisterDataDirCommands(app);
  RegisterTokenCommand(app);
}

}  // namespace gnomon::tools

#include <cstdio>

#include "tools/gnomon/commands.h"

#ifndef GNOMON_VERSION
#define GNOMON_VERSION "dev"
#endif

namespace gnomon::tools {

void RegisterVersionCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("version", "Print the version");
  cmd->callback([] { std::printf("gnomon %s\n", GNOMON_VERSION); });
}

}  // namespace gnomon::tools

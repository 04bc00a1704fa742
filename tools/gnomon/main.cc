// gnomon: one binary for the server, the TSBS-compatible benchmark and admin verbs.
#include <CLI/CLI.hpp>

#include <cstdio>

#include "tools/gnomon/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"Gnomon: a time-series database"};
  app.require_subcommand(1);
  gnomon::tools::RegisterCommands(app);
  CLI11_PARSE(app, argc, argv);
  return gnomon::tools::ExitCode();
}

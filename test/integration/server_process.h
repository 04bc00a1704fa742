// The integration tests' server child (bench::ServerProcess, shared with `gnomon bench profile`)
// and their temporary directories.
#pragma once

#include <string>

#include "src/bench/server_process.h"

namespace gnomon::test {

using bench::ServerProcess;

// A fresh empty directory under $TMPDIR (or /tmp), removed by the caller when done.
std::string MakeTempDir(const std::string& prefix);
void RemoveTree(const std::string& path);

}  // namespace gnomon::test

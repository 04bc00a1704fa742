// ServerProcess: runs `gnomon server` as a child process for integration tests. Start() passes
// --http-addr 127.0.0.1:0 and reads the bound port from the server's "gnomon listening on" line.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "src/base/result.h"

namespace gnomon::test {

class ServerProcess {
 public:
  // `binary`: path to gnomon; `data_dir`: passed as --data-dir; `extra_args`: more flags.
  ServerProcess(std::string binary, std::string data_dir, std::vector<std::string> extra_args = {});
  ~ServerProcess();  // SIGKILL if still running

  // Starts the server and waits (up to `timeout`) until it listens and answers /ping.
  Status Start(std::chrono::seconds timeout = std::chrono::seconds(60));
  // Sends `signal` and waits for the exit; returns the exit code (128 + n when killed by n).
  Result<int> Stop(int signal, std::chrono::seconds timeout = std::chrono::seconds(60));
  // Sends `signal` without waiting.
  void Signal(int signal);

  uint16_t port() const { return port_; }
  pid_t pid() const { return pid_; }
  // Where the child's stderr (its log) goes.
  const std::string& log_path() const { return log_path_; }

 private:
  std::string binary_;
  std::string data_dir_;
  std::vector<std::string> extra_args_;
  std::string log_path_;
  pid_t pid_ = -1;
  int stdout_fd_ = -1;
  uint16_t port_ = 0;
};

// A fresh empty directory under $TMPDIR (or /tmp), removed by the caller when done.
std::string MakeTempDir(const std::string& prefix);
void RemoveTree(const std::string& path);

}  // namespace gnomon::test

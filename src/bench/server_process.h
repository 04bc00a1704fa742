// ServerProcess: `gnomon server` as a child process, for benchmark profiles and integration tests.
// Start() passes --http-addr (default 127.0.0.1:0, then the bound port is read from the server's
// "gnomon listening on" line) and waits until /ping answers. The child's CPU time and resident
// memory are read from /proc, so a benchmark can report server CPU per row and peak RSS.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/base/result.h"

namespace gnomon::bench {

class ServerProcess {
 public:
  // `binary`: path to gnomon; `data_dir`: passed as --data-dir; `extra_args`: more flags.
  ServerProcess(std::string binary, std::string data_dir, std::vector<std::string> extra_args = {});
  ~ServerProcess();  // SIGKILL if still running
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  // Where the child's stderr (its log) goes, appended; default data_dir + ".log".
  void set_log_path(std::string path) { log_path_ = std::move(path); }
  // --http-addr; default 127.0.0.1:0 (a free port).
  void set_http_addr(std::string addr) { http_addr_ = std::move(addr); }

  // Starts the server and waits (up to `timeout`) until it listens and answers /ping.
  Status Start(std::chrono::seconds timeout = std::chrono::seconds(60));
  // Sends `signal` and waits for the exit; returns the exit code (128 + n when killed by n).
  Result<int> Stop(int signal, std::chrono::seconds timeout = std::chrono::seconds(60));
  // Sends `signal` without waiting.
  void Signal(int signal);
  // If the child has exited (by itself or by a signal sent earlier), reaps it and returns its exit
  // code (128 + n when killed by n); nullopt while it runs or when none was started.
  std::optional<int> PollExit();
  // PollExit until the child exits or `timeout` passes: for a server that may be dying right now
  // (a dropped connection from a crash in progress), nullopt when it still runs after `timeout`.
  std::optional<int> WaitExit(std::chrono::milliseconds timeout);

  uint16_t port() const { return port_; }
  pid_t pid() const { return pid_; }
  bool running() const { return pid_ > 0; }
  const std::string& log_path() const { return log_path_; }
  // "http://127.0.0.1:PORT" ("https://..." when the server was started with --tls-cert)
  std::string url() const;

  // User + system CPU seconds the running child has used so far (/proc/PID/stat).
  Result<double> CpuSeconds() const;
  // The child's peak resident set so far (VmHWM), in bytes.
  Result<uint64_t> PeakRssBytes() const;

 private:
  Status WaitForAddress(std::chrono::steady_clock::time_point deadline);

  std::string binary_;
  std::string data_dir_;
  std::vector<std::string> extra_args_;
  std::string log_path_;
  std::string http_addr_ = "127.0.0.1:0";
  pid_t pid_ = -1;
  int stdout_fd_ = -1;
  uint16_t port_ = 0;
  bool https_ = false;  // the server announced an https:// address
};

}  // namespace gnomon::bench

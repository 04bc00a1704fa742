#include "src/bench/server_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "src/bench/http_client.h"

namespace gnomon::bench {

ServerProcess::ServerProcess(std::string binary, std::string data_dir,
                             std::vector<std::string> extra_args)
    : binary_(std::move(binary)), data_dir_(std::move(data_dir)), extra_args_(std::move(extra_args)) {
  log_path_ = data_dir_ + ".log";
}

ServerProcess::~ServerProcess() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  if (stdout_fd_ >= 0) close(stdout_fd_);
}

std::string ServerProcess::url() const {
  return std::string(https_ ? "https" : "http") + "://127.0.0.1:" + std::to_string(port_);
}

Status ServerProcess::Start(std::chrono::seconds timeout) {
  if (pid_ > 0) return Status::InvalidArgument("server already running");
  if (stdout_fd_ >= 0) close(stdout_fd_);
  stdout_fd_ = -1;
  port_ = 0;
  int out[2];
  if (pipe(out) != 0) return Status::FromErrno("pipe", errno);
  std::vector<std::string> args = {binary_, "server", "--data-dir", data_dir_, "--http-addr",
                                   http_addr_};
  args.insert(args.end(), extra_args_.begin(), extra_args_.end());
  pid_ = fork();
  if (pid_ < 0) return Status::FromErrno("fork", errno);
  if (pid_ == 0) {
    dup2(out[1], STDOUT_FILENO);
    int log = open(log_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (log >= 0) dup2(log, STDERR_FILENO);
    close(out[0]);
    close(out[1]);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(binary_.c_str(), argv.data());
    _exit(127);
  }
  close(out[1]);
  stdout_fd_ = out[0];

  const auto deadline = std::chrono::steady_clock::now() + timeout;
  GNOMON_RETURN_IF_ERROR(WaitForAddress(deadline));
  // The line comes once the server accepts; over HTTPS (which HttpClient does not speak) that is
  // the readiness signal.
  if (https_) return Status::OK();
  GNOMON_ASSIGN_OR_RETURN(Url base, ParseUrl(url()));
  while (std::chrono::steady_clock::now() < deadline) {
    HttpClient client(base);
    auto ping = client.Send({.method = "GET", .target = "/ping"});
    if (ping.ok() && ping->status == 204) return Status::OK();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return Status::Timeout("server never answered /ping; see " + log_path_);
}

// Reads stdout until the "gnomon listening on http[s]://HOST:PORT" line.
Status ServerProcess::WaitForAddress(std::chrono::steady_clock::time_point deadline) {
  std::string text;
  const std::string marker = "gnomon listening on http";
  while (port_ == 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return Status::Timeout("server did not report its address; see " + log_path_);
    pollfd pfd{stdout_fd_, POLLIN, 0};
    if (poll(&pfd, 1, static_cast<int>(left.count())) <= 0) continue;
    char buf[512];
    ssize_t n = read(stdout_fd_, buf, sizeof(buf));
    if (n <= 0) return Status::IOError("server exited before listening; see " + log_path_);
    text.append(buf, static_cast<size_t>(n));
    size_t at = text.find(marker);
    size_t nl = at == std::string::npos ? std::string::npos : text.find('\n', at);
    if (nl != std::string::npos) {
      std::string addr = text.substr(at + marker.size(), nl - at - marker.size());
      https_ = addr.rfind("s://", 0) == 0;
      port_ = static_cast<uint16_t>(std::atoi(addr.substr(addr.rfind(':') + 1).c_str()));
    }
  }
  return Status::OK();
}

void ServerProcess::Signal(int signal) {
  if (pid_ > 0) kill(pid_, signal);
}

std::optional<int> ServerProcess::PollExit() {
  if (pid_ <= 0) return std::nullopt;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) != pid_) return std::nullopt;
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::optional<int> ServerProcess::WaitExit(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (std::optional<int> code = PollExit()) return code;
    if (pid_ <= 0 || std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

Result<int> ServerProcess::Stop(int signal, std::chrono::seconds timeout) {
  if (pid_ <= 0) return Status::InvalidArgument("server not running");
  kill(pid_, signal);
  if (std::optional<int> code = WaitExit(timeout)) return *code;
  return Status::Timeout("server did not exit after signal " + std::to_string(signal));
}

Result<double> ServerProcess::CpuSeconds() const {
  if (pid_ <= 0) return Status::InvalidArgument("server not running");
  std::ifstream in("/proc/" + std::to_string(pid_) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Fields after the command name (which may hold spaces) start past the last ')'.
  const size_t close = text.rfind(')');
  if (close == std::string::npos) return Status::IOError("cannot read /proc/PID/stat");
  std::istringstream fields(text.substr(close + 2));
  std::string skip;
  for (int i = 3; i < 14; ++i) fields >> skip;  // state .. cmajflt (fields 3-13)
  uint64_t utime = 0, stime = 0;
  if (!(fields >> utime >> stime)) return Status::IOError("cannot parse /proc/PID/stat");
  return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

Result<uint64_t> ServerProcess::PeakRssBytes() const {
  if (pid_ <= 0) return Status::InvalidArgument("server not running");
  std::ifstream in("/proc/" + std::to_string(pid_) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::strtoull(line.c_str() + 6, nullptr, 10) * 1024;
  }
  return Status::IOError("no VmHWM in /proc/PID/status");
}

}  // namespace gnomon::bench

#include "test/integration/server_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <thread>

#include "src/server/http/http_test_client.h"

namespace gnomon::test {

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

Status ServerProcess::Start(std::chrono::seconds timeout) {
  int out[2];
  if (pipe(out) != 0) return Status::FromErrno("pipe", errno);
  std::vector<std::string> args = {binary_, "server", "--data-dir", data_dir_, "--http-addr",
                                   "127.0.0.1:0"};
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

  // Read stdout until the "gnomon listening on http://HOST:PORT" line.
  auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string text;
  const std::string marker = "gnomon listening on http://";
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
      port_ = static_cast<uint16_t>(std::atoi(addr.substr(addr.rfind(':') + 1).c_str()));
    }
  }
  while (std::chrono::steady_clock::now() < deadline) {
    auto ping = server::http::HttpRequestOnce("127.0.0.1", port_, "GET", "/ping");
    if (ping.ok() && ping->status == 204) return Status::OK();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return Status::Timeout("server never answered /ping");
}

void ServerProcess::Signal(int signal) {
  if (pid_ > 0) kill(pid_, signal);
}

Result<int> ServerProcess::Stop(int signal, std::chrono::seconds timeout) {
  if (pid_ <= 0) return Status::InvalidArgument("server not running");
  kill(pid_, signal);
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      pid_ = -1;
      if (WIFEXITED(status)) return WEXITSTATUS(status);
      return 128 + WTERMSIG(status);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return Status::Timeout("server did not exit after signal " + std::to_string(signal));
}

std::string MakeTempDir(const std::string& prefix) {
  const char* base = std::getenv("TMPDIR");
  std::string tmpl = std::string(base && *base ? base : "/tmp") + "/" + prefix + "-XXXXXX";
  char* made = mkdtemp(tmpl.data());
  return made ? std::string(made) : std::string();
}

void RemoveTree(const std::string& path) {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
  std::filesystem::remove(path + ".log", ec);
}

}  // namespace gnomon::test

// Test-only: a tiny HTTP/1.1 server on 127.0.0.1:<ephemeral> (one thread per connection, keep-alive,
// Content-Length bodies only) for testing the benchmark's client, loader and query runner.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gnomon::bench::testing {

struct FakeRequest {
  std::string method;
  std::string target;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
};

struct FakeResponse {
  int status = 200;
  std::string body;
  bool close = false;   // answer with "Connection: close" and close
  bool drop = false;    // close the connection without answering
};

class FakeHttpServer {
 public:
  using Handler = std::function<FakeResponse(const FakeRequest&)>;

  explicit FakeHttpServer(Handler handler) : handler_(std::move(handler)) {
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
    ::listen(listen_fd_, 64);
    socklen_t len = sizeof(addr);
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    accept_thread_ = std::thread([this] { AcceptLoop(); });
  }

  ~FakeHttpServer() {
    stopping_ = true;
    ::shutdown(listen_fd_, SHUT_RDWR);
    ::close(listen_fd_);
    accept_thread_.join();
    std::vector<std::thread> threads;
    {
      std::lock_guard lock(mu_);
      for (int fd : open_fds_) ::shutdown(fd, SHUT_RDWR);
      threads.swap(threads_);
    }
    for (auto& t : threads) t.join();
  }

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  int port() const { return port_; }
  int connections() const { return connections_.load(); }

 private:
  void AcceptLoop() {
    while (!stopping_) {
      int fd = ::accept(listen_fd_, nullptr, nullptr);
      if (fd < 0) {
        if (stopping_) return;
        continue;
      }
      ++connections_;
      std::lock_guard lock(mu_);
      open_fds_.push_back(fd);
      threads_.emplace_back([this, fd] { Serve(fd); });
    }
  }

  static bool ReadMore(int fd, std::string* buf) {
    char tmp[65536];
    ssize_t n = ::recv(fd, tmp, sizeof(tmp), 0);
    if (n <= 0) return false;
    buf->append(tmp, static_cast<size_t>(n));
    return true;
  }

  static void WriteAll(int fd, const std::string& data) {
    size_t off = 0;
    while (off < data.size()) {
      ssize_t n = ::send(fd, data.data() + off, data.size() - off, MSG_NOSIGNAL);
      if (n <= 0) return;
      off += static_cast<size_t>(n);
    }
  }

  void Serve(int fd) {
    std::string buf;
    while (true) {
      size_t header_end;
      while ((header_end = buf.find("\r\n\r\n")) == std::string::npos) {
        if (!ReadMore(fd, &buf)) return Close(fd);
      }
      FakeRequest req;
      std::string head = buf.substr(0, header_end);
      size_t line_end = head.find("\r\n");
      std::string request_line = head.substr(0, line_end);
      size_t sp1 = request_line.find(' ');
      size_t sp2 = request_line.find(' ', sp1 + 1);
      req.method = request_line.substr(0, sp1);
      req.target = request_line.substr(sp1 + 1, sp2 - sp1 - 1);
      size_t pos = line_end == std::string::npos ? head.size() : line_end + 2;
      while (pos < head.size()) {
        size_t e = head.find("\r\n", pos);
        if (e == std::string::npos) e = head.size();
        std::string line = head.substr(pos, e - pos);
        size_t colon = line.find(':');
        if (colon != std::string::npos) {
          std::string name = line.substr(0, colon);
          for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
          std::string value = line.substr(colon + 1);
          value.erase(0, value.find_first_not_of(' '));
          req.headers[name] = value;
        }
        pos = e + 2;
      }
      size_t length = 0;
      if (auto it = req.headers.find("content-length"); it != req.headers.end()) {
        length = std::stoul(it->second);
      }
      buf.erase(0, header_end + 4);
      while (buf.size() < length) {
        if (!ReadMore(fd, &buf)) return Close(fd);
      }
      req.body = buf.substr(0, length);
      buf.erase(0, length);
      FakeResponse res = handler_(req);
      if (res.drop) return Close(fd);
      std::string out = "HTTP/1.1 " + std::to_string(res.status) + " X\r\nContent-Length: " +
                        std::to_string(res.body.size()) + "\r\nContent-Type: application/json\r\n";
      if (res.close) out += "Connection: close\r\n";
      out += "\r\n" + res.body;
      WriteAll(fd, out);
      if (res.close) return Close(fd);
    }
  }

  void Close(int fd) {
    std::lock_guard lock(mu_);
    for (auto it = open_fds_.begin(); it != open_fds_.end(); ++it) {
      if (*it == fd) {
        open_fds_.erase(it);
        break;
      }
    }
    ::close(fd);
  }

  Handler handler_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<int> connections_{0};
  std::mutex mu_;
  std::vector<int> open_fds_;
  std::vector<std::thread> threads_;
  std::thread accept_thread_;
};

}  // namespace gnomon::bench::testing

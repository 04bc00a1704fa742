// Clients that hold connections open or trickle bytes do not stop others: with 900 idle
// connections, a client sending a request head byte by byte and another trickling a body, a
// normal client still writes and queries, and the server answers health checks throughout.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "src/server/http/http_test_client.h"
#include "test/integration/server_process.h"

namespace gnomon::test {
namespace {

using server::http::HttpRequestOnce;
using ::testing::HasSubstr;

const std::string kBinary = std::string(GNOMON_BINARY_DIR) + "/gnomon";
constexpr int kIdleConnections = 900;

int ConnectTo(uint16_t port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Sends `text` one byte at a time, `gap` apart, until done or told to stop.
void Trickle(int fd, const std::string& text, std::chrono::milliseconds gap, const std::atomic<bool>* stop) {
  for (char c : text) {
    if (stop->load()) return;
    if (::send(fd, &c, 1, MSG_NOSIGNAL) != 1) return;
    std::this_thread::sleep_for(gap);
  }
}

TEST(HostileClientsTest, IdleAndTricklingConnectionsDoNotStopOtherClients) {
  // Room for the idle connections on both sides (the server inherits the limit).
  rlimit files{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &files), 0);
  if (files.rlim_max != RLIM_INFINITY && files.rlim_max < 2 * kIdleConnections + 256) {
    GTEST_SKIP() << "RLIMIT_NOFILE hard limit " << files.rlim_max << " is too low for this test";
  }
  files.rlim_cur = std::min<rlim_t>(files.rlim_max, 8192);
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &files), 0);

  const std::string dir = MakeTempDir("gnomon-hostile");
  ASSERT_FALSE(dir.empty());
  {
    ServerProcess server(kBinary, dir, {});
    Status started = server.Start();
    ASSERT_TRUE(started.ok()) << started.ToString();
    const uint16_t port = server.port();

    std::vector<int> idle;
    for (int i = 0; i < kIdleConnections; ++i) {
      int fd = ConnectTo(port);
      ASSERT_GE(fd, 0) << "connection " << i;
      idle.push_back(fd);
    }
    std::atomic<bool> stop{false};
    int head_fd = ConnectTo(port);
    int body_fd = ConnectTo(port);
    ASSERT_GE(head_fd, 0);
    ASSERT_GE(body_fd, 0);
    std::thread slow_head(Trickle, head_fd, std::string("POST /write?db=slow HTTP/1.1\r\nHost: x\r\nContent-Length: 20\r\n\r\n"),
                          std::chrono::milliseconds(50), &stop);
    const std::string body_head = "POST /write?db=slow HTTP/1.1\r\nHost: x\r\nContent-Length: 4000\r\n\r\n";
    ASSERT_EQ(::send(body_fd, body_head.data(), body_head.size(), MSG_NOSIGNAL), static_cast<ssize_t>(body_head.size()));
    std::thread slow_body(Trickle, body_fd, std::string(4000, 'x'), std::chrono::milliseconds(20), &stop);

    // Meanwhile a normal client writes and reads, and health checks answer.
    for (int round = 0; round < 5; ++round) {
      std::string lines;
      for (int h = 0; h < 50; ++h) {
        lines += "cpu,host=h" + std::to_string(h) + " v=" + std::to_string(round) + " " +
                 std::to_string(1700000000 + round) + "000000000\n";
      }
      auto write = HttpRequestOnce("127.0.0.1", port, "POST", "/write?db=fine", lines);
      ASSERT_TRUE(write.ok()) << write.status().ToString();
      EXPECT_EQ(write->status, 204) << write->body;
      auto health = HttpRequestOnce("127.0.0.1", port, "GET", "/health");
      ASSERT_TRUE(health.ok());
      EXPECT_EQ(health->status, 200);
    }
    auto count = HttpRequestOnce("127.0.0.1", port, "GET", "/v1/sql?db=fine&sql=SELECT%20count(*)%20FROM%20cpu");
    ASSERT_TRUE(count.ok());
    EXPECT_EQ(count->status, 200);
    EXPECT_THAT(count->body, HasSubstr("[[250]]"));

    stop = true;
    slow_head.join();
    slow_body.join();
    for (int fd : idle) ::close(fd);
    ::close(head_fd);
    ::close(body_fd);
    auto after = HttpRequestOnce("127.0.0.1", port, "GET", "/health");
    ASSERT_TRUE(after.ok());
    EXPECT_EQ(after->status, 200);
  }
  RemoveTree(dir);
}

}  // namespace
}  // namespace gnomon::test

// HttpStats: server-wide request counters for /metrics. Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gnomon::server::http {

class HttpStats {
 public:
  struct RouteCount {
    std::string route;
    int status;
    uint64_t count;
  };
  struct Snapshot {
    std::vector<RouteCount> requests;  // sorted by route, then status
    uint64_t bytes_received = 0;       // request bodies as received (compressed when gzip)
    uint64_t bytes_decoded = 0;        // request bodies after Content-Encoding decoding
    uint64_t bytes_sent = 0;           // response bodies
    uint64_t connections_open = 0;
    uint64_t connections_total = 0;
    uint64_t connections_refused = 0;  // past max_connections or max_connections_per_client
  };

  void RecordRequest(std::string_view route, int status, uint64_t body_bytes_in,
                     uint64_t body_bytes_decoded, uint64_t body_bytes_out);
  void ConnectionOpened() {
    connections_open_.fetch_add(1, std::memory_order_relaxed);
    connections_total_.fetch_add(1, std::memory_order_relaxed);
  }
  void ConnectionClosed() { connections_open_.fetch_sub(1, std::memory_order_relaxed); }
  void ConnectionRefused() { connections_refused_.fetch_add(1, std::memory_order_relaxed); }

  Snapshot Read() const;

 private:
  mutable std::mutex mu_;
  // One lock per request is noise next to parsing thousands of lines; it keeps labels open-ended.
  std::map<std::pair<std::string, int>, uint64_t, std::less<>> requests_;
  std::atomic<uint64_t> bytes_received_{0};
  std::atomic<uint64_t> bytes_decoded_{0};
  std::atomic<uint64_t> bytes_sent_{0};
  std::atomic<uint64_t> connections_open_{0};
  std::atomic<uint64_t> connections_total_{0};
  std::atomic<uint64_t> connections_refused_{0};
};

}  // namespace gnomon::server::http

#include "src/server/http/http_stats.h"

namespace gnomon::server::http {

void HttpStats::RecordRequest(std::string_view route, int status, uint64_t body_bytes_in,
                              uint64_t body_bytes_decoded, uint64_t body_bytes_out) {
  bytes_received_.fetch_add(body_bytes_in, std::memory_order_relaxed);
  bytes_decoded_.fetch_add(body_bytes_decoded, std::memory_order_relaxed);
  bytes_sent_.fetch_add(body_bytes_out, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(mu_);
  auto key = std::make_pair(std::string(route), status);
  ++requests_[std::move(key)];
}

HttpStats::Snapshot HttpStats::Read() const {
  Snapshot s;
  {
    std::lock_guard<std::mutex> lock(mu_);
    s.requests.reserve(requests_.size());
    for (const auto& [key, count] : requests_) s.requests.push_back({key.first, key.second, count});
  }
  s.bytes_received = bytes_received_.load(std::memory_order_relaxed);
  s.bytes_decoded = bytes_decoded_.load(std::memory_order_relaxed);
  s.bytes_sent = bytes_sent_.load(std::memory_order_relaxed);
  s.connections_open = connections_open_.load(std::memory_order_relaxed);
  s.connections_total = connections_total_.load(std::memory_order_relaxed);
  s.connections_refused = connections_refused_.load(std::memory_order_relaxed);
  return s;
}

}  // namespace gnomon::server::http

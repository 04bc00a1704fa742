// GET /metrics: Prometheus text exposition format 0.0.4.
#include <fmt/format.h>

#include "src/server/api/handlers.h"

namespace gnomon::server::api {
namespace {

// Label values escape backslash, double quote and newline.
std::string EscapeLabel(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\' || c == '"') {
      out.push_back('\\');
      out.push_back(c);
    } else if (c == '\n') {
      out.append("\\n");
    } else {
      out.push_back(c);
    }
  }
  return out;
}

void Metric(std::string* out, std::string_view name, std::string_view type, std::string_view help,
            uint64_t value) {
  fmt::format_to(std::back_inserter(*out), "# HELP {0} {1}\n# TYPE {0} {2}\n{0} {3}\n", name, help,
                 type, value);
}

}  // namespace

void HandleMetrics(ApiContext& ctx, const http::Request& request, http::Response* response) {
  std::string out;
  if (ctx.http_stats != nullptr) {
    http::HttpStats::Snapshot s = ctx.http_stats->Read();
    out.append(
        "# HELP gnomon_http_requests_total HTTP requests answered, by endpoint and status.\n"
        "# TYPE gnomon_http_requests_total counter\n");
    for (const auto& r : s.requests) {
      fmt::format_to(std::back_inserter(out),
                     "gnomon_http_requests_total{{endpoint=\"{}\",status=\"{}\"}} {}\n",
                     EscapeLabel(r.route), r.status, r.count);
    }
    Metric(&out, "gnomon_http_request_body_bytes_total", "counter",
           "Request body bytes as received (compressed when gzip).", s.bytes_received);
    Metric(&out, "gnomon_http_request_body_decoded_bytes_total", "counter",
           "Request body bytes after Content-Encoding decoding.", s.bytes_decoded);
    Metric(&out, "gnomon_http_response_body_bytes_total", "counter", "Response body bytes sent.",
           s.bytes_sent);
    Metric(&out, "gnomon_http_connections_open", "gauge", "Open client connections.",
           s.connections_open);
    Metric(&out, "gnomon_http_connections_total", "counter", "Client connections accepted.",
           s.connections_total);
    Metric(&out, "gnomon_http_connections_refused_total", "counter",
           "Connections closed at once: past --max-connections or --max-connections-per-client.",
           s.connections_refused);
  }
  auto load = [](const std::atomic<uint64_t>& v) { return v.load(std::memory_order_relaxed); };
  Metric(&out, "gnomon_write_requests_total", "counter", "Write requests (all API versions).",
         load(ctx.stats.write_requests));
  Metric(&out, "gnomon_write_errors_total", "counter", "Write requests answered with an error.",
         load(ctx.stats.write_errors));
  Metric(&out, "gnomon_rows_written_total", "counter", "Rows stored by write requests.",
         load(ctx.stats.rows_written));
  Metric(&out, "gnomon_lines_rejected_total", "counter", "Line-protocol lines rejected.",
         load(ctx.stats.lines_rejected));
  if (ctx.engine != nullptr) {
    storage::EngineStats e = ctx.engine->Stats();
    Metric(&out, "gnomon_engine_rows_written_total", "counter", "Rows applied by the engine.",
           e.rows_written);
    Metric(&out, "gnomon_engine_series", "gauge", "Series known to the engine.", e.series);
    Metric(&out, "gnomon_engine_series_index_bytes", "gauge",
           "Series registries, tag indexes and raw-key caches in memory.", e.series_index_bytes);
    Metric(&out, "gnomon_engine_last_value_bytes", "gauge",
           "Last-value caches (the newest row of every series) in memory.", e.last_value_bytes);
    Metric(&out, "gnomon_engine_memtable_bytes", "gauge", "Bytes held in memtables.",
           e.memtable_bytes);
    Metric(&out, "gnomon_engine_segment_files", "gauge", "Live segment files.", e.segment_files);
    Metric(&out, "gnomon_engine_damaged_segments", "gauge",
           "Listed segment files that failed to open; their time ranges answer with an error.", e.damaged_segments);
    Metric(&out, "gnomon_engine_segment_bytes", "gauge", "Bytes in live segment files.",
           e.segment_bytes);
    Metric(&out, "gnomon_engine_segment_index_bytes", "gauge",
           "Decoded indexes of open segments in memory.", e.segment_index_bytes);
    Metric(&out, "gnomon_engine_wal_bytes", "gauge", "Bytes in write-ahead logs.", e.wal_bytes);
    Metric(&out, "gnomon_engine_write_stalls_total", "counter",
           "Writes held because a flush was still running when the memtables were full again.", e.write_stalls);
    Metric(&out, "gnomon_engine_write_stall_milliseconds_total", "counter", "Time writes spent held so.",
           e.write_stall_ns / 1000000);
    Metric(&out, "gnomon_engine_slow_writes_total", "counter",
           "Writes that took over 0.5 s (each logged with where its time went).", e.slow_writes);
    Metric(&out, "gnomon_engine_stats_cache_bytes", "gauge",
           "Decoded hour statistics of segments held in memory.", e.stats_cache_bytes);
  }
  response->SetText(200, "text/plain; version=0.0.4; charset=utf-8", std::move(out));
}

}  // namespace gnomon::server::api

// ApiContext: what the InfluxDB-compatible handlers share: the engine, counters and settings.
// Owned by whoever starts the server (tools/gnomon/server_command.cc); handlers get a reference.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "src/query/access_check.h"
#include "src/query/query_engine.h"
#include "src/server/auth/token_store.h"
#include "src/server/http/http_message.h"
#include "src/server/http/http_stats.h"
#include "src/server/ingest/line_limits.h"
#include "src/storage/engine.h"

namespace gnomon::server::api {

// Ingest counters for /metrics. Thread-safe (relaxed atomics: they are statistics).
struct ApiStats {
  std::atomic<uint64_t> write_requests{0};
  std::atomic<uint64_t> rows_written{0};
  std::atomic<uint64_t> lines_rejected{0};
  std::atomic<uint64_t> write_errors{0};  // write requests answered with a 4xx/5xx
};

struct ApiContext {
  storage::Engine* engine = nullptr;            // not owned; thread-safe
  const http::HttpStats* http_stats = nullptr;  // for /metrics; may be null
  ApiStats stats;
  // Line errors listed in one write response (the parser stops collecting after this many).
  size_t max_line_errors = 100;
  LineLimits line_limits;  // per-line limits of line-protocol writes
  std::string version = "0.1.0";        // Gnomon's version (X-Gnomon-Version, /health)
  std::string influx_version = "1.8.10";  // X-Influxdb-Version: the InfluxDB API we mirror
  // The /v1/sql hook: set by the SQL layer when it exists; while empty, /v1/sql answers 501.
  // `access` limits the databases the statement may touch (empty: no limit).
  std::function<void(const http::Request&, const query::AccessCheck& access, http::Response*)>
      sql_handler;
  // The engine InfluxQL SELECTs compile into (/query); null: /query answers only what the catalog
  // can (databases, measurements, tag and field keys).
  query::QueryEngine* query_engine = nullptr;
  // --auth: every endpoint but /ping and /health needs a token from `tokens` (auth_guard.h).
  bool auth_required = false;
  // The data directory's tokens (the admin token endpoints change them); not owned, thread-safe.
  // May be null (no token endpoints) only when auth_required is false.
  auth::TokenStore* tokens = nullptr;
};

}  // namespace gnomon::server::api

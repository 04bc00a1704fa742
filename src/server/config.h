// ServerConfig: the settings of `gnomon server`, from command-line flags and an optional TOML file
// with the same keys (flags override the file). docs/http-api.md lists them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "src/base/result.h"
#include "src/base/status.h"
#include "src/storage/engine.h"

namespace gnomon::server {

struct ServerConfig {
  std::string data_dir;                        // data-dir (required)
  std::string http_addr = "127.0.0.1:4000";    // http-addr: HOST:PORT, [v6]:PORT or :PORT
  storage::WalSyncMode wal_sync = storage::WalSyncMode::kFsync;  // wal-sync: fsync | none
  size_t memtable_budget_mb = 256;             // memtable-budget-mb
  size_t stats_cache_mb = 256;                 // stats-cache-mb: decoded hour statistics (0: none)
  int64_t retention_ns = 0;                    // retention: "30d", "12h", "inf"/"0" = forever
  int64_t compact_cold_after_ns = 10LL * 60 * 1000000000;  // compact-cold-after: "10m", "0" = never
  size_t max_body_mb = 64;                     // max-body-mb
  int threads = 0;                             // threads: I/O threads (0 = cores)
  int worker_threads = 0;                      // worker-threads: handler pool (0 = max(4, 2 x cores))
  std::string log_level = "info";              // log-level: trace|debug|info|warn|error|off
  int64_t query_timeout_ns = 60LL * 1000000000;  // query-timeout: "30s", "0" = none
  size_t query_memory_mb = 4096;               // query-memory-mb: working memory per query
  uint64_t max_series_per_database = 0;        // max-series-per-database: 0 = no limit
  bool auth = false;                           // auth: every endpoint but /ping, /health needs a token
  std::string tls_cert;                        // tls-cert: PEM certificate chain (with tls-key: HTTPS)
  std::string tls_key;                         // tls-key: PEM private key
};

// An InfluxQL-style duration ("7d", "1h30m", "500ms", "90s", "2w"; units ns, u/us/µs, ms, s, m,
// h, d, w) in nanoseconds. "0", "inf" and "INF" mean forever and give 0.
Result<int64_t> ParseDuration(std::string_view text);

Result<storage::WalSyncMode> ParseWalSync(std::string_view text);

// Splits "host:port", "[::1]:port" or ":port" (host defaults to 127.0.0.1).
Status SplitHostPort(std::string_view addr, std::string* host, uint16_t* port);

// Applies the keys of a TOML document to *config (keys as the flags: "data-dir"; "data_dir" is
// accepted too). Unknown keys and wrongly typed values are errors naming the key and the source.
Status ApplyToml(std::string_view toml_text, std::string_view source_name, ServerConfig* config);
// Reads `path` and applies it.
Status ApplyTomlFile(const std::string& path, ServerConfig* config);

// Checks a complete configuration (data-dir set, address parses, limits positive).
Status ValidateConfig(const ServerConfig& config);

storage::EngineOptions ToEngineOptions(const ServerConfig& config);

}  // namespace gnomon::server

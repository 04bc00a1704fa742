// ServerConfig: the settings of `gnomon server`, from command-line flags and an optional TOML file
// with the same keys (flags override the file). docs/http-api.md lists them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "src/base/result.h"
#include "src/base/status.h"
#include "src/query/query_engine.h"
#include "src/server/http/http_server.h"
#include "src/server/ingest/line_limits.h"
#include "src/storage/engine.h"

namespace gnomon::server {

struct ServerConfig {
  std::string data_dir;                        // data-dir (required)
  std::string http_addr = "127.0.0.1:4000";    // http-addr: HOST:PORT, [v6]:PORT or :PORT
  storage::WalSyncMode wal_sync = storage::WalSyncMode::kFsync;  // wal-sync: fsync | none
  int threads = 0;                             // threads: I/O threads (0 = cores)
  int worker_threads = 0;                      // worker-threads: handler pool (0 = max(4, 2 x cores))
  std::string log_level = "info";              // log-level: trace|debug|info|warn|error|off
  bool auth = false;                           // auth: every endpoint but /ping, /health needs a token
  std::string tls_cert;                        // tls-cert: PEM certificate chain (with tls-key: HTTPS)
  std::string tls_key;                         // tls-key: PEM private key

  // Sizes and counts (SizeSettings() names their keys and says what they do).
  size_t memtable_budget_mb = 256;
  size_t stats_cache_mb = 256;
  size_t max_body_mb = 64;
  size_t max_header_kb = 64;
  size_t query_memory_mb = 4096;
  size_t max_result_rows = 0;
  size_t max_series_per_database = 0;
  size_t max_tables_per_database = 10000;
  size_t max_columns_per_table = 1024;
  size_t max_line_bytes = 1 << 20;
  size_t max_tags_per_line = 256;
  size_t max_fields_per_line = 1024;
  size_t max_tag_value_bytes = 64 << 10;
  size_t max_string_field_bytes = 64 << 10;
  size_t max_connections = 0;
  size_t max_connections_per_client = 0;

  // Durations in nanoseconds, 0 = none (DurationSettings()).
  int64_t retention_ns = 0;
  int64_t compact_cold_after_ns = 10LL * 60 * 1000000000;
  int64_t query_timeout_ns = 60LL * 1000000000;
  int64_t request_timeout_ns = 120LL * 1000000000;
  int64_t idle_timeout_ns = 300LL * 1000000000;
};

// A non-negative integer setting: its key (the TOML key, and the flag with "--"), the member it
// sets, whether 0 is allowed, and its help text. One table serves the file, the flags and --help.
struct SizeSetting {
  const char* key;
  size_t ServerConfig::*member;
  bool zero_allowed;
  const char* help;
};
// A duration setting ("30s", "7d"; "0" = none): key, member, an example, help.
struct DurationSetting {
  const char* key;
  int64_t ServerConfig::*member;
  const char* example;
  const char* help;
};
std::span<const SizeSetting> SizeSettings();
std::span<const DurationSetting> DurationSettings();

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

// The settings each part takes. ToHttpOptions fills the host and port from http-addr (REQUIRES:
// ValidateConfig passed), but not the default headers.
storage::EngineOptions ToEngineOptions(const ServerConfig& config);
query::QueryEngineOptions ToQueryEngineOptions(const ServerConfig& config);
http::ServerOptions ToHttpOptions(const ServerConfig& config);
LineLimits ToLineLimits(const ServerConfig& config);

}  // namespace gnomon::server

#include "src/server/config.h"

#include <toml++/toml.h>

#include <fstream>
#include <sstream>

#include "src/base/time_util.h"

namespace gnomon::server {
namespace {

// More threads than any machine needs; also keeps a config's count inside an int.
constexpr int64_t kMaxThreads = 4096;

std::string Normalize(std::string_view key) {
  std::string out(key);
  for (char& c : out) {
    if (c == '_') c = '-';
  }
  return out;
}

Result<int64_t> UnitNanos(std::string_view unit) {
  if (unit == "ns") return int64_t{1};
  if (unit == "u" || unit == "us" || unit == "\xC2\xB5" || unit == "\xC2\xB5s" ||
      unit == "\xCE\xBC" || unit == "\xCE\xBCs") {
    return kNanosPerMicro;
  }
  if (unit == "ms") return kNanosPerMilli;
  if (unit == "s") return kNanosPerSecond;
  if (unit == "m") return kNanosPerMinute;
  if (unit == "h") return kNanosPerHour;
  if (unit == "d") return kNanosPerDay;
  if (unit == "w") return 7 * kNanosPerDay;
  return Status::InvalidArgument("unknown duration unit '" + std::string(unit) + "'");
}

constexpr SizeSetting kSizeSettings[] = {
    {"memtable-budget-mb", &ServerConfig::memtable_budget_mb, false, "Memory for memtables before flushing"},
    {"stats-cache-mb", &ServerConfig::stats_cache_mb, true, "Memory for decoded hour statistics of segments (0: none)"},
    {"max-body-mb", &ServerConfig::max_body_mb, false, "Largest request body, also after gzip decompression (413)"},
    {"max-header-kb", &ServerConfig::max_header_kb, false, "Largest request line and headers (431)"},
    {"query-memory-mb", &ServerConfig::query_memory_mb, false, "Working memory one query may use before it is ended"},
    {"max-result-rows", &ServerConfig::max_result_rows, true,
     "End a query whose result passes this many rows (0: no limit)"},
    {"max-series-per-database", &ServerConfig::max_series_per_database, true,
     "Refuse rows of new series past this many in one database (0: no limit)"},
    {"max-tables-per-database", &ServerConfig::max_tables_per_database, true,
     "Refuse writes that would create a table past this many in one database (0: no limit)"},
    {"max-columns-per-table", &ServerConfig::max_columns_per_table, true,
     "Refuse rows that would add a tag or field column past this many in one table (0: no limit)"},
    {"max-line-bytes", &ServerConfig::max_line_bytes, true, "Reject line-protocol lines longer than this (0: no limit)"},
    {"max-tags-per-line", &ServerConfig::max_tags_per_line, true, "Reject lines with more tags (0: no limit)"},
    {"max-fields-per-line", &ServerConfig::max_fields_per_line, true, "Reject lines with more fields (0: no limit)"},
    {"max-tag-value-bytes", &ServerConfig::max_tag_value_bytes, true,
     "Reject lines with a longer tag value (0: no limit)"},
    {"max-string-field-bytes", &ServerConfig::max_string_field_bytes, true,
     "Reject lines with a longer string field value (0: no limit)"},
    {"max-connections", &ServerConfig::max_connections, true,
     "Refuse connections past this many open (0: half the file-descriptor limit)"},
    {"max-connections-per-client", &ServerConfig::max_connections_per_client, true,
     "Refuse connections past this many open from one address (0: no limit)"},
};

constexpr DurationSetting kDurationSettings[] = {
    {"retention", &ServerConfig::retention_ns, "30d", "Default retention, e.g. 30d (0: keep forever)"},
    {"compact-cold-after", &ServerConfig::compact_cold_after_ns, "10m",
     "Merge a partition's segments into one once it has taken no flush for this long (0: never; default 10m)"},
    {"query-timeout", &ServerConfig::query_timeout_ns, "30s",
     "End a query running longer than this (0: no limit; default 60s)"},
    {"request-timeout", &ServerConfig::request_timeout_ns, "120s",
     "Close a connection that takes longer to send one request, or to take one response (default 120s)"},
    {"idle-timeout", &ServerConfig::idle_timeout_ns, "300s",
     "Close a keep-alive connection idle this long between requests (default 300s)"},
};

}  // namespace

std::span<const SizeSetting> SizeSettings() { return kSizeSettings; }
std::span<const DurationSetting> DurationSettings() { return kDurationSettings; }

Result<int64_t> ParseDuration(std::string_view text) {
  if (text == "0" || text == "inf" || text == "INF") return int64_t{0};
  if (text.empty()) return Status::InvalidArgument("empty duration");
  int64_t total = 0;
  size_t i = 0;
  while (i < text.size()) {
    size_t start = i;
    int64_t n = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      if (__builtin_mul_overflow(n, 10, &n) || __builtin_add_overflow(n, text[i] - '0', &n)) {
        return Status::OutOfRange("duration too large: " + std::string(text));
      }
      ++i;
    }
    if (i == start) {
      return Status::InvalidArgument("invalid duration '" + std::string(text) +
                                     "': expected a number at offset " + std::to_string(i));
    }
    size_t unit_start = i;
    while (i < text.size() && !(text[i] >= '0' && text[i] <= '9')) ++i;
    if (unit_start == i) {
      return Status::InvalidArgument("invalid duration '" + std::string(text) +
                                     "': missing unit (ns, us, ms, s, m, h, d, w)");
    }
    auto unit = UnitNanos(text.substr(unit_start, i - unit_start));
    if (!unit.ok()) {
      return Status::InvalidArgument("invalid duration '" + std::string(text) +
                                     "': " + unit.status().message());
    }
    int64_t part;
    if (__builtin_mul_overflow(n, *unit, &part) || __builtin_add_overflow(total, part, &total)) {
      return Status::OutOfRange("duration too large: " + std::string(text));
    }
  }
  return total;
}

Result<storage::WalSyncMode> ParseWalSync(std::string_view text) {
  if (text == "fsync") return storage::WalSyncMode::kFsync;
  if (text == "none") return storage::WalSyncMode::kNone;
  return Status::InvalidArgument("invalid wal-sync '" + std::string(text) +
                                 "': expected fsync or none");
}

Status SplitHostPort(std::string_view addr, std::string* host, uint16_t* port) {
  size_t colon = addr.rfind(':');
  if (colon == std::string_view::npos) {
    return Status::InvalidArgument("invalid address '" + std::string(addr) +
                                   "': expected HOST:PORT");
  }
  std::string_view h = addr.substr(0, colon);
  std::string_view p = addr.substr(colon + 1);
  if (h.size() >= 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  if (h.empty()) h = "127.0.0.1";
  if (p.empty() || p.size() > 5) {
    return Status::InvalidArgument("invalid port in '" + std::string(addr) + "'");
  }
  uint32_t value = 0;
  for (char c : p) {
    if (c < '0' || c > '9') return Status::InvalidArgument("invalid port in '" + std::string(addr) + "'");
    value = value * 10 + static_cast<uint32_t>(c - '0');
  }
  if (value > 65535) return Status::InvalidArgument("port out of range in '" + std::string(addr) + "'");
  *host = std::string(h);
  *port = static_cast<uint16_t>(value);
  return Status::OK();
}

Status ApplyToml(std::string_view toml_text, std::string_view source_name, ServerConfig* config) {
  toml::table table;
  try {
    table = toml::parse(toml_text, source_name);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    return Status::InvalidArgument(std::string(source_name) + ":" + std::to_string(where.line) +
                                   ":" + std::to_string(where.column) + ": " +
                                   std::string(e.description()));
  }
  // Named references rather than a structured binding: the lambdas below capture them, which
  // clang before 16 (the libFuzzer build) rejects for bindings.
  for (const auto& entry : table) {
    const auto& raw_key = entry.first;
    const auto& node = entry.second;
    std::string key = Normalize(raw_key.str());
    auto fail = [&](std::string_view expected) {
      return Status::InvalidArgument(std::string(source_name) + ": key '" +
                                     std::string(raw_key.str()) + "' must be " +
                                     std::string(expected));
    };
    auto str = [&]() -> std::optional<std::string> { return node.value<std::string>(); };
    // Integers only: toml++'s float-to-integer conversion casts before it range-checks (undefined
    // for 4e97, found by config_fuzz), and a size or a count written as 1.5 is a mistake anyway.
    auto integer = [&]() -> std::optional<int64_t> {
      if (const auto* v = node.as_integer()) return v->get();
      return std::nullopt;
    };
    auto positive_int = [&]() -> std::optional<int64_t> {
      auto v = integer();
      if (!v || *v < 0) return std::nullopt;
      return v;
    };
    // A thread count: an int, bounded so the cast cannot wrap.
    auto thread_count = [&]() -> std::optional<int> {
      auto v = positive_int();
      if (!v || *v > kMaxThreads) return std::nullopt;
      return static_cast<int>(*v);
    };
    // A duration string ("30d"), or the integer 0 for none.
    auto duration = [&](int64_t* out, std::string_view example) -> Status {
      if (auto v = integer(); v && *v == 0) {
        *out = 0;
      } else if (str()) {
        GNOMON_ASSIGN_OR_RETURN(*out, ParseDuration(*str()));
      } else {
        return fail("a duration string such as \"" + std::string(example) + "\"");
      }
      return Status::OK();
    };
    const SizeSetting* size = nullptr;
    for (const SizeSetting& setting : kSizeSettings) {
      if (key == setting.key) size = &setting;
    }
    const DurationSetting* dur = nullptr;
    for (const DurationSetting& setting : kDurationSettings) {
      if (key == setting.key) dur = &setting;
    }
    if (size != nullptr) {
      if (!positive_int()) return fail("a non-negative integer");
      config->*(size->member) = static_cast<size_t>(*positive_int());
    } else if (dur != nullptr) {
      GNOMON_RETURN_IF_ERROR(duration(&(config->*(dur->member)), dur->example));
    } else if (key == "data-dir") {
      if (!str()) return fail("a string");
      config->data_dir = *str();
    } else if (key == "http-addr") {
      if (!str()) return fail("a string \"HOST:PORT\"");
      config->http_addr = *str();
    } else if (key == "wal-sync") {
      if (!str()) return fail("\"fsync\" or \"none\"");
      GNOMON_ASSIGN_OR_RETURN(config->wal_sync, ParseWalSync(*str()));
    } else if (key == "threads") {
      if (!thread_count()) return fail("an integer from 0 to " + std::to_string(kMaxThreads));
      config->threads = *thread_count();
    } else if (key == "worker-threads") {
      if (!thread_count()) return fail("an integer from 0 to " + std::to_string(kMaxThreads));
      config->worker_threads = *thread_count();
    } else if (key == "log-level") {
      if (!str()) return fail("a string");
      config->log_level = *str();
    } else if (key == "auth") {
      auto b = node.value<bool>();
      if (!b) return fail("true or false");
      config->auth = *b;
    } else if (key == "tls-cert") {
      if (!str()) return fail("a string (a PEM file)");
      config->tls_cert = *str();
    } else if (key == "tls-key") {
      if (!str()) return fail("a string (a PEM file)");
      config->tls_key = *str();
    } else {
      return Status::InvalidArgument(std::string(source_name) + ": unknown key '" +
                                     std::string(raw_key.str()) + "'");
    }
  }
  return Status::OK();
}

Status ApplyTomlFile(const std::string& path, ServerConfig* config) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::FromErrno("open " + path, errno);
  std::ostringstream text;
  text << in.rdbuf();
  return ApplyToml(text.str(), path, config);
}

Status ValidateConfig(const ServerConfig& config) {
  if (config.data_dir.empty()) return Status::InvalidArgument("data-dir is required");
  std::string host;
  uint16_t port;
  GNOMON_RETURN_IF_ERROR(SplitHostPort(config.http_addr, &host, &port));
  for (const SizeSetting& setting : kSizeSettings) {
    if (!setting.zero_allowed && config.*(setting.member) == 0) {
      return Status::InvalidArgument(std::string(setting.key) + " must be at least 1");
    }
  }
  if (config.request_timeout_ns <= 0 || config.idle_timeout_ns <= 0) {
    return Status::InvalidArgument("request-timeout and idle-timeout must be longer than 0");
  }
  if (config.tls_cert.empty() != config.tls_key.empty()) {
    return Status::InvalidArgument("tls-cert and tls-key must be given together");
  }
  static constexpr std::string_view kLevels[] = {"trace", "debug", "info", "warn",
                                                 "warning", "error", "critical", "off"};
  bool level_ok = false;
  for (auto l : kLevels) level_ok |= config.log_level == l;
  if (!level_ok) {
    return Status::InvalidArgument("invalid log-level '" + config.log_level +
                                   "': expected trace, debug, info, warn, error or off");
  }
  return Status::OK();
}

storage::EngineOptions ToEngineOptions(const ServerConfig& config) {
  storage::EngineOptions options;
  options.data_dir = config.data_dir;
  options.wal_sync = config.wal_sync;
  options.memtable_budget_bytes = config.memtable_budget_mb << 20;
  options.stats_cache_bytes = config.stats_cache_mb << 20;
  options.retention_ns = config.retention_ns;
  options.max_series_per_database = config.max_series_per_database;
  options.max_tables_per_database = config.max_tables_per_database;
  options.max_columns_per_table = config.max_columns_per_table;
  options.cold_compaction_ns = config.compact_cold_after_ns;
  return options;
}

query::QueryEngineOptions ToQueryEngineOptions(const ServerConfig& config) {
  query::QueryEngineOptions options;
  options.default_timeout_ms = config.query_timeout_ns / 1000000;
  options.default_memory_limit_bytes = config.query_memory_mb << 20;
  options.max_result_rows = config.max_result_rows;
  return options;
}

http::ServerOptions ToHttpOptions(const ServerConfig& config) {
  http::ServerOptions options;
  (void)SplitHostPort(config.http_addr, &options.host, &options.port);
  options.io_threads = config.threads;
  options.worker_threads = config.worker_threads;
  options.max_body_bytes = config.max_body_mb << 20;
  options.max_header_bytes = config.max_header_kb << 10;
  options.max_connections = config.max_connections;
  options.max_connections_per_client = config.max_connections_per_client;
  options.io_timeout = std::chrono::milliseconds(config.request_timeout_ns / 1000000);
  options.idle_timeout = std::chrono::milliseconds(config.idle_timeout_ns / 1000000);
  options.tls_cert_file = config.tls_cert;
  options.tls_key_file = config.tls_key;
  return options;
}

LineLimits ToLineLimits(const ServerConfig& config) {
  LineLimits limits;
  limits.max_line_bytes = config.max_line_bytes;
  limits.max_tags = config.max_tags_per_line;
  limits.max_fields = config.max_fields_per_line;
  limits.max_tag_value_bytes = config.max_tag_value_bytes;
  limits.max_string_field_bytes = config.max_string_field_bytes;
  return limits;
}

}  // namespace gnomon::server

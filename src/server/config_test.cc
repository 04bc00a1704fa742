#include "src/server/config.h"

#include <gtest/gtest.h>

namespace gnomon::server {
namespace {

constexpr int64_t kSec = 1000000000;

TEST(ParseDurationTest, Units) {
  EXPECT_EQ(*ParseDuration("30d"), 30 * 86400 * kSec);
  EXPECT_EQ(*ParseDuration("1h30m"), 5400 * kSec);
  EXPECT_EQ(*ParseDuration("2w"), 14 * 86400 * kSec);
  EXPECT_EQ(*ParseDuration("500ms"), kSec / 2);
  EXPECT_EQ(*ParseDuration("7us"), 7000);
  EXPECT_EQ(*ParseDuration("7\xC2\xB5s"), 7000);
  EXPECT_EQ(*ParseDuration("9ns"), 9);
  EXPECT_EQ(*ParseDuration("0"), 0);
  EXPECT_EQ(*ParseDuration("inf"), 0);
  EXPECT_EQ(*ParseDuration("INF"), 0);
}

TEST(ParseDurationTest, Errors) {
  for (const char* bad : {"", "d", "7", "7x", "1h-3m", "h1", "99999999999999999999d"}) {
    EXPECT_FALSE(ParseDuration(bad).ok()) << bad;
  }
  EXPECT_EQ(ParseDuration("999999999w").status().code(), Status::Code::kOutOfRange);
}

TEST(SplitHostPortTest, Forms) {
  std::string host;
  uint16_t port = 0;
  ASSERT_TRUE(SplitHostPort("127.0.0.1:4000", &host, &port).ok());
  EXPECT_EQ(host, "127.0.0.1");
  EXPECT_EQ(port, 4000);
  ASSERT_TRUE(SplitHostPort("[::1]:0", &host, &port).ok());
  EXPECT_EQ(host, "::1");
  EXPECT_EQ(port, 0);
  ASSERT_TRUE(SplitHostPort(":8086", &host, &port).ok());
  EXPECT_EQ(host, "127.0.0.1");
  EXPECT_FALSE(SplitHostPort("localhost", &host, &port).ok());
  EXPECT_FALSE(SplitHostPort("h:99999", &host, &port).ok());
  EXPECT_FALSE(SplitHostPort("h:12a", &host, &port).ok());
  EXPECT_FALSE(SplitHostPort("h:", &host, &port).ok());
}

TEST(ConfigTomlTest, AppliesEveryKey) {
  ServerConfig c;
  Status s = ApplyToml(R"(
data-dir = "/var/lib/gnomon"
http-addr = "0.0.0.0:8086"
wal-sync = "none"
memtable-budget-mb = 256
stats-cache-mb = 64
compact-cold-after = "1h"
retention = "30d"
max_body_mb = 16     # underscores work too
threads = 2
worker-threads = 8
log-level = "debug"
)", "test.toml", &c);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(c.data_dir, "/var/lib/gnomon");
  EXPECT_EQ(c.http_addr, "0.0.0.0:8086");
  EXPECT_EQ(c.wal_sync, storage::WalSyncMode::kNone);
  EXPECT_EQ(c.memtable_budget_mb, 256u);
  EXPECT_EQ(c.retention_ns, 30 * 86400 * kSec);
  EXPECT_EQ(c.max_body_mb, 16u);
  EXPECT_EQ(c.threads, 2);
  EXPECT_EQ(c.worker_threads, 8);
  EXPECT_EQ(c.log_level, "debug");
  EXPECT_TRUE(ValidateConfig(c).ok());
  auto e = ToEngineOptions(c);
  EXPECT_EQ(e.data_dir, "/var/lib/gnomon");
  EXPECT_EQ(e.memtable_budget_bytes, 256u << 20);
  EXPECT_EQ(e.retention_ns, 30 * 86400 * kSec);
  EXPECT_EQ(e.wal_sync, storage::WalSyncMode::kNone);
  EXPECT_EQ(e.stats_cache_bytes, 64u << 20);
  EXPECT_EQ(e.cold_compaction_ns, 3600 * kSec);
  ASSERT_TRUE(ApplyToml("compact-cold-after = 0\nstats-cache-mb = 0", "t.toml", &c).ok());
  EXPECT_EQ(ToEngineOptions(c).cold_compaction_ns, 0);
  EXPECT_EQ(ToEngineOptions(c).stats_cache_bytes, 0u);
  EXPECT_FALSE(ApplyToml("compact-cold-after = 5", "t.toml", &c).ok());
}

TEST(ConfigTomlTest, SecurityKeys) {
  ServerConfig c;
  EXPECT_FALSE(c.auth);  // off by default; the default address is loopback
  EXPECT_EQ(c.http_addr.rfind("127.0.0.1:", 0), 0u);
  Status s = ApplyToml("auth = true\ntls-cert = \"c.pem\"\ntls_key = \"k.pem\"\n", "t.toml", &c);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(c.auth);
  EXPECT_EQ(c.tls_cert, "c.pem");
  EXPECT_EQ(c.tls_key, "k.pem");
  c.data_dir = "d";
  EXPECT_TRUE(ValidateConfig(c).ok());
  c.tls_key.clear();
  EXPECT_EQ(ValidateConfig(c).message(), "tls-cert and tls-key must be given together");
  EXPECT_EQ(ApplyToml("auth = \"yes\"\n", "t.toml", &c).message(),
            "t.toml: key 'auth' must be true or false");
}

TEST(ConfigTomlTest, ErrorsNameTheKeyAndSource) {
  ServerConfig c;
  Status unknown = ApplyToml("data-dri = \"x\"\n", "my.toml", &c);
  EXPECT_EQ(unknown.message(), "my.toml: unknown key 'data-dri'");
  Status type = ApplyToml("threads = \"two\"\n", "my.toml", &c);
  EXPECT_EQ(type.message(), "my.toml: key 'threads' must be an integer from 0 to 4096");
  EXPECT_EQ(ApplyToml("threads = 100000\n", "my.toml", &c).message(),
            "my.toml: key 'threads' must be an integer from 0 to 4096");
  // Floats are refused, however large (toml++ converts 4e97 to an integer undefinedly).
  EXPECT_EQ(ApplyToml("memtable-budget-mb = 4e97\n", "my.toml", &c).message(),
            "my.toml: key 'memtable-budget-mb' must be a non-negative integer");
  EXPECT_EQ(ApplyToml("memtable-budget-mb = 512.0\n", "my.toml", &c).message(),
            "my.toml: key 'memtable-budget-mb' must be a non-negative integer");
  EXPECT_FALSE(ApplyToml("retention = 4e97\n", "my.toml", &c).ok());
  Status syntax = ApplyToml("data-dir = \n", "my.toml", &c);
  EXPECT_FALSE(syntax.ok());
  EXPECT_EQ(syntax.message().rfind("my.toml:1:", 0), 0u) << syntax.message();
  EXPECT_FALSE(ApplyToml("wal-sync = \"sometimes\"\n", "my.toml", &c).ok());
  EXPECT_FALSE(ApplyToml("retention = \"30 days\"\n", "my.toml", &c).ok());
  EXPECT_FALSE(ApplyTomlFile("/nonexistent/gnomon.toml", &c).ok());
}

TEST(ConfigTomlTest, Validation) {
  ServerConfig c;
  EXPECT_EQ(ValidateConfig(c).message(), "data-dir is required");
  c.data_dir = "d";
  EXPECT_TRUE(ValidateConfig(c).ok());
  c.log_level = "loud";
  EXPECT_FALSE(ValidateConfig(c).ok());
  c.log_level = "info";
  c.http_addr = "nope";
  EXPECT_FALSE(ValidateConfig(c).ok());
  c.http_addr = ":1";
  c.max_body_mb = 0;
  EXPECT_FALSE(ValidateConfig(c).ok());
}


// Every size and duration setting is a TOML key (and a flag, from the same table); the limits
// reach the parts that enforce them.
TEST(ConfigTomlTest, EverySettingOfTheTablesIsAKey) {
  std::string toml;
  uint64_t n = 7;
  for (const SizeSetting& setting : SizeSettings()) toml += std::string(setting.key) + " = " + std::to_string(n++) + "\n";
  for (const DurationSetting& setting : DurationSettings()) toml += std::string(setting.key) + " = \"3s\"\n";
  ServerConfig c;
  ASSERT_TRUE(ApplyToml(toml, "t.toml", &c).ok()) << ApplyToml(toml, "t.toml", &c).ToString();
  n = 7;
  for (const SizeSetting& setting : SizeSettings()) EXPECT_EQ(c.*(setting.member), n++) << setting.key;
  for (const DurationSetting& setting : DurationSettings()) EXPECT_EQ(c.*(setting.member), 3 * kSec) << setting.key;
  c.max_line_bytes = 11;
  c.max_tags_per_line = 12;
  c.max_fields_per_line = 13;
  c.max_tag_value_bytes = 14;
  c.max_string_field_bytes = 15;
  const LineLimits lines = ToLineLimits(c);
  EXPECT_EQ(lines.max_line_bytes, 11u);
  EXPECT_EQ(lines.max_tags, 12u);
  EXPECT_EQ(lines.max_fields, 13u);
  EXPECT_EQ(lines.max_tag_value_bytes, 14u);
  EXPECT_EQ(lines.max_string_field_bytes, 15u);
  c.http_addr = "127.0.0.1:99";
  c.max_connections = 21;
  c.max_connections_per_client = 22;
  c.max_header_kb = 2;
  const http::ServerOptions http = ToHttpOptions(c);
  EXPECT_EQ(http.port, 99);
  EXPECT_EQ(http.max_connections, 21u);
  EXPECT_EQ(http.max_connections_per_client, 22u);
  EXPECT_EQ(http.max_header_bytes, 2048u);
  EXPECT_EQ(http.io_timeout, std::chrono::seconds(3));
  EXPECT_EQ(http.idle_timeout, std::chrono::seconds(3));
  c.max_tables_per_database = 31;
  c.max_columns_per_table = 32;
  EXPECT_EQ(ToEngineOptions(c).max_tables_per_database, 31u);
  EXPECT_EQ(ToEngineOptions(c).max_columns_per_table, 32u);
  c.max_result_rows = 41;
  EXPECT_EQ(ToQueryEngineOptions(c).max_result_rows, 41u);
}

TEST(ConfigTomlTest, SettingsThatCannotBeZero) {
  for (const SizeSetting& setting : SizeSettings()) {
    ServerConfig c;
    c.data_dir = "d";
    c.*(setting.member) = 0;
    EXPECT_EQ(ValidateConfig(c).ok(), setting.zero_allowed) << setting.key;
  }
  ServerConfig c;
  c.data_dir = "d";
  c.request_timeout_ns = 0;
  EXPECT_FALSE(ValidateConfig(c).ok());
}

}  // namespace
}  // namespace gnomon::server

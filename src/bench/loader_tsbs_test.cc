// Slow: loads whole TSBS data sets (generated in process, byte-identical to TSBS's files) through
// the whole loader into an in-test server, and checks the exact row and metric counts of spec 3.5
// and 4.10 on both sides of the wire.
#include <gtest/gtest.h>

#include <mutex>

#include "src/bench/fake_http_server.h"
#include "src/bench/generated_source.h"
#include "src/bench/tsbs_reference.h"
#include "src/bench/loader.h"

namespace gnomon::bench {
namespace {

using testing::FakeHttpServer;
using testing::FakeRequest;
using testing::FakeResponse;

void LoadFile(const std::string& name, uint64_t rows, uint64_t metrics) {
  std::mutex mu;
  LineCounts received;
  FakeHttpServer server([&](const FakeRequest& r) -> FakeResponse {
    if (r.target.rfind("/query", 0) == 0) return {200, R"({"results":[{"statement_id":0}]})"};
    LineCounts c = CountLineProtocol(r.body);
    std::lock_guard lock(mu);
    received += c;
    return {204, ""};
  });
  LoadConfig config;
  config.url = server.url();
  config.workers = 3;
  config.batch_size = 3000;  // GreptimeDB's reference setting: batches cut mid-timestamp
  config.reporting_period_s = 0;
  const TsbsReferenceSet* set = FindTsbsReference(name);
  ASSERT_NE(set, nullptr) << name;
  auto source = NewGeneratedByteSource(TsbsReferenceConfig(*set));
  auto stats = RunLoad(config, source.get());
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_EQ(stats->totals.rows, rows);
  EXPECT_EQ(stats->totals.metrics, metrics);
  EXPECT_EQ(stats->batches, (rows + 2999) / 3000);
  EXPECT_EQ(received.rows, rows);
  EXPECT_EQ(received.metrics, metrics);
}

TEST(LoaderTsbsTest, CpuOnlyScale100OneDay) {
  LoadFile("cpu-only-s100-1d", 864000, 8640000);  // 10 fields per row
}

TEST(LoaderTsbsTest, DevopsScale10OneDay) {
  LoadFile("devops-s10-1d", 777600, 8640ull * 10 * 101);  // 101 metrics per host and step
}

}  // namespace
}  // namespace gnomon::bench

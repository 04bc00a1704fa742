// A shrunken high-cardinality IoT profile against the real server (issue 10): 20,000 trucks × 2
// minutes of TSBS's messy IoT data (out-of-order lines, lines without some tags or fields,
// repeated points), loaded by 3 workers that take batches in turn, into a server whose small
// memtable budget makes it flush often, so nearly every series lands in packed row groups
// (segment format v5). The answers must match counts taken from the generated text itself,
// after the load, after a clean restart and once the partition's flushes are merged into one
// segment per measurement (by the compactions during the load, or a cold compaction after it).
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <thread>

#include "src/bench/data_generator.h"
#include "src/bench/input_source.h"
#include "src/bench/loader.h"
#include "src/bench/time_parse.h"
#include "test/integration/server_process.h"
#include "test/integration/sql_query.h"

namespace gnomon::test {
namespace {

const std::string kBinary = std::string(GNOMON_BINARY_DIR) + "/gnomon";
const std::string kDb = "benchmark";
constexpr uint64_t kTrucks = 20000;
const std::vector<std::string> kSampled = {"truck_0", "truck_17", "truck_4242", "truck_19999"};

// What the text says, counted independently of the server's parser (TSBS lines have no escapes).
struct Expected {
  std::map<std::string, uint64_t> rows;  // per measurement: distinct (series, time)
  std::set<std::string> names;           // distinct name tags in readings
  // Per sampled truck, readings rows and their latitudes; trucks with a repeated point are left
  // out (which of two writers' values wins is theirs to race for).
  std::map<std::string, std::pair<uint64_t, double>> sampled;
  std::set<std::string> sampled_repeats;
};

std::string_view TagValue(std::string_view key_part, std::string_view tag) {
  size_t at = key_part.find("," + std::string(tag) + "=");
  if (at == std::string_view::npos) return {};
  at += tag.size() + 2;
  return key_part.substr(at, key_part.find(',', at) - at);
}

Expected Count(const std::string& text) {
  Expected e;
  std::set<std::string> keys;
  std::map<std::string, std::set<std::string>> sampled_times;
  for (size_t pos = 0, nl; (nl = text.find('\n', pos)) != std::string::npos; pos = nl + 1) {
    std::string_view line(text.data() + pos, nl - pos);
    const size_t sp1 = line.find(' ');
    const size_t sp2 = line.rfind(' ');
    const std::string_view key = line.substr(0, sp1);
    const std::string_view time = line.substr(sp2 + 1);
    const std::string measurement(key.substr(0, key.find(',')));
    if (keys.insert(std::string(key) + " " + std::string(time)).second) ++e.rows[measurement];
    if (measurement != "readings") continue;
    const std::string name(TagValue(key, "name"));
    if (!name.empty()) e.names.insert(name);
    if (std::find(kSampled.begin(), kSampled.end(), name) == kSampled.end()) continue;
    if (!sampled_times[std::string(key)].insert(std::string(time)).second) e.sampled_repeats.insert(name);
    auto& [rows, latitude] = e.sampled[name];
    ++rows;
    const std::string_view fields = line.substr(sp1 + 1, sp2 - sp1 - 1);
    const size_t at = fields.find("latitude=");
    if (at != std::string_view::npos) latitude += std::stod(std::string(fields.substr(at + 9)));
  }
  return e;
}

double Number(uint16_t port, const std::string& sql) {
  auto r = RunSql(port, kDb, sql);
  EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
  if (!r.ok() || r->rows.size() != 1 || r->rows[0].empty() || !r->rows[0][0].is_number()) {
    ADD_FAILURE() << sql << ": not one number";
    return -1;
  }
  return r->rows[0][0].number();
}

// Lines of the server's log that contain `what`.
size_t LogCount(const ServerProcess& server, std::string_view what) {
  auto log = port::ReadFileToString(port::Env::Default(), server.log_path());
  EXPECT_TRUE(log.ok());
  size_t n = 0;
  for (size_t at = 0; log.ok() && (at = log->find(what, at)) != std::string::npos; ++at) ++n;
  return n;
}

void CheckAnswers(uint16_t port, const Expected& e, const std::string& when) {
  SCOPED_TRACE(when);
  for (const auto& [measurement, rows] : e.rows) {
    EXPECT_EQ(Number(port, "SELECT count(*) FROM " + measurement), static_cast<double>(rows)) << measurement;
  }
  EXPECT_EQ(Number(port, "SELECT count(DISTINCT name) FROM readings"), static_cast<double>(e.names.size()));
  for (const auto& [name, want] : e.sampled) {
    if (e.sampled_repeats.count(name)) continue;
    const std::string where = " FROM readings WHERE name = '" + name + "'";
    EXPECT_EQ(Number(port, "SELECT count(*)" + where), static_cast<double>(want.first)) << name;
    const double sum = Number(port, "SELECT sum(latitude)" + where);
    EXPECT_NEAR(sum, want.second, 1e-9 * std::max(1.0, std::abs(want.second))) << name;
  }
}

TEST(HighCardinalityTest, MessyIotAtTwentyThousandTrucksSurvivesRestartAndCompaction) {
  const std::string dir = MakeTempDir("gnomon-high-cardinality");
  ASSERT_FALSE(dir.empty());
  bench::DataGenConfig c;
  c.use_case = "iot";
  c.scale = kTrucks;
  c.seed = 123;
  c.start_ns = *bench::ParseRfc3339Nanos("2023-06-11T00:00:00Z");
  c.end_ns = *bench::ParseRfc3339Nanos("2023-06-11T00:02:00Z");
  const std::string path = dir + "/iot.lp";
  {
    auto out = port::Env::Default()->NewWritableFile(path);
    ASSERT_TRUE(out.ok());
    ASSERT_TRUE(bench::GenerateData(c, out->get()).ok());
    ASSERT_TRUE((*out)->Close().ok());
  }
  auto text = port::ReadFileToString(port::Env::Default(), path);
  ASSERT_TRUE(text.ok());
  const Expected expected = Count(*text);
  ASSERT_EQ(expected.rows.size(), 2u);
  ASSERT_GT(expected.rows.at("readings"), kTrucks * 10);
  ASSERT_FALSE(expected.sampled.empty());

  auto segments = [&] {
    size_t n = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir + "/data")) {
      n += e.path().extension() == ".seg";
    }
    return n;
  };
  // A 2 MB memtable budget: dozens of flushes, each holding a few rows of every truck.
  const std::vector<std::string> args = {"--memtable-budget-mb", "2"};
  auto server = std::make_unique<ServerProcess>(kBinary, dir + "/data", args);
  ASSERT_TRUE(server->Start().ok()) << "see " << server->log_path();
  bench::LoadConfig load;
  load.url = "http://127.0.0.1:" + std::to_string(server->port());
  load.db = kDb;
  load.workers = 3;
  load.batch_size = 5000;
  load.create_db = true;
  load.reporting_period_s = 0;
  auto source = bench::OpenByteSource(path);
  ASSERT_TRUE(source.ok());
  auto loaded = bench::RunLoad(load, source->get());
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString() << " (server log " << server->log_path() << ")";
  CheckAnswers(server->port(), expected, "after the load");
  EXPECT_GE(LogCount(*server, "flushed memtables into segments"), 10u)
      << "a few rows of each truck per flush: packed series";

  ASSERT_EQ(*server->Stop(SIGTERM), 0);
  server = std::make_unique<ServerProcess>(kBinary, dir + "/data", args);
  ASSERT_TRUE(server->Start().ok()) << "see " << server->log_path();
  CheckAnswers(server->port(), expected, "after a clean restart");

  // Cold compaction: the partition takes no more flushes, so it is merged into one segment.
  ASSERT_EQ(*server->Stop(SIGTERM), 0);
  std::vector<std::string> cold = args;
  cold.insert(cold.end(), {"--compact-cold-after", "1s"});
  server = std::make_unique<ServerProcess>(kBinary, dir + "/data", cold);
  ASSERT_TRUE(server->Start().ok()) << "see " << server->log_path();
  for (int i = 0; i < 600 && segments() > 2; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_LE(segments(), 2u) << "one per measurement once compacted";
  // The three servers append to one log.
  EXPECT_GE(LogCount(*server, "compacted table"), 1u) << "the flushes were merged (during the load, or cold)";
  CheckAnswers(server->port(), expected, "after compaction");
  ASSERT_EQ(*server->Stop(SIGTERM), 0);
  RemoveTree(dir);
}

}  // namespace
}  // namespace gnomon::test

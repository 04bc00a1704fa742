// `gnomon bench profile run` end to end, shrunken: the real binary generates the data, starts its
// own server, loads, runs every query type on fresh data, compacts, runs them again, stops, and
// restarts; its summary must account for every generated row and every query, and the compaction
// must have left one segment per partition.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <string>

#include "src/base/json_value.h"
#include "src/port/env.h"
#include "test/integration/server_process.h"

namespace gnomon::test {
namespace {

const std::string kBinary = std::string(GNOMON_BINARY_DIR) + "/gnomon";

int Shell(const std::string& command) {
  int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

JsonValue ReadSummary(const std::string& out) {
  auto text = port::ReadFileToString(port::Env::Default(), out + "/summary.json");
  EXPECT_TRUE(text.ok()) << text.status().ToString();
  auto doc = JsonValue::Parse(text.ok() ? *text : "{}");
  EXPECT_TRUE(doc.ok());
  return doc.ok() ? *doc : JsonValue();
}

TEST(BenchProfileTest, ShrunkenHeadlineRunsEveryPhase) {
  const std::string dir = MakeTempDir("gnomon-profile");
  ASSERT_FALSE(dir.empty());
  // 12 hosts x 13 hours: every window of every type fits; 2 queries per type and phase.
  const std::string out = dir + "/out";
  const int code = Shell(kBinary + " bench profile run seed-headline --scale 12 --end 2023-06-11T13:00:00Z" +
                       " --queries 2 --data file --work " + dir + "/work --out " + out + " 2>" + dir +
                       "/profile.err");
  auto err = port::ReadFileToString(port::Env::Default(), dir + "/profile.err");
  ASSERT_EQ(code, 0) << (err.ok() ? *err : "");
  JsonValue summary = ReadSummary(out);
  const JsonValue* ingest = summary.Find("ingest");
  ASSERT_NE(ingest, nullptr);
  EXPECT_EQ(ingest->NumberOr("rows", 0), 12.0 * 13 * 360);
  EXPECT_EQ(ingest->NumberOr("metrics", 0), 12.0 * 13 * 360 * 10);
  const JsonValue* queries = summary.Find("queries");
  ASSERT_NE(queries, nullptr);
  EXPECT_EQ(queries->array().size(), 30u);  // 15 types, fresh and compacted
  for (const JsonValue& q : queries->array()) EXPECT_EQ(q.NumberOr("count", 0), 2) << q.StringOr("name", "");
  const JsonValue* server = summary.Find("server");
  ASSERT_NE(server, nullptr);
  EXPECT_GT(server->NumberOr("loadCpuSeconds", 0), 0);
  EXPECT_GT(server->NumberOr("peakRssBytes", 0), 0);
  EXPECT_GE(server->NumberOr("restartSeconds", -1), 0);
  EXPECT_GT(summary.Find("storage")->NumberOr("bytesPerMetric", 0), 0);
  // The log of the compaction answer names one segment: one table, one partition.
  ASSERT_TRUE(err.ok());
  EXPECT_NE(err->find("\"segment_files\":1,"), std::string::npos) << *err;
  // The data file is kept for the next run and reused.
  const int again = Shell(kBinary + " bench profile run seed-headline --scale 12 --end 2023-06-11T13:00:00Z" +
                        " --queries 0 --data file --work " + dir + "/work --out " + out + "2 2>" + dir +
                        "/profile2.err");
  auto err2 = port::ReadFileToString(port::Env::Default(), dir + "/profile2.err");
  ASSERT_EQ(again, 0) << (err2.ok() ? *err2 : "");
  EXPECT_NE(err2->find("reusing data file"), std::string::npos);
  EXPECT_EQ(ReadSummary(out + "2").Find("queries")->array().size(), 0u);
  // A data file made beforehand for another time range is refused, not measured.
  const std::string file = dir + "/work/cpu-only-s12-2023-06-11T00:00:00Z-2023-06-11T13:00:00Z-10s.lp";
  const int wrong = Shell(kBinary + " bench profile run seed-headline --scale 12 --start 2016-01-01T00:00:00Z" +
                          " --end 2016-01-01T13:00:00Z --data-file " + file + " --work " + dir +
                          "/work --out " + out + "3 2>" + dir + "/profile3.err");
  auto err3 = port::ReadFileToString(port::Env::Default(), dir + "/profile3.err");
  EXPECT_EQ(wrong, 1);
  EXPECT_NE(err3->find("outside the profile's range"), std::string::npos) << *err3;
  RemoveTree(dir);
}

TEST(BenchProfileTest, ShrunkenIotFleetStreamsAndLoadsEveryLine) {
  const std::string dir = MakeTempDir("gnomon-profile-iot");
  ASSERT_FALSE(dir.empty());
  const std::string out = dir + "/out";
  const int code = Shell(kBinary + " bench profile run tdengine-iot-100k --scale 300" +
                       " --end 2016-01-01T00:20:00Z --data stream --work " + dir + "/work --out " +
                       out + " 2>" + dir + "/profile.err");
  auto err = port::ReadFileToString(port::Env::Default(), dir + "/profile.err");
  ASSERT_EQ(code, 0) << (err.ok() ? *err : "");
  JsonValue summary = ReadSummary(out);
  // TSBS's IoT data drops some entries: fewer rows than 300 trucks x 120 steps x 2, never more
  // than a handful of deferred extras.
  const double rows = summary.Find("ingest")->NumberOr("rows", 0);
  EXPECT_GT(rows, 300.0 * 120 * 2 * 0.8);
  EXPECT_LT(rows, 300.0 * 120 * 2 * 1.01);
  EXPECT_EQ(summary.Find("queries")->array().size(), 0u);  // no IoT query generator yet
  RemoveTree(dir);
}

}  // namespace
}  // namespace gnomon::test

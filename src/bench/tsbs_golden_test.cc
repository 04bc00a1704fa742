// End-to-end: the generator's complete output equals real tsbs_generate_data --format=influx output
// (shared/tsbs/README.md: raw sha256, line counts per measurement, and the first lines of the
// xz-compressed reference streams).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "src/bench/data_generator.h"
#include "src/bench/test_sinks.h"
#include "src/bench/time_parse.h"

namespace gnomon::bench {
namespace {

constexpr size_t kCompareLines = 20000;

struct Golden {
  const char* use_case;
  uint64_t scale;
  const char* file;
  const char* raw_sha256;
  uint64_t lines;
  uint64_t bytes;
  std::map<std::string, uint64_t> counts;
};

// Reads the first `n` lines of a reference file through `xz -dc`.
std::vector<std::string> ReferenceHead(const std::string& path, size_t n) {
  std::vector<std::string> lines;
  std::string cmd = "xz -dc '" + path + "' 2>/dev/null";
  FILE* f = popen(cmd.c_str(), "r");
  if (f == nullptr) return lines;
  std::string cur;
  int c;
  while (lines.size() < n && (c = std::fgetc(f)) != EOF) {
    if (c == '\n') {
      lines.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(static_cast<char>(c));
    }
  }
  pclose(f);
  return lines;
}

void CheckGolden(const Golden& g) {
  DataGenConfig c;
  c.use_case = g.use_case;
  c.scale = g.scale;
  c.seed = 123;
  c.start_ns = *ParseRfc3339Nanos("2023-06-11T00:00:00Z");
  c.end_ns = *ParseRfc3339Nanos("2023-06-12T00:00:00Z");
  c.interval_ns = *ParseGoDuration("10s");
  testing::DigestFile out(kCompareLines);
  auto stats = GenerateData(c, &out);
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_EQ(stats->rows_written, g.lines);
  EXPECT_EQ(out.lines(), g.lines);
  EXPECT_EQ(out.Size(), g.bytes);
  EXPECT_EQ(out.counts(), g.counts);

  const std::string path = std::string(GNOMON_SHARED_DIR) + "/tsbs/" + g.file;
  std::vector<std::string> ref = ReferenceHead(path, kCompareLines);
  if (ref.empty()) {
    ADD_FAILURE() << "could not read " << path << " with xz -dc";
  } else {
    ASSERT_EQ(out.first_lines().size(), ref.size());
    for (size_t i = 0; i < ref.size(); ++i) {
      ASSERT_EQ(out.first_lines()[i], ref[i]) << "first difference at line " << i + 1;
    }
  }
  EXPECT_EQ(out.HexDigest(), g.raw_sha256);
}

TEST(TsbsGoldenTest, CpuOnlyScale100OneDay) {
  CheckGolden({"cpu-only", 100, "cpu-only-s100-1d.influx.xz",
               "d287426a327c38a84ba495b533d8a7512a6a84bd271d5b6d85df6b8ad0f0d732", 864000,
               297699448, {{"cpu", 864000}}});
}

TEST(TsbsGoldenTest, DevopsScale10OneDay) {
  CheckGolden({"devops", 10, "devops-s10-1d.influx.xz",
               "7041b7ded457fdfb8e12ae579e99c5558fa48da51c67c9cdd7a7aa7bfb1f1ffb", 777600,
               332580687,
               {{"cpu", 86400}, {"disk", 86400}, {"diskio", 86400}, {"kernel", 86400},
                {"mem", 86400}, {"net", 86400}, {"nginx", 86400}, {"postgresl", 86400},
                {"redis", 86400}}});
}

TEST(TsbsGoldenTest, IotScale100OneDay) {
  CheckGolden({"iot", 100, "iot-s100-1d.influx.xz",
               "7108c25bec92cbd99f72dd43233e6125294e1a70a86d9ec05054030395e87bfb", 1554681,
               370061171, {{"diagnostics", 777068}, {"readings", 777613}}});
}

}  // namespace
}  // namespace gnomon::bench

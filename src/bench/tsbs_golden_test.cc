// End-to-end: the generator's complete output equals real tsbs_generate_data --format=influx output
// (test/testdata/tsbs/README.md: raw sha256, bytes and line counts per measurement).
// tsbs_file_test.cc (make test-extended) also compares the first lines with TSBS's files.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "src/bench/data_generator.h"
#include "src/bench/test_sinks.h"
#include "src/bench/tsbs_reference.h"

namespace gnomon::bench {
namespace {

constexpr size_t kCompareLines = 20000;

// The whole generated stream, digested (keeping its first kCompareLines lines).
testing::DigestFile Generate(const TsbsReferenceSet& set) {
  testing::DigestFile out(kCompareLines);
  auto stats = GenerateData(TsbsReferenceConfig(set), &out);
  EXPECT_TRUE(stats.ok()) << stats.status().ToString();
  if (stats.ok()) EXPECT_EQ(stats->rows_written, set.lines);
  return out;
}

// The SHA-256 of TSBS's raw output (test/testdata/tsbs/README.md): no file needed.
void CheckDigest(std::string_view name) {
  const TsbsReferenceSet* set = FindTsbsReference(name);
  ASSERT_NE(set, nullptr) << name;
  testing::DigestFile out = Generate(*set);
  EXPECT_EQ(out.lines(), set->lines);
  EXPECT_EQ(out.Size(), set->bytes);
  EXPECT_EQ(out.counts(), set->lines_per_measurement);
  EXPECT_EQ(out.HexDigest(), set->raw_sha256);
}

TEST(TsbsGoldenTest, CpuOnlyScale100OneDay) { CheckDigest("cpu-only-s100-1d"); }
TEST(TsbsGoldenTest, DevopsScale10OneDay) { CheckDigest("devops-s10-1d"); }
TEST(TsbsGoldenTest, IotScale100OneDay) { CheckDigest("iot-s100-1d"); }

}  // namespace
}  // namespace gnomon::bench

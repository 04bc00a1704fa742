// The first 1000 lines of real TSBS data (test/testdata/tsbs/README.md) parse with the
// counts an independent count of the same lines gives.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "src/bench/generated_source.h"
#include "src/bench/tsbs_reference.h"
#include "src/server/ingest/line_protocol.h"

namespace gnomon::server {
namespace {

// The first `lines` lines of a TSBS reference data set (generated, byte-identical to TSBS's).
std::string HeadOfTsbsData(std::string_view name, size_t lines) {
  auto source = bench::NewGeneratedByteSource(bench::TsbsReferenceConfig(*bench::FindTsbsReference(name)));
  std::string out;
  size_t seen = 0;
  char c;
  while (seen < lines) {
    auto n = source->Read(&c, 1);
    if (!n.ok() || *n == 0) break;
    out.push_back(c);
    seen += c == '\n';
  }
  (void)source->Close();  // stops the generator
  return seen == lines ? out : "";
}

const storage::TableBatch* Table(const storage::WriteBatch& b, std::string_view name) {
  for (const auto& t : b.tables()) {
    if (t->name() == name) return t.get();
  }
  return nullptr;
}

TEST(LineProtocolTsbsTest, CpuOnlyFirst1000Lines) {
  std::string body = HeadOfTsbsData("cpu-only-s100-1d", 1000);
  ASSERT_FALSE(body.empty());
  storage::WriteBatch batch("benchmark");
  ParseResult r = ParseLineProtocol(body, ParseOptions{}, &batch);
  EXPECT_EQ(r.lines_accepted, 1000u);
  EXPECT_EQ(r.lines_rejected, 0u);
  ASSERT_EQ(batch.tables().size(), 1u);
  const storage::TableBatch* cpu = Table(batch, "cpu");
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->rows().size(), 1000u);
  EXPECT_EQ(cpu->series().size(), 100u);  // host_0 .. host_99
  EXPECT_EQ(cpu->values().size(), 10000u);
  ASSERT_EQ(cpu->fields().size(), 10u);
  for (const storage::FieldDef& f : cpu->fields()) EXPECT_EQ(f.type, ValueType::kInt64) << f.name;
  EXPECT_EQ(cpu->fields()[0].name, "usage_user");
  EXPECT_EQ(cpu->fields()[9].name, "usage_guest_nice");
  for (const storage::TagSet& s : cpu->series()) {
    ASSERT_EQ(s.size(), 10u);
    EXPECT_TRUE(std::is_sorted(s.begin(), s.end(),
                               [](const auto& a, const auto& b) { return a.key < b.key; }));
  }
  // First line: host_0, usage_user=58i ... at 2023-06-11T00:00:00Z; last line: t + 90 s.
  const storage::Row& first = cpu->rows().front();
  EXPECT_EQ(first.time, 1686441600000000000);
  EXPECT_EQ(cpu->values()[first.value_begin].i64, 58);
  const storage::TagSet& s0 = cpu->series()[first.series];
  EXPECT_EQ(s0[0].key, "arch");
  EXPECT_EQ(s0[2].key, "hostname");
  EXPECT_EQ(s0[2].value, "host_0");
  EXPECT_EQ(cpu->rows().back().time, 1686441690000000000);
  EXPECT_EQ(cpu->rows().back().line, 1000u);
}

TEST(LineProtocolTsbsTest, IotFirst1000Lines) {
  std::string body = HeadOfTsbsData("iot-s100-1d", 1000);
  ASSERT_FALSE(body.empty());
  storage::WriteBatch batch("benchmark");
  ParseResult r = ParseLineProtocol(body, ParseOptions{}, &batch);
  EXPECT_EQ(r.lines_accepted, 1000u);
  EXPECT_EQ(r.lines_rejected, 0u);
  for (const LineError& e : r.errors) ADD_FAILURE() << e.line << ":" << e.column << " " << e.reason;
  ASSERT_EQ(batch.tables().size(), 2u);

  // Counted independently from the same 1000 lines: rows, distinct tag sets (some trucks appear
  // with a tag missing, so more than 100), distinct fields, and field values (lines miss fields).
  const storage::TableBatch* readings = Table(batch, "readings");
  ASSERT_NE(readings, nullptr);
  EXPECT_EQ(readings->rows().size(), 548u);
  EXPECT_EQ(readings->series().size(), 103u);
  EXPECT_EQ(readings->fields().size(), 10u);
  EXPECT_EQ(readings->values().size(), 5430u);
  for (const storage::FieldDef& f : readings->fields()) EXPECT_EQ(f.type, ValueType::kFloat64);

  const storage::TableBatch* diagnostics = Table(batch, "diagnostics");
  ASSERT_NE(diagnostics, nullptr);
  EXPECT_EQ(diagnostics->rows().size(), 452u);
  EXPECT_EQ(diagnostics->series().size(), 101u);
  EXPECT_EQ(diagnostics->fields().size(), 6u);
  EXPECT_EQ(diagnostics->values().size(), 2666u);
  for (const storage::FieldDef& f : diagnostics->fields()) {
    EXPECT_EQ(f.type, f.name == "status" ? ValueType::kInt64 : ValueType::kFloat64) << f.name;
  }
  size_t four_tag_series = 0;
  for (const auto* t : {readings, diagnostics}) {
    for (const storage::TagSet& s : t->series()) four_tag_series += s.size() == 4;
  }
  EXPECT_GT(four_tag_series, 0u);
  // First line: readings,name=truck_0 ... latitude=52.31854 at 2023-06-11T00:00:00Z.
  const storage::Row& first = readings->rows().front();
  EXPECT_EQ(first.line, 1u);
  EXPECT_EQ(first.time, 1686441600000000000);
  EXPECT_EQ(readings->fields()[3].name, "latitude");
  EXPECT_EQ(readings->values()[first.value_begin + 3].f64, 52.31854);
}

}  // namespace
}  // namespace gnomon::server

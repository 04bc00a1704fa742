// JoinKeyTable: rows group by equal key values across types that compare alike; NULL keys are
// not valid; distinct values (including hash-colliding shapes) stay apart.
#include "src/query/execution/join_key_table.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace gnomon::query {
namespace {

Vector Floats(std::vector<double> v) {
  Vector out;
  InitVector(&out, ValueType::kFloat64);
  out.f64 = std::move(v);
  return out;
}

TEST(JoinKeyTableTest, GroupsEqualValuesAndFindsThem) {
  std::vector<Vector> build(2);
  InitVector(&build[0], ValueType::kString);
  InitVector(&build[1], ValueType::kTimestamp);
  for (int i = 0; i < 5000; ++i) {
    AppendValue(&build[0], Value::String("host_" + std::to_string(i % 50)));
    AppendValue(&build[1], Value::Timestamp(i / 50));
  }
  AppendNull(&build[0]);
  AppendValue(&build[1], Value::Timestamp(0));
  std::vector<uint64_t> hashes;
  std::vector<uint8_t> valid;
  JoinKeyTable::HashRows(build, 5001, &hashes, &valid);
  EXPECT_EQ(valid[5000], 0);  // a NULL key
  JoinKeyTable table(&build);
  for (uint32_t r = 0; r < 5000; ++r) table.Insert(hashes[r], r);
  EXPECT_EQ(table.groups(), 5000u);  // every (host, time) pair is distinct
  EXPECT_EQ(table.Insert(hashes[123], 123), table.Insert(hashes[123], 123));

  // Probe with an int64 time column: it compares with the timestamps by value.
  std::vector<Vector> probe(2);
  InitVector(&probe[0], ValueType::kString);
  InitVector(&probe[1], ValueType::kInt64);
  AppendValue(&probe[0], Value::String("host_7"));
  AppendValue(&probe[1], Value::Int(3));
  AppendValue(&probe[0], Value::String("host_7"));
  AppendValue(&probe[1], Value::Int(100));
  JoinKeyTable::HashRows(probe, 2, &hashes, &valid);
  EXPECT_EQ(table.Find(hashes[0], probe, 0), 157);  // group of row 3 * 50 + 7 (rows are groups in order)
  EXPECT_EQ(table.Find(hashes[1], probe, 1), -1);
}

TEST(JoinKeyTableTest, FloatKeysMatchAsSqlSays) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<Vector> build{Floats({0.0, 1.5, nan})};
  std::vector<uint64_t> hashes;
  std::vector<uint8_t> valid;
  JoinKeyTable::HashRows(build, 3, &hashes, &valid);
  JoinKeyTable table(&build);
  for (uint32_t r = 0; r < 3; ++r) table.Insert(hashes[r], r);
  std::vector<Vector> probe{Floats({-0.0, -std::nan(""), 2.0})};
  JoinKeyTable::HashRows(probe, 3, &hashes, &valid);
  EXPECT_EQ(table.Find(hashes[0], probe, 0), 0);   // -0.0 = 0.0
  EXPECT_EQ(table.Find(hashes[1], probe, 1), 2);   // NaN = NaN, whatever its bits
  EXPECT_EQ(table.Find(hashes[2], probe, 2), -1);
}

}  // namespace
}  // namespace gnomon::query

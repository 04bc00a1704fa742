#include "src/torture/crash_workload.h"

#include <gtest/gtest.h>

#include <set>

namespace gnomon::torture {
namespace {

WorkloadShape Shape() {
  WorkloadShape shape;
  shape.base_time_ns = 1'700'000'000'000'000'000;
  return shape;
}

TEST(CrashWorkloadTest, TheSameSeedGivesTheSameOperations) {
  OperationSource a(Shape(), 1, 42), b(Shape(), 1, 42), other(Shape(), 2, 42);
  bool differs = false;
  for (int i = 0; i < 50; ++i) {
    Operation x = a.Next(), y = b.Next(), z = other.Next();
    EXPECT_EQ(ToLineProtocol(x, 1), ToLineProtocol(y, 1));
    differs |= ToLineProtocol(x, 1) != ToLineProtocol(z, 1);
  }
  EXPECT_TRUE(differs);
}

TEST(CrashWorkloadTest, RowsStayInsideTheKeySpaceAndValuesNameTheirRequest) {
  const WorkloadShape shape = Shape();
  OperationSource source(shape, 0, 7);
  std::set<int64_t> ns;
  int deletes = 0, late = 0, repeats = 0;
  for (int i = 0; i < 2000; ++i) {
    Operation op = source.Next();
    if (op.kind == Operation::Kind::kDelete) {
      ++deletes;
      EXPECT_EQ(op.database, DatabaseOf(op.delete_from.table));
      EXPECT_LT(op.delete_from.time, op.delete_to);
      continue;
    }
    std::set<RowKey> seen;
    int64_t newest = INT64_MIN;
    for (const WrittenRow& w : op.rows) {
      EXPECT_EQ(DatabaseOf(w.key.table), op.database);
      EXPECT_LT(w.key.series, static_cast<uint32_t>(shape.series_per_writer));
      EXPECT_GE(w.key.time, shape.base_time_ns);
      EXPECT_LT(w.key.time, shape.base_time_ns + shape.times * shape.step_ns);
      EXPECT_EQ(*w.value.v, static_cast<double>(*w.value.n) + 0.5);
      EXPECT_TRUE(ns.insert(*w.value.n).second) << "values must be unique";
      repeats += !seen.insert(w.key).second;
      late += w.key.time < newest;
      newest = std::max(newest, w.key.time);
    }
  }
  EXPECT_GT(deletes, 40);
  EXPECT_GT(late, 1000);
  EXPECT_GT(repeats, 1000);
}

TEST(CrashWorkloadTest, RequestBodies) {
  WorkloadShape shape = Shape();
  Operation op;
  WrittenRow w;
  w.key = RowKey{3, 2, shape.base_time_ns};
  w.value.n = 12;
  w.value.v = 12.5;
  op.rows.push_back(w);
  w.value.s = "q12";
  op.rows.push_back(w);
  EXPECT_EQ(ToLineProtocol(op, 4),
            "m2,host=w4s2 v=12.5,n=12i 1700000000000000000\n"
            "m2,host=w4s2 v=12.5,n=12i,s=\"q12\" 1700000000000000000\n");
  Operation del;
  del.kind = Operation::Kind::kDelete;
  del.delete_from = RowKey{0, 1, shape.base_time_ns};
  del.delete_to = shape.base_time_ns + shape.step_ns;
  EXPECT_EQ(ToDeleteSql(del, 0),
            "DELETE FROM m1 WHERE host = 'w0s1' AND time >= '2023-11-14T22:13:20Z' AND time < "
            "'2023-11-14T22:14:20Z'");
  EXPECT_EQ(DatabaseName(1), "torture_b");
}

}  // namespace
}  // namespace gnomon::torture

#include "src/torture/crash_model.h"

#include <gtest/gtest.h>

namespace gnomon::torture {
namespace {

Operation Write(std::vector<std::tuple<uint32_t, int64_t, int64_t, bool>> rows) {
  Operation op;
  for (auto [series, time, n, with_s] : rows) {
    WrittenRow w;
    w.key = RowKey{0, series, time};
    w.value.n = n;
    w.value.v = n + 0.5;
    if (with_s) w.value.s = "q" + std::to_string(n);
    op.rows.push_back(w);
  }
  return op;
}

Operation Delete(uint32_t series, int64_t from, int64_t to) {
  Operation op;
  op.kind = Operation::Kind::kDelete;
  op.delete_from = RowKey{0, series, from};
  op.delete_to = to;
  return op;
}

TEST(CrashModelTest, RepeatedTimesMergeFieldByFieldAndDeletesRemoveWholeRows) {
  Rows rows;
  Apply(Write({{1, 10, 100, true}, {1, 20, 101, true}}), &rows);
  Apply(Write({{1, 10, 200, false}}), &rows);  // no s: the earlier s stays
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(*rows[(RowKey{0, 1, 10})].n, 200);
  EXPECT_EQ(*rows[(RowKey{0, 1, 10})].s, "q100");
  Apply(Delete(1, 10, 20), &rows);  // [10, 20): 20 stays
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(rows.count((RowKey{0, 1, 20})));
  Apply(Write({{1, 10, 300, false}}), &rows);  // written again after the delete: no old s
  EXPECT_FALSE(rows[(RowKey{0, 1, 10})].s.has_value());
}

TEST(CrashModelTest, AcknowledgedRowsMustAllBeThere) {
  WriterLedger ledger;
  ledger.Begin(Write({{0, 1, 1, true}, {0, 2, 2, true}}));
  ledger.Acknowledge();
  Rows observed = ledger.expected();
  EXPECT_EQ(ledger.Check(observed), "");
  observed.erase(RowKey{0, 0, 2});
  EXPECT_NE(ledger.Check(observed).find("missing"), std::string::npos);
  observed = ledger.expected();
  observed[RowKey{0, 0, 1}].n = 7;
  EXPECT_NE(ledger.Check(observed).find("wrong"), std::string::npos);
}

TEST(CrashModelTest, AnUnansweredRequestIsAllOrNothingAndItsOutcomeSticks) {
  WriterLedger ledger;
  ledger.Begin(Write({{0, 1, 1, true}}));
  ledger.Acknowledge();
  Operation pending = Write({{0, 2, 2, true}, {0, 3, 3, true}});
  ledger.Begin(pending);
  ledger.Unanswered();

  Rows half = ledger.expected();
  Apply(Write({{0, 2, 2, true}}), &half);  // only part of the request survived
  EXPECT_NE(ledger.Check(half), "");
  EXPECT_TRUE(ledger.has_unresolved());

  Rows all = ledger.expected();
  Apply(pending, &all);
  EXPECT_EQ(ledger.Check(all), "");  // it took effect, and now belongs to the expected state
  EXPECT_FALSE(ledger.has_unresolved());
  EXPECT_EQ(ledger.expected(), all);
  Rows without = all;
  without.erase(RowKey{0, 0, 3});
  EXPECT_NE(ledger.Check(without), "");  // a later restart may not lose it
}

TEST(CrashModelTest, AnUnansweredRequestThatLeftNoTraceStaysAbsent) {
  WriterLedger ledger;
  ledger.Begin(Write({{0, 5, 5, true}}));
  ledger.Unanswered();
  EXPECT_EQ(ledger.Check(Rows{}), "");
  Rows late;
  Apply(Write({{0, 5, 5, true}}), &late);
  EXPECT_NE(ledger.Check(late), "");  // it may not appear after a later restart
}

TEST(CrashModelTest, DifferencesAreNamedAndCounted) {
  Rows expected, observed;
  for (int64_t t = 0; t < 10; ++t) Apply(Write({{0, t, t, true}}), &expected);
  std::string d = DescribeDifferences(expected, observed, 3);
  EXPECT_NE(d.find("10 rows differ"), std::string::npos) << d;
  EXPECT_NE(d.find("7 more"), std::string::npos) << d;
  EXPECT_EQ(DescribeDifferences(expected, expected), "");
}


// Rows retention may have dropped: missing is fine, a field gone with the drop is fine; a wrong
// value, a row never written or one deleted is still a violation, and so is any difference
// outside the expired zone.
TEST(CrashModelTest, RowsOfAnExpiredPartitionMayBeGoneButNeverWrong) {
  WriterLedger ledger;
  ledger.Begin(Write({{0, 1, 1, true}, {0, 2, 2, true}, {0, 100, 3, true}}));
  ledger.Acknowledge();
  auto expired = [](const RowKey& k) { return k.time < 50; };
  Rows observed = ledger.expected();
  observed.erase(RowKey{0, 0, 1});            // dropped
  observed[RowKey{0, 0, 2}].s.reset();        // written again after a drop, without s
  EXPECT_EQ(ledger.Check(observed, expired), "");
  EXPECT_NE(ledger.Check(observed), "");      // without the zone, both are violations
  Rows wrong = observed;
  wrong[RowKey{0, 0, 2}].n = 9;
  EXPECT_NE(ledger.Check(wrong, expired).find("wrong"), std::string::npos);
  Rows unexpected = observed;
  unexpected[RowKey{0, 0, 3}] = RowValue{1.5, 1, std::nullopt};
  EXPECT_NE(ledger.Check(unexpected, expired).find("unexpected"), std::string::npos);
  Rows missing_live = observed;
  missing_live.erase(RowKey{0, 0, 100});
  EXPECT_NE(ledger.Check(missing_live, expired).find("missing"), std::string::npos);
}

}  // namespace
}  // namespace gnomon::torture

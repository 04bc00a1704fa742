// Column matching and row comparison between the two dialects' answers (no data needed).
#include "test/acceptance/answer_compare.h"

#include <gtest/gtest.h>

namespace gnomon::acceptance {
namespace {

using query::Value;

QueryAnswer MakeAnswer(std::vector<query::ResultColumn> columns, std::vector<std::vector<Value>> rows) {
  QueryAnswer a;
  a.columns = std::move(columns);
  a.data.resize(a.columns.size());
  for (size_t c = 0; c < a.columns.size(); ++c) query::InitVector(&a.data[c], a.columns[c].type);
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) query::AppendValue(&a.data[c], row[c]);
  }
  a.rows = rows.size();
  return a;
}

TEST(AnswerCompareTest, CanonicalNames) {
  EXPECT_EQ(CanonicalColumnName("max(usage_user)"), "max_usage_user");
  EXPECT_EQ(CanonicalColumnName("max_usage_user"), "max_usage_user");
  EXPECT_EQ(CanonicalColumnName("avg(usage_idle)"), "mean_usage_idle");
  EXPECT_EQ(CanonicalColumnName("mean_usage_idle"), "mean_usage_idle");
  EXPECT_EQ(CanonicalColumnName("date_trunc('hour', time)"), "bucket");
  EXPECT_EQ(CanonicalColumnName("hour"), "bucket");
  EXPECT_EQ(CanonicalColumnName("minute"), "bucket");
  EXPECT_EQ(CanonicalColumnName("last_value(rack order by time)"), "rack");
  EXPECT_EQ(CanonicalColumnName("hostname"), "hostname");
  EXPECT_EQ(CanonicalColumnName("min(usage_user)"), "min(usage_user)");
}

TEST(AnswerCompareTest, MatchesColumnsByMeaning) {
  const QueryAnswer g = MakeAnswer({{"avg(usage_user)", ValueType::kFloat64}, {"date_trunc('hour', time)", ValueType::kTimestamp}}, {});
  const QueryAnswer t = MakeAnswer({{"hour", ValueType::kTimestamp}, {"hostname", ValueType::kString},
                                    {"mean_usage_user", ValueType::kFloat64}}, {});
  auto columns = CanonicalColumns(g, t, {"hostname"});
  ASSERT_TRUE(columns.ok()) << columns.status().ToString();
  EXPECT_EQ(*columns, (std::vector<std::string>{"mean_usage_user", "bucket"}));
  // hostname is not an expected extra column here; nor is a type change acceptable.
  EXPECT_FALSE(CanonicalColumns(g, t, {}).ok());
  const QueryAnswer t_int = MakeAnswer({{"hour", ValueType::kTimestamp}, {"hostname", ValueType::kString},
                                        {"mean_usage_user", ValueType::kInt64}}, {});
  EXPECT_FALSE(CanonicalColumns(g, t_int, {"hostname"}).ok());
  // A greptime column TimescaleDB lacks.
  const QueryAnswer t_short = MakeAnswer({{"hour", ValueType::kTimestamp}, {"hostname", ValueType::kString}}, {});
  EXPECT_FALSE(CanonicalColumns(g, t_short, {"hostname"}).ok());
}

TEST(AnswerCompareTest, ComparesRowsAsMultisetsOrInOrder) {
  const std::vector<query::ResultColumn> cols = {{"bucket", ValueType::kTimestamp}, {"m", ValueType::kFloat64},
                                                 {"h", ValueType::kString}};
  const QueryAnswer a = MakeAnswer(cols, {{Value::Timestamp(1), Value::Float(0.1), Value::String("x")},
                                          {Value::Timestamp(2), Value::Float(2.5), Value::String("y")}});
  const QueryAnswer b = MakeAnswer(cols, {{Value::Timestamp(2), Value::Float(2.5), Value::String("y")},
                                          {Value::Timestamp(1), Value::Float(0.1 * (1 + 1e-12)), Value::String("x")}});
  EXPECT_EQ(CompareRows(a, b, /*ordered=*/false), "");
  EXPECT_NE(CompareRows(a, b, /*ordered=*/true), "");

  const QueryAnswer off = MakeAnswer(cols, {{Value::Timestamp(1), Value::Float(0.1 * (1 + 1e-7)), Value::String("x")},
                                            {Value::Timestamp(2), Value::Float(2.5), Value::String("y")}});
  EXPECT_NE(CompareRows(a, off, false), "");
  const QueryAnswer null = MakeAnswer(cols, {{Value::Timestamp(1), Value::Null(), Value::String("x")},
                                             {Value::Timestamp(2), Value::Float(2.5), Value::String("y")}});
  EXPECT_NE(CompareRows(a, null, false), "");
  const QueryAnswer fewer = MakeAnswer(cols, {{Value::Timestamp(1), Value::Float(0.1), Value::String("x")}});
  const std::string diff = CompareRows(a, fewer, false);
  EXPECT_NE(diff.find("rows 2 vs 1"), std::string::npos) << diff;
  const QueryAnswer duplicated = MakeAnswer(cols, {{Value::Timestamp(1), Value::Float(0.1), Value::String("x")},
                                                   {Value::Timestamp(1), Value::Float(0.1), Value::String("x")}});
  EXPECT_NE(CompareRows(a, duplicated, false), "");
}

TEST(AnswerCompareTest, ProjectsOntoCanonicalColumns) {
  const QueryAnswer t = MakeAnswer({{"minute", ValueType::kTimestamp}, {"max_usage_user", ValueType::kInt64}},
                                   {{Value::Timestamp(60), Value::Int(7)}});
  auto p = Project(t, {"max_usage_user", "bucket"});
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  ASSERT_EQ(p->rows, 1u);
  EXPECT_EQ(p->columns[0].name, "max_usage_user");
  EXPECT_EQ(p->Get(0, 0).i, 7);
  EXPECT_EQ(p->Get(0, 1).i, 60);
  EXPECT_FALSE(Project(t, {"mean_usage_user"}).ok());
}

}  // namespace
}  // namespace gnomon::acceptance

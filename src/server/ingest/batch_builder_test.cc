// BatchBuilder directly, and a property test: any rows written out as escaped line protocol come
// back unchanged through the tokenizer and the builder.
#include "src/server/ingest/batch_builder.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "src/server/ingest/line_protocol.h"
#include "src/storage/identifier.h"
#include "src/storage/storage_test_util.h"

namespace gnomon::server {
namespace {

// Adds one line through the tokenizer and the builder.
bool AddLine(LineParser* parser, BatchBuilder* builder, std::string_view line, int64_t time,
             uint32_t line_no, LineSyntaxError* e) {
  ParsedLine parsed;
  if (!parser->Parse(line, &parsed, e)) return false;
  return builder->Add(parsed, time, line_no, e);
}

// An engine in a temporary directory, and line protocol parsed against it and written to it.
class BatchBuilderEngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    engine_ = storage::testing::OpenTestEngine(dir_.path());
    ASSERT_NE(engine_, nullptr);
    options_.engine = engine_.get();
  }
  // Parses `body` into a batch of database "db", expects every line accepted and the write to
  // succeed, and returns the batch as written.
  storage::WriteBatch Write(std::string_view body) {
    storage::WriteBatch batch("db");
    ParseResult r = ParseLineProtocol(body, options_, &batch);
    EXPECT_EQ(r.lines_rejected, 0u) << (r.errors.empty() ? "" : r.errors[0].reason);
    auto outcome = engine_->Write(batch, {});
    EXPECT_TRUE(outcome.ok()) << outcome.status().ToString();
    return batch;
  }

  storage::testing::TempDir dir_;
  std::unique_ptr<storage::Engine> engine_;
  ParseOptions options_;
};

// With an engine, series the engine already has are added by id (however their key is spelt),
// new ones by their tags; the rows land in the right series either way.
TEST_F(BatchBuilderEngineTest, SeriesTheEngineKnowsAreAddedById) {
  storage::WriteBatch first = Write("cpu,host=a,rack=1 v=1 10\ncpu,host=b v=2 10");
  EXPECT_FALSE(first.tables()[0]->has_resolved_series());  // the table did not exist

  storage::WriteBatch second =
      Write("cpu,rack=1,host=a v=3 20\ncpu,host=c v=4 20\ncpu,host=a,rack=1 v=5 30\nmem,host=a f=1 20");
  const storage::TableBatch& cpu = *second.tables()[0];
  ASSERT_EQ(cpu.name(), "cpu");
  ASSERT_EQ(cpu.series().size(), 2u);  // host=a under two spellings is one series
  EXPECT_EQ(cpu.resolved_id(0), 0u);   // host=a,rack=1 was the table's first series
  EXPECT_EQ(cpu.resolved_id(1), storage::kUnresolvedSeries);
  EXPECT_EQ(cpu.series()[1], (storage::TagSet{{"host", "c"}}));
  EXPECT_EQ(cpu.table_instance(), engine_->NewSeriesResolver("db", "cpu")->table_instance());
  EXPECT_FALSE(second.tables()[1]->has_resolved_series());  // mem is new

  // A field named like a tag of a resolved series is refused like any other.
  storage::WriteBatch bad("db");
  ParseResult r = ParseLineProtocol("cpu,host=b host=1 40", options_, &bad);
  ASSERT_EQ(r.lines_rejected, 1u);
  EXPECT_NE(r.errors[0].reason.find("conflicts with a tag"), std::string::npos) << r.errors[0].reason;

  // Spellings resolved by their tags were remembered: a later request finds them without
  // parsing, in the same series.
  storage::WriteBatch third = Write("cpu,rack=1,host=a v=6 40\ncpu,host=a,rack=1 v=7 50");
  ASSERT_EQ(third.tables()[0]->series().size(), 1u);
  EXPECT_EQ(third.tables()[0]->resolved_id(0), 0u);

  auto reader = engine_->OpenTable("db", "cpu");
  ASSERT_TRUE(reader.ok());
  storage::testing::CollectingConsumer c;
  ASSERT_TRUE((*reader)->Scan(storage::testing::AllSeries(**reader, {"v"}), &c, nullptr).ok());
  ASSERT_EQ(c.rows.size(), 3u);
  EXPECT_EQ(c.rows[0].size(), 5u);  // host=a: 10, 20, 30, 40, 50
  EXPECT_EQ(c.rows[0][50], std::vector<std::string>{std::to_string(7.0)});
  EXPECT_EQ(c.rows[0][30], std::vector<std::string>{std::to_string(5.0)});
  EXPECT_EQ(c.rows[2][20], std::vector<std::string>{std::to_string(4.0)});
}

// A series the engine creates is remembered under the spelling its request used, so the next
// request spelling it so resolves it by id without parsing its tags; another spelling of it is
// not taken for it until it has been resolved by its tags.
TEST_F(BatchBuilderEngineTest, SeriesTheEngineCreatesAreRememberedBySpelling) {
  Write("cpu,host=a v=1 10");  // creates the table: no resolver yet, nothing to remember
  auto resolver = engine_->NewSeriesResolver("db", "cpu");
  ASSERT_NE(resolver, nullptr);
  storage::WriteBatch second = Write("cpu,host=b,rack=2 v=2 20\ncpu,host=c v=3 20");
  ASSERT_EQ(second.tables()[0]->spellings().size(), 2u);
  auto b = resolver->FindRaw(index::RawKeyCache::Hash("cpu,host=b,rack=2"));
  auto c = resolver->FindRaw(index::RawKeyCache::Hash("cpu,host=c"));
  ASSERT_TRUE(b.has_value());
  ASSERT_TRUE(c.has_value());
  EXPECT_NE(*b, *c);
  EXPECT_FALSE(resolver->FindRaw(index::RawKeyCache::Hash("cpu,rack=2,host=b")).has_value());
  storage::WriteBatch third = Write("cpu,host=b,rack=2 v=4 30\ncpu,rack=2,host=b v=5 40");
  ASSERT_EQ(third.tables()[0]->series().size(), 1u);
  EXPECT_EQ(third.tables()[0]->resolved_id(0), *b);
  EXPECT_TRUE(third.tables()[0]->spellings().empty());  // nothing new was created
  EXPECT_EQ(resolver->FindRaw(index::RawKeyCache::Hash("cpu,rack=2,host=b")), b);
}

TEST(BatchBuilderTest, RawKeyCacheAndCanonicalSeries) {
  storage::WriteBatch batch;
  BatchBuilder builder(&batch);
  LineParser parser;
  LineSyntaxError e;
  ASSERT_TRUE(AddLine(&parser, &builder, "m,a=1,b=2 v=1", 1, 1, &e));
  ASSERT_TRUE(AddLine(&parser, &builder, "m,a=1,b=2 v=2", 2, 2, &e));
  ASSERT_TRUE(AddLine(&parser, &builder, "m,b=2,a=1 v=3", 3, 3, &e));
  ASSERT_TRUE(AddLine(&parser, &builder, "m,b=2,a=\\1 v=4", 4, 4, &e));  // "\1" is literal
  EXPECT_EQ(builder.cached_series_keys(), 3u);
  const storage::TableBatch& t = *batch.tables()[0];
  ASSERT_EQ(t.series().size(), 2u);
  EXPECT_EQ(t.series()[1], (storage::TagSet{{"a", "\\1"}, {"b", "2"}}));
  EXPECT_EQ(t.rows()[2].series, 0u);
  EXPECT_EQ(t.rows()[3].series, 1u);
  EXPECT_EQ(t.rows()[3].time, 4);
  EXPECT_EQ(t.rows()[3].line, 4u);
}

// Series are predicted from the order of the previous round; a changed order, keys that differ only
// in length or in their last byte, and a second table must still resolve to the right series.
TEST(BatchBuilderTest, SeriesOrderPredictionNeverMisresolves) {
  storage::WriteBatch batch;
  BatchBuilder builder(&batch);
  LineParser parser;
  LineSyntaxError e;
  const std::vector<std::string> keys = {"m,h=a", "m,h=b", "m,h=ab", "n,h=a", "m,h=c"};
  const std::vector<std::vector<int>> rounds = {
      {0, 1, 2, 3, 4}, {0, 1, 2, 3, 4}, {0, 2, 1, 4, 3}, {4, 3, 2, 1, 0}, {0, 1, 2, 3, 4}};
  uint32_t line_no = 0;
  std::vector<int> want;
  for (const auto& round : rounds) {
    for (int k : round) {
      ++line_no;
      std::string line = keys[k] + " v=" + std::to_string(k);
      ASSERT_TRUE(AddLine(&parser, &builder, line, line_no, line_no, &e)) << e.reason;
      want.push_back(k);
    }
  }
  EXPECT_EQ(builder.cached_series_keys(), keys.size());
  ASSERT_EQ(batch.tables().size(), 2u);
  size_t checked = 0;
  for (const auto& t : batch.tables()) {
    for (const storage::Row& r : t->rows()) {
      const int k = want[r.line - 1];
      const std::string& key = keys[k];
      EXPECT_EQ(t->name(), key.substr(0, 1)) << "line " << r.line;
      ASSERT_EQ(t->series()[r.series].size(), 1u);
      EXPECT_EQ(t->series()[r.series][0].value, key.substr(4)) << "line " << r.line;
      EXPECT_EQ(t->values()[r.value_begin].f64, k) << "line " << r.line;
      ++checked;
    }
  }
  EXPECT_EQ(checked, want.size());
}

TEST(BatchBuilderTest, RejectedLineLeavesBatchUntouched) {
  storage::WriteBatch batch;
  BatchBuilder builder(&batch);
  LineParser parser;
  LineSyntaxError e;
  ASSERT_TRUE(AddLine(&parser, &builder, "m,h=a x=1i", 1, 1, &e));
  const storage::TableBatch& t = *batch.tables()[0];
  // New series, new field, then a conflict: nothing of it may remain.
  EXPECT_FALSE(AddLine(&parser, &builder, "m,h=b y=1,z=2u,x=2.5", 2, 2, &e));
  EXPECT_EQ(e.reason, "field x: type float64 conflicts with int64 earlier in this request");
  EXPECT_EQ(e.offset, 15u);
  EXPECT_EQ(t.series().size(), 1u);
  EXPECT_EQ(t.fields().size(), 1u);
  EXPECT_EQ(t.rows().size(), 1u);
  EXPECT_EQ(t.values().size(), 1u);
  EXPECT_EQ(builder.cached_series_keys(), 1u);
  // The same series and fields are fine once the types agree.
  ASSERT_TRUE(AddLine(&parser, &builder, "m,h=b y=1,z=2u,x=3i", 3, 3, &e)) << e.reason;
  EXPECT_EQ(t.series().size(), 2u);
  EXPECT_EQ(t.fields().size(), 3u);
  EXPECT_EQ(t.rows().size(), 2u);
}

TEST(BatchBuilderTest, MalformedSeriesKeyIsReportedThroughAdd) {
  storage::WriteBatch batch;
  BatchBuilder builder(&batch);
  LineParser parser;
  LineSyntaxError e;
  EXPECT_FALSE(AddLine(&parser, &builder, "  m,h v=1", 1, 1, &e));
  EXPECT_EQ(e.offset, 4u);
  EXPECT_EQ(e.reason, "tag key \"h\" has no value (missing '=')");
  EXPECT_TRUE(batch.tables().empty());
  EXPECT_EQ(builder.cached_series_keys(), 0u);
}

// ---- property: format -> parse round trip -------------------------------------------------

std::string EscapeWith(std::string_view s, std::string_view specials) {
  std::string out;
  for (char c : s) {
    if (c == '\\' || specials.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

struct GenRow {
  std::string measurement;
  std::map<std::string, std::string> tags;
  std::vector<std::pair<std::string, int>> field_kinds;  // name, kind 0..4
  std::vector<int64_t> ints;
  std::vector<double> floats;
  std::vector<std::string> strings;
};

// Names drawn from an alphabet full of the characters that need escaping.
rc::Gen<std::string> GenName() {
  static const std::vector<std::string> kPieces = {"a", "b", "Z", "0", " ", ",", "=", "\\", "\"",
                                                   "\xC3\xA9", "_", "x"};
  return rc::gen::suchThat(
      rc::gen::map(rc::gen::nonEmpty(rc::gen::container<std::vector<std::string>>(
                       rc::gen::elementOf(kPieces))),
                   [](const std::vector<std::string>& parts) {
                     std::string s;
                     for (const auto& p : parts) s += p;
                     return s;
                   }),
      [](const std::string& s) { return s != "time" && s[0] != '#'; });
}

RC_GTEST_PROP(BatchBuilderProperty, EscapedLinesRoundTrip, ()) {
  // Names the engine would refuse as table names ('\\', '/', a leading '.') are line errors.
  const std::string measurement =
      *rc::gen::suchThat(GenName(), [](const std::string& m) { return storage::ValidateTableName(m).ok(); });
  const auto tag_names = *rc::gen::container<std::set<std::string>>(GenName());
  const auto field_names = *rc::gen::nonEmpty(rc::gen::container<std::set<std::string>>(GenName()));
  std::map<std::string, std::string> tags;
  for (const std::string& k : tag_names) {
    if (!field_names.contains(k)) tags[k] = *GenName();
  }
  std::string line = EscapeWith(measurement, ", ");
  for (const auto& [k, v] : tags) line += "," + EscapeWith(k, ",= ") + "=" + EscapeWith(v, ",= ");
  line += ' ';

  struct Expect {
    std::string name;
    ValueType type;
    int64_t i = 0;
    uint64_t u = 0;
    double f = 0;
    bool b = false;
    std::string s;
  };
  std::vector<Expect> want;
  bool first = true;
  for (const std::string& name : field_names) {
    Expect x;
    x.name = name;
    std::string text;
    switch (*rc::gen::inRange(0, 5)) {
      case 0:
        x.type = ValueType::kInt64;
        x.i = *rc::gen::arbitrary<int64_t>();
        text = std::to_string(x.i) + "i";
        break;
      case 1:
        x.type = ValueType::kUInt64;
        x.u = *rc::gen::arbitrary<uint64_t>();
        text = std::to_string(x.u) + "u";
        break;
      case 2: {
        x.type = ValueType::kFloat64;
        x.f = *rc::gen::suchThat(rc::gen::arbitrary<double>(),
                                 [](double d) { return std::isfinite(d); });
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", x.f);
        text = buf;
        break;
      }
      case 3:
        x.type = ValueType::kBool;
        x.b = *rc::gen::arbitrary<bool>();
        text = *rc::gen::elementOf(x.b ? std::vector<std::string>{"t", "T", "true", "True", "TRUE"}
                                       : std::vector<std::string>{"f", "F", "false", "False", "FALSE"});
        break;
      default:
        x.type = ValueType::kString;
        x.s = *rc::gen::map(rc::gen::container<std::string>(rc::gen::elementOf(
                                std::string(" ,=\\\"ab\t{}"))),
                            [](std::string s) { return s; });
        text = "\"" + EscapeWith(x.s, "\"") + "\"";
        break;
    }
    line += (first ? "" : ",") + EscapeWith(name, ",= ") + "=" + text;
    first = false;
    want.push_back(x);
  }
  const bool with_ts = *rc::gen::arbitrary<bool>();
  const int64_t ts = *rc::gen::inRange<int64_t>(-(int64_t{1} << 62), int64_t{1} << 62);
  if (with_ts) line += " " + std::to_string(ts);

  storage::WriteBatch batch;
  ParseOptions options;
  options.default_time_ns = 77;
  ParseResult r = ParseLineProtocol(line, options, &batch);
  RC_ASSERT(r.errors.empty());
  RC_ASSERT(r.lines_accepted == 1u);
  const storage::TableBatch& t = *batch.tables()[0];
  RC_ASSERT(t.name() == measurement);
  storage::TagSet want_tags;
  for (const auto& [k, v] : tags) want_tags.push_back({k, v});
  RC_ASSERT(t.series()[0] == want_tags);
  const storage::Row& row = t.rows()[0];
  RC_ASSERT(row.time == (with_ts ? ts : 77));
  RC_ASSERT(row.value_count == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    const storage::FieldValue& v = t.values()[row.value_begin + i];
    const storage::FieldDef& def = t.fields()[v.field];
    RC_ASSERT(def.name == want[i].name);
    RC_ASSERT(def.type == want[i].type);
    switch (want[i].type) {
      case ValueType::kInt64: RC_ASSERT(v.i64 == want[i].i); break;
      case ValueType::kUInt64: RC_ASSERT(v.u64 == want[i].u); break;
      case ValueType::kFloat64: RC_ASSERT(v.f64 == want[i].f); break;
      case ValueType::kBool: RC_ASSERT(v.b == want[i].b); break;
      default: RC_ASSERT(t.StringValue(v) == want[i].s); break;
    }
  }
}

}  // namespace
}  // namespace gnomon::server

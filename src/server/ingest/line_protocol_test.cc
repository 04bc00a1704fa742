// ParseLineProtocol end to end: line splitting, comments, CRLF, precision, error reporting with
// line and column, and what lands in the WriteBatch.
#include "src/server/ingest/line_protocol.h"

#include <gtest/gtest.h>

#include <string>

namespace gnomon::server {
namespace {

using storage::TableBatch;
using storage::WriteBatch;

class LineProtocolTest : public ::testing::Test {
 protected:
  ParseResult Run(std::string_view body) { return ParseLineProtocol(body, options_, &batch_); }

  const TableBatch* Table(std::string_view name) const {
    for (const auto& t : batch_.tables()) {
      if (t->name() == name) return t.get();
    }
    return nullptr;
  }

  // The single error of a body with exactly one bad line.
  LineError OnlyError(std::string_view body) {
    ParseResult r = Run(body);
    EXPECT_EQ(r.lines_rejected, 1u) << body;
    EXPECT_EQ(r.errors.size(), 1u) << body;
    return r.errors.empty() ? LineError{} : r.errors[0];
  }

  ParseOptions options_;
  WriteBatch batch_{"db"};
};

TEST_F(LineProtocolTest, EmptyBlankAndCommentBodies) {
  for (std::string_view body : {"", "\n", "\n\n\r\n", "   \t \n", "# only a comment",
                                "  # indented comment\n#another\r\n"}) {
    ParseResult r = Run(body);
    EXPECT_EQ(r.lines_accepted, 0u);
    EXPECT_EQ(r.lines_rejected, 0u);
    EXPECT_TRUE(r.errors.empty());
  }
  EXPECT_TRUE(batch_.tables().empty());
}

TEST_F(LineProtocolTest, RowsTablesSeriesAndFields) {
  ParseResult r = Run(
      "cpu,host=a,region=eu usage=0.5,count=3i 100\n"
      "cpu,host=b,region=eu usage=0.25,count=4i 200\n"
      "mem,host=a used=7u,ok=true,note=\"fine\" 300\n");
  EXPECT_EQ(r.lines_accepted, 3u);
  EXPECT_EQ(r.lines_rejected, 0u);
  ASSERT_EQ(batch_.tables().size(), 2u);
  EXPECT_EQ(batch_.RowCount(), 3u);

  const TableBatch* cpu = Table("cpu");
  ASSERT_NE(cpu, nullptr);
  ASSERT_EQ(cpu->series().size(), 2u);
  EXPECT_EQ(cpu->series()[0], (storage::TagSet{{"host", "a"}, {"region", "eu"}}));
  EXPECT_EQ(cpu->series()[1], (storage::TagSet{{"host", "b"}, {"region", "eu"}}));
  ASSERT_EQ(cpu->fields().size(), 2u);
  EXPECT_EQ(cpu->fields()[0].name, "usage");
  EXPECT_EQ(cpu->fields()[0].type, ValueType::kFloat64);
  EXPECT_EQ(cpu->fields()[1].name, "count");
  EXPECT_EQ(cpu->fields()[1].type, ValueType::kInt64);
  ASSERT_EQ(cpu->rows().size(), 2u);
  const storage::Row& row = cpu->rows()[1];
  EXPECT_EQ(row.series, 1u);
  EXPECT_EQ(row.time, 200);
  EXPECT_EQ(row.line, 2u);
  ASSERT_EQ(row.value_count, 2u);
  EXPECT_EQ(cpu->values()[row.value_begin].field, 0u);
  EXPECT_EQ(cpu->values()[row.value_begin].f64, 0.25);
  EXPECT_EQ(cpu->values()[row.value_begin + 1].field, 1u);
  EXPECT_EQ(cpu->values()[row.value_begin + 1].i64, 4);

  const TableBatch* mem = Table("mem");
  ASSERT_NE(mem, nullptr);
  ASSERT_EQ(mem->rows().size(), 1u);
  const storage::Row& m = mem->rows()[0];
  EXPECT_EQ(m.line, 3u);
  EXPECT_EQ(mem->values()[m.value_begin].u64, 7u);
  EXPECT_TRUE(mem->values()[m.value_begin + 1].b);
  EXPECT_EQ(mem->StringValue(mem->values()[m.value_begin + 2]), "fine");
  EXPECT_EQ(mem->fields()[2].type, ValueType::kString);
}

TEST_F(LineProtocolTest, TagOrderDoesNotMatterForTheSeries) {
  ParseResult r = Run(
      "cpu,b=2,a=1 v=1 1\n"
      "cpu,a=1,b=2 v=2 2\n"
      "cpu,b=2,a=1 v=3 3\n"
      "cpu v=4 4\n"
      "cpu v=5 5\n");
  EXPECT_EQ(r.lines_accepted, 5u);
  const TableBatch* cpu = Table("cpu");
  ASSERT_NE(cpu, nullptr);
  ASSERT_EQ(cpu->series().size(), 2u);
  EXPECT_EQ(cpu->series()[0], (storage::TagSet{{"a", "1"}, {"b", "2"}}));
  EXPECT_TRUE(cpu->series()[1].empty());
  ASSERT_EQ(cpu->rows().size(), 5u);
  EXPECT_EQ(cpu->rows()[0].series, 0u);
  EXPECT_EQ(cpu->rows()[1].series, 0u);
  EXPECT_EQ(cpu->rows()[2].series, 0u);
  EXPECT_EQ(cpu->rows()[3].series, 1u);
  EXPECT_EQ(cpu->rows()[4].series, 1u);
}

TEST_F(LineProtocolTest, EscapedNamesLandUnescaped) {
  ParseResult r = Run(R"(my\ table,ta\=g=v\,1 fi\ eld="q\"uote" 1)");
  ASSERT_EQ(r.lines_accepted, 1u) << r.errors[0].reason;
  const TableBatch* t = Table("my table");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->series()[0], (storage::TagSet{{"ta=g", "v,1"}}));
  EXPECT_EQ(t->fields()[0].name, "fi eld");
  EXPECT_EQ(t->StringValue(t->values()[0]), "q\"uote");
}

TEST_F(LineProtocolTest, CrlfCommentsBlankLinesAndLineNumbers) {
  ParseResult r = Run(
      "# header comment\r\n"
      "cpu v=1 10\r\n"
      "\r\n"
      "   \r\n"
      "cpu v=oops 20\r\n"
      "  cpu v=3 30  \r\n"
      "cpu v=4 40");  // no final newline
  EXPECT_EQ(r.lines_accepted, 3u);
  EXPECT_EQ(r.lines_rejected, 1u);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].line, 5u);
  EXPECT_EQ(r.errors[0].column, 7u);
  EXPECT_EQ(r.errors[0].text, "cpu v=oops 20");  // without the CR
  const TableBatch* cpu = Table("cpu");
  ASSERT_NE(cpu, nullptr);
  ASSERT_EQ(cpu->rows().size(), 3u);
  EXPECT_EQ(cpu->rows()[0].line, 2u);
  EXPECT_EQ(cpu->rows()[1].line, 6u);
  EXPECT_EQ(cpu->rows()[1].time, 30);
  EXPECT_EQ(cpu->rows()[2].line, 7u);
  EXPECT_EQ(cpu->rows()[2].time, 40);
}

TEST_F(LineProtocolTest, ErrorsCarryLineColumnTextAndReason) {
  ParseResult r = Run(
      "cpu v=1 1\n"
      "cpu v=12x 2\n"
      "cpu\n"
      "cpu,host v=1\n"
      "cpu v=1 1.5\n"
      ",x=y v=1\n"
      "cpu v=\"open\n"
      "cpu v=2 2\n");
  EXPECT_EQ(r.lines_accepted, 2u);
  EXPECT_EQ(r.lines_rejected, 6u);
  ASSERT_EQ(r.errors.size(), 6u);
  struct Want {
    uint32_t line, column;
    const char* text;
    const char* reason;
  };
  const Want want[] = {
      {2, 7, "cpu v=12x 2", "invalid field value: 12x is not a number"},
      {3, 4, "cpu", "missing field set"},
      {4, 5, "cpu,host v=1", "tag key \"host\" has no value (missing '=')"},
      {5, 9, "cpu v=1 1.5", "invalid timestamp: 1.5"},
      {6, 1, ",x=y v=1", "missing measurement"},
      {7, 7, "cpu v=\"open", "unterminated string value"},
  };
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(r.errors[i].line, want[i].line) << i;
    EXPECT_EQ(r.errors[i].column, want[i].column) << i;
    EXPECT_EQ(r.errors[i].text, want[i].text) << i;
    EXPECT_EQ(r.errors[i].reason, want[i].reason) << i;
  }
}

TEST_F(LineProtocolTest, MaxErrorsStopsCollectingButKeepsCounting) {
  options_.max_errors = 2;
  std::string body;
  for (int i = 0; i < 10; ++i) body += "bad\n";
  body += "good v=1\n";
  ParseResult r = Run(body);
  EXPECT_EQ(r.lines_rejected, 10u);
  EXPECT_EQ(r.lines_accepted, 1u);
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_EQ(r.errors[0].line, 1u);
  EXPECT_EQ(r.errors[1].line, 2u);
}

TEST_F(LineProtocolTest, ErrorTextIsTruncatedAtACharacterBoundary) {
  // 199 ASCII bytes then a 2-byte character straddling the 200-byte cut.
  std::string line = "m v=x" + std::string(194, 'a') + "\xC3\xA9" + std::string(50, 'b');
  LineError e = OnlyError(line);
  EXPECT_EQ(e.text.size(), 199u);
  EXPECT_EQ(e.text, line.substr(0, 199));
}

TEST_F(LineProtocolTest, DefaultTimeForLinesWithoutTimestamp) {
  options_.default_time_ns = 1686441600123456789;
  options_.precision = Precision::kSecond;  // applies to written timestamps only
  ParseResult r = Run("cpu v=1\ncpu v=2 5\n");
  EXPECT_EQ(r.lines_accepted, 2u);
  const TableBatch* cpu = Table("cpu");
  EXPECT_EQ(cpu->rows()[0].time, 1686441600123456789);
  EXPECT_EQ(cpu->rows()[1].time, 5'000'000'000);
}

TEST_F(LineProtocolTest, PrecisionScaling) {
  struct Case {
    Precision p;
    const char* ts;
    int64_t want;
  };
  for (const Case& c : {Case{Precision::kNanosecond, "1686441600000000000", 1686441600000000000},
                        Case{Precision::kMicrosecond, "1686441600000000", 1686441600000000000},
                        Case{Precision::kMillisecond, "1686441600000", 1686441600000000000},
                        Case{Precision::kSecond, "1686441600", 1686441600000000000},
                        Case{Precision::kMinute, "28107360", 1686441600000000000},
                        Case{Precision::kHour, "468456", 1686441600000000000},
                        Case{Precision::kSecond, "-1", -1'000'000'000}}) {
    WriteBatch batch;
    ParseOptions o;
    o.precision = c.p;
    ParseResult r = ParseLineProtocol(std::string("m v=1 ") + c.ts, o, &batch);
    ASSERT_EQ(r.lines_accepted, 1u) << c.ts;
    EXPECT_EQ(batch.tables()[0]->rows()[0].time, c.want) << c.ts;
  }
}

TEST_F(LineProtocolTest, PrecisionOverflowIsALineError) {
  options_.precision = Precision::kSecond;
  LineError e = OnlyError("m v=1 1\nm v=1 9223372037\n");
  EXPECT_EQ(e.line, 2u);
  EXPECT_EQ(e.column, 7u);
  EXPECT_EQ(e.reason, "timestamp 9223372037 out of range for precision s");
  options_.precision = Precision::kNanosecond;
  e = OnlyError("m v=1 9223372036854775807");  // reserved end of the range
  EXPECT_EQ(e.reason, "timestamp 9223372036854775807 out of range for precision ns");
  options_.precision = Precision::kHour;
  e = OnlyError("m v=1 -2562048");
  EXPECT_EQ(e.reason, "timestamp -2562048 out of range for precision h");
}

TEST_F(LineProtocolTest, TypeConflictWithinTheBatch) {
  ParseResult r = Run(
      "cpu usage_user=1.5 1\n"
      "cpu usage_user=2i 2\n"
      "cpu,host=x other=1i,usage_user=\"s\" 3\n"
      "cpu usage_user=3.5 4\n");
  EXPECT_EQ(r.lines_accepted, 2u);
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_EQ(r.errors[0].line, 2u);
  EXPECT_EQ(r.errors[0].column, 5u);
  EXPECT_EQ(r.errors[0].reason,
            "field usage_user: type int64 conflicts with float64 earlier in this request");
  EXPECT_EQ(r.errors[1].line, 3u);
  EXPECT_EQ(r.errors[1].column, 21u);
  EXPECT_EQ(r.errors[1].reason,
            "field usage_user: type string conflicts with float64 earlier in this request");
  // The rejected line 3 left nothing behind: no series host=x, no field "other".
  const TableBatch* cpu = Table("cpu");
  EXPECT_EQ(cpu->series().size(), 1u);
  EXPECT_EQ(cpu->fields().size(), 1u);
  EXPECT_EQ(cpu->rows().size(), 2u);
}

TEST_F(LineProtocolTest, SameFieldNameMayHaveDifferentTypesInDifferentTables) {
  ParseResult r = Run("a v=1i\nb v=1.5\nc v=\"x\"\n");
  EXPECT_EQ(r.lines_accepted, 3u);
}

TEST_F(LineProtocolTest, DuplicateKeys) {
  LineError e = OnlyError("cpu,host=a,dc=1,host=b v=1");
  EXPECT_EQ(e.column, 17u);
  EXPECT_EQ(e.reason, "duplicate tag key \"host\"");
  e = OnlyError("cpu a=1,b=2,a=3");
  EXPECT_EQ(e.column, 13u);
  EXPECT_EQ(e.reason, "duplicate field key \"a\"");
  // Also when the field is already known to the table (the layout fast path).
  batch_ = WriteBatch();
  ParseResult r = Run("cpu a=1,b=2\ncpu a=1,b=2,a=3\ncpu a=1,a=2\n");
  EXPECT_EQ(r.lines_accepted, 1u);
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_EQ(r.errors[0].reason, "duplicate field key \"a\"");
  EXPECT_EQ(r.errors[0].column, 13u);
  EXPECT_EQ(r.errors[1].reason, "duplicate field key \"a\"");
  EXPECT_EQ(r.errors[1].column, 9u);
}

TEST_F(LineProtocolTest, TimeIsAReservedKey) {
  LineError e = OnlyError("cpu,time=1 v=1");
  EXPECT_EQ(e.column, 5u);
  EXPECT_EQ(e.reason, "tag key \"time\" is reserved for the time column");
  e = OnlyError("cpu v=1,time=2i");
  EXPECT_EQ(e.column, 9u);
  EXPECT_EQ(e.reason, "field key \"time\" is reserved for the time column");
}

TEST_F(LineProtocolTest, TagAndFieldOfTheSameName) {
  LineError e = OnlyError("cpu,host=a host=1");
  EXPECT_EQ(e.column, 12u);
  EXPECT_EQ(e.reason, "field key \"host\" conflicts with a tag of the same name");
  batch_ = WriteBatch();
  ParseResult r = Run("cpu,host=a v=1\ncpu host=1\ncpu w=1\ncpu,w=x v=2\n");
  EXPECT_EQ(r.lines_accepted, 2u);
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_EQ(r.errors[0].line, 2u);
  EXPECT_EQ(r.errors[0].reason, "field key \"host\" conflicts with a tag of the same name");
  EXPECT_EQ(r.errors[1].line, 4u);
  EXPECT_EQ(r.errors[1].column, 5u);
  EXPECT_EQ(r.errors[1].reason,
            "tag key \"w\" conflicts with a field of the same name in \"cpu\" earlier in this request");
}

TEST_F(LineProtocolTest, InvalidUtf8IsRejected) {
  EXPECT_EQ(OnlyError("cp\xFFu v=1").reason, "measurement is not valid UTF-8");
  batch_ = WriteBatch();
  EXPECT_EQ(OnlyError("cpu,h=\xC3 v=1").reason, "tag is not valid UTF-8");
  batch_ = WriteBatch();
  EXPECT_EQ(OnlyError("cpu v\xC0\xAF=1").reason, "field key is not valid UTF-8");
  batch_ = WriteBatch();
  LineError e = OnlyError("cpu v=\"\xED\xA0\x80\"");
  EXPECT_EQ(e.reason, "string value of field \"v\" is not valid UTF-8");
  EXPECT_EQ(e.column, 5u);
  batch_ = WriteBatch();
  ParseResult r = Run("caf\xC3\xA9,lieu=\xE2\x82\xAC v=\"\xF0\x9F\x98\x80\"");
  EXPECT_EQ(r.lines_accepted, 1u);
}

TEST_F(LineProtocolTest, RejectedFirstLineCreatesNoTable) {
  ParseResult r = Run("cpu,host=a v=1,v=2\n");
  EXPECT_EQ(r.lines_rejected, 1u);
  EXPECT_TRUE(batch_.tables().empty());
}

TEST_F(LineProtocolTest, AppendsToANonEmptyBatchWithoutDuplicatingSeriesOrFields) {
  ASSERT_EQ(Run("cpu,host=a,dc=1 v=1,n=1i 1\n").lines_accepted, 1u);
  ParseResult r = Run(
      "cpu,dc=1,host=a v=2,n=2i 2\n"   // same series, other tag order
      "cpu,host=a,dc=1 v=3i 3\n"       // conflicts with the float from the first call
      "cpu,host=b,dc=1 n=4i,s=\"x\" 4\n");
  EXPECT_EQ(r.lines_accepted, 2u);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].reason, "field v: type int64 conflicts with float64 earlier in this request");
  ASSERT_EQ(batch_.tables().size(), 1u);
  const TableBatch* cpu = Table("cpu");
  EXPECT_EQ(cpu->series().size(), 2u);
  EXPECT_EQ(cpu->fields().size(), 3u);
  ASSERT_EQ(cpu->rows().size(), 3u);
  EXPECT_EQ(cpu->rows()[1].series, 0u);
  EXPECT_EQ(cpu->rows()[2].series, 1u);
}

TEST_F(LineProtocolTest, FieldOrderMayVaryBetweenLines) {
  ParseResult r = Run(
      "m a=1i,b=2i,c=3i\n"
      "m c=30i,a=10i\n"
      "m b=200i,d=4.5,a=100i,c=300i\n"
      "m a=1000i,b=2000i,c=3000i\n");
  ASSERT_EQ(r.lines_accepted, 4u);
  const TableBatch* m = Table("m");
  ASSERT_EQ(m->fields().size(), 4u);
  auto value_of = [&](size_t row, std::string_view field) -> int64_t {
    const storage::Row& rw = m->rows()[row];
    for (uint32_t i = 0; i < rw.value_count; ++i) {
      const storage::FieldValue& v = m->values()[rw.value_begin + i];
      if (m->fields()[v.field].name == field) return v.i64;
    }
    return -1;
  };
  EXPECT_EQ(value_of(1, "c"), 30);
  EXPECT_EQ(value_of(1, "a"), 10);
  EXPECT_EQ(value_of(1, "b"), -1);
  EXPECT_EQ(value_of(2, "b"), 200);
  EXPECT_EQ(value_of(2, "c"), 300);
  EXPECT_EQ(value_of(3, "a"), 1000);
  EXPECT_EQ(value_of(3, "c"), 3000);
}

}  // namespace
}  // namespace gnomon::server

namespace gnomon::server {
namespace {

// Each per-line limit rejects only the line past it, naming the limit; the lines at the limit and
// the other lines of the body are kept.
class LineLimitsTest : public LineProtocolTest {
 protected:
  // A line of `tags` tags and `fields` fields.
  static std::string Line(int tags, int fields, int64_t time) {
    std::string line = "m";
    for (int i = 0; i < tags; ++i) line += ",t" + std::to_string(i) + "=v";
    for (int i = 0; i < fields; ++i) line += (i == 0 ? " f" : ",f") + std::to_string(i) + "=1i";
    return line + " " + std::to_string(time) + "\n";
  }
  void ExpectOnlyLineTwoRejected(const std::string& body, std::string_view limit) {
    ParseResult r = Run(body);
    EXPECT_EQ(r.lines_accepted, 2u) << limit;
    ASSERT_EQ(r.errors.size(), 1u) << limit;
    EXPECT_EQ(r.errors[0].line, 2u);
    EXPECT_NE(r.errors[0].reason.find(limit), std::string::npos) << r.errors[0].reason;
  }
};

TEST_F(LineLimitsTest, TagsPerLine) {
  options_.limits.max_tags = 3;
  ExpectOnlyLineTwoRejected(Line(3, 1, 1) + Line(4, 1, 2) + Line(0, 1, 3), "max-tags-per-line");
}

TEST_F(LineLimitsTest, FieldsPerLine) {
  options_.limits.max_fields = 3;
  ExpectOnlyLineTwoRejected(Line(1, 3, 1) + Line(1, 4, 2) + Line(1, 1, 3), "max-fields-per-line");
}

TEST_F(LineLimitsTest, LineLength) {
  options_.limits.max_line_bytes = 40;
  const std::string at_limit = "m f=\"" + std::string(40 - 8, 'x') + "\" 1\n";  // 40 bytes before '\n'
  ASSERT_EQ(at_limit.size(), 41u);
  ExpectOnlyLineTwoRejected(at_limit + "m f=\"" + std::string(33, 'x') + "\" 2\n" + "m f=\"y\" 3\n",
                            "max-line-bytes");
}

TEST_F(LineLimitsTest, TagValueAndStringFieldLength) {
  options_.limits.max_tag_value_bytes = 4;
  ExpectOnlyLineTwoRejected("m,t=abcd f=1i 1\nm,t=abcde f=1i 2\nm,t=a f=1i 3\n", "max-tag-value-bytes");
  batch_ = storage::WriteBatch("db");
  options_.limits.max_string_field_bytes = 4;
  ExpectOnlyLineTwoRejected("s f=\"abcd\" 1\ns f=\"abcde\" 2\ns f=\"\" 3\n", "max-string-field-bytes");
}

TEST_F(LineLimitsTest, NamesTheEngineWouldRefuseAreLineErrors) {
  const std::string long_key(256, 'k');
  ExpectOnlyLineTwoRejected("m,t=a f=1i 1\nm," + long_key + "=a f=1i 2\nm,t=b f=1i 3\n", "tag key");
  batch_ = storage::WriteBatch("db");
  ExpectOnlyLineTwoRejected("m f=1i 1\nm " + long_key + "=1i 2\nm f=2i 3\n", "field key");
  batch_ = storage::WriteBatch("db");
  ExpectOnlyLineTwoRejected("m f=1i 1\n" + std::string(201, 'm') + " f=1i 2\nm f=2i 3\n", "measurement");
}

TEST_F(LineLimitsTest, ZeroMeansNoLimit) {
  options_.limits = LineLimits{0, 0, 0, 0, 0};
  ParseResult r = Run(Line(300, 1100, 1) + "m,t=" + std::string(70000, 'v') + " s=\"" + std::string(70000, 'x') +
                      "\" 2\n");
  EXPECT_EQ(r.lines_accepted, 2u);
  EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors[0].reason);
}

TEST_F(LineLimitsTest, DefaultsAreInfluxDbsBounds) {
  const LineLimits defaults;
  EXPECT_EQ(defaults.max_line_bytes, 1u << 20);
  EXPECT_EQ(defaults.max_string_field_bytes, 64u << 10);
  ParseResult r = Run("m s=\"" + std::string(64 << 10, 'x') + "\" 1\nm s=\"" + std::string((64 << 10) + 1, 'x') +
                      "\" 2\n");
  EXPECT_EQ(r.lines_accepted, 1u);
  EXPECT_EQ(r.lines_rejected, 1u);
}

}  // namespace
}  // namespace gnomon::server

// The tokenizer alone: every grammar rule and every syntax error, with its byte offset.
#include "src/server/ingest/line_protocol_parser.h"

#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <random>
#include <system_error>
#include <string>
#include <vector>

namespace gnomon::server {
namespace {

class LineParserTest : public ::testing::Test {
 protected:
  // Parses `line` and expects success.
  const ParsedLine& Ok(std::string_view line) {
    LineSyntaxError e;
    EXPECT_TRUE(parser_.Parse(line, &parsed_, &e)) << line << " -> " << e.reason;
    return parsed_;
  }
  // Parses `line` and expects a syntax error; returns it.
  LineSyntaxError Bad(std::string_view line) {
    LineSyntaxError e;
    EXPECT_FALSE(parser_.Parse(line, &parsed_, &e)) << line;
    return e;
  }
  // Parses the series key of a line that tokenises.
  bool Key(std::string_view line, std::string_view* measurement, LineSyntaxError* e) {
    LineSyntaxError pe;
    EXPECT_TRUE(parser_.Parse(line, &parsed_, &pe)) << line << " -> " << pe.reason;
    return parser_.ParseSeriesKey(parsed_.series_key, parsed_.series_key_offset, measurement,
                                  &tags_, e);
  }

  LineParser parser_;
  ParsedLine parsed_;
  std::vector<ParsedTag> tags_;
};

TEST_F(LineParserTest, MinimalLine) {
  const ParsedLine& l = Ok("cpu value=1");
  EXPECT_EQ(l.series_key, "cpu");
  ASSERT_EQ(l.fields.size(), 1u);
  EXPECT_EQ(l.fields[0].key, "value");
  EXPECT_EQ(l.fields[0].type, ValueType::kFloat64);
  EXPECT_EQ(l.fields[0].f64, 1.0);
  EXPECT_EQ(l.fields[0].offset, 4u);
  EXPECT_FALSE(l.has_timestamp);
}

TEST_F(LineParserTest, FullLine) {
  const ParsedLine& l = Ok("cpu,host=a,region=eu usage=0.5,count=3i,n=7u,up=t,msg=\"hi\" 1686441600000000000");
  EXPECT_EQ(l.series_key, "cpu,host=a,region=eu");
  ASSERT_EQ(l.fields.size(), 5u);
  EXPECT_EQ(l.fields[0].type, ValueType::kFloat64);
  EXPECT_EQ(l.fields[0].f64, 0.5);
  EXPECT_EQ(l.fields[1].type, ValueType::kInt64);
  EXPECT_EQ(l.fields[1].i64, 3);
  EXPECT_EQ(l.fields[2].type, ValueType::kUInt64);
  EXPECT_EQ(l.fields[2].u64, 7u);
  EXPECT_EQ(l.fields[3].type, ValueType::kBool);
  EXPECT_TRUE(l.fields[3].b);
  EXPECT_EQ(l.fields[4].type, ValueType::kString);
  EXPECT_EQ(l.fields[4].str, "hi");
  ASSERT_TRUE(l.has_timestamp);
  EXPECT_EQ(l.timestamp, 1686441600000000000);
  EXPECT_EQ(l.timestamp_offset, 59u);

  std::string_view m;
  LineSyntaxError e;
  ASSERT_TRUE(parser_.ParseSeriesKey(l.series_key, l.series_key_offset, &m, &tags_, &e));
  EXPECT_EQ(m, "cpu");
  ASSERT_EQ(tags_.size(), 2u);
  EXPECT_EQ(tags_[0].key, "host");
  EXPECT_EQ(tags_[0].value, "a");
  EXPECT_EQ(tags_[0].offset, 4u);
  EXPECT_EQ(tags_[1].key, "region");
  EXPECT_EQ(tags_[1].value, "eu");
  EXPECT_EQ(tags_[1].offset, 11u);
}

TEST_F(LineParserTest, FloatSpellings) {
  struct Case {
    const char* text;
    double want;
  };
  for (const Case& c : {Case{"1", 1}, Case{"-1", -1}, Case{"1.5", 1.5}, Case{"-1.5e10", -1.5e10},
                        Case{"1E5", 1e5}, Case{"1e+5", 1e5}, Case{"2.5e-3", 2.5e-3},
                        Case{".5", 0.5}, Case{"-.5", -0.5}, Case{"1.", 1.0}, Case{"007", 7},
                        Case{"9007199254740993", 9007199254740993.0},
                        Case{"123456789012345678901234567890", 1.2345678901234568e29},
                        Case{"1.7976931348623157e308", 1.7976931348623157e308}}) {
    const ParsedLine& l = Ok(std::string("m v=") + c.text);
    ASSERT_EQ(l.fields[0].type, ValueType::kFloat64) << c.text;
    EXPECT_EQ(l.fields[0].f64, c.want) << c.text;
  }
  const ParsedLine& neg_zero = Ok("m v=-0");
  EXPECT_TRUE(std::signbit(neg_zero.fields[0].f64));
}

TEST_F(LineParserTest, IntegerAndUnsignedRanges) {
  EXPECT_EQ(Ok("m v=9223372036854775807i").fields[0].i64, INT64_MAX);
  EXPECT_EQ(Ok("m v=-9223372036854775808i").fields[0].i64, INT64_MIN);
  EXPECT_EQ(Ok("m v=-0i").fields[0].i64, 0);
  EXPECT_EQ(Ok("m v=18446744073709551615u").fields[0].u64, UINT64_MAX);
  EXPECT_EQ(Ok("m v=0u").fields[0].u64, 0u);

  LineSyntaxError e = Bad("m v=9223372036854775808i");
  EXPECT_EQ(e.offset, 4u);
  EXPECT_EQ(e.reason, "integer out of range: 9223372036854775808i");
  e = Bad("m v=-9223372036854775809i");
  EXPECT_EQ(e.reason, "integer out of range: -9223372036854775809i");
  e = Bad("m v=99999999999999999999999i");
  EXPECT_EQ(e.reason, "integer out of range: 99999999999999999999999i");
  e = Bad("m v=18446744073709551616u");
  EXPECT_EQ(e.reason, "unsigned integer out of range: 18446744073709551616u");
  e = Bad("m v=-1u");
  EXPECT_EQ(e.reason, "unsigned integer cannot be negative: -1u");
  EXPECT_EQ(e.offset, 4u);
}

TEST_F(LineParserTest, Booleans) {
  for (const char* t : {"t", "T", "true", "True", "TRUE"}) {
    const ParsedLine& l = Ok(std::string("m v=") + t);
    EXPECT_EQ(l.fields[0].type, ValueType::kBool) << t;
    EXPECT_TRUE(l.fields[0].b) << t;
  }
  for (const char* f : {"f", "F", "false", "False", "FALSE"}) {
    const ParsedLine& l = Ok(std::string("m v=") + f);
    EXPECT_EQ(l.fields[0].type, ValueType::kBool) << f;
    EXPECT_FALSE(l.fields[0].b) << f;
  }
  for (const char* bad : {"tRUE", "yes", "truee", "fals", "FaLsE"}) {
    LineSyntaxError e = Bad(std::string("m v=") + bad);
    EXPECT_EQ(e.offset, 4u) << bad;
    EXPECT_EQ(e.reason, std::string("invalid field value: ") + bad +
                            " is not a number, boolean or double-quoted string");
  }
}

// Plain decimals take a fast path; it must give exactly the double std::from_chars gives.
TEST_F(LineParserTest, DecimalsMatchFromChars) {
  std::mt19937_64 rng(42);
  std::vector<std::string> texts = {"0.1", "-0.0", "0.0", "9007199254740993.0", "9007199254740992.5",
                                    "0.000000000000000001", "123456789.123456789",
                                    "4503599627370497.5", "52.31854", "1.7976931348623157",
                                    "-.000001", "00000000000000001.5"};
  for (int i = 0; i < 20000; ++i) {
    std::string t = (rng() & 1) != 0 ? "-" : "";
    const int int_digits = static_cast<int>(rng() % 11);
    const int frac_digits = 1 + static_cast<int>(rng() % 18);
    for (int d = 0; d < int_digits; ++d) t += static_cast<char>('0' + rng() % 10);
    t += '.';
    for (int d = 0; d < frac_digits; ++d) t += static_cast<char>('0' + rng() % 10);
    texts.push_back(t);
  }
  for (const std::string& t : texts) {
    double want = 0;
    ASSERT_EQ(std::from_chars(t.data(), t.data() + t.size(), want).ec, std::errc()) << t;
    for (const std::string& line : {"m v=" + t, "m v=" + t + ",w=1i", "m v=" + t + " 5"}) {
      const ParsedLine& l = Ok(line);
      ASSERT_EQ(l.fields[0].type, ValueType::kFloat64) << line;
      EXPECT_EQ(std::bit_cast<uint64_t>(l.fields[0].f64), std::bit_cast<uint64_t>(want)) << line;
    }
  }
}

// Digit runs of every length, ending at the end of the line or before more text (the SWAR digit
// parser takes different paths for each).
TEST_F(LineParserTest, IntegersOfEveryLength) {
  std::mt19937_64 rng(7);
  for (int len = 1; len <= 20; ++len) {
    for (int rep = 0; rep < 50; ++rep) {
      std::string digits;
      for (int d = 0; d < len; ++d) digits += static_cast<char>('0' + rng() % 10);
      uint64_t want = 0;
      const bool fits = std::from_chars(digits.data(), digits.data() + digits.size(), want).ec ==
                        std::errc();
      for (const char* tail : {"", ",w=1i", " 1", ",w=\"0123456789abcdef\""}) {
        const std::string line = "m v=" + digits + "u" + tail;
        if (!fits) {
          EXPECT_EQ(Bad(line).reason, "unsigned integer out of range: " + digits + "u") << line;
          continue;
        }
        const ParsedLine& l = Ok(line);
        ASSERT_EQ(l.fields[0].type, ValueType::kUInt64) << line;
        EXPECT_EQ(l.fields[0].u64, want) << line;
      }
      if (len <= 18) {
        const ParsedLine& l = Ok("m v=1i " + digits);
        EXPECT_EQ(l.timestamp, static_cast<int64_t>(want)) << digits;
      }
    }
  }
}

TEST_F(LineParserTest, InvalidNumbers) {
  struct Case {
    const char* line;
    uint32_t offset;
    const char* reason;
  };
  for (const Case& c : {
           Case{"m v=12x", 4, "invalid field value: 12x is not a number"},
           Case{"m v=12x,w=1", 4, "invalid field value: 12x is not a number"},
           Case{"m v=1.5i", 4, "invalid field value: 1.5i is not a number"},
           Case{"m v=12ii", 4, "invalid field value: 12ii is not a number"},
           Case{"m v=i", 4, "invalid field value: i is not a number, boolean or double-quoted string"},
           Case{"m v=-", 4, "invalid field value: - is not a number"},
           Case{"m v=-i", 4, "invalid field value: -i is not a number"},
           Case{"m v=.", 4, "invalid field value: . is not a number"},
           Case{"m v=1e", 4, "invalid field value: 1e is not a number"},
           Case{"m v=1.2.3", 4, "invalid field value: 1.2.3 is not a number"},
           Case{"m v=0x10", 4, "invalid field value: 0x10 is not a number"},
           Case{"m v=-inf", 4, "invalid field value: -inf is not a number"},
           Case{"m v=+1", 4, "invalid field value: +1 is not a number, boolean or double-quoted string"},
           Case{"m v=NaN", 4, "invalid field value: NaN is not a number, boolean or double-quoted string"},
           Case{"m v=abc", 4, "invalid field value: abc is not a number, boolean or double-quoted string"},
           Case{"m v=1e400", 4, "float out of range: 1e400"},
       }) {
    LineSyntaxError e = Bad(c.line);
    EXPECT_EQ(e.offset, c.offset) << c.line;
    EXPECT_EQ(e.reason, c.reason) << c.line;
  }
}

TEST_F(LineParserTest, StringValues) {
  const ParsedLine& l = Ok(R"(m s="a b,c=d",e="",q="say \"hi\"",b="back\\slash",lit="a\b\n")");
  ASSERT_EQ(l.fields.size(), 5u);
  EXPECT_EQ(l.fields[0].str, "a b,c=d");
  EXPECT_EQ(l.fields[1].str, "");
  EXPECT_EQ(l.fields[2].str, "say \"hi\"");
  EXPECT_EQ(l.fields[3].str, "back\\slash");
  EXPECT_EQ(l.fields[4].str, "a\\b\\n");  // backslashes before other bytes stay literal
  EXPECT_EQ(Ok(R"(m s="ends with \\" 5)").fields[0].str, "ends with \\");
  EXPECT_EQ(Ok(R"(m s="\\\"")").fields[0].str, "\\\"");

  LineSyntaxError e = Bad(R"(m s="open)");
  EXPECT_EQ(e.offset, 4u);
  EXPECT_EQ(e.reason, "unterminated string value");
  e = Bad(R"(m s="escaped end\")");
  EXPECT_EQ(e.reason, "unterminated string value");
  e = Bad(R"(m s="a"b)");
  EXPECT_EQ(e.offset, 7u);
  EXPECT_EQ(e.reason, "unexpected character after string value of field \"s\"");
}

TEST_F(LineParserTest, EscapesInNames) {
  const ParsedLine& l = Ok(R"(my\ meas\,ure,ta\ g\=k\,=v\ a\=l\,ue fi\ e\=l\,d=1i)");
  EXPECT_EQ(l.series_key, R"(my\ meas\,ure,ta\ g\=k\,=v\ a\=l\,ue)");
  ASSERT_EQ(l.fields.size(), 1u);
  EXPECT_EQ(l.fields[0].key, "fi e=l,d");
  std::string_view m;
  LineSyntaxError e;
  ASSERT_TRUE(parser_.ParseSeriesKey(l.series_key, l.series_key_offset, &m, &tags_, &e));
  EXPECT_EQ(m, "my meas,ure");
  ASSERT_EQ(tags_.size(), 1u);
  EXPECT_EQ(tags_[0].key, "ta g=k,");
  EXPECT_EQ(tags_[0].value, "v a=l,ue");
}

TEST_F(LineParserTest, BackslashesElsewhereAreLiteral) {
  std::string_view m;
  LineSyntaxError e;
  // "\=" is not an escape in a measurement; "\x" nowhere; "\\" is an escaped backslash.
  ASSERT_TRUE(Key(R"(a\=b\x\\,t\x=v\\ f\x=1)", &m, &e)) << e.reason;
  EXPECT_EQ(m, R"(a\=b\x\)");
  ASSERT_EQ(tags_.size(), 1u);
  EXPECT_EQ(tags_[0].key, R"(t\x)");
  EXPECT_EQ(tags_[0].value, R"(v\)");
  EXPECT_EQ(parsed_.fields[0].key, R"(f\x)");
  // An escaped backslash before a space does not escape the space.
  ASSERT_TRUE(Key(R"(m,t=a\\ v=1)", &m, &e));
  EXPECT_EQ(tags_[0].value, "a\\");
}

TEST_F(LineParserTest, UnescapeFunctionsDirectly) {
  char buf[64];
  auto um = [&](std::string_view s) { return std::string(buf, UnescapeMeasurement(s, buf)); };
  auto un = [&](std::string_view s) { return std::string(buf, UnescapeName(s, buf)); };
  auto us = [&](std::string_view s) { return std::string(buf, UnescapeStringValue(s, buf)); };
  EXPECT_EQ(um(R"(a\,b\ c\=d\\e\)"), R"(a,b c\=d\e\)");
  EXPECT_EQ(un(R"(a\,b\ c\=d\\e\)"), R"(a,b c=d\e\)");
  EXPECT_EQ(us(R"(a\"b\\c\,d\)"), R"(a"b\c\,d\)");
}

TEST_F(LineParserTest, TimestampForms) {
  EXPECT_EQ(Ok("m v=1 -1686441600").timestamp, -1686441600);
  EXPECT_EQ(Ok("m v=1 0").timestamp, 0);
  EXPECT_EQ(Ok("m v=1 9223372036854775807").timestamp, INT64_MAX);
  EXPECT_EQ(Ok("m v=1 -9223372036854775808").timestamp, INT64_MIN);
  EXPECT_EQ(Ok("m v=1 00000000000000000001").timestamp, 1);  // 20 digits, leading zeros
  const ParsedLine& l = Ok("  m,t=x   v=1    42  \t ");
  EXPECT_TRUE(l.has_timestamp);
  EXPECT_EQ(l.timestamp, 42);
  EXPECT_EQ(l.timestamp_offset, 17u);
  EXPECT_EQ(l.series_key, "m,t=x");
  EXPECT_EQ(l.series_key_offset, 2u);
  EXPECT_FALSE(Ok("m v=1 \t").has_timestamp);

  struct Case {
    const char* line;
    uint32_t offset;
    const char* reason;
  };
  for (const Case& c : {Case{"m v=1 12a", 6, "invalid timestamp: 12a"},
                        Case{"m v=1 1.5", 6, "invalid timestamp: 1.5"},
                        Case{"m v=1 -", 6, "invalid timestamp: -"},
                        Case{"m v=1 x", 6, "invalid timestamp: x"},
                        Case{"m v=1 w=2", 6, "invalid timestamp: w=2"},
                        Case{"m v=1 9223372036854775808", 6,
                             "timestamp out of range: 9223372036854775808"},
                        Case{"m v=1 -9223372036854775809", 6,
                             "timestamp out of range: -9223372036854775809"},
                        Case{"m v=1 123456789012345678901234", 6,
                             "timestamp out of range: 123456789012345678901234"},
                        Case{"m v=1 12 34", 9, "unexpected text after timestamp"}}) {
    LineSyntaxError e = Bad(c.line);
    EXPECT_EQ(e.offset, c.offset) << c.line;
    EXPECT_EQ(e.reason, c.reason) << c.line;
  }
}

TEST_F(LineParserTest, StructuralErrors) {
  struct Case {
    const char* line;
    uint32_t offset;
    const char* reason;
  };
  for (const Case& c : {
           Case{"cpu", 3, "missing field set"},
           Case{"cpu,host=a   ", 10, "missing field set"},
           Case{"cpu 1686441600", 4, "missing field set"},
           Case{"cpu,host=a 1686441600", 11, "missing field set"},
           Case{"cpu value", 4, "missing field set"},
           Case{"cpu\\ v=1", 8, "missing field set"},  // the space is escaped: all measurement
           Case{"cpu =1", 4, "missing field key"},
           Case{"cpu a=1,,b=2", 8, "missing field key"},
           Case{"cpu a=1,", 8, "missing field key"},
           Case{"cpu a=1, 5", 8, "missing field key"},
           Case{"cpu a=1,b", 9, "missing '=' after field key \"b\""},
           Case{"cpu a=1,b c=1", 9, "missing '=' after field key \"b\""},
           Case{"cpu a=", 6, "missing value for field \"a\""},
           Case{"cpu a=,b=1", 6, "missing value for field \"a\""},
           Case{"cpu a= 5", 6, "missing value for field \"a\""},
       }) {
    LineSyntaxError e = Bad(c.line);
    EXPECT_EQ(e.offset, c.offset) << c.line;
    EXPECT_EQ(e.reason, c.reason) << c.line;
  }
}

TEST_F(LineParserTest, SeriesKeyErrors) {
  struct Case {
    const char* line;
    uint32_t offset;
    const char* reason;
  };
  for (const Case& c : {
           Case{",host=a v=1", 0, "missing measurement"},
           Case{"cpu,=a v=1", 4, "missing tag key"},
           Case{"cpu, v=1", 4, "missing tag key"},
           Case{"cpu,host=a, v=1", 11, "missing tag key"},
           Case{"cpu,host=a,,x=y v=1", 11, "missing tag key"},
           Case{"cpu,host v=1", 4, "tag key \"host\" has no value (missing '=')"},
           Case{"cpu,host,x=y v=1", 4, "tag key \"host\" has no value (missing '=')"},
           Case{"cpu,host= v=1", 9, "missing value for tag \"host\""},
           Case{"cpu,host=,x=y v=1", 9, "missing value for tag \"host\""},
           Case{"cpu,host=a=b v=1", 10, "unescaped '=' in value of tag \"host\""},
           Case{"  cpu,x=1,host= v=1", 15, "missing value for tag \"host\""},
       }) {
    std::string_view m;
    LineSyntaxError e;
    EXPECT_FALSE(Key(c.line, &m, &e)) << c.line;
    EXPECT_EQ(e.offset, c.offset) << c.line;
    EXPECT_EQ(e.reason, c.reason) << c.line;
  }
}

TEST_F(LineParserTest, LongErrorTokensAreCut) {
  std::string line = "m v=" + std::string(100, '9') + "x";
  LineSyntaxError e = Bad(line);
  EXPECT_EQ(e.reason, "invalid field value: " + std::string(64, '9') + "... is not a number");
}

TEST_F(LineParserTest, ViewsSurviveUntilNextParse) {
  // Many escaped tokens in one line all land in scratch without invalidating earlier views.
  std::string line = "m ";
  for (int i = 0; i < 50; ++i) {
    if (i) line += ',';
    line += "k\\ " + std::to_string(i) + "=\"v\\\"" + std::to_string(i) + "\"";
  }
  const ParsedLine& l = Ok(line);
  ASSERT_EQ(l.fields.size(), 50u);
  for (int i = 0; i < 50; ++i) {
    EXPECT_EQ(l.fields[i].key, "k " + std::to_string(i));
    EXPECT_EQ(l.fields[i].str, "v\"" + std::to_string(i));
  }
}

}  // namespace
}  // namespace gnomon::server

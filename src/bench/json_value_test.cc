#include "src/bench/json_value.h"

#include <gtest/gtest.h>

#include "src/bench/json_writer.h"

namespace gnomon::bench {
namespace {

TEST(JsonValueTest, ParsesNestedDocument) {
  auto doc = JsonValue::Parse(
      R"({"results":[{"statement_id":0,"series":[{"name":"databases","columns":["name"],)"
      R"("values":[["_internal"],["benchmark"]]}]}], "n": -1.5e3, "t": true, "z": null})");
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  const JsonValue* results = doc->Find("results");
  ASSERT_NE(results, nullptr);
  ASSERT_TRUE(results->is_array());
  const JsonValue& values = *results->array()[0].Find("series")->array()[0].Find("values");
  ASSERT_EQ(values.array().size(), 2u);
  EXPECT_EQ(values.array()[1].array()[0].string(), "benchmark");
  EXPECT_DOUBLE_EQ(doc->NumberOr("n", 0), -1500);
  EXPECT_TRUE(doc->Find("t")->bool_value());
  EXPECT_TRUE(doc->Find("z")->is_null());
  EXPECT_EQ(doc->StringOr("missing", "fallback"), "fallback");
}

TEST(JsonValueTest, DecodesEscapes) {
  auto doc = JsonValue::Parse(R"(["a\"b\\c\/\n\t", "\u00e9\ud83d\ude00"])");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(doc->array()[0].string(), "a\"b\\c/\n\t");
  EXPECT_EQ(doc->array()[1].string(), "\xc3\xa9\xf0\x9f\x98\x80");
}

TEST(JsonValueTest, RejectsMalformedInput) {
  for (const char* bad : {"", "{", "[1,]", "{\"a\" 1}", "tru", "\"abc", "[1] x", "{\"a\":01x}",
                          "\"\\q\"", "[\"\x01\"]"}) {
    EXPECT_FALSE(JsonValue::Parse(bad).ok()) << bad;
  }
  std::string deep(1000, '[');
  EXPECT_FALSE(JsonValue::Parse(deep).ok());
}

TEST(JsonValueTest, ReadsWhatTheWriterWrites) {
  JsonWriter w;
  w.BeginObject().Key("s").String("q\"\\\n\x01").Key("i").Int(-7).Key("u").Uint(18446744073709551615u);
  w.Key("d").Double(0.1).Key("nan").Double(0.0 / 0.0).Key("a").BeginArray().Int(1).Bool(false).Null();
  w.BeginObject().EndObject().EndArray().EndObject();
  auto doc = JsonValue::Parse(w.str());
  ASSERT_TRUE(doc.ok()) << w.str();
  EXPECT_EQ(doc->StringOr("s", ""), "q\"\\\n\x01");
  EXPECT_EQ(doc->NumberOr("i", 0), -7);
  EXPECT_EQ(doc->NumberOr("d", 0), 0.1);
  EXPECT_TRUE(doc->Find("nan")->is_null());
  EXPECT_EQ(doc->Find("a")->array().size(), 4u);
}

}  // namespace
}  // namespace gnomon::bench

#include "src/base/json_value.h"

#include <gtest/gtest.h>

namespace gnomon {
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

TEST(JsonValueTest, KeepsANumbersTextSoIntegersStayIntegers) {
  auto doc = JsonValue::Parse(R"([4, -3, 4.0, 1e3, 9007199254740993])");
  ASSERT_TRUE(doc.ok());
  const auto& a = doc->array();
  EXPECT_EQ(a[0].number_text(), "4");
  EXPECT_EQ(a[1].number_text(), "-3");
  EXPECT_EQ(a[2].number_text(), "4.0");
  EXPECT_EQ(a[3].number_text(), "1e3");
  EXPECT_DOUBLE_EQ(a[3].number(), 1000);
  EXPECT_EQ(a[4].number_text(), "9007199254740993");  // past a double's exact integers
}

}  // namespace
}  // namespace gnomon

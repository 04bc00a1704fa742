#include "src/server/http/json_writer.h"

#include <gtest/gtest.h>

namespace gnomon::server::http {
namespace {

TEST(JsonWriterTest, NestsWithCommas) {
  JsonWriter w;
  w.BeginObject()
      .Key("results").BeginArray()
      .BeginObject().Key("statement_id").Int(0).EndObject()
      .BeginObject().Key("statement_id").Int(1).Key("ok").Bool(true).Key("n").Null().EndObject()
      .EndArray()
      .Key("u").UInt(18446744073709551615ull)
      .Key("e").BeginArray().EndArray()
      .EndObject();
  EXPECT_EQ(w.str(),
            R"({"results":[{"statement_id":0},{"statement_id":1,"ok":true,"n":null}],)"
            R"("u":18446744073709551615,"e":[]})");
}

TEST(JsonWriterTest, EscapesStrings) {
  std::string out;
  AppendJsonString(&out, "a\"b\\c\nd\te\x01\x1f");
  EXPECT_EQ(out, R"("a\"b\\c\nd\te\u0001\u001f")");
}

TEST(JsonWriterTest, KeepsValidUtf8AndReplacesInvalid) {
  std::string out;
  AppendJsonString(&out, "\xC2\xB5s \xE2\x82\xAC \xF0\x9F\x98\x80");
  EXPECT_EQ(out, "\"\xC2\xB5s \xE2\x82\xAC \xF0\x9F\x98\x80\"");
  out.clear();
  AppendJsonString(&out, "a\xFF" "b\xC2");  // stray byte, truncated sequence
  EXPECT_EQ(out, R"("a\ufffdb\ufffd")");
  out.clear();
  AppendJsonString(&out, "\xED\xA0\x80");  // UTF-16 surrogate encoded in UTF-8: invalid
  EXPECT_EQ(out, R"("\ufffd\ufffd\ufffd")");
}

}  // namespace
}  // namespace gnomon::server::http

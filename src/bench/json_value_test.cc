// The benchmark's JSON writer and the base JSON reader agree.
#include <gtest/gtest.h>

#include "src/base/json_value.h"
#include "src/bench/json_writer.h"

namespace gnomon::bench {
namespace {

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

#include "src/server/http/query_params.h"

#include <gtest/gtest.h>

namespace gnomon::server::http {
namespace {

TEST(UrlDecodeTest, DecodesEscapesAndPlus) {
  EXPECT_EQ(UrlDecode("a%20b+c"), "a b c");
  EXPECT_EQ(UrlDecode("a+b", /*plus_is_space=*/false), "a+b");
  EXPECT_EQ(UrlDecode("%C2%B5s"), "\xC2\xB5s");
  EXPECT_EQ(UrlDecode("%3b%3B"), ";;");
}

TEST(UrlDecodeTest, KeepsMalformedEscapesLiterally) {
  EXPECT_EQ(UrlDecode("100%"), "100%");
  EXPECT_EQ(UrlDecode("%zz"), "%zz");
  EXPECT_EQ(UrlDecode("%4"), "%4");
}

TEST(QueryParamsTest, ParsesPairs) {
  auto p = QueryParams::Parse("db=bench&precision=ms&q=SHOW+DATABASES&flag&&empty=");
  EXPECT_EQ(p.GetOr("db", ""), "bench");
  EXPECT_EQ(p.GetOr("precision", ""), "ms");
  EXPECT_EQ(p.GetOr("q", ""), "SHOW DATABASES");
  ASSERT_TRUE(p.Get("flag").has_value());
  EXPECT_EQ(*p.Get("flag"), "");
  EXPECT_EQ(*p.Get("empty"), "");
  EXPECT_FALSE(p.Has("missing"));
  EXPECT_EQ(p.GetOr("missing", "dflt"), "dflt");
  EXPECT_EQ(p.items().size(), 5u);
}

TEST(QueryParamsTest, FirstValueWins) {
  auto p = QueryParams::Parse("a=1&a=2");
  EXPECT_EQ(p.GetOr("a", ""), "1");
}

TEST(QueryParamsTest, DecodesKeysAndValues) {
  auto p = QueryParams::Parse("q=CREATE%20DATABASE%20%22x%22&d%62=y");
  EXPECT_EQ(p.GetOr("q", ""), "CREATE DATABASE \"x\"");
  EXPECT_EQ(p.GetOr("db", ""), "y");
}

}  // namespace
}  // namespace gnomon::server::http

#include "src/bench/url.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace gnomon::bench {
namespace {

TEST(UrlTest, ParsesHostPortAndPath) {
  auto u = ParseUrl("http://127.0.0.1:4000");
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->host, "127.0.0.1");
  EXPECT_EQ(u->port, "4000");
  EXPECT_EQ(u->base_path, "");
  u = ParseUrl("http://localhost/prefix/");
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->host, "localhost");
  EXPECT_EQ(u->port, "80");
  EXPECT_EQ(u->base_path, "/prefix");
  u = ParseUrl("http://[::1]:8086");
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->host, "::1");
  EXPECT_EQ(u->port, "8086");
}

TEST(UrlTest, RejectsBadUrls) {
  EXPECT_FALSE(ParseUrl("https://x:1").ok());
  EXPECT_FALSE(ParseUrl("127.0.0.1:4000").ok());
  EXPECT_FALSE(ParseUrl("http://:4000").ok());
  EXPECT_FALSE(ParseUrl("http://h:0").ok());
  EXPECT_FALSE(ParseUrl("http://h:70000").ok());
  EXPECT_FALSE(ParseUrl("http://h:4x").ok());
  EXPECT_FALSE(ParseUrl("http://[::1").ok());
}

TEST(UrlTest, FormEncoding) {
  EXPECT_EQ(FormUrlEncode("SELECT max(a) FROM cpu WHERE h = 'x'"),
            "SELECT+max%28a%29+FROM+cpu+WHERE+h+%3D+%27x%27");
  EXPECT_EQ(FormUrlEncode("a-b.c_d~"), "a-b.c_d~");
  EXPECT_EQ(*FormUrlDecode("a+b%2Cc"), "a b,c");
  EXPECT_FALSE(FormUrlDecode("%2").ok());
  EXPECT_FALSE(FormUrlDecode("%zz").ok());
}

RC_GTEST_PROP(UrlProperty, FormEncodingRoundTrips, (const std::string& s)) {
  auto decoded = FormUrlDecode(FormUrlEncode(s));
  RC_ASSERT(decoded.ok());
  RC_ASSERT(*decoded == s);
}

}  // namespace
}  // namespace gnomon::bench

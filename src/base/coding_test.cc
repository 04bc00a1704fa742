#include "src/base/coding.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <limits>

namespace gnomon {
namespace {

TEST(CodingTest, FixedRoundTrip) {
  std::string s;
  PutFixed32(&s, 0xdeadbeef);
  PutFixed64(&s, 0x0123456789abcdefULL);
  std::string_view in(s);
  uint32_t a;
  uint64_t b;
  ASSERT_TRUE(GetFixed32(&in, &a));
  ASSERT_TRUE(GetFixed64(&in, &b));
  EXPECT_EQ(a, 0xdeadbeef);
  EXPECT_EQ(b, 0x0123456789abcdefULL);
  EXPECT_TRUE(in.empty());
  EXPECT_FALSE(GetFixed32(&in, &a));
}

TEST(CodingTest, VarintBoundaries) {
  for (uint64_t v : std::initializer_list<uint64_t>{0, 1, 127, 128, 16383, 16384, (1ULL << 63),
                     std::numeric_limits<uint64_t>::max()}) {
    std::string s;
    PutVarint64(&s, v);
    std::string_view in(s);
    uint64_t out;
    ASSERT_TRUE(GetVarint64(&in, &out));
    EXPECT_EQ(out, v);
    EXPECT_TRUE(in.empty());
  }
}

TEST(CodingTest, TruncatedVarintFails) {
  std::string s;
  PutVarint64(&s, 1ULL << 40);
  for (size_t cut = 0; cut < s.size(); ++cut) {
    std::string_view in(s.data(), cut);
    uint64_t out;
    EXPECT_FALSE(GetVarint64(&in, &out));
  }
}

TEST(CodingTest, OverlongVarintFails) {
  std::string s(11, '\xff');
  std::string_view in(s);
  uint64_t out;
  EXPECT_FALSE(GetVarint64(&in, &out));
}

RC_GTEST_PROP(CodingProperty, ZigZagVarintRoundTrip, (int64_t v)) {
  std::string s;
  PutVarsint64(&s, v);
  std::string_view in(s);
  int64_t out;
  RC_ASSERT(GetVarsint64(&in, &out));
  RC_ASSERT(out == v);
}

RC_GTEST_PROP(CodingProperty, LengthPrefixedRoundTrip, (const std::string& a, const std::string& b)) {
  std::string s;
  PutLengthPrefixed(&s, a);
  PutLengthPrefixed(&s, b);
  std::string_view in(s), x, y;
  RC_ASSERT(GetLengthPrefixed(&in, &x));
  RC_ASSERT(GetLengthPrefixed(&in, &y));
  RC_ASSERT(x == a);
  RC_ASSERT(y == b);
}

}  // namespace
}  // namespace gnomon

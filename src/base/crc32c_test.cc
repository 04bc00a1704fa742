#include "src/base/crc32c.h"

#include <gtest/gtest.h>

#include <string>

namespace gnomon::crc32c {
namespace {

// Check values from RFC 3720 §B.4 and the common "123456789" test vector.
TEST(Crc32cTest, StandardVectors) {
  EXPECT_EQ(Value("123456789"), 0xe3069283u);
  std::string zeros(32, '\0');
  EXPECT_EQ(Value(zeros), 0x8a9136aau);
  std::string ones(32, '\xff');
  EXPECT_EQ(Value(ones), 0x62a8ab43u);
  std::string inc(32, '\0');
  for (int i = 0; i < 32; ++i) inc[i] = static_cast<char>(i);
  EXPECT_EQ(Value(inc), 0x46dd794eu);
}

TEST(Crc32cTest, ExtendEqualsWhole) {
  std::string data = "hello world, this spans more than eight bytes";
  for (size_t split = 0; split <= data.size(); ++split) {
    uint32_t part = Extend(Value(data.data(), split), data.data() + split, data.size() - split);
    EXPECT_EQ(part, Value(data));
  }
}

TEST(Crc32cTest, MaskRoundTrip) {
  uint32_t crc = Value("foo");
  EXPECT_NE(Mask(crc), crc);
  EXPECT_EQ(Unmask(Mask(crc)), crc);
}

}  // namespace
}  // namespace gnomon::crc32c

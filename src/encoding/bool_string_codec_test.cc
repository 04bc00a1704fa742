#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <random>

#include "src/encoding/block_codec.h"
#include "src/encoding/encoding_test_util.h"

namespace gnomon::encoding {
namespace {

using testing::TestLengths;

std::string BaseCodec(const std::string& block) {
  return std::string(CodecName(TagCodecId(static_cast<uint8_t>(block[0]))));
}

std::vector<uint8_t> MakeBools(int shape, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> v(n);
  uint8_t run = 0;
  for (size_t i = 0; i < n; ++i) {
    switch (shape) {
      case 0: v[i] = 0; break;
      case 1: v[i] = 1; break;
      case 2: v[i] = i % 2; break;
      case 3: v[i] = rng() & 1; break;
      default:
        if (rng() % 500 == 0) run ^= 1;
        v[i] = run;
    }
  }
  return v;
}

TEST(BoolCodecTest, RoundTripsEveryShapeAndLength) {
  for (int shape = 0; shape < 5; ++shape) {
    for (size_t n : TestLengths()) {
      const std::vector<uint8_t> v = MakeBools(shape, n, n);
      std::string block;
      EncodeBools(v, &block);
      std::vector<uint8_t> out;
      Status s = DecodeBools(block, &out);
      ASSERT_TRUE(s.ok()) << s.ToString();
      ASSERT_EQ(out, v) << BaseCodec(block) << " shape " << shape << " n " << n;
    }
  }
}

TEST(BoolCodecTest, ChooserPicksByShape) {
  std::string block;
  EncodeBools(MakeBools(1, 8192, 1), &block);
  EXPECT_EQ(BaseCodec(block), "constant");
  block.clear();
  EncodeBools(MakeBools(3, 8192, 1), &block);
  EXPECT_EQ(BaseCodec(block), "bit_packed");
  EXPECT_LE(block.size(), 8192u / 8 + 4);
  block.clear();
  EncodeBools(MakeBools(4, 8192, 1), &block);
  EXPECT_EQ(BaseCodec(block), "bool_rle");
}

TEST(BoolCodecTest, NonzeroMeansTrue) {
  const std::vector<uint8_t> v = {0, 2, 255, 0, 1, 7, 0, 0, 9, 0};
  std::string block;
  EncodeBools(v, &block);
  std::vector<uint8_t> out;
  ASSERT_TRUE(DecodeBools(block, &out).ok());
  EXPECT_EQ(out, (std::vector<uint8_t>{0, 1, 1, 0, 1, 1, 0, 0, 1, 0}));
}

std::vector<std::string> MakeStrings(int shape, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> v(n);
  for (size_t i = 0; i < n; ++i) {
    switch (shape) {
      case 0: v[i] = "host_0"; break;
      case 1: v[i] = ""; break;
      case 2: v[i] = "region-" + std::to_string(rng() % 5); break;
      case 3: v[i] = "unique value number " + std::to_string(i) + " " + std::to_string(rng()); break;
      default: {
        std::string s(rng() % 40, '\0');
        for (auto& c : s) c = static_cast<char>(rng());  // binary, NULs included
        v[i] = s;
      }
    }
  }
  return v;
}

TEST(StringCodecTest, RoundTripsEveryShapeAndLength) {
  for (int shape = 0; shape < 5; ++shape) {
    for (size_t n : TestLengths()) {
      const std::vector<std::string> owned = MakeStrings(shape, n, n);
      const std::vector<std::string_view> v(owned.begin(), owned.end());
      std::string block;
      EncodeStrings(v, &block);
      std::vector<std::string_view> out;
      std::string arena;
      Status s = DecodeStrings(block, &out, &arena);
      ASSERT_TRUE(s.ok()) << s.ToString();
      ASSERT_EQ(out, v) << BaseCodec(block) << " shape " << shape << " n " << n;
    }
  }
}

TEST(StringCodecTest, ChooserPicksByShape) {
  auto codec_of = [](int shape) {
    const std::vector<std::string> owned = MakeStrings(shape, 4096, 1);
    const std::vector<std::string_view> v(owned.begin(), owned.end());
    std::string block;
    EncodeStrings(v, &block);
    return BaseCodec(block);
  };
  EXPECT_EQ(codec_of(0), "constant");
  EXPECT_EQ(codec_of(2), "dictionary");
  EXPECT_EQ(codec_of(3), "plain_strings");
}

TEST(StringCodecTest, ViewsPointIntoTheArena) {
  const std::vector<std::string_view> v = {"a", "bb", "a", "ccc", "bb", "a"};
  std::string block;
  EncodeStrings(v, &block);
  std::vector<std::string_view> out;
  std::string arena;
  ASSERT_TRUE(DecodeStrings(block, &out, &arena).ok());
  ASSERT_EQ(out, v);
  for (std::string_view s : out) {
    EXPECT_GE(s.data(), arena.data());
    EXPECT_LE(s.data() + s.size(), arena.data() + arena.size());
  }
}

RC_GTEST_PROP(BoolCodecProperty, RoundTrips, (const std::vector<bool>& bits)) {
  std::vector<uint8_t> v(bits.begin(), bits.end());
  std::string block;
  EncodeBools(v, &block);
  std::vector<uint8_t> out;
  RC_ASSERT(DecodeBools(block, &out).ok());
  RC_ASSERT(out == v);
}

RC_GTEST_PROP(StringCodecProperty, RoundTrips, (const std::vector<std::string>& owned)) {
  const std::vector<std::string_view> v(owned.begin(), owned.end());
  std::string block;
  EncodeStrings(v, &block);
  std::vector<std::string_view> out;
  std::string arena;
  RC_ASSERT(DecodeStrings(block, &out, &arena).ok());
  RC_ASSERT(out == v);
}

RC_GTEST_PROP(StringCodecProperty, FewDistinctRoundTrip, (const std::vector<uint8_t>& picks)) {
  const std::string_view kWords[] = {"", "x", "cpu", "usage_user", "a much longer value than the rest"};
  std::vector<std::string_view> v;
  for (uint8_t p : picks) v.push_back(kWords[p % 5]);
  std::string block;
  EncodeStrings(v, &block);
  std::vector<std::string_view> out;
  std::string arena;
  RC_ASSERT(DecodeStrings(block, &out, &arena).ok());
  RC_ASSERT(out == v);
}

}  // namespace
}  // namespace gnomon::encoding

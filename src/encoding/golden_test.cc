// Golden fixtures: the exact bytes of small blocks (docs/format/encoding.md). A failure here means the
// on-disk format changed: old segments would no longer decode the same. Change deliberately, with the doc.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "src/encoding/block_codec.h"

namespace gnomon::encoding {
namespace {

std::string Hex(std::string_view b) {
  static const char* kDigits = "0123456789abcdef";
  std::string h;
  for (unsigned char c : b) {
    h += kDigits[c >> 4];
    h += kDigits[c & 15];
  }
  return h;
}

std::string Unhex(std::string_view h) {
  std::string b;
  for (size_t i = 0; i + 1 < h.size(); i += 2) b += static_cast<char>(std::stoi(std::string(h.substr(i, 2)), nullptr, 16));
  return b;
}

TEST(GoldenTest, Integers) {
  std::vector<int64_t> ts;
  for (int i = 0; i < 4; ++i) ts.push_back(1686441600000000000 + i * int64_t{10'000'000'000});
  struct Case {
    std::vector<int64_t> values;
    const char* codec;
    const char* hex;
  };
  const Case cases[] = {
      {ts, "constant_delta", "0204808088e7e6ecb8e72e8090dfc04a"},
      {{5, 7, 6, 9, 12, 10, 11, 8}, "for", "0408030a50f87a"},
      {{3, 3, 3, 3, 3, -1, -1, -1, -1, -1, -1, 3, 3, 3, 3, 3}, "rle", "0310060501060605"},
      {{}, "constant", "0100"},
  };
  for (const Case& c : cases) {
    std::string block;
    EncodeInt64s(c.values, &block);
    EXPECT_EQ(CodecName(static_cast<uint8_t>(block[0])), c.codec);
    EXPECT_EQ(Hex(block), c.hex);
    std::vector<int64_t> out;
    ASSERT_TRUE(DecodeInt64s(Unhex(c.hex), &out).ok());
    EXPECT_EQ(out, c.values);
  }
}

TEST(GoldenTest, Floats) {
  struct Case {
    std::vector<double> values;
    const char* codec;
    const char* hex;
  };
  const Case cases[] = {
      {{1.5, 2.25, 2.5, 0.75, 3.0, 1.25}, "alp", "0a0602000004060896014b96af00e132"},
      {{1e300, 1e300, -0.0, std::ldexp(1.0, -1070)}, "gorilla",
       "09049c7500883ce4377e06fd590780c8437ee31f0100000000000008"},
  };
  for (const Case& c : cases) {
    std::string block;
    EncodeFloat64s(c.values, &block);
    EXPECT_EQ(CodecName(static_cast<uint8_t>(block[0])), c.codec);
    EXPECT_EQ(Hex(block), c.hex);
    std::vector<double> out;
    ASSERT_TRUE(DecodeFloat64s(Unhex(c.hex), &out).ok());
    ASSERT_EQ(out.size(), c.values.size());
    for (size_t i = 0; i < out.size(); ++i) {
      EXPECT_EQ(std::bit_cast<uint64_t>(out[i]), std::bit_cast<uint64_t>(c.values[i]));
    }
  }
}

TEST(GoldenTest, BoolsAndStrings) {
  const std::vector<uint8_t> bools = {1, 0, 1, 1, 0, 0, 0, 1, 1};
  std::string block;
  EncodeBools(bools, &block);
  EXPECT_EQ(Hex(block), "0c098d01");  // bit_packed: 0b10001101, 0b1
  std::vector<uint8_t> bout;
  ASSERT_TRUE(DecodeBools(Unhex("0c098d01"), &bout).ok());
  EXPECT_EQ(bout, bools);

  const std::vector<std::string_view> dict = {"a", "bc", "a", "a"};
  block.clear();
  EncodeStrings(dict, &block);
  EXPECT_EQ(Hex(block), "0e040201610262630404010002");  // dictionary {a, bc}, codes as FOR
  const std::vector<std::string_view> plain = {"x", "yz"};
  block.clear();
  EncodeStrings(plain, &block);
  EXPECT_EQ(Hex(block), "0f02040202020278797a");  // plain: nested constant_delta lengths, "xyz"
  std::vector<std::string_view> sout;
  std::string arena;
  ASSERT_TRUE(DecodeStrings(Unhex("0e040201610262630404010002"), &sout, &arena).ok());
  EXPECT_EQ(sout, dict);
}

}  // namespace
}  // namespace gnomon::encoding

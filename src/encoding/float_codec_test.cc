#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cmath>

#include "src/encoding/alp.h"
#include "src/encoding/block_codec.h"
#include "src/encoding/block_format.h"
#include "src/encoding/encoding_test_util.h"
#include "src/encoding/general_compression.h"
#include "src/encoding/gorilla.h"

namespace gnomon::encoding {
namespace {

using testing::AllFloatShapes;
using testing::FloatShape;
using testing::MakeFloats;
using testing::TestLengths;

// Doubles compare by bit pattern: NaN payloads, -0.0 and +0.0 must all survive exactly.
std::vector<uint64_t> Bits(const std::vector<double>& v) {
  std::vector<uint64_t> b(v.size());
  for (size_t i = 0; i < v.size(); ++i) b[i] = std::bit_cast<uint64_t>(v[i]);
  return b;
}

std::string BlockOf(Codec codec, Compression compression, size_t n, const std::string& payload) {
  std::string block;
  if (compression == Compression::kNone) {
    AppendBlock(codec, compression, static_cast<uint32_t>(n), payload, &block);
  } else {
    AppendBlock(codec, compression, static_cast<uint32_t>(n), CompressWith(compression, payload), &block);
  }
  return block;
}

TEST(FloatCodecTest, EveryCodecRoundTripsEveryShapeAndLength) {
  for (FloatShape shape : AllFloatShapes()) {
    for (size_t n : TestLengths()) {
      if (n == 0) continue;  // these codecs need a first value; empty blocks are kConstant
      const std::vector<double> v = MakeFloats(shape, n, n + 3);
      std::vector<std::pair<Codec, std::string>> payloads;
      std::string g;
      EncodeGorilla(v, &g);
      payloads.emplace_back(Codec::kGorilla, g);
      for (AlpParams p : {ChooseAlpParams(v), AlpParams{0, 0}, AlpParams{2, 0}, AlpParams{14, 3},
                          AlpParams{18, 18}}) {
        std::string a;
        EncodeAlp(v, p, &a);
        payloads.emplace_back(Codec::kAlp, a);
      }
      std::string raw;
      for (double x : v) raw.append(reinterpret_cast<const char*>(&x), 8);
      payloads.emplace_back(Codec::kRawFloat, raw);
      for (const auto& [codec, payload] : payloads) {
        for (Compression c : {Compression::kNone, Compression::kZstd, Compression::kLz4, Compression::kHuffman}) {
          const std::string block = BlockOf(codec, c, n, payload);
          std::vector<double> out;
          Status s = DecodeFloat64s(block, &out);
          if (c != Compression::kNone && s.IsCorruption() && s.message().find("implausible") != std::string::npos) {
            continue;  // compressed past the expansion bound: never written by the encoder
          }
          ASSERT_TRUE(s.ok()) << s.ToString() << " " << CodecName(static_cast<uint8_t>(block[0]));
          ASSERT_EQ(Bits(out), Bits(v)) << CodecName(static_cast<uint8_t>(block[0])) << " shape "
                                        << static_cast<int>(shape) << " n " << n;
        }
      }
    }
  }
}

TEST(FloatCodecTest, ChooserRoundTripsEveryShapeAndLength) {
  for (FloatShape shape : AllFloatShapes()) {
    for (size_t n : TestLengths()) {
      const std::vector<double> v = MakeFloats(shape, n, n + 11);
      std::string block;
      EncodeFloat64s(v, &block);
      std::vector<double> out;
      Status s = DecodeFloat64s(block, &out);
      ASSERT_TRUE(s.ok()) << s.ToString();
      ASSERT_EQ(Bits(out), Bits(v)) << CodecName(static_cast<uint8_t>(block[0])) << " shape "
                                    << static_cast<int>(shape) << " n " << n;
    }
  }
}

TEST(FloatCodecTest, ChooserPicksTheCodecTheShapeCallsFor) {
  auto codec_of = [](FloatShape shape) {
    std::string block;
    EncodeFloat64s(MakeFloats(shape, 4096), &block);
    return std::string(CodecName(TagCodecId(static_cast<uint8_t>(block[0]))));
  };
  EXPECT_EQ(codec_of(FloatShape::kConstant), "constant");
  EXPECT_EQ(codec_of(FloatShape::kDecimalWalk), "alp");
  EXPECT_EQ(codec_of(FloatShape::kIntegral), "alp");
  EXPECT_EQ(codec_of(FloatShape::kMostlyDecimal), "alp");
  EXPECT_EQ(codec_of(FloatShape::kRandom), "raw_float");
}

TEST(FloatCodecTest, DecimalsCompressWell) {
  std::string block;
  EncodeFloat64s(MakeFloats(FloatShape::kDecimalWalk, 8192), &block);
  // Steps of +-0.10 in cents: about 4.4 bits of entropy per value.
  EXPECT_LT(block.size() * 8.0 / 8192, 6.0);
}

TEST(FloatCodecTest, NegativeZeroIsNotPositiveZero) {
  const std::vector<double> v = {0.0, -0.0, 0.0, -0.0, 1.0, 2.0, 3.0, 4.0};
  std::string block;
  EncodeFloat64s(v, &block);
  std::vector<double> out;
  ASSERT_TRUE(DecodeFloat64s(block, &out).ok());
  EXPECT_EQ(Bits(out), Bits(v));
}

TEST(FloatCodecTest, AlpRejectsBadExponentAndPositions) {
  const std::vector<double> v = {1.5, 2.25, std::nan(""), 3.0};
  std::string payload;
  EncodeAlp(v, ChooseAlpParams(v), &payload);
  std::vector<double> out(v.size());
  std::string bad = payload;
  bad[0] = 19;
  EXPECT_TRUE(DecodeAlp(bad, v.size(), out.data()).IsCorruption());
  bad = payload;
  bad[3] = 9;  // first exception position beyond n
  EXPECT_TRUE(DecodeAlp(bad, v.size(), out.data()).IsCorruption());
  EXPECT_TRUE(DecodeAlp(payload, v.size() + 1, out.data()).IsCorruption());  // nested count differs
}

RC_GTEST_PROP(FloatCodecProperty, AnyBitPatternsRoundTrip, (const std::vector<uint64_t>& bits)) {
  std::vector<double> v(bits.size());
  for (size_t i = 0; i < v.size(); ++i) v[i] = std::bit_cast<double>(bits[i]);
  std::string block;
  EncodeFloat64s(v, &block);
  std::vector<double> out;
  RC_ASSERT(DecodeFloat64s(block, &out).ok());
  RC_ASSERT(Bits(out) == Bits(v));
}

RC_GTEST_PROP(FloatCodecProperty, DecimalsRoundTrip, (const std::vector<int32_t>& mantissas, uint8_t scale)) {
  std::vector<double> v(mantissas.size());
  const double div = std::pow(10.0, scale % 8);
  for (size_t i = 0; i < v.size(); ++i) v[i] = mantissas[i] / div;
  std::string block;
  EncodeFloat64s(v, &block);
  std::vector<double> out;
  RC_ASSERT(DecodeFloat64s(block, &out).ok());
  RC_ASSERT(Bits(out) == Bits(v));
}

}  // namespace
}  // namespace gnomon::encoding

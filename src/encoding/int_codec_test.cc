#include "src/encoding/int_codec.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "src/base/coding.h"
#include "src/encoding/block_codec.h"
#include "src/encoding/delta.h"
#include "src/encoding/encoding_test_util.h"
#include "src/encoding/frame_of_reference.h"
#include "src/encoding/general_compression.h"
#include "src/encoding/rle.h"

namespace gnomon::encoding {
namespace {

using testing::AllIntShapes;
using testing::IntShape;
using testing::MakeInts;
using testing::MakeUInts;
using testing::TestLengths;

uint8_t TagOf(const std::string& block) { return static_cast<uint8_t>(block[0]); }

// Builds a block with a forced codec and compression, bypassing the chooser; nullopt when the codec's
// preconditions do not hold for v.
std::optional<std::string> ForcedBlock(Codec codec, Compression compression, const std::vector<int64_t>& v) {
  const size_t n = v.size();
  std::vector<int64_t> deltas(n > 0 ? n - 1 : 0), dods(n > 1 ? n - 2 : 0);
  if (n > 0) ComputeDeltas(v, deltas.data());
  if (n > 1) ComputeDeltas(deltas, dods.data());
  std::string payload;
  switch (codec) {
    case Codec::kConstant:
      for (int64_t x : v) {
        if (x != v[0]) return std::nullopt;
      }
      if (n > 0) PutVarsint64(&payload, v[0]);
      break;
    case Codec::kConstantDelta:
      if (n < 2) return std::nullopt;
      for (int64_t d : deltas) {
        if (d != deltas[0]) return std::nullopt;
      }
      EncodeConstantDelta(v[0], deltas[0], &payload);
      break;
    case Codec::kRle: EncodeRle(v, &payload); break;
    case Codec::kFor: ForEncode(v, &payload); break;
    case Codec::kDeltaFor:
      if (n < 1) return std::nullopt;
      EncodeDeltaFor(v, deltas, &payload);
      break;
    case Codec::kDeltaDeltaFor:
      if (n < 2) return std::nullopt;
      EncodeDeltaDeltaFor(v, deltas, dods, &payload);
      break;
    case Codec::kVarint:
      for (int64_t x : v) PutVarsint64(&payload, x);
      break;
    case Codec::kDeltaVarint:
      if (n < 1) return std::nullopt;
      EncodeDeltaVarint(v, deltas, &payload);
      break;
    default: return std::nullopt;
  }
  std::string block;
  if (compression == Compression::kNone || payload.empty()) {
    AppendBlock(codec, Compression::kNone, static_cast<uint32_t>(n), payload, &block);
  } else {
    std::string stored = CompressWith(compression, payload);
    // Beyond the expansion bound the decoder rightly refuses the block; the encoder never writes one.
    if (payload.size() + 10 * kMaxExpansion > stored.size() * kMaxExpansion) return std::nullopt;
    AppendBlock(codec, compression, static_cast<uint32_t>(n), stored, &block);
  }
  return block;
}

TEST(IntCodecTest, EveryCodecRoundTripsEveryShapeAndLength) {
  const Codec codecs[] = {Codec::kConstant, Codec::kConstantDelta, Codec::kRle,        Codec::kFor,
                          Codec::kDeltaFor, Codec::kDeltaDeltaFor, Codec::kVarint, Codec::kDeltaVarint};
  for (IntShape shape : AllIntShapes()) {
    for (size_t n : TestLengths()) {
      const std::vector<int64_t> v = MakeInts(shape, n, n + 1);
      for (Codec codec : codecs) {
        for (Compression c : {Compression::kNone, Compression::kZstd, Compression::kLz4, Compression::kHuffman}) {
          auto block = ForcedBlock(codec, c, v);
          if (!block) continue;
          std::vector<int64_t> out;
          Status s = DecodeInt64s(*block, &out);
          ASSERT_TRUE(s.ok()) << s.ToString() << " codec " << CodecName(TagOf(*block)) << " shape "
                              << static_cast<int>(shape) << " n " << n;
          ASSERT_EQ(out, v) << CodecName(TagOf(*block)) << " shape " << static_cast<int>(shape) << " n " << n;
        }
      }
    }
  }
}

TEST(IntCodecTest, ChooserRoundTripsEveryShapeAndLength) {
  for (IntShape shape : AllIntShapes()) {
    for (size_t n : TestLengths()) {
      const std::vector<int64_t> v = MakeInts(shape, n, n + 7);
      std::string block;
      EncodeInt64s(v, &block);
      std::vector<int64_t> out;
      ASSERT_TRUE(DecodeInt64s(block, &out).ok()) << CodecName(TagOf(block));
      ASSERT_EQ(out, v);

      block.clear();
      EncodeTimestamps(v, &block);
      ASSERT_TRUE(DecodeTimestamps(block, &out).ok());
      ASSERT_EQ(out, v);

      const std::vector<uint64_t> u = MakeUInts(shape, n, n + 7);
      block.clear();
      EncodeUInt64s(u, &block);
      std::vector<uint64_t> uout;
      ASSERT_TRUE(DecodeUInt64s(block, &uout).ok()) << CodecName(TagOf(block));
      ASSERT_EQ(uout, u);

      uint8_t tag;
      uint32_t count;
      ASSERT_TRUE(PeekBlockHeader(block, &tag, &count).ok());
      EXPECT_EQ(count, n);
      EXPECT_EQ(tag, TagOf(block));
    }
  }
}

TEST(IntCodecTest, ChooserPicksTheCodecTheShapeCallsFor) {
  auto codec_of = [](IntShape shape, size_t n) {
    std::string block;
    EncodeInt64s(MakeInts(shape, n), &block);
    // The base codec; whether zstd/lz4 also ran is the general stage's business.
    return std::string(CodecName(TagCodecId(TagOf(block))));
  };
  EXPECT_EQ(codec_of(IntShape::kConstant, 8192), "constant");
  EXPECT_EQ(codec_of(IntShape::kConstant, 0), "constant");
  EXPECT_EQ(codec_of(IntShape::kStep, 8192), "constant_delta");
  EXPECT_EQ(codec_of(IntShape::kJitteredTimestamps, 8192), "delta_for");
  EXPECT_EQ(codec_of(IntShape::kRuns, 8192), "rle");
  EXPECT_EQ(codec_of(IntShape::kSmallRandom, 8192), "for");
  std::string walk;
  EncodeInt64s(MakeInts(IntShape::kBoundedWalk, 8192), &walk);
  EXPECT_EQ(CodecName(TagOf(walk)), "delta_varint+huffman");
}

TEST(IntCodecTest, ConstantStepTimestampsCostAFewBytes) {
  std::string block;
  EncodeTimestamps(MakeInts(IntShape::kStep, 8640), &block);
  EXPECT_LE(block.size(), 20u);
}

TEST(IntCodecTest, BoundedRandomWalkIsNearItsEntropy) {
  // Steps uniform in [-2, 2]: entropy log2(5) = 2.32 bits; bit-packing alone needs 3.
  std::string block;
  EncodeInt64s(MakeInts(IntShape::kBoundedWalk, 8192), &block);
  EXPECT_LT(block.size() * 8.0 / 8192, 2.45);
}

TEST(IntCodecTest, WrongTypeCodecIsCorruption) {
  std::string block;
  EncodeFloat64s(std::vector<double>{1.5, 2.5, 3.75, 1e300}, &block);
  std::vector<int64_t> out;
  Status s = DecodeInt64s(block, &out);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_TRUE(out.empty());
}

TEST(IntCodecTest, RejectsOversizedCountsAndTrailingBytes) {
  std::string block;
  AppendBlock(Codec::kConstant, Compression::kNone, 0, "", &block);
  block[1] = static_cast<char>(0x81);  // count varint continues...
  block += std::string("\x80\x80\x01", 3);  // ... to 2^21 + 1 > kMaxBlockValues
  std::vector<int64_t> out;
  EXPECT_TRUE(DecodeInt64s(block, &out).IsCorruption());

  std::string good;
  EncodeInt64s(MakeInts(IntShape::kRandomWalk, 300), &good);
  EXPECT_TRUE(DecodeInt64s(good + "x", &out).IsCorruption());
}

RC_GTEST_PROP(IntCodecProperty, Int64RoundTrips, (const std::vector<int64_t>& v)) {
  std::string block;
  EncodeInt64s(v, &block);
  std::vector<int64_t> out;
  RC_ASSERT(DecodeInt64s(block, &out).ok());
  RC_ASSERT(out == v);
}

RC_GTEST_PROP(IntCodecProperty, UInt64RoundTrips, (const std::vector<uint64_t>& v)) {
  std::string block;
  EncodeUInt64s(v, &block);
  std::vector<uint64_t> out;
  RC_ASSERT(DecodeUInt64s(block, &out).ok());
  RC_ASSERT(out == v);
}

RC_GTEST_PROP(IntCodecProperty, TimestampsWithSmallJitterRoundTrip,
              (int64_t start, uint32_t step, const std::vector<int8_t>& jitter)) {
  std::vector<int64_t> v(jitter.size());
  for (size_t i = 0; i < v.size(); ++i) {
    v[i] = static_cast<int64_t>(static_cast<uint64_t>(start) + i * step + static_cast<uint64_t>(jitter[i]));
  }
  std::string block;
  EncodeTimestamps(v, &block);
  std::vector<int64_t> out;
  RC_ASSERT(DecodeTimestamps(block, &out).ok());
  RC_ASSERT(out == v);
}

}  // namespace
}  // namespace gnomon::encoding

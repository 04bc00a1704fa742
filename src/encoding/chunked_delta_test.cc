// chunked_delta: every range of every shape decodes to the same values as the whole block, the
// encoder picks it only where delta_varint+huffman would win, and seekability costs little.
#include "src/encoding/chunked_delta.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <random>

#include "src/encoding/block_codec.h"
#include "src/encoding/block_format.h"
#include "src/encoding/delta.h"
#include "src/encoding/encoding_test_util.h"

namespace gnomon::encoding {
namespace {

using testing::AllIntShapes;
using testing::IntShape;
using testing::MakeInts;

// A chunked block built directly (the chooser would pick another codec for most shapes).
std::string ChunkedBlock(const std::vector<int64_t>& v, ChunkLayout layout) {
  std::vector<int64_t> deltas(v.size() - 1);
  ComputeDeltas(v, deltas.data());
  std::string payload, block;
  EncodeChunkedDelta(v, deltas, layout, &payload);
  AppendBlock(Codec::kChunkedDelta, Compression::kNone, static_cast<uint32_t>(v.size()), payload, &block);
  return block;
}

void ExpectRange(const std::string& block, const std::vector<int64_t>& v, uint32_t b, uint32_t e) {
  std::vector<int64_t> got;
  Status s = DecodeInt64Range(block, b, e, &got);
  ASSERT_TRUE(s.ok()) << s.ToString() << " range " << b << ".." << e;
  ASSERT_EQ(got, std::vector<int64_t>(v.begin() + b, v.begin() + e)) << "range " << b << ".." << e;
}

TEST(ChunkedDeltaTest, EveryShapeLayoutAndRangeRoundTrips) {
  std::mt19937_64 rng(3);
  for (IntShape shape : AllIntShapes()) {
    for (size_t n : {2, 3, 17, 360, 1000, 8192}) {
      const std::vector<int64_t> v = MakeInts(shape, n, n);
      for (ChunkLayout layout : {ChunkLayout{1, 1}, ChunkLayout{88, 360}, ChunkLayout{360, 360}, ChunkLayout{5, 7},
                                 ChunkLayout{100000, 512}}) {
        const std::string block = ChunkedBlock(v, layout);
        std::vector<int64_t> all;
        const Status decoded = DecodeInt64s(block, &all);
        ASSERT_TRUE(decoded.ok()) << decoded.ToString() << " n " << n << " layout " << layout.first << "/"
                                  << layout.size;
        ASSERT_EQ(all, v);
        const uint32_t un = static_cast<uint32_t>(n);
        ExpectRange(block, v, 0, un);
        ExpectRange(block, v, 0, 0);
        ExpectRange(block, v, un, un);
        ExpectRange(block, v, un - 1, un);
        for (int k = 0; k < 20; ++k) {
          uint32_t b = static_cast<uint32_t>(rng() % (n + 1)), e = static_cast<uint32_t>(rng() % (n + 1));
          if (b > e) std::swap(b, e);
          ExpectRange(block, v, b, e);
        }
      }
    }
  }
}

TEST(ChunkedDeltaTest, RangesOfOtherCodecsMatchTheWholeBlock) {
  for (IntShape shape : AllIntShapes()) {
    const std::vector<int64_t> v = MakeInts(shape, 1000);
    std::string block;
    EncodeInt64s(v, &block);
    ExpectRange(block, v, 0, 1000);
    ExpectRange(block, v, 129, 517);
    ExpectRange(block, v, 999, 1000);
  }
}

TEST(ChunkedDeltaTest, RangeOutsideTheBlockIsInvalidArgument) {
  const std::vector<int64_t> v = MakeInts(IntShape::kBoundedWalk, 100);
  std::vector<int64_t> out;
  EXPECT_TRUE(DecodeInt64Range(ChunkedBlock(v, {10, 10}), 50, 101, &out).IsInvalidArgument());
  EXPECT_TRUE(DecodeInt64Range(ChunkedBlock(v, {10, 10}), 60, 50, &out).IsInvalidArgument());
}

TEST(ChunkedDeltaTest, ChooserUsesItOnlyWhereHuffmanDeltasWin) {
  std::string walk, random, plain;
  const std::vector<int64_t> w = MakeInts(IntShape::kBoundedWalk, 8192);
  EncodeInt64s(w, ChunkLayout{88, 360}, &walk);
  EncodeInt64s(w, &plain);
  EXPECT_EQ(CodecName(static_cast<uint8_t>(walk[0])), "chunked_delta");
  EXPECT_EQ(CodecName(static_cast<uint8_t>(plain[0])), "delta_varint+huffman");
  // Seek points every 360 values cost about 2-3 bytes each.
  EXPECT_LE(walk.size(), plain.size() + 3 * (8192 / 360 + 1));
  EncodeInt64s(MakeInts(IntShape::kRandom, 8192), ChunkLayout{88, 360}, &random);
  EXPECT_NE(CodecName(static_cast<uint8_t>(random[0])), "chunked_delta");
}

TEST(ChunkedDeltaTest, MultiByteDeltasRoundTrip) {
  std::mt19937_64 rng(9);
  std::vector<int64_t> v(3000);
  int64_t x = 0;
  for (auto& e : v) {
    x += static_cast<int64_t>(rng() % 2000) - 1000;  // two-byte varints
    e = x;
  }
  const std::string block = ChunkedBlock(v, {100, 256});
  std::vector<int64_t> all;
  ASSERT_TRUE(DecodeInt64s(block, &all).ok());
  EXPECT_EQ(all, v);
  ExpectRange(block, v, 300, 301);
  ExpectRange(block, v, 99, 2999);
}

TEST(ChunkedDeltaTest, DamagedChunkHeadersAreCorruption) {
  const std::vector<int64_t> v = MakeInts(IntShape::kBoundedWalk, 2000);
  const std::string block = ChunkedBlock(v, {100, 300});
  for (size_t cut = 0; cut < block.size(); ++cut) {
    std::vector<int64_t> out;
    EXPECT_TRUE(DecodeInt64Range(block.substr(0, cut), 0, 10, &out).IsCorruption() ||
                DecodeInt64s(block.substr(0, cut), &out).IsCorruption())
        << cut;
    EXPECT_TRUE(DecodeInt64s(block.substr(0, cut), &out).IsCorruption()) << cut;
  }
}

TEST(ChunkedDeltaTest, OneByteTableWithAWideSymbolIsCorruption) {
  // One-byte mode promises zigzag deltas below 0x80; a code table holding a larger symbol is damage.
  std::vector<int64_t> v = MakeInts(IntShape::kBoundedWalk, 2000);
  v[1000] += 40;  // a delta too wide for pairs, still one varint byte
  std::vector<int64_t> deltas(v.size() - 1);
  ComputeDeltas(v, deltas.data());
  std::string payload, block;
  EncodeChunkedDelta(v, deltas, {100, 300}, &payload);
  ASSERT_EQ(payload[0] & 1, 0);  // one-byte mode
  // flags, v(100), v(300) (2 bytes), u8(k - 1), then (symbol, length) pairs ascending by symbol.
  const size_t k = static_cast<uint8_t>(payload[4]) + size_t{1};
  payload[5 + 2 * (k - 1)] = static_cast<char>(0x90);  // the largest symbol stays the largest
  AppendBlock(Codec::kChunkedDelta, Compression::kNone, static_cast<uint32_t>(v.size()), payload, &block);
  std::vector<int64_t> out;
  EXPECT_TRUE(DecodeInt64s(block, &out).IsCorruption());
  EXPECT_TRUE(DecodeInt64Range(block, 500, 900, &out).IsCorruption());
}

TEST(ChunkedDeltaTest, EveryFlippedBitDecodesOrIsCorruption) {
  // The lockstep decoder reads streams without per-symbol bounds checks: any damage must still end
  // in values or Corruption, whichever ranges are read and however many blocks run together.
  const std::vector<int64_t> v = MakeInts(IntShape::kBoundedWalk, 1500);
  const std::string block = ChunkedBlock(v, {360, 360});
  const std::vector<std::pair<uint32_t, uint32_t>> ranges = {{3, 700}, {1100, 1500}};
  std::vector<std::vector<int64_t>> outs(5);
  std::vector<std::vector<int64_t>*> out_ptrs;
  for (auto& o : outs) out_ptrs.push_back(&o);
  for (size_t bit = 0; bit < block.size() * 8; ++bit) {
    std::string bad = block;
    bad[bit / 8] ^= static_cast<char>(1 << (bit % 8));
    std::vector<std::string_view> views = {block, bad, block, bad, bad};
    Status s = DecodeInt64RangesMany(views, ranges, out_ptrs);
    // A damaged value count may put the ranges outside the block: InvalidArgument.
    ASSERT_TRUE(s.ok() || s.IsCorruption() || s.IsInvalidArgument()) << "bit " << bit << ": " << s.ToString();
    std::vector<int64_t> whole;
    s = DecodeInt64s(bad, &whole);
    ASSERT_TRUE(s.ok() || s.IsCorruption()) << "bit " << bit << ": " << s.ToString();
  }
}

TEST(ChunkedDeltaTest, ManyBlocksDecodeTogetherAsEachAlone) {
  std::vector<std::vector<int64_t>> values;
  std::vector<std::string> blocks;
  const ChunkLayout layouts[] = {{360, 360}, {88, 360}, {7, 50}, {100, 256}};
  size_t k = 0;
  for (IntShape shape : AllIntShapes()) {
    values.push_back(MakeInts(shape, 5000, k + 1));
    blocks.emplace_back();
    EncodeInt64s(values.back(), layouts[k++ % 4], &blocks.back());  // chunked where it applies
    blocks.push_back(ChunkedBlock(values.back(), layouts[k % 4]));    // always chunked
    values.push_back(values.back());
  }
  const std::vector<std::pair<uint32_t, uint32_t>> ranges = {{0, 1}, {17, 400}, {719, 1081}, {4990, 5000}};
  std::vector<std::string_view> views(blocks.begin(), blocks.end());
  std::vector<std::vector<int64_t>> outs(blocks.size());
  std::vector<std::vector<int64_t>*> out_ptrs;
  for (auto& o : outs) out_ptrs.push_back(&o);
  ASSERT_TRUE(DecodeInt64RangesMany(views, ranges, out_ptrs).ok());
  for (size_t i = 0; i < blocks.size(); ++i) {
    std::vector<int64_t> want;
    for (const auto& [b, e] : ranges) want.insert(want.end(), values[i].begin() + b, values[i].begin() + e);
    EXPECT_EQ(outs[i], want) << "block " << i << " " << CodecName(static_cast<uint8_t>(blocks[i][0]));
  }
  // A damaged block among them is Corruption.
  std::string bad = blocks[1];
  bad[bad.size() / 2] ^= 0x55;
  views[1] = bad;
  Status s = DecodeInt64RangesMany(views, ranges, out_ptrs);
  EXPECT_TRUE(s.ok() || s.IsCorruption()) << s.ToString();
}

RC_GTEST_PROP(ChunkedDeltaProperty, AnyRangeMatches,
              (const std::vector<int8_t>& steps, uint16_t first, uint16_t size, uint16_t b, uint16_t e)) {
  RC_PRE(steps.size() >= 2);
  std::vector<int64_t> v(steps.size());
  int64_t x = 1000;
  for (size_t i = 0; i < steps.size(); ++i) v[i] = x += steps[i];
  const ChunkLayout layout{1u + first % 400, 1u + size % 400};
  const std::string block = ChunkedBlock(v, layout);
  uint32_t lo = b % (v.size() + 1), hi = e % (v.size() + 1);
  if (lo > hi) std::swap(lo, hi);
  std::vector<int64_t> got;
  RC_ASSERT(DecodeInt64Range(block, lo, hi, &got).ok());
  RC_ASSERT(got == std::vector<int64_t>(v.begin() + lo, v.begin() + hi));
}

// Packed headers: chosen for ordinary blocks and exact for any layout; the chunks' streams are bit-contiguous, so most range reads start inside a byte. Wide
// jumps (deltas of several varint bytes) keep the byte-padded headers and round-trip too.
TEST(ChunkedDeltaTest, PackedHeadersRoundTripWhateverTheSteps) {
  std::mt19937_64 rng(21);
  std::vector<int64_t> walk = {0};
  for (int i = 1; i < 5000; ++i) walk.push_back(walk.back() + static_cast<int64_t>(rng() % 3) - 1);
  std::vector<int64_t> jumps = walk;
  for (size_t i = 0; i < jumps.size(); ++i) jumps[i] += (i / 700) % 2 == 0 ? 0 : INT64_MIN / 2 * 3;  // wraps
  for (const std::vector<int64_t>* v : {&walk, &jumps}) {
    for (ChunkLayout layout : {ChunkLayout{180, 180}, ChunkLayout{7, 13}, ChunkLayout{4999, 1}, ChunkLayout{5000, 9}}) {
      std::vector<int64_t> deltas(v->size() - 1);
      ComputeDeltas(*v, deltas.data());
      std::string payload, block;
      EncodeChunkedDelta(*v, deltas, layout, &payload);
      AppendBlock(Codec::kChunkedDelta, Compression::kNone, static_cast<uint32_t>(v->size()), payload, &block);
      if (v == &walk && layout.first < 1000) EXPECT_NE(payload[0] & 4, 0) << "packed headers";
      std::vector<int64_t> all;
      ASSERT_TRUE(DecodeInt64s(block, &all).ok());
      ASSERT_EQ(all, *v);
      for (int k = 0; k < 40; ++k) {
        uint32_t b = static_cast<uint32_t>(rng() % 5001), e = static_cast<uint32_t>(rng() % 5001);
        if (b > e) std::swap(b, e);
        ExpectRange(block, *v, b, e);
      }
    }
  }
}

TEST(ChunkedDeltaTest, DamagedPackedHeadersAreCorruption) {
  std::vector<int64_t> v = {0};
  std::mt19937_64 rng(2);
  for (int i = 1; i < 1000; ++i) v.push_back(v.back() + static_cast<int64_t>(rng() % 3) - 1);
  std::vector<int64_t> deltas(v.size() - 1);
  ComputeDeltas(v, deltas.data());
  std::string payload;
  EncodeChunkedDelta(v, deltas, {100, 100}, &payload);
  ASSERT_NE(payload[0] & 4, 0);
  auto decodes = [&](const std::string& p) {
    std::string block;
    AppendBlock(Codec::kChunkedDelta, Compression::kNone, static_cast<uint32_t>(v.size()), p, &block);
    std::vector<int64_t> out;
    return DecodeInt64s(block, &out);
  };
  ASSERT_TRUE(decodes(payload).ok());
  EXPECT_TRUE(decodes(payload + "x").IsCorruption()) << "a byte past the streams";
  for (size_t len = 0; len < payload.size(); ++len) EXPECT_TRUE(decodes(payload.substr(0, len)).IsCorruption()) << len;
  std::string multi = payload;
  multi[0] = static_cast<char>(multi[0] | 1);  // packed headers with multi-byte deltas: no such mode
  EXPECT_TRUE(decodes(multi).IsCorruption());
}

}  // namespace
}  // namespace gnomon::encoding

// The general-purpose stage: each form round-trips, CompressPayload keeps the smallest that pays,
// and at kFast effort it never spends time on zstd.
#include "src/encoding/general_compression.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace gnomon::encoding {
namespace {

// 4 KB of 16 letters at random, eight times over: LZ matches plus entropy coding (zstd) beat
// matches alone (lz4) and entropy alone (Huffman) by far.
std::string RepeatedRandomText() {
  std::mt19937 rng(3);
  std::string block;
  for (int i = 0; i < 4096; ++i) block += static_cast<char>('a' + rng() % 16);
  std::string text;
  for (int i = 0; i < 8; ++i) text += block;
  return text;
}

TEST(GeneralCompressionTest, KeepsZstdWhereItWinsAndRoundTrips) {
  const std::string payload = RepeatedRandomText();
  std::string stored;
  ASSERT_EQ(CompressPayload(payload, &stored), Compression::kZstd);
  std::string raw;
  ASSERT_TRUE(DecompressPayload(Compression::kZstd, stored, &raw).ok());
  EXPECT_EQ(raw, payload);
}

TEST(GeneralCompressionTest, FastEffortLeavesZstdOutWhileInScope) {
  const std::string payload = RepeatedRandomText();
  std::string stored;
  {
    ScopedCompressionEffort fast(CompressionEffort::kFast);
    EXPECT_EQ(ThreadCompressionEffort(), CompressionEffort::kFast);
    const Compression c = CompressPayload(payload, &stored);
    EXPECT_NE(c, Compression::kZstd);
    EXPECT_NE(c, Compression::kNone);  // lz4 still pays
    std::string raw;
    ASSERT_TRUE(DecompressPayload(c, stored, &raw).ok());
    EXPECT_EQ(raw, payload);
  }
  EXPECT_EQ(ThreadCompressionEffort(), CompressionEffort::kFull);
  EXPECT_EQ(CompressPayload(payload, &stored), Compression::kZstd);
}

}  // namespace
}  // namespace gnomon::encoding

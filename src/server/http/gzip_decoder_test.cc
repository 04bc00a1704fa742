#include "src/server/http/gzip_decoder.h"

#include <gtest/gtest.h>

#include <random>

#include "src/server/http/http_test_client.h"

namespace gnomon::server::http {
namespace {

std::string Lines(size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += "cpu,hostname=host_" + std::to_string(i % 100) + " usage_user=" + std::to_string(i) +
         "i " + std::to_string(1451606400000000000ll + static_cast<int64_t>(i) * 10) + "\n";
  }
  return s;
}

TEST(GzipDecoderTest, RoundTrips) {
  GzipDecoder d;
  for (size_t n : {0u, 1u, 100u, 20000u}) {
    std::string plain = Lines(n);
    auto out = d.Decompress(GzipCompress(plain), 64 << 20);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_EQ(*out, plain);
  }
}

TEST(GzipDecoderTest, ReusesItsBufferAcrossCalls) {
  GzipDecoder d;
  std::string plain = Lines(1000);
  ASSERT_TRUE(d.Decompress(GzipCompress(plain), 64 << 20).ok());
  size_t cap = d.capacity();
  auto again = d.Decompress(GzipCompress(plain), 64 << 20);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, plain);
  EXPECT_EQ(d.capacity(), cap);
  d.Trim(0);
  EXPECT_EQ(d.capacity(), 0u);
}

TEST(GzipDecoderTest, ConcatenatedMembersAreOneStream) {
  GzipDecoder d;
  std::string a = Lines(20000), b = "mem,host=x free=1i 1\n";  // small last ISIZE: must grow
  auto out = d.Decompress(GzipCompress(a) + GzipCompress(b), 64 << 20);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(*out, a + b);
}

TEST(GzipDecoderTest, GrowsPastALyingSizeTrailer) {
  GzipDecoder d;
  std::string plain = Lines(5000);
  std::string gz = GzipCompress(plain);
  // A lying ISIZE breaks the trailer check, so libdeflate must reject it after inflating.
  gz[gz.size() - 4] = 1;
  gz[gz.size() - 3] = 0;
  gz[gz.size() - 2] = 0;
  gz[gz.size() - 1] = 0;
  auto out = d.Decompress(gz, 64 << 20);
  ASSERT_FALSE(out.ok());
  EXPECT_TRUE(out.status().IsCorruption()) << out.status().ToString();
}

TEST(GzipDecoderTest, EnforcesTheDecompressedLimitExactly) {
  GzipDecoder d;
  std::string plain(100000, 'x');
  std::string gz = GzipCompress(plain);
  EXPECT_TRUE(d.Decompress(gz, plain.size()).ok());
  auto over = d.Decompress(gz, plain.size() - 1);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.status().code(), Status::Code::kResourceExhausted);
}

TEST(GzipDecoderTest, RejectsABomb) {
  GzipDecoder d;
  std::string gz = GzipCompress(std::string(200 << 20, '\0'), 9);  // ~200 KB inflating to 200 MB
  ASSERT_LT(gz.size(), 1u << 20);
  auto out = d.Decompress(gz, 64 << 20);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), Status::Code::kResourceExhausted);
  EXPECT_LE(d.capacity(), 64u << 20);
}

TEST(GzipDecoderTest, RejectsCorruptData) {
  GzipDecoder d;
  EXPECT_TRUE(d.Decompress("not gzip at all, just text", 1 << 20).status().IsCorruption());
  EXPECT_TRUE(d.Decompress("abc", 1 << 20).status().IsCorruption());
  std::string gz = GzipCompress(Lines(200));
  std::string truncated = gz.substr(0, gz.size() / 2);
  EXPECT_TRUE(d.Decompress(truncated, 1 << 20).status().IsCorruption());
  std::string trailing = gz + "garbage!";
  EXPECT_TRUE(d.Decompress(trailing, 1 << 20).status().IsCorruption());
  // Random byte flips never crash and never return wrong data silently (the CRC catches it).
  std::mt19937 rng(42);
  std::string plain = Lines(200);
  for (int i = 0; i < 200; ++i) {
    std::string bad = gz;
    bad[10 + rng() % (bad.size() - 10)] ^= static_cast<char>(1 + rng() % 255);
    auto out = d.Decompress(bad, 1 << 20);
    if (out.ok()) {
      EXPECT_EQ(*out, plain);
    }
  }
}

}  // namespace
}  // namespace gnomon::server::http

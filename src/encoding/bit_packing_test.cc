#include "src/encoding/bit_packing.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "src/encoding/frame_of_reference.h"

namespace gnomon::encoding {
namespace {

std::vector<uint64_t> RandomOfWidth(size_t n, int width, std::mt19937_64& rng) {
  std::vector<uint64_t> v(n);
  const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  for (auto& x : v) x = rng() & mask;
  if (n > 0 && width > 0) v[n / 2] = mask;  // the widest value appears
  return v;
}

TEST(BitPackingTest, EveryWidthAndLengthRoundTrips) {
  std::mt19937_64 rng(7);
  for (int width = 0; width <= 64; ++width) {
    for (size_t n : {0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 100, 127, 128, 129, 300}) {
      const std::vector<uint64_t> v = RandomOfWidth(n, width, rng);
      std::string packed;
      PackBits(v.data(), n, width, &packed);
      ASSERT_EQ(packed.size(), PackedBytes(n, width));
      // Unpack from an exactly sized heap buffer so a sanitizer build catches any over-read.
      auto exact = std::make_unique<uint8_t[]>(packed.size() + 1);
      std::memcpy(exact.get(), packed.data(), packed.size());
      std::vector<uint64_t> out(n, 12345);
      UnpackBits(exact.get(), n, width, out.data());
      ASSERT_EQ(out, v) << "width " << width << " n " << n;
    }
  }
}

TEST(BitPackingTest, HighBitsAboveWidthAreIgnored) {
  const std::vector<uint64_t> v = {0xffff'ffff'ffff'fff5, 0x13};
  std::string packed;
  PackBits(v.data(), v.size(), 4, &packed);
  ASSERT_EQ(packed.size(), 1u);
  std::vector<uint64_t> out(2);
  UnpackBits(reinterpret_cast<const uint8_t*>(packed.data()), 2, 4, out.data());
  EXPECT_EQ(out, (std::vector<uint64_t>{5, 3}));
}

TEST(BitPackingTest, BitWidth) {
  EXPECT_EQ(BitWidth(0), 0);
  EXPECT_EQ(BitWidth(1), 1);
  EXPECT_EQ(BitWidth(255), 8);
  EXPECT_EQ(BitWidth(256), 9);
  EXPECT_EQ(BitWidth(~uint64_t{0}), 64);
}

TEST(FrameOfReferenceTest, SizeMatchesEncodingAndRoundTrips) {
  std::mt19937_64 rng(3);
  for (size_t n : {0, 1, 5, 127, 128, 129, 1000}) {
    for (int64_t spread : {int64_t{0}, int64_t{1}, int64_t{100}, int64_t{1} << 40, int64_t{-1}}) {
      std::vector<int64_t> v(n);
      for (auto& x : v) x = spread == -1 ? static_cast<int64_t>(rng()) : -500 + static_cast<int64_t>(rng() % (spread + 1));
      std::string enc;
      ForEncode(v, &enc);
      ASSERT_EQ(enc.size(), ForEncodedSize(v));
      std::vector<int64_t> out(n);
      std::string_view in = enc;
      ASSERT_TRUE(ForDecode(&in, n, out.data()));
      EXPECT_TRUE(in.empty());
      EXPECT_EQ(out, v);
    }
  }
}

TEST(FrameOfReferenceTest, DeltaDecodeIsPrefixSum) {
  const std::vector<int64_t> deltas = {1, -2, 3, INT64_MAX, INT64_MIN, 0};
  std::string enc;
  ForEncode(deltas, &enc);
  std::vector<int64_t> out(deltas.size());
  std::string_view in = enc;
  ASSERT_TRUE(ForDecodeDelta(&in, deltas.size(), 10, out.data()));
  uint64_t acc = 10;
  for (size_t i = 0; i < deltas.size(); ++i) {
    acc += static_cast<uint64_t>(deltas[i]);
    EXPECT_EQ(out[i], static_cast<int64_t>(acc));
  }
}

TEST(FrameOfReferenceTest, RejectsBadWidthAndTruncation) {
  std::vector<int64_t> v(200, 7);
  v[3] = 1000;
  std::string enc;
  ForEncode(v, &enc);
  std::vector<int64_t> out(v.size());
  for (size_t cut = 0; cut < enc.size(); ++cut) {
    std::string_view in(enc.data(), cut);
    EXPECT_FALSE(ForDecode(&in, v.size(), out.data())) << cut;
  }
  std::string bad = enc;
  bad[0] = 65;  // width > 64
  std::string_view in = bad;
  EXPECT_FALSE(ForDecode(&in, v.size(), out.data()));
}

}  // namespace
}  // namespace gnomon::encoding

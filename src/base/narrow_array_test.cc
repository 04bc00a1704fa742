// NarrowArray: every value reads back exactly whatever mix of widths and modes its chunk went
// through, and a chunk costs the width its values need.
#include "src/base/narrow_array.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <random>
#include <vector>

namespace gnomon {
namespace {

uint64_t DoubleBits(double d) { return std::bit_cast<uint64_t>(d); }

TEST(NarrowArrayTest, NewEntriesAreZeroAndCostNothing) {
  NarrowArray a;
  a.GrowTo(10000);
  EXPECT_EQ(a.size(), 10000u);
  EXPECT_EQ(a.Get(0), 0u);
  EXPECT_EQ(a.Get(9999), 0u);
  EXPECT_LT(a.MemoryUsage(), 200u);  // three empty chunks
  a.GrowTo(5);  // never shrinks
  EXPECT_EQ(a.size(), 10000u);
}

TEST(NarrowArrayTest, SmallIntegersTakeAByte) {
  NarrowArray a;
  a.GrowTo(NarrowArray::kChunk);
  for (size_t i = 0; i < a.size(); ++i) a.Set(i, static_cast<uint64_t>(static_cast<int64_t>(i % 200) - 100));
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(static_cast<int64_t>(a.Get(i)), static_cast<int64_t>(i % 200) - 100) << i;
  }
  EXPECT_LE(a.MemoryUsage(), NarrowArray::kChunk + 64);
}

TEST(NarrowArrayTest, ShortDoublesKeepTheirTopBytes) {
  NarrowArray a;
  a.GrowTo(NarrowArray::kChunk);
  const double values[] = {58.0, -2.5, 100.0, 0.0, 0.75};
  for (size_t i = 0; i < a.size(); ++i) a.Set(i, DoubleBits(values[i % 5]));
  for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(a.Get(i), DoubleBits(values[i % 5])) << i;
  EXPECT_LE(a.MemoryUsage(), 2 * NarrowArray::kChunk + 64);
  // A double with a long mantissa widens the chunk to 8 bytes; the others stay exact.
  a.Set(7, DoubleBits(52.31854));
  EXPECT_EQ(a.Get(7), DoubleBits(52.31854));
  EXPECT_EQ(a.Get(8), DoubleBits(values[8 % 5]));
  EXPECT_LE(a.MemoryUsage(), 8 * NarrowArray::kChunk + 64);
}

TEST(NarrowArrayTest, RandomMixesReadBackExactly) {
  std::mt19937_64 rng(7);
  // Values of every shape: small and large integers of both signs, short and long doubles, the
  // extremes. Each chunk sees its own mix, in random order, with overwrites.
  auto value = [&]() -> uint64_t {
    switch (rng() % 8) {
      case 0: return rng() % 128;
      case 1: return static_cast<uint64_t>(-static_cast<int64_t>(rng() % 40000));
      case 2: return rng() % (uint64_t{1} << 31);
      case 3: return DoubleBits(static_cast<double>(rng() % 1000) / 4);
      case 4: return DoubleBits(static_cast<double>(rng()) / 3);
      case 5: return rng() << 40;
      case 6: return rng();
      default: return (rng() & 1) ? UINT64_MAX : (uint64_t{1} << 63);
    }
  };
  NarrowArray a;
  std::vector<uint64_t> model;
  for (int round = 0; round < 20; ++round) {
    const size_t n = model.size() + rng() % 3000;
    a.GrowTo(n);
    model.resize(n, 0);
    for (int k = 0; k < 4000 && n > 0; ++k) {
      const size_t i = rng() % n;
      // Some chunks stay narrow: only small values below the first 8,192 entries.
      const uint64_t v = i < 2 * NarrowArray::kChunk ? rng() % 100 : value();
      a.Set(i, v);
      model[i] = v;
    }
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(a.Get(i), model[i]) << "round " << round << " entry " << i;
  }
}

}  // namespace
}  // namespace gnomon

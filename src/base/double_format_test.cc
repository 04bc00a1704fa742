#include "src/base/double_format.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>

namespace gnomon {
namespace {

std::string Ours(double d) {
  char buf[kDoubleFormatRoom];
  return std::string(buf, FormatDouble(buf, d));
}

std::string Std(double d) {
  char buf[64];
  return std::string(buf, std::to_chars(buf, buf + sizeof(buf), d).ptr);
}

double FromBits(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

TEST(FormatDoubleTest, MatchesToCharsOnEdgeCases) {
  const double cases[] = {0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 2.5, 100, 1e15, 1e16, 1e17, 1e21, 1e22, 1e23,
                          123456789012345680000.0, 1.2345678901234567e-7, 0.0001, 0.00001, 1e-5, 9.5e-5,
                          58.333333333333336, 1.0 / 3, 2.0 / 3, 5e-324, -5e-324, 2.2250738585072014e-308,
                          std::numeric_limits<double>::max(), std::numeric_limits<double>::lowest(),
                          std::numeric_limits<double>::min(), 9007199254740993.0, 4.35, 1e100, 1e-100,
                          std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                          std::numeric_limits<double>::quiet_NaN()};
  for (double d : cases) EXPECT_EQ(Ours(d), Std(d)) << Std(d);
  EXPECT_EQ(Ours(-std::numeric_limits<double>::max()).size(), size_t{kMaxDoubleChars});
}

TEST(FormatDoubleTest, MatchesToCharsOnPowersOfTenAndTheirNeighbours) {
  for (int e = -320; e <= 308; ++e) {
    const double d = std::pow(10.0, e);
    for (double x : {d, std::nextafter(d, 0.0), std::nextafter(d, 1e308), -d, 3 * d, 7.5 * d}) {
      if (!std::isfinite(x)) continue;
      ASSERT_EQ(Ours(x), Std(x)) << "10^" << e;
    }
  }
}

TEST(FormatDoubleTest, MatchesToCharsOnAveragesOfSmallIntegers) {
  // What a TSBS answer is made of: sums of values in [0, 100] over up to 360 rows.
  std::mt19937_64 rng(11);
  for (int i = 0; i < 200000; ++i) {
    const int64_t count = 1 + static_cast<int64_t>(rng() % 360);
    const int64_t sum = static_cast<int64_t>(rng() % (100 * count + 1));
    const double avg = static_cast<double>(sum) / static_cast<double>(count);
    ASSERT_EQ(Ours(avg), Std(avg)) << sum << "/" << count;
  }
}

RC_GTEST_PROP(FormatDoubleProperty, MatchesToCharsOnAnyBitPattern, (uint64_t bits)) {
  const double d = FromBits(bits);
  RC_ASSERT(Ours(d) == Std(d));
}

TEST(FormatDoubleTest, MatchesToCharsOnManyRandomBitPatterns) {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 1000000; ++i) {
    const double d = FromBits(rng());
    ASSERT_EQ(Ours(d), Std(d));
  }
}

}  // namespace
}  // namespace gnomon

#include "src/bench/go_rand.h"

#include <gtest/gtest.h>

#include <set>

namespace gnomon::bench {
namespace {

// Conformance vectors from the TSBS workload spec, Appendix A.1 (verified there with Go 1.19).
TEST(GoRandTest, Int63MatchesGoForSeed123) {
  GoRand r(123);
  EXPECT_EQ(r.Int63(), 5361704182646325489);
  EXPECT_EQ(r.Int63(), 241876450138978746);
}

TEST(GoRandTest, Float64MatchesGoForSeed123) {
  GoRand r(123);
  EXPECT_EQ(r.Float64(), 0.5813171323049762);
  EXPECT_EQ(r.Float64(), 0.026224297271376255);
  EXPECT_EQ(r.Float64(), 0.2499694950699479);
}

TEST(GoRandTest, NormFloat64MatchesGoForSeed123) {
  GoRand r(123);
  EXPECT_EQ(r.NormFloat64(), -0.794578529671558);
  EXPECT_EQ(r.NormFloat64(), 0.07123319016863422);
}

// The first cpu-only host for seed 123 (README / spec 3.4): 10 Float64 initial values, then the
// tag draws; host_0 is eu-central-1 / eu-central-1a / rack 6 / x86 / Ubuntu15.10 / 19 / 1 / test / SF.
TEST(GoRandTest, ReproducesFirstTsbsHostDraws) {
  GoRand r(123);
  const int expected_values[10] = {58, 2, 24, 61, 22, 63, 6, 44, 80, 38};
  for (int v : expected_values) EXPECT_EQ(static_cast<int>(r.Float64() * 100.0), v);
  EXPECT_EQ(r.Intn(9), 4);      // eu-central-1
  EXPECT_EQ(r.Intn(2), 0);      // eu-central-1a
  EXPECT_EQ(r.Int63n(100), 6);  // rack
  EXPECT_EQ(r.Intn(2), 1);      // arch x86
  EXPECT_EQ(r.Intn(3), 2);      // os Ubuntu15.10
  EXPECT_EQ(r.Int63n(20), 19);  // service
  EXPECT_EQ(r.Int63n(2), 1);    // service_version
  EXPECT_EQ(r.Intn(3), 2);      // test
  EXPECT_EQ(r.Intn(4), 0);      // SF
}

TEST(GoRandTest, SeedZeroAndCongruentSeedsAlias) {
  // Go reduces the seed modulo 2^31-1 and maps 0 to 89482311.
  GoRand zero(0), magic(89482311), a(5), b(5 + 2147483647LL), neg(-5), pos(2147483647LL - 5);
  EXPECT_EQ(zero.Int63(), magic.Int63());
  EXPECT_EQ(a.Int63(), b.Int63());
  EXPECT_EQ(neg.Int63(), pos.Int63());
}

TEST(GoRandTest, BoundedDrawsStayInRangeAndCoverIt) {
  GoRand r(7);
  std::set<int64_t> seen31, seen63;
  for (int i = 0; i < 20000; ++i) {
    int64_t a = r.Intn(9), b = r.Int63n(100), c = r.Int31n(1 << 4), d = r.Int63n(1LL << 40);
    ASSERT_GE(a, 0);
    ASSERT_LT(a, 9);
    ASSERT_GE(b, 0);
    ASSERT_LT(b, 100);
    ASSERT_GE(c, 0);
    ASSERT_LT(c, 16);
    ASSERT_GE(d, 0);
    ASSERT_LT(d, 1LL << 40);
    seen31.insert(a);
    seen63.insert(b);
  }
  EXPECT_EQ(seen31.size(), 9u);
  EXPECT_EQ(seen63.size(), 100u);
}

TEST(GoRandTest, Int63nAndIntnMapDifferentBits) {
  // TSBS uses both for the same n (rack: Int63n(100); region: Intn(9)); they are not interchangeable.
  GoRand a(123), b(123);
  int differ = 0;
  for (int i = 0; i < 100; ++i) differ += a.Int63n(100) != b.Intn(100);
  EXPECT_GT(differ, 50);
}

TEST(GoRandTest, NormalMomentsAreStandard) {
  GoRand r(42);
  double sum = 0, sum2 = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    double x = r.NormFloat64();
    sum += x;
    sum2 += x * x;
  }
  EXPECT_NEAR(sum / n, 0.0, 0.01);
  EXPECT_NEAR(sum2 / n, 1.0, 0.02);
}

TEST(GoRandTest, Float64InUnitInterval) {
  GoRand r(1);
  for (int i = 0; i < 100000; ++i) {
    double f = r.Float64();
    ASSERT_GE(f, 0.0);
    ASSERT_LT(f, 1.0);
  }
}

}  // namespace
}  // namespace gnomon::bench

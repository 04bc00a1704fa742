#include "src/bench/stats.h"

#include <gtest/gtest.h>

#include <cmath>

namespace gnomon::bench {
namespace {

TEST(LatencyStatsTest, HandComputedFigures) {
  LatencyStats s;
  for (double v : {7.0, 3.0, 10.0, 1.0, 5.0, 2.0, 9.0, 4.0, 8.0, 6.0}) s.Add(v);
  LatencySummary sum = s.Summarize();
  EXPECT_EQ(sum.count, 10u);
  EXPECT_DOUBLE_EQ(sum.min_ms, 1);
  EXPECT_DOUBLE_EQ(sum.max_ms, 10);
  EXPECT_DOUBLE_EQ(sum.mean_ms, 5.5);
  EXPECT_DOUBLE_EQ(sum.sum_ms, 55);
  // Population variance of 1..10 = (100 - 1) / 12 = 8.25.
  EXPECT_DOUBLE_EQ(sum.stddev_ms, std::sqrt(8.25));
  EXPECT_DOUBLE_EQ(sum.median_ms, 5);  // rank round(0.5 * 10) = 5
  EXPECT_DOUBLE_EQ(sum.p90_ms, 9);     // rank 9
  EXPECT_DOUBLE_EQ(sum.p95_ms, 10);    // rank round(9.5) = 10
  EXPECT_DOUBLE_EQ(sum.p99_ms, 10);    // rank round(9.9) = 10
  EXPECT_DOUBLE_EQ(s.Quantile(0), 1);  // rank at least 1
  EXPECT_DOUBLE_EQ(s.Quantile(0.14), 1);  // rank round(1.4) = 1
  EXPECT_DOUBLE_EQ(s.Quantile(0.15), 2);  // rank round(1.5) = 2
}

TEST(LatencyStatsTest, OddCountsAndSingleValues) {
  LatencyStats three;
  for (double v : {30.0, 10.0, 20.0}) three.Add(v);
  EXPECT_DOUBLE_EQ(three.Quantile(0.5), 20);  // rank round(1.5) = 2
  LatencySummary s = three.Summarize();
  EXPECT_DOUBLE_EQ(s.stddev_ms, std::sqrt(200.0 / 3));
  LatencyStats one;
  one.Add(4.25);
  s = one.Summarize();
  EXPECT_DOUBLE_EQ(s.median_ms, 4.25);
  EXPECT_DOUBLE_EQ(s.p99_ms, 4.25);
  EXPECT_DOUBLE_EQ(s.stddev_ms, 0);
  EXPECT_EQ(LatencyStats().Summarize().count, 0u);
  EXPECT_DOUBLE_EQ(LatencyStats().Quantile(0.5), 0);
}

TEST(LatencyStatsTest, HundredValuesPercentiles) {
  LatencyStats s;
  for (int i = 100; i >= 1; --i) s.Add(i * 0.5);
  LatencySummary sum = s.Summarize();
  EXPECT_DOUBLE_EQ(sum.median_ms, 25);  // rank 50
  EXPECT_DOUBLE_EQ(sum.p90_ms, 45);     // rank 90
  EXPECT_DOUBLE_EQ(sum.p99_ms, 49.5);   // rank 99
  EXPECT_DOUBLE_EQ(sum.p999_ms, 50);    // rank round(99.9) = 100
  EXPECT_DOUBLE_EQ(sum.mean_ms, 25.25);
}

TEST(StatGroupsTest, PrintsTsbsLayout) {
  StatGroups g;
  g.Add("Influx 1 cpu metric(s), random    1 hosts, random 1h0m0s by 1m", 5.0);
  g.Add("Influx 1 cpu metric(s), random    1 hosts, random 1h0m0s by 1m", 7.0);
  EXPECT_EQ(FormatTsbsGroups(g),
            "Influx 1 cpu metric(s), random    1 hosts, random 1h0m0s by 1m:\n"
            "min:     5.00ms, med:     5.00ms, mean:     6.00ms, max:    7.00ms, stddev:     1.00ms, "
            "sum:   0.0sec, count: 2\n"
            "all queries                                                   :\n"
            "min:     5.00ms, med:     5.00ms, mean:     6.00ms, max:    7.00ms, stddev:     1.00ms, "
            "sum:   0.0sec, count: 2\n");
}

TEST(StatGroupsTest, SortsLabelsInByteOrder) {
  StatGroups g;
  g.Add("b", 1);
  g.Add("Z", 1);
  g.Add("a", 1);
  std::vector<std::string> labels;
  for (const auto& [label, stats] : g.groups()) labels.push_back(label);
  EXPECT_EQ(labels, (std::vector<std::string>{"Z", "a", "all queries", "b"}));
  EXPECT_EQ(g.groups().at("all queries").count(), 3u);
  LatencySummary wide;
  wide.count = 1;
  wide.min_ms = wide.median_ms = wide.mean_ms = wide.max_ms = 123456.789;
  wide.sum_ms = 123456.789;
  EXPECT_EQ(FormatTsbsStatLine(wide),
            "min: 123456.79ms, med: 123456.79ms, mean: 123456.79ms, max: 123456.79ms, stddev:     "
            "0.00ms, sum: 123.5sec, count: 1");
}

}  // namespace
}  // namespace gnomon::bench

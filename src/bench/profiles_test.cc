#include "src/bench/profiles.h"

#include <gtest/gtest.h>

#include <set>

#include "src/bench/profile_runner.h"
#include "src/bench/query_generator.h"

namespace gnomon::bench {
namespace {

TEST(ProfilesTest, RowCountsMatchTheReports) {
  // The seed reports: 103,680,000 rows of cpu-only at 4,000 hosts over 3 days.
  EXPECT_EQ(ExpectedRows(*FindProfile("seed-headline")), 103680000u);
  // benchANT: 2,617,920,000 points = 1,000 hosts x 3 days x 8,640 steps x 101 metrics, in 9
  // measurements per host and step.
  EXPECT_EQ(ExpectedRows(*FindProfile("benchant-devops")), 1000u * 3 * 8640 * 9);
  // TDengine: 1,000,000 devices x 3 minutes = 18 steps; IoT has two measurements per truck.
  EXPECT_EQ(ExpectedRows(*FindProfile("tdengine-cpu-1m")), 18000000u);
  EXPECT_EQ(ExpectedRows(*FindProfile("tdengine-iot-10m")), 360000000u);
  EXPECT_EQ(ExpectedRows(*FindProfile("tdengine-cpu-100")), 100u * 31 * 8640);
}

TEST(ProfilesTest, NamesAreUniqueAndEveryQueryTypeExists) {
  std::set<std::string> names;
  const auto& known = DevopsQueryTypes();
  for (const Profile& p : Profiles()) {
    EXPECT_TRUE(names.insert(p.name).second) << p.name;
    for (const std::string& t : p.query_types) {
      EXPECT_NE(std::find(known.begin(), known.end(), t), known.end()) << p.name << ": " << t;
    }
    EXPECT_TRUE(p.query_types.empty() || p.use_case != "iot") << p.name;
    EXPECT_GT(ExpectedRows(p), 0u) << p.name;
  }
  EXPECT_EQ(names.size(), 12u);  // headline, 5 x 2 TDengine fleets, benchANT
}

TEST(ProfilesTest, UnknownNameListsTheProfiles) {
  auto missing = FindProfile("tdengine-cpu-7");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().ToString().find("seed-headline"), std::string::npos);
}

TEST(ProfilesTest, OverridesShrinkAProfile) {
  Profile p = OverrideProfile(*FindProfile("seed-headline"), {.scale = 10, .end = "2023-06-11T01:00:00Z", .queries_per_type = 3});
  EXPECT_EQ(p.scale, 10u);
  EXPECT_EQ(ExpectedRows(p), 10u * 360);
  EXPECT_EQ(p.queries_per_type, 3u);
  EXPECT_EQ(p.query_types.size(), 15u);
  EXPECT_TRUE(OverrideProfile(p, {.queries_per_type = 0}).query_types.empty());
  EXPECT_EQ(OverrideProfile(p, {}).queries_per_type, 3u);
  EXPECT_EQ(OverrideProfile(p, {.start = "2016-01-01T00:00:00Z", .end = "2016-01-04T00:00:00Z"}).start,
            "2016-01-01T00:00:00Z");
}

}  // namespace
}  // namespace gnomon::bench

#include "src/base/fault_point.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace gnomon::fault {
namespace {

// A crash action for tests: unwinds instead of killing the test process.
struct Crashed : std::runtime_error {
  using std::runtime_error::runtime_error;
};
void ThrowCrash(std::string_view point) { throw Crashed(std::string(point)); }

class FaultPointTest : public ::testing::Test {
 protected:
  void SetUp() override { SetCrashAction(ThrowCrash); }
  void TearDown() override {
    DisarmFaultPoints();
    SetCrashAction(nullptr);
  }
};

TEST_F(FaultPointTest, UnarmedPointsDoNothing) {
  for (std::string_view p : KnownFaultPoints()) EXPECT_NO_THROW(GNOMON_FAULT_POINT(p));
}

TEST_F(FaultPointTest, CrashesOnTheNthPassOfTheArmedPointOnly) {
  ASSERT_TRUE(ArmFaultPoints("flush.after_segment:3").ok());
  EXPECT_NO_THROW(GNOMON_FAULT_POINT("compaction.after_output"));
  EXPECT_NO_THROW(GNOMON_FAULT_POINT("flush.after_segment"));
  EXPECT_NO_THROW(GNOMON_FAULT_POINT("flush.after_segment"));
  try {
    GNOMON_FAULT_POINT("flush.after_segment");
    FAIL() << "the third pass should crash";
  } catch (const Crashed& c) {
    EXPECT_STREQ(c.what(), "flush.after_segment");
  }
}

TEST_F(FaultPointTest, SeveralPointsArmTogetherAndDefaultToTheFirstPass) {
  ASSERT_TRUE(ArmFaultPoints("wal.before_sync,manifest.before_rename:2").ok());
  EXPECT_THROW(GNOMON_FAULT_POINT("wal.before_sync"), Crashed);
  EXPECT_NO_THROW(GNOMON_FAULT_POINT("manifest.before_rename"));
  EXPECT_THROW(GNOMON_FAULT_POINT("manifest.before_rename"), Crashed);
}

TEST_F(FaultPointTest, BadSpecsAreRefusedAndArmNothing) {
  for (const char* spec : {"no.such.point", "flush.after_segment:0", "flush.after_segment:x",
                           "flush.after_segment:", "wal.before_sync,bogus"}) {
    Status s = ArmFaultPoints(spec);
    EXPECT_TRUE(s.IsInvalidArgument()) << spec << ": " << s.ToString();
  }
  EXPECT_NO_THROW(GNOMON_FAULT_POINT("wal.before_sync"));
}

TEST_F(FaultPointTest, DisarmClearsEveryPoint) {
  ASSERT_TRUE(ArmFaultPoints("registry.before_sync").ok());
  DisarmFaultPoints();
  EXPECT_NO_THROW(GNOMON_FAULT_POINT("registry.before_sync"));
}

}  // namespace
}  // namespace gnomon::fault

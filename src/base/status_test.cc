#include "src/base/status.h"

#include <gtest/gtest.h>

#include "src/base/result.h"

namespace gnomon {
namespace {

TEST(StatusTest, OkHasNoMessage) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.ToString(), "OK");
}

TEST(StatusTest, ErrorCarriesCodeAndContext) {
  Status s = Status::Corruption("crc mismatch at offset 12").WithContext("wal 000003.log");
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_EQ(s.ToString(), "Corruption: wal 000003.log: crc mismatch at offset 12");
}

TEST(StatusTest, FromErrnoNamesTheError) {
  Status s = Status::FromErrno("open /nope", ENOENT);
  EXPECT_EQ(s.code(), Status::Code::kIOError);
  EXPECT_NE(s.message().find("No such file"), std::string::npos);
}

TEST(StatusTest, AFullDiskIsNoSpace) {
  EXPECT_EQ(Status::FromErrno("write /wal/1", ENOSPC).code(), Status::Code::kNoSpace);
  EXPECT_EQ(Status::FromErrno("write /wal/1", EDQUOT).code(), Status::Code::kNoSpace);
  EXPECT_EQ(Status::FromErrno("write /wal/1", EIO).code(), Status::Code::kIOError);
}

Result<int> Half(int x) {
  if (x % 2 != 0) return Status::InvalidArgument("odd");
  return x / 2;
}

Result<int> Quarter(int x) {
  GNOMON_ASSIGN_OR_RETURN(int h, Half(x));
  return Half(h);
}

TEST(ResultTest, PropagatesErrors) {
  EXPECT_EQ(*Quarter(8), 2);
  EXPECT_FALSE(Quarter(6).ok());
  EXPECT_EQ(Quarter(6).status().message(), "odd");
}

TEST(ResultDeathTest, ValueOfErrorIsABug) {
  Result<int> r = Status::NotFound("x");
  EXPECT_DEATH((void)r.value(), "BUG");
}

}  // namespace
}  // namespace gnomon

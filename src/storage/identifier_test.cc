#include "src/storage/identifier.h"

#include <gtest/gtest.h>

#include <string>

namespace gnomon::storage {
namespace {

TEST(IdentifierTest, DatabaseNames) {
  EXPECT_TRUE(ValidateDatabaseName("benchmark").ok());
  EXPECT_TRUE(ValidateDatabaseName("_internal").ok());
  EXPECT_TRUE(ValidateDatabaseName("a.b-c_1").ok());
  EXPECT_TRUE(ValidateDatabaseName(std::string(64, 'd')).ok());
  EXPECT_FALSE(ValidateDatabaseName("").ok());
  EXPECT_FALSE(ValidateDatabaseName(std::string(65, 'd')).ok());
  EXPECT_FALSE(ValidateDatabaseName("..").ok());
  EXPECT_FALSE(ValidateDatabaseName(".hidden").ok());
  EXPECT_FALSE(ValidateDatabaseName("a/b").ok());
  EXPECT_FALSE(ValidateDatabaseName("a b").ok());
  EXPECT_FALSE(ValidateDatabaseName(std::string("a\0b", 3)).ok());
}

TEST(IdentifierTest, TableNamesAllowWhatLineProtocolCarries) {
  EXPECT_TRUE(ValidateTableName("cpu").ok());
  EXPECT_TRUE(ValidateTableName("disk io").ok());
  EXPECT_TRUE(ValidateTableName("temp,°C=x").ok());
  EXPECT_TRUE(ValidateTableName("a.b").ok());
  EXPECT_TRUE(ValidateTableName("a..b").ok());
  EXPECT_TRUE(ValidateTableName(std::string(kMaxTableNameBytes, 't')).ok());
}

TEST(IdentifierTest, TableNamesRejectTraversalReservedAndOverlong) {
  for (std::string bad : {"", ".", "..", "../etc", "a/b", "/abs", "a\\b", ".hidden"}) {
    Status s = ValidateTableName(bad);
    EXPECT_TRUE(s.IsInvalidArgument()) << "'" << bad << "'";
  }
  Status overlong = ValidateTableName(std::string(kMaxTableNameBytes + 1, 't'));
  EXPECT_TRUE(overlong.IsInvalidArgument());
  EXPECT_NE(overlong.message().find("longer than 200 bytes"), std::string::npos) << overlong.message();
}

TEST(IdentifierTest, ControlBytesAreRejectedAndQuotedVisibly) {
  Status s = ValidateTableName(std::string("cp\x01u", 4));
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("cp\\x01u"), std::string::npos) << s.message();
  EXPECT_FALSE(ValidateTableName(std::string("a\0b", 3)).ok());
  EXPECT_FALSE(ValidateTableName("a\x7f").ok());
  EXPECT_FALSE(ValidateColumnName("usage\nuser").ok());
  EXPECT_FALSE(ValidateColumnName("").ok());
  EXPECT_FALSE(ValidateColumnName(std::string(kMaxColumnNameBytes + 1, 'c')).ok());
  EXPECT_TRUE(ValidateColumnName("usage_user").ok());
  EXPECT_TRUE(ValidateColumnName("a/b ..").ok());  // columns never become paths
}

}  // namespace
}  // namespace gnomon::storage

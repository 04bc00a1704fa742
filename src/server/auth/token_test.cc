#include "src/server/auth/token.h"

#include <gtest/gtest.h>

#include <set>

namespace gnomon::server::auth {
namespace {

TEST(TokenTest, SecretsAreLongRandomAndPrefixed) {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    auto secret = GenerateTokenSecret();
    ASSERT_TRUE(secret.ok());
    EXPECT_EQ(secret->rfind(kTokenPrefix, 0), 0u);
    EXPECT_EQ(secret->size(), kTokenPrefix.size() + 64);  // 256 bits in hex
    EXPECT_TRUE(seen.insert(*secret).second);
  }
}

TEST(TokenTest, HashIsSha256) {
  // SHA-256("abc"), FIPS 180-2's example.
  EXPECT_EQ(HashToHex(HashTokenSecret("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  auto back = HashFromHex(HashToHex(HashTokenSecret("x")));
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(TokenHashEquals(*back, HashTokenSecret("x")));
  EXPECT_FALSE(TokenHashEquals(*back, HashTokenSecret("y")));
  EXPECT_FALSE(HashFromHex("zz").ok());
  EXPECT_FALSE(HashFromHex(std::string(64, 'g')).ok());
}

TEST(TokenTest, AccessNamesRoundTrip) {
  for (Access a : {Access::kRead, Access::kWrite, Access::kAdmin}) {
    auto parsed = ParseAccess(AccessName(a));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, a);
  }
  EXPECT_FALSE(ParseAccess("root").ok());
}

TEST(TokenTest, TokenNames) {
  EXPECT_TRUE(ValidateTokenName("tsbs-loader.1_a").ok());
  EXPECT_FALSE(ValidateTokenName("").ok());
  EXPECT_FALSE(ValidateTokenName("a b").ok());
  EXPECT_FALSE(ValidateTokenName("a\nb").ok());
  EXPECT_FALSE(ValidateTokenName(std::string(65, 'n')).ok());
}

TokenRecord Make(Access access, std::vector<std::string> dbs = {}) {
  TokenRecord t;
  t.name = "t";
  t.access = access;
  t.databases = std::move(dbs);
  return t;
}

TEST(TokenTest, WriteImpliesReadAdminImpliesAll) {
  TokenRecord read = Make(Access::kRead);
  TokenRecord write = Make(Access::kWrite);
  TokenRecord admin = Make(Access::kAdmin);
  EXPECT_TRUE(CheckAccess(read, Access::kRead, "db").ok());
  EXPECT_EQ(CheckAccess(read, Access::kWrite, "db").code(), Status::Code::kPermissionDenied);
  EXPECT_TRUE(CheckAccess(write, Access::kRead, "db").ok());
  EXPECT_TRUE(CheckAccess(write, Access::kWrite, "db").ok());
  EXPECT_EQ(CheckAccess(write, Access::kAdmin, "").code(), Status::Code::kPermissionDenied);
  EXPECT_TRUE(CheckAccess(admin, Access::kAdmin, "").ok());
  EXPECT_TRUE(CheckAccess(admin, Access::kWrite, "any").ok());
}

TEST(TokenTest, DatabaseScope) {
  TokenRecord scoped = Make(Access::kWrite, {"a", "b"});
  EXPECT_TRUE(CheckAccess(scoped, Access::kWrite, "a").ok());
  EXPECT_TRUE(CheckAccess(scoped, Access::kRead, "b").ok());
  Status other = CheckAccess(scoped, Access::kRead, "c");
  EXPECT_EQ(other.code(), Status::Code::kPermissionDenied);
  EXPECT_NE(other.message().find("not allowed on database 'c'"), std::string::npos);
  // Server-wide reads (SHOW DATABASES, /metrics) are open to any scope.
  EXPECT_TRUE(CheckAccess(scoped, Access::kRead, "").ok());
}

}  // namespace
}  // namespace gnomon::server::auth

#include "src/server/auth/credentials.h"

#include <gtest/gtest.h>

namespace gnomon::server::auth {
namespace {

std::optional<std::string> Token(std::string_view header, std::optional<std::string_view> p = {}) {
  auto r = ExtractToken(header, p);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : std::nullopt;
}

TEST(CredentialsTest, HeaderForms) {
  EXPECT_EQ(Token("Token abc"), "abc");
  EXPECT_EQ(Token("token   abc "), "abc");
  EXPECT_EQ(Token("Bearer abc"), "abc");
  EXPECT_EQ(Token("BEARER abc"), "abc");
  // "user:abc" and ":abc"
  EXPECT_EQ(Token("Basic dXNlcjphYmM="), "abc");
  EXPECT_EQ(Token("Basic OmFiYw=="), "abc");
  EXPECT_EQ(Token("Basic OmFiYw"), "abc");  // padding optional
}

TEST(CredentialsTest, QueryParameterAndPrecedence) {
  EXPECT_EQ(Token("", std::string_view("abc")), "abc");
  EXPECT_EQ(Token("Token hdr", std::string_view("param")), "hdr");
  EXPECT_EQ(Token(""), std::nullopt);
  EXPECT_EQ(Token("", std::string_view("")), std::nullopt);
}

TEST(CredentialsTest, MalformedHeaders) {
  EXPECT_FALSE(ExtractToken("Digest x", {}).ok());
  EXPECT_FALSE(ExtractToken("Token ", {}).ok());
  EXPECT_FALSE(ExtractToken("Basic !!!", {}).ok());
  EXPECT_FALSE(ExtractToken("Basic YWJj", {}).ok());  // "abc": no ':'
}

TEST(CredentialsTest, Base64) {
  EXPECT_EQ(Base64Decode(""), "");
  EXPECT_EQ(Base64Decode("Zg=="), "f");
  EXPECT_EQ(Base64Decode("Zm8="), "fo");
  EXPECT_EQ(Base64Decode("Zm9v"), "foo");
  EXPECT_EQ(Base64Decode("Zm9vYmFy"), "foobar");
  EXPECT_EQ(Base64Decode("Z"), std::nullopt);
  EXPECT_EQ(Base64Decode("Zm9*"), std::nullopt);
}

}  // namespace
}  // namespace gnomon::server::auth

#include "src/server/auth/token_file.h"

#include <gtest/gtest.h>

#include "src/port/mem_env.h"

namespace gnomon::server::auth {
namespace {

std::vector<TokenRecord> Sample() {
  TokenRecord a;
  a.name = "loader";
  a.access = Access::kWrite;
  a.databases = {"benchmark", "metrics.prod"};
  a.created_ns = 1700000000123456789;
  a.hash = HashTokenSecret("secret-a");
  TokenRecord b;
  b.name = "root";
  b.access = Access::kAdmin;
  b.created_ns = 5;
  b.hash = HashTokenSecret("secret-b");
  return {a, b};
}

void ExpectSame(const std::vector<TokenRecord>& x, const std::vector<TokenRecord>& y) {
  ASSERT_EQ(x.size(), y.size());
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(x[i].name, y[i].name);
    EXPECT_EQ(x[i].access, y[i].access);
    EXPECT_EQ(x[i].databases, y[i].databases);
    EXPECT_EQ(x[i].created_ns, y[i].created_ns);
    EXPECT_TRUE(TokenHashEquals(x[i].hash, y[i].hash));
  }
}

TEST(TokenFileTest, RoundTrip) {
  std::string bytes = EncodeTokenFile(Sample());
  auto back = DecodeTokenFile(bytes, "TOKENS");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ExpectSame(*back, Sample());
  auto empty = DecodeTokenFile(EncodeTokenFile({}), "TOKENS");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

TEST(TokenFileTest, GoldenLayout) {
  std::vector<TokenRecord> one = {Sample()[1]};
  std::string bytes = EncodeTokenFile(one);
  EXPECT_EQ(bytes.substr(0, bytes.rfind("crc32c ")),
            "gnomon-tokens 1\ntoken root admin * 5 " + HashToHex(HashTokenSecret("secret-b")) + "\n");
  EXPECT_EQ(bytes.size() - bytes.rfind("crc32c "), 16u);  // "crc32c " + 8 hex + "\n"
}

TEST(TokenFileTest, NoSecretIsStored) {
  std::string bytes = EncodeTokenFile(Sample());
  EXPECT_EQ(bytes.find("secret-a"), std::string::npos);
}

TEST(TokenFileTest, EveryFlippedByteIsCaught) {
  std::string good = EncodeTokenFile(Sample());
  for (size_t i = 0; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] = static_cast<char>(bad[i] ^ 0x01);
    auto r = DecodeTokenFile(bad, "TOKENS");
    EXPECT_FALSE(r.ok()) << "flip at " << i;
    if (!r.ok()) EXPECT_TRUE(r.status().IsCorruption()) << r.status().ToString();
  }
}

TEST(TokenFileTest, TruncationIsCaught) {
  std::string good = EncodeTokenFile(Sample());
  for (size_t n = 0; n < good.size(); ++n) {
    auto r = DecodeTokenFile(good.substr(0, n), "TOKENS");
    EXPECT_FALSE(r.ok()) << "cut at " << n;
  }
}

TEST(TokenFileTest, SaveAndLoadThroughEnv) {
  port::MemEnv env;
  auto none = LoadTokenFile(&env, "/data");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  ASSERT_TRUE(SaveTokenFile(&env, "/data", Sample()).ok());
  auto back = LoadTokenFile(&env, "/data");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ExpectSame(*back, Sample());
  EXPECT_FALSE(env.FileExists("/data/TOKENS.tmp"));
}

}  // namespace
}  // namespace gnomon::server::auth

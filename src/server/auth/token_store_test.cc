#include "src/server/auth/token_store.h"

#include <gtest/gtest.h>

#include "src/port/mem_env.h"
#include "src/server/auth/token_file.h"

namespace gnomon::server::auth {
namespace {

TEST(TokenStoreTest, CreateAuthenticateRevoke) {
  port::MemEnv env;
  auto store = TokenStore::Open(&env, "/data");
  ASSERT_TRUE(store.ok());
  auto created = (*store)->Create("loader", Access::kWrite, {"b", "a", "a"});
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  EXPECT_EQ(created->record.databases, (std::vector<std::string>{"a", "b"}));
  auto who = (*store)->Authenticate(created->secret);
  ASSERT_TRUE(who.ok());
  EXPECT_EQ(who->name, "loader");
  EXPECT_EQ(who->access, Access::kWrite);
  EXPECT_TRUE((*store)->Authenticate("gnomon_wrong").status().IsNotFound());
  EXPECT_TRUE((*store)->Authenticate("").status().IsNotFound());

  ASSERT_TRUE((*store)->Revoke("loader").ok());
  EXPECT_TRUE((*store)->Authenticate(created->secret).status().IsNotFound());
  EXPECT_TRUE((*store)->Revoke("loader").IsNotFound());
}

TEST(TokenStoreTest, ChangesPersistAcrossReopen) {
  port::MemEnv env;
  std::string secret;
  {
    auto store = TokenStore::Open(&env, "/data");
    ASSERT_TRUE(store.ok());
    auto a = (*store)->Create("a", Access::kAdmin, {});
    ASSERT_TRUE(a.ok());
    secret = a->secret;
    ASSERT_TRUE((*store)->Create("b", Access::kRead, {"x"}).ok());
    ASSERT_TRUE((*store)->Revoke("b").ok());
  }
  auto store = TokenStore::Open(&env, "/data");
  ASSERT_TRUE(store.ok());
  ASSERT_EQ((*store)->size(), 1u);
  EXPECT_EQ((*store)->List()[0].name, "a");
  EXPECT_TRUE((*store)->Authenticate(secret).ok());
}

TEST(TokenStoreTest, RejectsBadRequests) {
  port::MemEnv env;
  auto store = TokenStore::Open(&env, "/data");
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE((*store)->Create("a", Access::kRead, {}).ok());
  EXPECT_EQ((*store)->Create("a", Access::kRead, {}).status().code(), Status::Code::kAlreadyExists);
  EXPECT_TRUE((*store)->Create("bad name", Access::kRead, {}).status().IsInvalidArgument());
  EXPECT_TRUE((*store)->Create("b", Access::kRead, {"../x"}).status().IsInvalidArgument());
  EXPECT_TRUE((*store)->Create("c", Access::kAdmin, {"db"}).status().IsInvalidArgument());
  EXPECT_EQ((*store)->size(), 1u);
}

TEST(TokenStoreTest, CorruptFileFailsOpen) {
  port::MemEnv env;
  ASSERT_TRUE(env.CreateDirs("/data").ok());
  ASSERT_TRUE(port::WriteFileAtomic(&env, "/data/TOKENS", "gnomon-tokens 1\ngarbage\n", "").ok());
  auto store = TokenStore::Open(&env, "/data");
  ASSERT_FALSE(store.ok());
  EXPECT_TRUE(store.status().IsCorruption());
}

}  // namespace
}  // namespace gnomon::server::auth

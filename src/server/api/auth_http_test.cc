// Authentication and authorization per endpoint kind, through the router as the server runs it:
// 401 without a (valid) token, 403 when the token may not, the handler's answer when it may.
#include <gtest/gtest.h>

#include "src/port/mem_env.h"
#include "src/query/query_engine.h"
#include "src/server/api/api_test_util.h"
#include "src/server/api/sql_endpoint.h"

namespace gnomon::server::api {
namespace {

using auth::Access;
using http::Method;
using Headers = std::vector<std::pair<std::string, std::string>>;

class AuthHttpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = auth::TokenStore::Open(&env_, "/data");
    ASSERT_TRUE(store.ok());
    store_ = std::move(*store);
    f_.ctx.auth_required = true;
    f_.ctx.tokens = store_.get();
    query_ = query::QueryEngine::Create(&f_.engine, {});
    f_.ctx.sql_handler = MakeSqlEndpoint(query_.get());
    admin_ = Create("root", Access::kAdmin, {});
    writer_ = Create("loader", Access::kWrite, {"bench"});
    reader_ = Create("viewer", Access::kRead, {});
    ASSERT_TRUE(f_.engine.CreateDatabase("bench", {}).ok());
    ASSERT_TRUE(f_.engine.CreateDatabase("secret", {}).ok());
  }

  std::string Create(const std::string& name, Access access, std::vector<std::string> dbs) {
    auto t = store_->Create(name, access, std::move(dbs));
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    return t.ok() ? t->secret : "";
  }
  static Headers As(const std::string& token) { return {{"Authorization", "Token " + token}}; }
  // Runs the request, and a streamed answer's producer as the session would.
  http::Response Call(Method m, const std::string& target, const Headers& headers,
                      std::string body = "") {
    http::Response r = f_.Call(m, target, std::move(body), headers);
    if (r.stream) {
      struct Collect : http::ChunkSink {
        std::string bytes;
        Status Write(std::string_view b) override {
          bytes += b;
          return Status::OK();
        }
      } sink;
      http::StreamProducer producer = std::move(r.stream);
      r.stream = nullptr;
      EXPECT_TRUE(producer(&r, &sink).ok());
      if (!sink.bytes.empty()) r.body = sink.bytes;
    }
    return r;
  }

  port::MemEnv env_;
  std::unique_ptr<auth::TokenStore> store_;
  ApiFixture f_;
  std::unique_ptr<query::QueryEngine> query_;
  std::string admin_, writer_, reader_;
};

constexpr char kLine[] = "cpu,host=a v=1 1700000000000000000";

TEST_F(AuthHttpTest, EveryEndpointButPingAndHealthNeedsAToken) {
  struct Case { Method method; std::string target; };
  std::vector<Case> guarded = {
      {Method::kPost, "/write?db=bench"},        {Method::kPost, "/api/v2/write?bucket=bench"},
      {Method::kPost, "/api/v3/write_lp?db=bench"}, {Method::kGet, "/query?q=SHOW+DATABASES"},
      {Method::kGet, "/v1/sql?db=bench&sql=SHOW+TABLES"}, {Method::kGet, "/metrics"},
      {Method::kPost, "/v1/admin/flush"},         {Method::kGet, "/v1/admin/tokens"},
      {Method::kPost, "/v1/admin/tokens?name=x&access=read"},
      {Method::kDelete, "/v1/admin/tokens?name=root"}};
  for (const auto& c : guarded) {
    for (const Headers& h : {Headers{}, Headers{{"Authorization", "Token gnomon_nope"}},
                             Headers{{"Authorization", "Digest x"}}}) {
      auto r = Call(c.method, c.target, h, kLine);
      EXPECT_EQ(r.status, 401) << c.target << " " << r.body;
      bool has_challenge = false;
      for (const auto& [k, v] : r.headers) has_challenge |= k == "WWW-Authenticate";
      EXPECT_TRUE(has_challenge) << c.target;
      EXPECT_EQ(r.content_type, "application/json");
    }
  }
  EXPECT_EQ(f_.engine.rows_total(), 0u);
  EXPECT_EQ(store_->size(), 3u);
  EXPECT_EQ(Call(Method::kGet, "/ping", {}).status, 204);
  EXPECT_EQ(Call(Method::kGet, "/health", {}).status, 200);
}

TEST_F(AuthHttpTest, UnknownDatabaseLooksLikeAnyOtherWithoutAToken) {
  auto missing = Call(Method::kGet, "/v1/sql?db=nosuch&sql=SELECT+*+FROM+cpu", {});
  auto existing = Call(Method::kGet, "/v1/sql?db=secret&sql=SELECT+*+FROM+cpu", {});
  EXPECT_EQ(missing.status, 401);
  EXPECT_EQ(missing.body, existing.body);
  // A token scoped elsewhere gets 403 for both, not 404 for one.
  auto scoped_missing = Call(Method::kGet, "/v1/sql?db=nosuch&sql=SELECT+*+FROM+cpu", As(writer_));
  auto scoped_existing = Call(Method::kGet, "/v1/sql?db=secret&sql=SELECT+*+FROM+cpu", As(writer_));
  EXPECT_EQ(scoped_missing.status, 403) << scoped_missing.body;
  EXPECT_EQ(scoped_existing.status, 403) << scoped_existing.body;
}

TEST_F(AuthHttpTest, WritesNeedWriteAccessToTheirDatabase) {
  const std::vector<std::string> targets = {"/write?db=", "/api/v2/write?bucket=",
                                            "/api/v3/write_lp?db="};
  for (const auto& t : targets) {
    EXPECT_EQ(Call(Method::kPost, t + "bench", As(reader_), kLine).status, 403) << t;
    EXPECT_EQ(Call(Method::kPost, t + "other", As(writer_), kLine).status, 403) << t;
    EXPECT_EQ(Call(Method::kPost, t + "bench", As(writer_), kLine).status, 204) << t;
    EXPECT_EQ(Call(Method::kPost, t + "other", As(admin_), kLine).status, 204) << t;
  }
  auto v2 = Call(Method::kPost, "/api/v2/write?bucket=bench", As(reader_), kLine);
  EXPECT_NE(v2.body.find("\"code\":\"forbidden\""), std::string::npos) << v2.body;
  EXPECT_EQ(f_.engine.rows_total(), 6u);
}

TEST_F(AuthHttpTest, EveryHeaderFormIsAccepted) {
  auto basic = [](const std::string& user_and_token) {
    static const char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    size_t i = 0;
    for (; i + 2 < user_and_token.size(); i += 3) {
      uint32_t n = (uint8_t)user_and_token[i] << 16 | (uint8_t)user_and_token[i + 1] << 8 |
                   (uint8_t)user_and_token[i + 2];
      for (int s = 18; s >= 0; s -= 6) out.push_back(kB64[(n >> s) & 63]);
    }
    if (i < user_and_token.size()) {
      uint32_t n = (uint8_t)user_and_token[i] << 16;
      if (i + 1 < user_and_token.size()) n |= (uint8_t)user_and_token[i + 1] << 8;
      out.push_back(kB64[(n >> 18) & 63]);
      out.push_back(kB64[(n >> 12) & 63]);
      out += i + 1 < user_and_token.size() ? std::string(1, kB64[(n >> 6) & 63]) + "=" : "==";
    }
    return "Basic " + out;
  };
  const std::vector<Headers> forms = {{{"Authorization", "Token " + writer_}},
                                      {{"Authorization", "Bearer " + writer_}},
                                      {{"Authorization", basic("tsbs:" + writer_)}}};
  for (const auto& h : forms) {
    EXPECT_EQ(Call(Method::kPost, "/write?db=bench", h, kLine).status, 204) << h[0].second;
  }
  EXPECT_EQ(Call(Method::kPost, "/write?db=bench&u=tsbs&p=" + writer_, {}, kLine).status, 204);
  EXPECT_EQ(Call(Method::kPost, "/write?db=bench&u=tsbs&p=wrong", {}, kLine).status, 401);
}

TEST_F(AuthHttpTest, InfluxqlStatementsAreCheckedBeforeAnyRuns) {
  auto list = Call(Method::kGet, "/query?q=SHOW+DATABASES", As(writer_));
  ASSERT_EQ(list.status, 200) << list.body;
  EXPECT_NE(list.body.find("bench"), std::string::npos);
  EXPECT_EQ(list.body.find("secret"), std::string::npos) << list.body;  // only its databases
  auto drop = Call(Method::kGet, "/query?q=CREATE+DATABASE+bench;DROP+DATABASE+secret", As(writer_));
  EXPECT_EQ(drop.status, 403) << drop.body;
  EXPECT_NE(drop.body.find("error authorizing query"), std::string::npos);
  EXPECT_TRUE(f_.engine.DatabaseExists("secret"));
  EXPECT_EQ(Call(Method::kGet, "/query?q=CREATE+DATABASE+x", As(reader_)).status, 403);
  EXPECT_EQ(Call(Method::kGet, "/query?q=CREATE+DATABASE+bench", As(writer_)).status, 200);
  EXPECT_EQ(Call(Method::kGet, "/query?q=SHOW+MEASUREMENTS&db=bench", As(reader_)).status, 200);
}

TEST_F(AuthHttpTest, SqlChecksEveryDatabaseItTouches) {
  EXPECT_EQ(Call(Method::kGet, "/v1/sql?db=bench&sql=SHOW+TABLES", As(writer_)).status, 200);
  EXPECT_EQ(Call(Method::kGet, "/v1/sql?db=secret&sql=SHOW+TABLES", As(writer_)).status, 403);
  // A database named in the statement is checked as well as db=.
  auto cross = Call(Method::kGet, "/v1/sql?db=bench&sql=SELECT+*+FROM+secret.cpu", As(writer_));
  EXPECT_EQ(cross.status, 403) << cross.body;
  EXPECT_EQ(Call(Method::kGet, "/v1/sql?db=bench&sql=DROP+DATABASE+secret", As(writer_)).status, 403);
  EXPECT_EQ(Call(Method::kGet, "/v1/sql?db=bench&sql=CREATE+DATABASE+z", As(reader_)).status, 403);
  EXPECT_EQ(Call(Method::kGet, "/v1/sql?db=bench&sql=CREATE+DATABASE+z", As(admin_)).status, 200);
  auto shown = Call(Method::kGet, "/v1/sql?db=bench&sql=SHOW+DATABASES", As(writer_));
  ASSERT_EQ(shown.status, 200);
  EXPECT_EQ(shown.body.find("secret"), std::string::npos) << shown.body;
}

TEST_F(AuthHttpTest, AdminEndpointsNeedAdmin) {
  EXPECT_EQ(Call(Method::kPost, "/v1/admin/flush", As(writer_)).status, 403);
  EXPECT_EQ(Call(Method::kGet, "/v1/admin/tokens", As(writer_)).status, 403);
  EXPECT_EQ(Call(Method::kPost, "/v1/admin/flush", As(admin_)).status, 200);
  EXPECT_EQ(Call(Method::kGet, "/metrics", As(reader_)).status, 200);
}

TEST_F(AuthHttpTest, TokensCreatedAndRevokedOverHttpTakeEffectAtOnce) {
  auto created = Call(Method::kPost, "/v1/admin/tokens?name=ci&access=write&db=bench&db=ci",
                      As(admin_));
  ASSERT_EQ(created.status, 201) << created.body;
  size_t at = created.body.find("\"token\":\"") + 9;
  std::string secret = created.body.substr(at, created.body.find('"', at) - at);
  EXPECT_EQ(secret.rfind("gnomon_", 0), 0u);
  EXPECT_EQ(Call(Method::kPost, "/write?db=ci", As(secret), kLine).status, 204);
  auto list = Call(Method::kGet, "/v1/admin/tokens", As(admin_));
  EXPECT_NE(list.body.find("\"name\":\"ci\""), std::string::npos);
  EXPECT_EQ(list.body.find(secret), std::string::npos);  // secrets are never listed
  EXPECT_EQ(Call(Method::kPost, "/v1/admin/tokens?name=ci&access=read", As(admin_)).status, 409);
  EXPECT_EQ(Call(Method::kPost, "/v1/admin/tokens?name=x&access=root", As(admin_)).status, 400);
  EXPECT_EQ(Call(Method::kDelete, "/v1/admin/tokens?name=ci", As(admin_)).status, 200);
  EXPECT_EQ(Call(Method::kPost, "/write?db=ci", As(secret), kLine).status, 401);
  EXPECT_EQ(Call(Method::kDelete, "/v1/admin/tokens?name=ci", As(admin_)).status, 404);
}

TEST_F(AuthHttpTest, AuthOffLeavesEverythingOpen) {
  f_.ctx.auth_required = false;
  EXPECT_EQ(Call(Method::kPost, "/write?db=bench", {}, kLine).status, 204);
  EXPECT_EQ(Call(Method::kGet, "/v1/sql?db=secret&sql=SHOW+TABLES", {}).status, 200);
}

}  // namespace
}  // namespace gnomon::server::api

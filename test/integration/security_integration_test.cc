// Security end to end with the real binary: `gnomon token create` on a stopped data directory,
// a server with --auth answering each header form, tokens created and revoked over HTTP (by the
// CLI's --url mode) taking effect at once, and HTTPS checked by curl against a self-signed
// certificate made by the openssl CLI.
#include <gtest/gtest.h>

#include <signal.h>

#include <cstdio>
#include <string>

#include "src/server/http/http_test_client.h"
#include "test/integration/server_process.h"

namespace gnomon::test {
namespace {

using server::http::HttpRequestOnce;
using Headers = std::vector<std::pair<std::string, std::string>>;

const std::string kBinary = std::string(GNOMON_BINARY_DIR) + "/gnomon";

// Runs a shell command; its stdout and exit status.
std::pair<std::string, int> Shell(const std::string& command) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  if (p == nullptr) return {"", -1};
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  int status = pclose(p);
  return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

std::string LastLine(const std::string& text) {
  std::string t = text;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  return t.substr(t.rfind('\n') == std::string::npos ? 0 : t.rfind('\n') + 1);
}

bool Have(const std::string& tool) { return Shell("command -v " + tool + " >/dev/null 2>&1").second == 0; }

class SecurityIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = MakeTempDir("gnomon-sec");
    ASSERT_FALSE(dir_.empty());
  }
  void TearDown() override {
    server_.reset();
    RemoveTree(dir_);
  }
  std::string CreateToken(const std::string& args) {
    auto [out, rc] = Shell(kBinary + " token create --data-dir " + dir_ + "/data " + args);
    EXPECT_EQ(rc, 0) << out;
    return LastLine(out);
  }
  void StartServer(std::vector<std::string> args) {
    args.insert(args.begin(), {"--wal-sync", "none"});
    server_ = std::make_unique<ServerProcess>(kBinary, dir_ + "/data", args);
    gnomon::Status s = server_->Start();
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  int Code(std::string_view method, std::string_view target, const Headers& h = {},
             std::string_view body = "cpu,host=a v=1 1700000000000000000") {
    auto r = HttpRequestOnce("127.0.0.1", server_->port(), method, target, body, h);
    EXPECT_TRUE(r.ok());
    return r.ok() ? r->status : -1;
  }

  std::string dir_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(SecurityIntegrationTest, TokensFromTheCliOnAnAuthServer) {
  const std::string admin = CreateToken("--name root --access admin");
  const std::string writer = CreateToken("--name loader --access write --db bench");
  ASSERT_EQ(admin.rfind("gnomon_", 0), 0u) << admin;
  ASSERT_EQ(writer.rfind("gnomon_", 0), 0u) << writer;
  auto [listed, list_rc] = Shell(kBinary + " token list --data-dir " + dir_ + "/data");
  EXPECT_EQ(list_rc, 0);
  EXPECT_NE(listed.find("loader"), std::string::npos);
  EXPECT_EQ(listed.find(writer), std::string::npos);

  StartServer({"--auth"});
  // While the server runs, the data directory is locked against the offline CLI.
  EXPECT_NE(Shell(kBinary + " token create --data-dir " + dir_ + "/data --name x 2>&1").second, 0);

  EXPECT_EQ(Code("GET", "/ping"), 204);
  EXPECT_EQ(Code("GET", "/health"), 200);
  EXPECT_EQ(Code("POST", "/write?db=bench"), 401);
  EXPECT_EQ(Code("POST", "/write?db=bench", {{"Authorization", "Token " + writer}}), 204);
  EXPECT_EQ(Code("POST", "/api/v2/write?bucket=bench", {{"Authorization", "Bearer " + writer}}), 204);
  EXPECT_EQ(Code("POST", "/write?db=bench&u=tsbs&p=" + writer), 204);
  auto [basic, b64_rc] = Shell("printf 'tsbs:%s' " + writer + " | base64 -w0");
  ASSERT_EQ(b64_rc, 0);
  EXPECT_EQ(Code("POST", "/api/v3/write_lp?db=bench", {{"Authorization", "Basic " + basic}}), 204);
  EXPECT_EQ(Code("POST", "/write?db=other", {{"Authorization", "Token " + writer}}), 403);
  EXPECT_EQ(Code("POST", "/v1/admin/flush", {{"Authorization", "Token " + writer}}, ""), 403);
  EXPECT_EQ(Code("GET", "/v1/sql?db=bench&sql=SELECT+count(*)+FROM+cpu",
                   {{"Authorization", "Token " + writer}}, ""),
            200);

  // Over HTTP: a new token works at once, and stops working once revoked.
  const std::string url = " --url " + server_->url() + " --token " + admin;
  auto [created, create_rc] = Shell(kBinary + " token create --name ci --access read" + url);
  ASSERT_EQ(create_rc, 0) << created;
  const std::string reader = LastLine(created);
  EXPECT_EQ(Code("GET", "/v1/sql?db=bench&sql=SHOW+TABLES", {{"Authorization", "Token " + reader}}, ""), 200);
  EXPECT_EQ(Code("POST", "/write?db=bench", {{"Authorization", "Token " + reader}}), 403);
  EXPECT_EQ(Shell(kBinary + " token revoke --name loader" + url).second, 0);
  EXPECT_EQ(Code("POST", "/write?db=bench", {{"Authorization", "Token " + writer}}), 401);
  EXPECT_NE(Shell(kBinary + " token list --url " + server_->url() + " --token " + writer + " 2>&1").second, 0);

  // Revocation is in the token file: it survives a restart.
  ASSERT_TRUE(server_->Stop(SIGTERM).ok());
  StartServer({"--auth"});
  EXPECT_EQ(Code("POST", "/write?db=bench", {{"Authorization", "Token " + writer}}), 401);
  EXPECT_EQ(Code("GET", "/v1/sql?db=bench&sql=SHOW+TABLES", {{"Authorization", "Token " + reader}}, ""), 200);
}

TEST_F(SecurityIntegrationTest, BadIdentifiersAre400) {
  StartServer({});
  auto reply = HttpRequestOnce("127.0.0.1", server_->port(), "POST", "/write?db=..", "cpu v=1 1");
  ASSERT_TRUE(reply.ok());
  EXPECT_EQ(reply->status, 400);
  EXPECT_NE(reply->body.find("invalid database name"), std::string::npos) << reply->body;
  EXPECT_EQ(Code("POST", "/write?db=db", {}, "../../etc v=1 1"), 400);
  EXPECT_EQ(Code("POST", "/write?db=db", {}, std::string(201, 't') + " v=1 1"), 400);
  EXPECT_EQ(Code("POST", "/write?db=db", {}, std::string(200, 't') + " v=1 1"), 204);
}

TEST_F(SecurityIntegrationTest, HttpsWithCurl) {
  if (!Have("curl") || !Have("openssl")) GTEST_SKIP() << "needs the curl and openssl commands";
  const std::string cert = dir_ + "/cert.pem";
  const std::string key = dir_ + "/key.pem";
  auto [gen, gen_rc] =
      Shell("openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost -addext "
          "subjectAltName=IP:127.0.0.1,DNS:localhost -keyout " + key + " -out " + cert + " 2>&1");
  ASSERT_EQ(gen_rc, 0) << gen;
  const std::string token = CreateToken("--name root --access admin");
  StartServer({"--auth", "--tls-cert", cert, "--tls-key", key});
  ASSERT_EQ(server_->url().rfind("https://", 0), 0u) << server_->url();
  const std::string curl = "curl -sS --cacert " + cert + " -o /dev/null -w '%{http_code}' ";
  EXPECT_EQ(Shell(curl + server_->url() + "/ping").first, "204");
  EXPECT_EQ(Shell(curl + "-XPOST '" + server_->url() + "/write?db=tls' --data-binary 'cpu v=1 1'").first, "401");
  EXPECT_EQ(Shell(curl + "-H 'Authorization: Token " + token + "' -XPOST '" + server_->url() +
                "/write?db=tls' --data-binary 'cpu v=1 1'").first,
            "204");
  auto [body, rc] = Shell("curl -sS --cacert " + cert + " -u tsbs:" + token + " '" + server_->url() +
                        "/v1/sql?db=tls' --data-urlencode 'sql=SELECT v FROM cpu'");
  EXPECT_EQ(rc, 0);
  EXPECT_NE(body.find("\"rows\":[[1]]"), std::string::npos) << body;
  // Without the CA curl refuses the certificate; plain HTTP gets no answer from the TLS port.
  EXPECT_NE(Shell("curl -sS -o /dev/null " + server_->url() + "/ping 2>/dev/null").second, 0);
  std::string plain = "http" + server_->url().substr(5);
  EXPECT_NE(Shell("curl -sS -o /dev/null --max-time 10 " + plain + "/ping 2>/dev/null").second, 0);
}

}  // namespace
}  // namespace gnomon::test

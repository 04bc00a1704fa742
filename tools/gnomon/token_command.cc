// `gnomon token create|list|revoke`: API tokens (docs/security.md), either in a stopped data
// directory (--data-dir, which must not be in use by a server: its LOCK is taken) or on a running
// server through its admin endpoints (--url URL --token ADMIN_TOKEN), which take effect at once.
// `create` prints the new secret as its last line; it is shown only this once.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "src/bench/http_client.h"
#include "src/bench/url.h"
#include "src/port/env.h"
#include "src/server/auth/token_store.h"
#include "tools/gnomon/commands.h"

namespace gnomon::tools {
namespace {

struct TokenFlags {
  std::string data_dir;
  std::string url;
  std::string admin_token;
  std::string name;
  std::string access = "read";
  std::vector<std::string> databases;
};

int Fail(const std::string& message) {
  std::fprintf(stderr, "gnomon token: %s\n", message.c_str());
  return 1;
}

std::string DatabasesText(const server::auth::TokenRecord& t) {
  if (t.all_databases()) return "*";
  std::string out;
  for (const auto& db : t.databases) out += (out.empty() ? "" : ",") + db;
  return out;
}

// Local mode: the store of a data directory no server has open.
int RunLocal(const std::string& verb, const TokenFlags& f) {
  port::Env* env = port::Env::Default();
  if (Status s = env->CreateDirs(f.data_dir); !s.ok()) return Fail(s.ToString());
  auto lock = env->LockFile(port::JoinPath(f.data_dir, "LOCK"));
  if (!lock.ok()) {
    return Fail(f.data_dir + " is in use by a running server; use --url URL --token ADMIN_TOKEN (" +
                lock.status().message() + ")");
  }
  auto store = server::auth::TokenStore::Open(env, f.data_dir);
  if (!store.ok()) return Fail(store.status().ToString());
  if (verb == "create") {
    auto access = server::auth::ParseAccess(f.access);
    if (!access.ok()) return Fail(access.status().message());
    auto created = (*store)->Create(f.name, *access, f.databases);
    if (!created.ok()) return Fail(created.status().message());
    std::printf("created token '%s' (%s, databases %s); it is shown only now:\n%s\n",
                created->record.name.c_str(), f.access.c_str(),
                DatabasesText(created->record).c_str(), created->secret.c_str());
  } else if (verb == "list") {
    std::printf("%-24s %-6s %-20s %s\n", "NAME", "ACCESS", "DATABASES", "CREATED_NS");
    for (const auto& t : (*store)->List()) {
      std::printf("%-24s %-6s %-20s %lld\n", t.name.c_str(),
                  std::string(server::auth::AccessName(t.access)).c_str(),
                  DatabasesText(t).c_str(), static_cast<long long>(t.created_ns));
    }
  } else {
    if (Status s = (*store)->Revoke(f.name); !s.ok()) return Fail(s.message());
    std::printf("revoked token '%s'\n", f.name.c_str());
  }
  return 0;
}

// Remote mode: the same verbs through /v1/admin/tokens.
int RunRemote(const std::string& verb, const TokenFlags& f) {
  auto url = bench::ParseUrl(f.url);
  if (!url.ok()) return Fail(url.status().message());
  bench::HttpClient client(*url);
  std::string target = "/v1/admin/tokens";
  bench::HttpRequest request;
  request.method = verb == "create" ? "POST" : verb == "list" ? "GET" : "DELETE";
  if (verb != "list") target += "?name=" + bench::FormUrlEncode(f.name);
  if (verb == "create") {
    target += "&access=" + bench::FormUrlEncode(f.access);
    for (const auto& db : f.databases) target += "&db=" + bench::FormUrlEncode(db);
  }
  std::string authorization = "Token " + f.admin_token;
  request.target = target;
  request.authorization = authorization;
  auto response = client.Send(request);
  if (!response.ok()) return Fail(response.status().ToString());
  if (Status s = bench::ExpectSuccess(std::string(request.method) + " " + target, *response); !s.ok()) {
    return Fail(s.message());
  }
  if (verb == "create") {
    // {"token":"gnomon_<hex>","info":{...}}: the secret is hex, so it needs no unescaping.
    size_t at = response->body.find("\"token\":\"");
    if (at == std::string::npos) return Fail("unexpected answer: " + response->body);
    at += 9;
    std::printf("%s\n%s\n", response->body.c_str(),
                response->body.substr(at, response->body.find('"', at) - at).c_str());
  } else {
    std::printf("%s\n", response->body.c_str());
  }
  return 0;
}

void AddVerb(CLI::App* token, const std::string& verb, const std::string& help,
             const std::shared_ptr<TokenFlags>& f) {
  auto* cmd = token->add_subcommand(verb, help);
  auto* dir = cmd->add_option("--data-dir", f->data_dir, "A stopped server's data directory");
  auto* url = cmd->add_option("--url", f->url, "A running server, e.g. http://127.0.0.1:4000");
  cmd->add_option("--token", f->admin_token, "An admin token (with --url)");
  dir->excludes(url);
  if (verb != "list") cmd->add_option("--name", f->name, "Token name")->required();
  if (verb == "create") {
    cmd->add_option("--access", f->access, "read, write (implies read) or admin")
        ->check(CLI::IsMember({"read", "write", "admin"}))
        ->capture_default_str();
    cmd->add_option("--db", f->databases, "Limit to these databases (default: all)");
  }
  cmd->callback([verb, f, dir, url] {
    if (!dir->count() && !url->count()) return SetExitCode(Fail("give --data-dir DIR or --url URL"));
    if (url->count() && f->admin_token.empty()) {
      return SetExitCode(Fail("--url needs --token ADMIN_TOKEN"));
    }
    SetExitCode(url->count() ? RunRemote(verb, *f) : RunLocal(verb, *f));
  });
}

}  // namespace

void RegisterTokenCommand(CLI::App& app) {
  auto flags = std::make_shared<TokenFlags>();
  auto* token = app.add_subcommand("token", "Create, list and revoke API tokens (docs/security.md)");
  token->require_subcommand(1);
  AddVerb(token, "create", "Create a token; prints its secret as the last line", flags);
  AddVerb(token, "list", "List tokens (names, access, databases; never secrets)", flags);
  AddVerb(token, "revoke", "Revoke a token by name", flags);
}

}  // namespace gnomon::tools

#include "src/server/auth/token_store.h"

#include <algorithm>

#include "src/base/time_util.h"
#include "src/server/auth/token_file.h"
#include "src/storage/identifier.h"

namespace gnomon::server::auth {

Result<std::unique_ptr<TokenStore>> TokenStore::Open(port::Env* env, std::string data_dir) {
  GNOMON_ASSIGN_OR_RETURN(auto tokens, LoadTokenFile(env, data_dir));
  return std::unique_ptr<TokenStore>(new TokenStore(env, std::move(data_dir), std::move(tokens)));
}

Result<TokenRecord> TokenStore::Authenticate(std::string_view secret) const {
  const TokenHash hash = HashTokenSecret(secret);
  std::shared_lock lock(mu_);
  const TokenRecord* found = nullptr;
  for (const auto& t : tokens_) {
    // No early exit: the time taken depends on the number of tokens only.
    if (TokenHashEquals(t.hash, hash)) found = &t;
  }
  if (found == nullptr) return Status::NotFound("unknown token");
  return *found;
}

Result<CreatedToken> TokenStore::Create(const std::string& name, Access access,
                                        std::vector<std::string> databases) {
  GNOMON_RETURN_IF_ERROR(ValidateTokenName(name));
  for (const auto& db : databases) GNOMON_RETURN_IF_ERROR(storage::ValidateDatabaseName(db));
  if (access == Access::kAdmin && !databases.empty()) {
    return Status::InvalidArgument("admin tokens cover every database; give no databases");
  }
  std::sort(databases.begin(), databases.end());
  databases.erase(std::unique(databases.begin(), databases.end()), databases.end());
  GNOMON_ASSIGN_OR_RETURN(std::string secret, GenerateTokenSecret());
  CreatedToken created;
  created.record.name = name;
  created.record.access = access;
  created.record.databases = std::move(databases);
  created.record.created_ns = NowNanos();
  created.record.hash = HashTokenSecret(secret);
  created.secret = std::move(secret);

  std::lock_guard write_lock(write_mu_);
  std::vector<TokenRecord> next = List();
  for (const auto& t : next) {
    if (t.name == name) return Status::AlreadyExists("a token named '" + name + "' exists");
  }
  next.push_back(created.record);
  GNOMON_RETURN_IF_ERROR(SaveTokenFile(env_, data_dir_, next));
  std::unique_lock lock(mu_);
  tokens_ = std::move(next);
  return created;
}

Status TokenStore::Revoke(const std::string& name) {
  std::lock_guard write_lock(write_mu_);
  std::vector<TokenRecord> next = List();
  auto it = std::find_if(next.begin(), next.end(), [&](const auto& t) { return t.name == name; });
  if (it == next.end()) return Status::NotFound("no token named '" + name + "'");
  next.erase(it);
  GNOMON_RETURN_IF_ERROR(SaveTokenFile(env_, data_dir_, next));
  std::unique_lock lock(mu_);
  tokens_ = std::move(next);
  return Status::OK();
}

std::vector<TokenRecord> TokenStore::List() const {
  std::shared_lock lock(mu_);
  return tokens_;
}

size_t TokenStore::size() const {
  std::shared_lock lock(mu_);
  return tokens_.size();
}

}  // namespace gnomon::server::auth

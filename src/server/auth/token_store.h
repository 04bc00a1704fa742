// TokenStore: the tokens of one data directory, in memory and in its token file. The server
// authenticates every request against it; the admin endpoints and `gnomon token` change it, and a
// change is in the file (atomically replaced) before it is visible, so it takes effect at once
// and survives a restart.
//
// Thread-safe: Authenticate runs on many request threads while Create/Revoke may run.
#pragma once

#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "src/base/result.h"
#include "src/port/env.h"
#include "src/server/auth/token.h"

namespace gnomon::server::auth {

struct CreatedToken {
  TokenRecord record;
  std::string secret;  // shown once; only its hash is stored
};

class TokenStore {
 public:
  // Loads `data_dir`'s token file (none yet: no tokens). `env` must outlive the store.
  static Result<std::unique_ptr<TokenStore>> Open(port::Env* env, std::string data_dir);

  // The token whose secret this is; NotFound when none is (the caller answers 401 without
  // saying more). Every stored hash is compared, in constant time, whatever matches.
  Result<TokenRecord> Authenticate(std::string_view secret) const;

  // A new token with a fresh secret. AlreadyExists for a taken name; InvalidArgument for a bad
  // name or database, or an admin token limited to databases (admin covers every database).
  Result<CreatedToken> Create(const std::string& name, Access access,
                              std::vector<std::string> databases);
  // NotFound when no token has this name.
  Status Revoke(const std::string& name);

  std::vector<TokenRecord> List() const;  // in creation order
  size_t size() const;

 private:
  TokenStore(port::Env* env, std::string data_dir, std::vector<TokenRecord> tokens)
      : env_(env), data_dir_(std::move(data_dir)), tokens_(std::move(tokens)) {}

  port::Env* const env_;
  const std::string data_dir_;
  std::mutex write_mu_;                // serialises Create/Revoke (file, then memory)
  mutable std::shared_mutex mu_;       // guards tokens_
  std::vector<TokenRecord> tokens_;    // GUARDED_BY(mu_)
};

}  // namespace gnomon::server::auth

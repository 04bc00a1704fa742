// Caller: who sent a request, as the handlers see it — the token it authenticated with, or an
// unrestricted caller when the server runs without --auth.
#pragma once

#include <optional>
#include <string_view>

#include "src/query/access_check.h"
#include "src/server/auth/token.h"

namespace gnomon::server::api {

class Caller {
 public:
  static Caller Unrestricted() { return Caller(std::nullopt); }
  static Caller WithToken(auth::TokenRecord token) { return Caller(std::move(token)); }

  // OK or PermissionDenied; see auth::CheckAccess (an empty database is the server as a whole).
  Status Check(auth::Access needed, std::string_view database) const {
    return token_ ? auth::CheckAccess(*token_, needed, database) : Status::OK();
  }
  // The same rule for the SQL engine: reads need read access, changes write access.
  query::AccessCheck AccessCheck() const {
    if (!token_) return {};
    return [token = *token_](const std::string& database, bool write) {
      return auth::CheckAccess(token, write ? auth::Access::kWrite : auth::Access::kRead, database);
    };
  }
  const auth::TokenRecord* token() const { return token_ ? &*token_ : nullptr; }

 private:
  explicit Caller(std::optional<auth::TokenRecord> token) : token_(std::move(token)) {}
  std::optional<auth::TokenRecord> token_;
};

}  // namespace gnomon::server::api

#include "src/server/api/database_name.h"

#include <string>

namespace gnomon::server::api {
namespace {

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

}  // namespace

Status ValidateDatabaseName(std::string_view name) {
  if (name.empty()) return Status::InvalidArgument("database name is empty");
  if (name.size() > kMaxDatabaseNameBytes) {
    return Status::InvalidArgument("database name is longer than " +
                                   std::to_string(kMaxDatabaseNameBytes) + " bytes");
  }
  if (!IsAlnum(name[0]) && name[0] != '_') {
    return Status::InvalidArgument("invalid database name '" + std::string(name) +
                                   "': must start with a letter, digit or underscore");
  }
  for (char c : name) {
    if (!IsAlnum(c) && c != '_' && c != '-' && c != '.') {
      return Status::InvalidArgument("invalid database name '" + std::string(name) +
                                     "': only letters, digits, '_', '-' and '.' are allowed");
    }
  }
  return Status::OK();
}

}  // namespace gnomon::server::api

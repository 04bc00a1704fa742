#include "src/storage/identifier.h"

#include <string>

namespace gnomon::storage {
namespace {

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool IsControl(unsigned char c) { return c < 0x20 || c == 0x7F; }

// The name as an error message quotes it: control bytes as \xNN, at most 64 bytes.
std::string Quote(std::string_view name) {
  static const char kHex[] = "0123456789abcdef";
  std::string out = "'";
  for (unsigned char c : name.substr(0, 64)) {
    if (IsControl(c)) {
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  if (name.size() > 64) out += "...";
  return out + "'";
}

Status CheckLengthAndControl(std::string_view kind, std::string_view name, size_t max_bytes) {
  if (name.empty()) return Status::InvalidArgument(std::string(kind) + " name is empty");
  if (name.size() > max_bytes) {
    return Status::InvalidArgument(std::string(kind) + " name " + Quote(name) + " is longer than " +
                                   std::to_string(max_bytes) + " bytes");
  }
  for (unsigned char c : name) {
    if (IsControl(c)) {
      return Status::InvalidArgument("invalid " + std::string(kind) + " name " + Quote(name) +
                                     ": control characters are not allowed");
    }
  }
  return Status::OK();
}

}  // namespace

Status ValidateDatabaseName(std::string_view name) {
  if (name.empty()) return Status::InvalidArgument("database name is empty");
  if (name.size() > kMaxDatabaseNameBytes) {
    return Status::InvalidArgument("database name is longer than " +
                                   std::to_string(kMaxDatabaseNameBytes) + " bytes");
  }
  if (!IsAlnum(name[0]) && name[0] != '_') {
    return Status::InvalidArgument("invalid database name " + Quote(name) +
                                   ": must start with a letter, digit or underscore");
  }
  for (char c : name) {
    if (!IsAlnum(c) && c != '_' && c != '-' && c != '.') {
      return Status::InvalidArgument("invalid database name " + Quote(name) +
                                     ": only letters, digits, '_', '-' and '.' are allowed");
    }
  }
  return Status::OK();
}

Status ValidateTableName(std::string_view name) {
  GNOMON_RETURN_IF_ERROR(CheckLengthAndControl("table", name, kMaxTableNameBytes));
  if (name.find('/') != std::string_view::npos || name.find('\\') != std::string_view::npos) {
    return Status::InvalidArgument("invalid table name " + Quote(name) +
                                   ": '/' and '\\' are not allowed");
  }
  if (name[0] == '.') {
    return Status::InvalidArgument("invalid table name " + Quote(name) +
                                   ": names starting with '.' are reserved");
  }
  return Status::OK();
}

Status ValidateColumnName(std::string_view name) {
  return CheckLengthAndControl("column", name, kMaxColumnNameBytes);
}

}  // namespace gnomon::storage

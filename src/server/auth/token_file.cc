#include "src/server/auth/token_file.h"

#include <cstdio>

#include "src/base/crc32c.h"
#include "src/base/split.h"
#include "src/storage/identifier.h"

namespace gnomon::server::auth {
namespace {

constexpr std::string_view kHeader = "gnomon-tokens 1\n";
constexpr std::string_view kChecksumPrefix = "crc32c ";

std::string DatabasesField(const TokenRecord& t) {
  if (t.all_databases()) return "*";
  std::string out;
  for (const auto& db : t.databases) {
    if (!out.empty()) out += ',';
    out += db;
  }
  return out;
}

Status LineError(std::string_view source, size_t line, std::string_view what) {
  return Status::Corruption(std::string(source) + ":" + std::to_string(line) + ": " +
                            std::string(what));
}

bool ParseInt64(std::string_view text, int64_t* out) {
  if (text.empty() || text.size() > 19) return false;
  int64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return true;
}

// "token NAME ACCESS DATABASES CREATED_NS HASH"
Result<TokenRecord> DecodeLine(std::string_view text, std::string_view source, size_t line) {
  std::vector<std::string_view> f = SplitOn(text, ' ');
  if (f.size() != 6 || f[0] != "token") return LineError(source, line, "malformed token line");
  TokenRecord t;
  t.name = std::string(f[1]);
  if (!ValidateTokenName(t.name).ok()) return LineError(source, line, "bad token name");
  auto access = ParseAccess(f[2]);
  if (!access.ok()) return LineError(source, line, access.status().message());
  t.access = *access;
  if (f[3] != "*") {
    for (std::string_view db : SplitOn(f[3], ',')) {
      if (!storage::ValidateDatabaseName(db).ok()) {
        return LineError(source, line, "bad database name");
      }
      t.databases.emplace_back(db);
    }
  }
  if (!ParseInt64(f[4], &t.created_ns)) return LineError(source, line, "bad creation time");
  auto hash = HashFromHex(f[5]);
  if (!hash.ok()) return LineError(source, line, hash.status().message());
  t.hash = *hash;
  return t;
}

}  // namespace

std::string EncodeTokenFile(const std::vector<TokenRecord>& tokens) {
  std::string out(kHeader);
  for (const auto& t : tokens) {
    out += "token " + t.name + " " + std::string(AccessName(t.access)) + " " + DatabasesField(t) +
           " " + std::to_string(t.created_ns) + " " + HashToHex(t.hash) + "\n";
  }
  char checksum[32];
  std::snprintf(checksum, sizeof(checksum), "%08x\n", crc32c::Mask(crc32c::Value(out)));
  out += kChecksumPrefix;
  out += checksum;
  return out;
}

Result<std::vector<TokenRecord>> DecodeTokenFile(std::string_view bytes, std::string_view source) {
  if (bytes.substr(0, kHeader.size()) != kHeader) {
    return Status::Corruption(std::string(source) + ": not a token file (bad header)");
  }
  // The checksum line is the last one and covers every byte before it.
  size_t last = bytes.size() >= 2 ? bytes.rfind('\n', bytes.size() - 2) : std::string_view::npos;
  if (bytes.empty() || bytes.back() != '\n' || last == std::string_view::npos ||
      bytes.substr(last + 1, kChecksumPrefix.size()) != kChecksumPrefix) {
    return Status::Corruption(std::string(source) + ": checksum line missing (truncated file?)");
  }
  std::string_view body = bytes.substr(0, last + 1);
  std::string_view stored = bytes.substr(last + 1 + kChecksumPrefix.size());
  stored.remove_suffix(1);
  char expected[16];
  std::snprintf(expected, sizeof(expected), "%08x", crc32c::Mask(crc32c::Value(body)));
  if (stored != expected) {
    return Status::Corruption(std::string(source) + ": checksum mismatch (stored " +
                              std::string(stored) + ", computed " + expected + ")");
  }
  std::vector<TokenRecord> tokens;
  std::vector<std::string_view> lines = SplitOn(body.substr(kHeader.size()), '\n');
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;  // the split's piece after the final newline
    GNOMON_ASSIGN_OR_RETURN(auto t, DecodeLine(lines[i], source, i + 2));
    for (const auto& other : tokens) {
      if (other.name == t.name) return LineError(source, i + 2, "duplicate token name");
    }
    tokens.push_back(std::move(t));
  }
  return tokens;
}

Result<std::vector<TokenRecord>> LoadTokenFile(port::Env* env, const std::string& data_dir) {
  std::string path = port::JoinPath(data_dir, kTokenFileName);
  if (!env->FileExists(path)) return std::vector<TokenRecord>{};
  GNOMON_ASSIGN_OR_RETURN(std::string bytes, port::ReadFileToString(env, path));
  return DecodeTokenFile(bytes, path);
}

Status SaveTokenFile(port::Env* env, const std::string& data_dir,
                     const std::vector<TokenRecord>& tokens) {
  GNOMON_RETURN_IF_ERROR(env->CreateDirs(data_dir));
  return port::WriteFileAtomic(env, port::JoinPath(data_dir, kTokenFileName),
                               EncodeTokenFile(tokens), "tokens");
}

}  // namespace gnomon::server::auth

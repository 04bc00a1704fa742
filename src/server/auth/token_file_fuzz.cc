// Fuzz target over the token file decoder: DecodeTokenFile on any bytes returns a Status, never
// crashes; what it accepts re-encodes to a file that decodes to the same tokens. The same bytes
// also go through the Authorization-header parser and base64, which see untrusted request bytes.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "src/base/check.h"
#include "src/server/auth/credentials.h"
#include "src/server/auth/token.h"
#include "src/server/auth/token_file.h"

using namespace gnomon;                // NOLINT
using namespace gnomon::server::auth;  // NOLINT

namespace {

bool SameTokens(const std::vector<TokenRecord>& a, const std::vector<TokenRecord>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].name != b[i].name || a[i].access != b[i].access || a[i].databases != b[i].databases ||
        a[i].created_ns != b[i].created_ns || a[i].hash != b[i].hash) {
      return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto tokens = DecodeTokenFile(bytes, "fuzz/TOKENS");
  if (tokens.ok()) {
    const std::string encoded = EncodeTokenFile(*tokens);
    auto again = DecodeTokenFile(encoded, "fuzz/TOKENS");
    GNOMON_CHECK(again.ok());
    GNOMON_CHECK(SameTokens(*tokens, *again));
  } else {
    GNOMON_CHECK(!tokens.status().message().empty());
  }
  if (size <= 4096) {
    (void)ExtractToken(bytes, std::nullopt);
    (void)ExtractToken("", bytes);
    if (auto decoded = Base64Decode(bytes)) GNOMON_CHECK(decoded->size() <= size);
    (void)ParseAccess(bytes);
    (void)ValidateTokenName(bytes);
    (void)HashFromHex(bytes);
  }
  return 0;
}

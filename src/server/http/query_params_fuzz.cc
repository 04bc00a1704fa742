// Fuzz target: query strings and form bodies. QueryParams::Parse and UrlDecode take any bytes;
// every parsed item must be found by Get, and decoding never grows the text.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/base/check.h"
#include "src/server/http/query_params.h"

using namespace gnomon::server::http;  // NOLINT

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  GNOMON_CHECK(UrlDecode(text, true).size() <= text.size());
  GNOMON_CHECK(UrlDecode(text, false).size() <= text.size());
  QueryParams params = QueryParams::Parse(text);
  for (const auto& [key, value] : params.items()) {
    auto got = params.Get(key);
    GNOMON_CHECK(got.has_value());
    GNOMON_CHECK(params.Has(key));
    (void)params.GetOr(key, "");
  }
  return 0;
}

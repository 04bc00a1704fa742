// Fuzz target: GzipDecoder on any body returns the inflated bytes or a Status, never crashes, and
// never returns more than its limit. One decoder serves every input, as one serves a connection's
// requests, so buffer reuse across calls (and Trim) is exercised too.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/base/check.h"
#include "src/server/http/gzip_decoder.h"

using namespace gnomon;                // NOLINT
using namespace gnomon::server::http;  // NOLINT

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static GzipDecoder* decoder = new GzipDecoder();  // lives as long as the process
  std::string_view body(reinterpret_cast<const char*>(data), size);
  for (size_t limit : {size_t{0}, size_t{100}, size_t{1} << 20}) {
    auto out = decoder->Decompress(body, limit);
    if (out.ok()) {
      GNOMON_CHECK(out->size() <= limit);
    } else {
      GNOMON_CHECK(out.status().code() == Status::Code::kResourceExhausted ||
                   out.status().code() == Status::Code::kCorruption);
    }
  }
  decoder->Trim(size_t{1} << 16);
  return 0;
}

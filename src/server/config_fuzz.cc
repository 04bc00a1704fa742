// Fuzz target: ApplyToml on any text returns a Status (toml++'s parse errors included), never
// crashes or throws; a configuration it accepts validates to a Status and converts to engine
// options. Short inputs also go through the value parsers the flags share with the file.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "src/base/check.h"
#include "src/server/config.h"

using namespace gnomon;          // NOLINT
using namespace gnomon::server;  // NOLINT

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  ServerConfig config;
  Status s = ApplyToml(text, "fuzz.toml", &config);
  if (s.ok()) {
    (void)ValidateConfig(config);
    (void)ToEngineOptions(config);
  } else {
    GNOMON_CHECK(!s.message().empty());
  }
  if (size <= 256) {
    (void)ParseDuration(text);
    (void)ParseWalSync(text);
    std::string host;
    uint16_t port = 0;
    (void)SplitHostPort(text, &host, &port);
  }
  return 0;
}

// Fuzz target: DecodeManifest on any bytes returns a Status, never crashes; a manifest it accepts
// re-encodes to bytes that decode to the same manifest (and encode identically again). Each input
// is decoded as given and with its trailing checksum recomputed, so that mutations reach the body.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "src/base/check.h"
#include "src/base/coding.h"
#include "src/base/crc32c.h"
#include "src/storage/manifest.h"

using namespace gnomon;           // NOLINT
using namespace gnomon::storage;  // NOLINT

namespace {

void Check(std::string_view bytes) {
  Manifest m;
  if (!DecodeManifest(bytes, &m).ok()) return;
  const std::string encoded = EncodeManifest(m);
  Manifest again;
  GNOMON_CHECK(DecodeManifest(encoded, &again).ok());
  GNOMON_CHECK(EncodeManifest(again) == encoded);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  Check(bytes);
  if (bytes.size() >= 4) {
    EncodeFixed32(bytes.data() + bytes.size() - 4,
                  crc32c::Mask(crc32c::Value(bytes.data(), bytes.size() - 4)));
    Check(bytes);
  }
  return 0;
}

// Snapshot file framing for the series registry (docs/format/series-registry.md): a fixed header,
// the body (optionally zstd-compressed) and a CRC32C over everything before it. The body itself is
// written and read by SeriesIndex::EncodeSnapshotBody / DecodeSnapshotBody.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "src/base/result.h"

namespace gnomon::index {

inline constexpr std::string_view kSnapshotMagic = "GNMSRSNP";
constexpr uint32_t kSnapshotVersion = 1;
constexpr size_t kSnapshotHeaderSize = 32;
enum class SnapshotCompression : uint32_t { kNone = 0, kZstd = 1 };

// Wraps `body` into a complete snapshot file image.
std::string FrameSnapshot(std::string_view body, SnapshotCompression compression);

// Checks a snapshot file image (magic, version, lengths, CRC) and returns its raw body.
// `name` prefixes error messages; errors are Corruption (or Unsupported for a newer version).
Result<std::string> UnframeSnapshot(std::string_view file, std::string_view name);

}  // namespace gnomon::index

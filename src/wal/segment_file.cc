#include "src/wal/segment_file.h"

#include <algorithm>
#include <cstdio>

#include "src/base/coding.h"
#include "src/wal/wal_format.h"

namespace gnomon::wal {

namespace {
constexpr std::string_view kSuffix = ".wal";
}  // namespace

std::string SegmentFileName(uint64_t number) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%08llu", static_cast<unsigned long long>(number));
  return std::string(buf) + std::string(kSuffix);
}

bool ParseSegmentFileName(std::string_view name, uint64_t* number) {
  if (name.size() <= kSuffix.size() || !name.ends_with(kSuffix)) return false;
  std::string_view digits = name.substr(0, name.size() - kSuffix.size());
  if (digits.size() > 19) return false;  // would overflow
  uint64_t v = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  if (SegmentFileName(v) != name) return false;  // reject "1.wal", "000000001.wal"
  *number = v;
  return true;
}

Result<std::vector<SegmentFile>> ListSegments(port::Env* env, const std::string& dir) {
  auto children = env->GetChildren(dir);
  if (!children.ok()) {
    if (children.status().IsNotFound()) return std::vector<SegmentFile>{};
    return children.status();
  }
  std::vector<SegmentFile> segments;
  for (const std::string& name : *children) {
    uint64_t number;
    if (!ParseSegmentFileName(name, &number)) continue;
    SegmentFile seg;
    seg.number = number;
    seg.path = port::JoinPath(dir, name);
    GNOMON_ASSIGN_OR_RETURN(seg.size, env->GetFileSize(seg.path));
    segments.push_back(std::move(seg));
  }
  std::sort(segments.begin(), segments.end(),
            [](const SegmentFile& a, const SegmentFile& b) { return a.number < b.number; });
  return segments;
}

Result<SegmentHeader> DecodeSegmentHeader(std::string_view payload) {
  if (payload.size() != kSegmentHeaderPayloadSize) {
    return Status::Corruption("segment header of " + std::to_string(payload.size()) +
                              " bytes, expected " + std::to_string(kSegmentHeaderPayloadSize));
  }
  if (DecodeFixed32(payload.data()) != kSegmentMagic) {
    return Status::Corruption("segment header has a bad magic number");
  }
  SegmentHeader header;
  header.version = DecodeFixed32(payload.data() + 4);
  header.number = DecodeFixed64(payload.data() + 8);
  if (header.version != kFormatVersion) {
    return Status::Unsupported("WAL format version " + std::to_string(header.version) +
                               " (this build reads version " + std::to_string(kFormatVersion) +
                               ")");
  }
  return header;
}

}  // namespace gnomon::wal

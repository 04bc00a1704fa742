// RecordEncoder: frames records into the block format of wal_format.h. Pure: it appends bytes to
// a caller-owned buffer and tracks the file offset they will land at; the caller writes them.
// Not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "src/wal/wal_format.h"

namespace gnomon::wal {

class RecordEncoder {
 public:
  // `file_offset`: where the next byte appended to the file will go.
  explicit RecordEncoder(uint64_t file_offset = 0) : offset_(file_offset) {}

  // Appends the framing of `payload` (any size up to kMaxRecordSize, empty included) to *out and
  // returns the file offset just past it.
  uint64_t AddRecord(std::string_view payload, std::string* out);
  // Appends the segment header record of segment `number`.
  uint64_t AddSegmentHeader(uint64_t number, std::string* out);

  uint64_t offset() const { return offset_; }

  // The offset just past `n` payload bytes framed from `offset`, without encoding them.
  static uint64_t EndOffset(uint64_t offset, uint64_t n);

 private:
  void AddFragments(std::string_view payload, bool header, std::string* out);
  void EmitFragment(FragmentType type, const char* data, size_t n, std::string* out);

  uint64_t offset_;
};

}  // namespace gnomon::wal

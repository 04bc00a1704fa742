// Segment files: naming ("00000042.wal"), listing a WAL directory, and the segment header record.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/result.h"
#include "src/base/status.h"
#include "src/port/env.h"

namespace gnomon::wal {

// Zero-padded to 8 digits so names sort like numbers in listings (longer past 99,999,999).
std::string SegmentFileName(uint64_t number);
// Accepts exactly what SegmentFileName produces (any number of digits); false otherwise.
bool ParseSegmentFileName(std::string_view name, uint64_t* number);

struct SegmentFile {
  uint64_t number = 0;
  std::string path;
  uint64_t size = 0;
};
// The segments in `dir` in ascending order; other files are ignored. A missing dir has none.
Result<std::vector<SegmentFile>> ListSegments(port::Env* env, const std::string& dir);

struct SegmentHeader {
  uint32_t version = 0;
  uint64_t number = 0;
};
// Parses a segment header record's payload: Corruption for a wrong size or magic, Unsupported for
// a format version this build cannot read.
Result<SegmentHeader> DecodeSegmentHeader(std::string_view payload);

}  // namespace gnomon::wal

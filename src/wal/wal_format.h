// The WAL's on-disk constants (docs/format/wal.md has the byte diagram). A segment file is a
// sequence of 32 KiB blocks; records are cut into fragments that never straddle a block, each
// with a 7-byte header: masked CRC32C (4, little-endian) | payload length (2) | type (1).
// The first record of every segment is a segment header naming the format version and the
// segment's number.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gnomon::wal {

constexpr size_t kBlockSize = 32 * 1024;
constexpr size_t kFragmentHeaderSize = 7;

enum class FragmentType : uint8_t {
  kZero = 0,   // never written: zero-filled (preallocated or lost) space reads as this
  kFull = 1,   // a whole record
  kFirst = 2,  // first fragment of a record spanning blocks
  kMiddle = 3,
  kLast = 4,
  kSegmentHeader = 5,  // the segment header record (always one fragment)
};
constexpr uint8_t kMaxFragmentType = 5;

// Segment header payload: magic (4) | format version (4) | segment number (8), little-endian.
constexpr uint32_t kSegmentMagic = 0x4c57474e;  // "NGWL" read as bytes: 'N' 'G' 'W' 'L'
constexpr uint32_t kFormatVersion = 1;
constexpr size_t kSegmentHeaderPayloadSize = 16;
constexpr uint64_t kSegmentHeaderRecordSize = kFragmentHeaderSize + kSegmentHeaderPayloadSize;

// Limits that keep every record end offset below 4 GiB (see the LSN below).
constexpr uint64_t kMaxRecordSize = 1ull << 30;
constexpr uint64_t kMinSegmentBytes = 1024;
constexpr uint64_t kMaxSegmentBytes = 2ull << 30;
constexpr uint64_t kMaxSegmentNumber = 0xffffffffull;

// A record's LSN is its position: segment number (high 32 bits) and the offset just past its last
// fragment (low 32 bits). LSNs increase in append order, survive restarts, and name the segment
// that holds the record, which is what log truncation needs.
inline uint64_t MakeLsn(uint64_t segment, uint64_t end_offset) {
  return (segment << 32) | end_offset;
}
inline uint64_t LsnSegment(uint64_t lsn) { return lsn >> 32; }
inline uint64_t LsnOffset(uint64_t lsn) { return lsn & 0xffffffffull; }

}  // namespace gnomon::wal

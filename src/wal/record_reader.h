// RecordReader: reads the records of one segment file front to back and stops at the first
// damage (bad checksum, impossible length, broken fragment sequence, bytes cut off at the end),
// saying where it is and where the valid data before it ends. Not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "src/base/result.h"
#include "src/port/env.h"

namespace gnomon::wal {

struct Damage {
  uint64_t offset = 0;  // file offset of the first bad fragment (or incomplete record)
  bool at_eof = false;  // the damage is bytes cut off at the end of the file: a torn write
  std::string reason;   // "checksum mismatch", "fragment of 812 bytes extends past end of file"
};

class RecordReader {
 public:
  // `file` is read from its current position, which must be offset 0. Not owned.
  explicit RecordReader(port::SequentialFile* file);

  enum class Outcome { kRecord, kEof, kDamaged };
  // Reads the next record. kRecord: *record holds it until the next call, *is_header says whether
  // it is the segment header record. kEof: the file ended cleanly. kDamaged: see damage(); the
  // reader must not be used further except for ScanPastDamage(). Errors are I/O errors only.
  Result<Outcome> Next(std::string_view* record, bool* is_header);

  // Offset just past the last complete record returned: where valid data ends.
  uint64_t valid_end() const { return valid_end_; }
  const Damage& damage() const { return damage_; }

  // After kDamaged: whether a well-formed fragment lies past the damage (checked at each later
  // block start, where fragments begin). True means the file was corrupted with data after the
  // damage rather than torn at its end.
  Result<bool> ScanPastDamage();

 private:
  enum class FragmentResult { kFragment, kEnd, kBad };
  Result<FragmentResult> ReadFragment(uint8_t* type, std::string_view* data, uint64_t* offset);
  Status Refill();
  Outcome SetDamage(uint64_t offset, bool at_eof, std::string reason);
  // Parses a fragment header at buffer position `pos` with `left` bytes to the block's end;
  // true if it is well formed and its checksum matches.
  bool ValidFragmentAt(size_t pos, size_t left) const;

  port::SequentialFile* file_;
  std::string buffer_;          // a whole number of blocks, block-aligned in the file
  size_t buffer_len_ = 0;       // valid bytes in buffer_
  size_t pos_ = 0;              // next unread byte in buffer_
  uint64_t buffer_offset_ = 0;  // file offset of buffer_[0]
  bool eof_ = false;            // the last Refill() reached the end of the file
  std::string scratch_;         // reassembles records that span blocks
  uint64_t valid_end_ = 0;
  Damage damage_;
  bool valid_fragment_after_damage_ = false;  // the damage was detected on a well-formed fragment
  // After a checksum mismatch: buffer position just past the bad fragment by its stated length,
  // where the next fragment starts if only payload bytes were hit (0: none).
  size_t resume_pos_ = 0;
};

}  // namespace gnomon::wal

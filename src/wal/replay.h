// ReplayWal: reads a WAL directory back at startup, record by record, in append order, and
// repairs its end so that a new Wal can follow it.
//
// Damage in the newest segment holding records (a torn tail after kill -9 or power loss, or
// corruption there) is cut: the file is truncated where its valid data ends, later record-free
// segments are removed, and the report says what was cut; this is never an error, because
// sealed segments are synced in full and only the newest one can legitimately end torn.
// Damage in an older segment means acknowledged data was lost; ReplayOptions::on_corruption
// decides whether that fails replay (the default) or is cut like a tail (dropping every record
// after it) and reported.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/result.h"
#include "src/base/status.h"
#include "src/port/env.h"

namespace gnomon::wal {

enum class CorruptionPolicy {
  kFail,      // return Status::Corruption naming the file and offset; change nothing
  kTruncate,  // cut the log at the damage (deleting every later segment) and report it
};

struct ReplayOptions {
  // Skip segments numbered below this (already flushed, not yet removed).
  uint64_t min_segment = 0;
  // Cut damaged tails (and, under kTruncate, corruption). false: read-only, the report still
  // says where valid data ends.
  bool repair = true;
  CorruptionPolicy on_corruption = CorruptionPolicy::kFail;
};

struct ReplayReport {
  uint64_t segments = 0;  // segment files read
  uint64_t records = 0;   // records passed to the callback
  uint64_t bytes = 0;     // their payload bytes
  uint64_t last_lsn = 0;  // LSN of the last record passed (0: none)

  bool damaged = false;                    // damage was found; the fields below say where
  bool truncated = false;                  // ... and the log was cut there (repair on)
  std::string truncated_file;              // path of the segment where valid data ends
  uint64_t truncated_offset = 0;           // offset in it where valid data ends (the cut)
  uint64_t damage_offset = 0;              // offset in it of the first bad bytes
  uint64_t dropped_bytes = 0;              // bytes after the cut, later segments included
  std::vector<std::string> removed_files;  // later segments deleted by the cut
  // Well-formed fragments lie past the damage: bytes were corrupted, not merely torn off.
  bool valid_data_after_damage = false;
  Status corruption;   // non-OK when the damage was in an older segment (kTruncate)
  std::string detail;  // one line for the log: what was wrong where, and what was done
};

// Calls fn(record) for each valid record in order. An error from fn stops replay and is
// returned. Records before a corruption have already been passed when kFail returns it.
// REQUIRES: no Wal is open on `dir`. A missing `dir` is an empty log.
Result<ReplayReport> ReplayWal(port::Env* env, const std::string& dir,
                               const std::function<Status(std::string_view record)>& fn);

// As above, with options, passing each record's LSN (the same Wal::Append returned).
Result<ReplayReport> ReplayWal(
    port::Env* env, const std::string& dir, const ReplayOptions& options,
    const std::function<Status(std::string_view record, uint64_t lsn)>& fn);

}  // namespace gnomon::wal

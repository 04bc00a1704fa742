// Wal: the write-ahead log writer. A WAL is a directory of numbered segment files
// (segment_file.h) in the block format of wal_format.h; records are opaque payloads.
//
// Group commit: Append() callers queue; the caller at the head of the queue (the leader) frames
// every queued record it can take into one buffer, writes it with one Append, and makes it
// durable with one Sync if any of them asked for sync; then it wakes the others with their
// results. While the leader writes and syncs, new callers queue behind it and form the next
// group, so concurrent writers share fsyncs (LevelDB's writers_ queue).
//
// Failure model: after a failed write or sync the WAL's file state is unknown (a partial record
// may be on disk, and a failed fsync may have dropped dirty pages), so the error is sticky: every
// later Append/Rotate/Sync returns it. Reopen the WAL (ReplayWal, then Wal::Open) to continue.
//
// Thread-safe: any number of threads may call any method concurrently.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/result.h"
#include "src/base/status.h"
#include "src/port/env.h"
#include "src/wal/record_encoder.h"

namespace gnomon::wal {

struct WalOptions {
  port::Env* env = nullptr;  // nullptr: port::Env::Default()
  std::string dir;
  // A segment is rotated before a record would take it past this size (a record larger than it
  // gets a segment of its own). [kMinSegmentBytes, kMaxSegmentBytes].
  uint64_t segment_bytes = 64ull << 20;
  // A group stops growing past this many payload bytes, bounding a leader's write latency.
  uint64_t max_group_bytes = 4ull << 20;
};

struct WalStats {
  uint64_t records = 0;  // records appended
  uint64_t groups = 0;   // group writes (one Append to the file each)
  uint64_t syncs = 0;    // file syncs (group commits with sync, rotations, explicit Sync/Close)
  uint64_t bytes = 0;    // bytes written to segment files, framing included
  uint64_t segments_created = 0;
};

class Wal {
 public:
  // Creates `dir` if needed and starts a new segment numbered after the existing ones (which it
  // never reads or writes; they stay for ReplayWal and RemoveSegmentsBefore).
  // REQUIRES: no other Wal is open on `dir`; if the previous process may have crashed, ReplayWal
  // has run on `dir` first (it cuts a torn tail, which Open would otherwise leave in the middle
  // of the log).
  static Result<std::unique_ptr<Wal>> Open(const WalOptions& options);
  // Closes (making everything appended durable); errors are dropped, call Close() to see them.
  ~Wal();

  Wal(const Wal&) = delete;
  Wal& operator=(const Wal&) = delete;

  // Appends one record (at most kMaxRecordSize bytes) and returns its LSN (wal_format.h). With
  // sync, returns only after the record is durable; without, after it reached the OS (it survives
  // a process crash, not a power loss). `record` must stay valid until Append returns.
  Result<uint64_t> Append(std::string_view record, bool sync);

  // Starts a new segment and returns its number n: every record appended before the call is in
  // a segment < n, every record appended after in one >= n. If the current segment holds no
  // records yet it is kept and its number returned.
  Result<uint64_t> Rotate();

  // Makes every record appended so far durable.
  Status Sync();

  // Deletes the segments numbered below `segment` (log truncation after a flush).
  // REQUIRES: segment <= current_segment() (the active segment is never removed).
  Status RemoveSegmentsBefore(uint64_t segment);

  // Waits for queued writes, syncs and closes the active segment. Later calls to Append, Rotate
  // and Sync return Aborted. Idempotent.
  Status Close();

  // Bytes in all live segment files of this WAL, framing included.
  uint64_t TotalBytes() const { return total_bytes_.load(std::memory_order_relaxed); }
  uint64_t current_segment() const { return current_segment_.load(std::memory_order_relaxed); }
  const std::string& dir() const { return dir_; }
  WalStats Stats() const;
  // The sticky error that stopped this WAL (OK while it works). Once set it never clears: the
  // owner makes what was acknowledged durable elsewhere and opens a new Wal.
  Status error() const;

 private:
  struct Writer;

  Wal(port::Env* env, const WalOptions& options);

  // Queues `w` and runs it when it reaches the head of the queue, or returns when a leader
  // ran it as part of a group. On return w->status and w->result are set.
  void Submit(Writer* w);
  // Picks the group `leader` heads (appends only) and whether the segment must rotate first.
  // REQUIRES: mu_ held, leader at the head of writers_.
  void BuildGroup(Writer* leader, std::vector<Writer*>* group, bool* rotate_first);
  // The leader's work, run without mu_: only the head of the queue touches the active segment.
  Status WriteGroup(const std::vector<Writer*>& group, bool rotate_first);
  Status DoRotate(uint64_t* number);
  Status DoClose(const Status& prior);
  // Seals the active segment (sync, close) and starts segment current+1.
  Status SwitchSegment();
  // Creates segment `number`, writes its header and makes file and directory entry durable.
  Status CreateSegment(uint64_t number);

  port::Env* const env_;
  const std::string dir_;
  const uint64_t segment_bytes_;
  const uint64_t max_group_bytes_;

  mutable std::mutex mu_;
  std::deque<Writer*> writers_;          // guarded by mu_
  Status error_;                         // sticky write/sync error; guarded by mu_
  bool closed_ = false;                  // guarded by mu_
  std::map<uint64_t, uint64_t> sealed_;  // older segments: number -> bytes; guarded by mu_

  // Active-segment state, touched only by the writer at the head of writers_ (and by Open).
  std::unique_ptr<port::WritableFile> file_;
  RecordEncoder encoder_;
  uint64_t records_in_segment_ = 0;
  std::string batch_;

  std::atomic<uint64_t> current_segment_{0};
  std::atomic<uint64_t> total_bytes_{0};
  std::atomic<uint64_t> stat_records_{0};
  std::atomic<uint64_t> stat_groups_{0};
  std::atomic<uint64_t> stat_syncs_{0};
  std::atomic<uint64_t> stat_bytes_{0};
  std::atomic<uint64_t> stat_segments_{0};
};

}  // namespace gnomon::wal

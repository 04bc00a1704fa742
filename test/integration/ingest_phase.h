// One phase of an ingest-and-interrupt test: start the real server on a data directory, run
// concurrent writers from a TsbsCpuSource, and stop the server with a signal at a chosen point
// (after some acknowledged batches, optionally at the moment a memtable flush begins).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "test/integration/ingest_ledger.h"
#include "test/integration/tsbs_cpu_source.h"

namespace gnomon::test {

enum class SignalPoint {
  kAfterAcks,        // as soon as min_new_acks batches were acknowledged in this phase
  // Then also wait until the engine starts a flush: a freeze rotates the WAL to a new segment, and
  // the signal follows within about a millisecond, while segments are written.
  kFlushStart,
  // Then also wait until a table directory holds more segment files than the compaction trigger
  // (4): a compaction is writing its output, or its inputs wait for deletion.
  kCompaction,
};

struct PhasePlan {
  std::vector<std::string> server_args;
  int workers = 4;
  int signal = 9;              // SIGKILL, or SIGTERM for a clean stop under load
  uint64_t min_new_acks = 0;   // batches acknowledged in this phase before the signal
  SignalPoint point = SignalPoint::kAfterAcks;
  // Rows per request, for a LiveCountReader checking count(*) during the phase (0: none).
  uint64_t live_read_batch_rows = 0;
};

struct PhaseReport {
  uint64_t acked = 0;        // in this phase
  uint64_t unanswered = 0;   // in this phase
  bool source_ended = false; // the writers ran out of input before the signal
  bool point_reached = false;  // kFlushStart / kCompaction seen (else the deadline passed)
  int exit_code = -1;        // of the signalled server
  std::vector<std::string> wal_files_at_signal;
};

// Runs one phase against `data_dir` (GoogleTest failures for writer errors or a server that
// does not start or stop).
PhaseReport RunPhase(const std::string& binary, const std::string& data_dir, const PhasePlan& plan,
                     TsbsCpuSource* source, IngestLedger* ledger);

// Numbers of the WAL segment files in data_dir/wal, ascending.
std::vector<uint64_t> WalSegments(const std::string& data_dir);
// The most segment (.seg) files in any one table directory under data_dir/db.
size_t MaxSegmentFilesPerTable(const std::string& data_dir);

}  // namespace gnomon::test

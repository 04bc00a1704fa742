// Offline checks and repairs of a data directory (gnomon verify, gnomon repair).
//
// CheckDataDir reads every file the engine would read at start, through the same decoders, and
// changes nothing: the manifest, each listed table's series registry, each listed segment (its
// footer, index and every block's checksum), and the live WAL. It reports damage (file and
// offset, from the decoders' own errors) apart from what a normal start-up repairs by itself
// (a torn WAL or registry-log tail after a crash, leftover files of an interrupted flush).
//
// RepairDataDir sets damaged segments aside under DIR/quarantine/ (same relative path) and drops
// them from the manifest, so their time ranges answer again (without those rows); with cut_wal,
// it also cuts the WAL at damage in an older segment, dropping every record after it. Both need
// the server stopped (the caller holds DIR/LOCK).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/base/result.h"
#include "src/port/env.h"

namespace gnomon::storage {

struct DataDirProblem {
  std::string path;
  std::string what;  // the decoder's error: what is wrong and at which offset
};

struct DataDirCheck {
  uint64_t databases = 0;
  uint64_t tables = 0;
  uint64_t series = 0;
  uint64_t segments = 0;       // listed segments checked (damaged ones included)
  uint64_t segment_bytes = 0;  // their bytes
  uint64_t wal_records = 0;    // live WAL records read
  uint64_t wal_bytes = 0;
  std::vector<DataDirProblem> problems;  // damage: rows are unreadable or would be lost
  std::vector<std::string> damaged_segments;  // paths among the problems (what repair sets aside)
  bool wal_damaged = false;                   // an older WAL segment is damaged (repair --cut-wal)
  std::vector<std::string> notes;  // what a normal start-up would repair or remove by itself
  bool ok() const { return problems.empty(); }
};

Result<DataDirCheck> CheckDataDir(port::Env* env, const std::string& data_dir);

struct RepairOptions {
  bool quarantine_segments = true;
  bool cut_wal = false;
};

// Returns one line per change made. REQUIRES: no engine has `data_dir` open.
Result<std::vector<std::string>> RepairDataDir(port::Env* env, const std::string& data_dir,
                                               const RepairOptions& options);

}  // namespace gnomon::storage

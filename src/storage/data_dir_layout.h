// Where things live in a data directory (docs/format/): written once here so that the engine and
// the offline tools (gnomon verify, repair) cannot disagree.
//   DIR/MANIFEST, DIR/LOCK, DIR/wal/<n>.wal, DIR/db/<db dir>/<table dir>/<n>.seg and .../series/
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "src/port/env.h"

namespace gnomon::storage {

inline constexpr char kWalDirName[] = "wal";
inline constexpr char kDatabasesDirName[] = "db";
inline constexpr char kLockFileName[] = "LOCK";
inline constexpr char kQuarantineDirName[] = "quarantine";  // segments set aside by gnomon repair

inline std::string DatabaseDir(const std::string& data_dir, const std::string& db_dir_name) {
  return port::JoinPath(port::JoinPath(data_dir, kDatabasesDirName), db_dir_name);
}

inline std::string SegmentFileName(uint64_t file_number) {
  char name[32];
  std::snprintf(name, sizeof(name), "%08llu.seg", static_cast<unsigned long long>(file_number));
  return name;
}

// The file number of a segment file's name ("00000042.seg"), or false for any other file.
inline bool SegmentFileNumber(const std::string& name, uint64_t* number) {
  if (name.size() < 5 || name.compare(name.size() - 4, 4, ".seg") != 0) return false;
  *number = std::strtoull(name.c_str(), nullptr, 10);
  return true;
}

}  // namespace gnomon::storage

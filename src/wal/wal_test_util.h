// Helpers shared by the WAL tests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/wal/replay.h"
#include "src/wal/wal.h"

namespace gnomon::wal::testing {

struct Replayed {
  std::vector<std::string> records;
  std::vector<uint64_t> lsns;
  ReplayReport report;
  Status status;
};

inline Replayed ReplayAll(port::Env* env, const std::string& dir, ReplayOptions options = {}) {
  Replayed out;
  auto report = ReplayWal(env, dir, options, [&](std::string_view record, uint64_t lsn) {
    out.records.emplace_back(record);
    out.lsns.push_back(lsn);
    return Status::OK();
  });
  if (report.ok()) {
    out.report = *report;
  } else {
    out.status = report.status();
  }
  return out;
}

// A record whose bytes depend on (i, size), so a misplaced byte shows.
inline std::string MakeRecord(uint64_t i, size_t size) {
  std::string s(size, '\0');
  uint64_t x = i * 0x9e3779b97f4a7c15ull + size;
  for (size_t k = 0; k < size; ++k) {
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ull;
    s[k] = static_cast<char>(x >> 56);
  }
  return s;
}

}  // namespace gnomon::wal::testing

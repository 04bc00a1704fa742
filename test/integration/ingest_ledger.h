// IngestLedger: what a test sent to the server, batch by batch, and so what the server must hold.
// A batch acknowledged with 204 must be fully present; one whose answer never came (the server was
// killed) must be fully present or fully absent, and stays so across later restarts; a batch never
// sent must be absent. Verify() checks a running server against these rules.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "test/integration/tsbs_cpu_source.h"

namespace gnomon::test {

enum class BatchFate {
  kNotSent,       // pulled from the source but never handed to the server
  kAcked,         // answered 204
  kUnknown,       // sent, no answer (server killed), not yet looked at
  kFoundPresent,  // was kUnknown; a Verify found it fully stored (it must stay so)
  kFoundAbsent,   // was kUnknown; a Verify found none of it (it must stay so)
};

struct VerifySummary {
  uint64_t batches_present = 0;
  uint64_t rows_present = 0;
  uint64_t unknown_found_present = 0;  // kUnknown batches resolved by this Verify
  uint64_t unknown_found_absent = 0;
};

// Thread-safe.
class IngestLedger {
 public:
  // Takes the batch's bookkeeping (not its body); its fate starts as kNotSent.
  void Add(const TsbsBatch& batch);
  void SetFate(uint64_t index, BatchFate fate);
  BatchFate fate(uint64_t index);
  uint64_t CountFate(BatchFate fate);
  uint64_t acked() const { return acked_.load(); }
  // Rows of the acknowledged batches; rows of every batch added (sent or about to be).
  uint64_t acked_rows() const { return acked_rows_.load(); }
  uint64_t added_rows() const { return added_rows_.load(); }

  // Queries database `db` on the server at `port`: per-host row counts for all hosts, and every
  // row of each sampled host (compared value by value with the file). Reports each violation as a
  // GoogleTest failure. kUnknown batches become kFoundPresent / kFoundAbsent.
  VerifySummary Verify(uint16_t port, const std::string& db, const std::vector<int>& sampled_hosts);

 private:
  struct Entry {
    bool added = false;
    BatchFate fate = BatchFate::kNotSent;
    uint64_t rows = 0;
    std::array<uint32_t, kTsbsHosts> rows_per_host{};
    std::map<int, std::vector<CpuRow>> sampled;
  };
  std::mutex mu_;
  std::vector<Entry> entries_;  // by batch index
  std::atomic<uint64_t> acked_{0};
  std::atomic<uint64_t> acked_rows_{0};
  std::atomic<uint64_t> added_rows_{0};
};

}  // namespace gnomon::test

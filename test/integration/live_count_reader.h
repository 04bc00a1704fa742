// LiveCountReader: a thread that asks `SELECT count(*) FROM cpu` over and over while writers run,
// and checks what a reader may see mid-ingest: every request acknowledged before the question
// (Engine::Write's contract: acknowledged rows are visible to every reader), nothing that was not
// yet sent, and whole requests only (the count is a sum of request sizes).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>

#include "test/integration/ingest_ledger.h"

namespace gnomon::test {

class LiveCountReader {
 public:
  // Every request holds `batch_rows` rows except possibly one shorter last request of
  // `last_batch_rows` (0 when there is none).
  LiveCountReader(uint16_t port, IngestLedger* ledger, uint64_t batch_rows, uint64_t last_batch_rows);
  ~LiveCountReader();  // Stop()

  // Ends the loop after the current query (call before the server goes away).
  void Stop();
  uint64_t queries() const { return queries_.load(); }

 private:
  void Loop();

  const uint16_t port_;
  IngestLedger* const ledger_;
  const uint64_t batch_rows_;
  const uint64_t last_batch_rows_;
  std::atomic<bool> stop_{false};
  std::atomic<uint64_t> queries_{0};
  std::thread thread_;
};

}  // namespace gnomon::test

// IngestWriters: concurrent line-protocol writers against a real server, as TSBS's loader runs
// them: `workers` threads, each with one kept-alive connection, pulling numbered batches from a
// shared TsbsCpuSource and POSTing them. Every batch pulled goes into the ledger with its fate:
// kAcked on 204, kUnknown when the connection fails (the worker then stops: the server is gone);
// any other HTTP answer is also kUnknown and is recorded as an error.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "test/integration/ingest_ledger.h"
#include "test/integration/tsbs_cpu_source.h"

namespace gnomon::test {

class IngestWriters {
 public:
  // Starts the workers at once. `target`: e.g. "/write?db=benchmark".
  IngestWriters(uint16_t port, std::string target, TsbsCpuSource* source, IngestLedger* ledger,
                int workers);
  ~IngestWriters();  // RequestStop() + Join()

  // Workers finish their current request and take no new batch.
  void RequestStop() { stop_ = true; }
  // Waits until every worker has stopped (source exhausted, stop requested, or connection lost).
  void Join();
  // True once every worker has stopped.
  bool done() const { return running_.load() == 0; }

  // Non-204 answers and source errors, as text.
  std::vector<std::string> errors();
  uint64_t transport_errors() const { return transport_errors_.load(); }

 private:
  void Work();
  void Error(std::string text);

  const uint16_t port_;
  const std::string target_;
  TsbsCpuSource* const source_;
  IngestLedger* const ledger_;
  std::atomic<bool> stop_{false};
  std::atomic<int> running_{0};
  std::atomic<uint64_t> transport_errors_{0};
  std::mutex mu_;
  std::vector<std::string> errors_;
  std::vector<std::thread> threads_;
};

}  // namespace gnomon::test

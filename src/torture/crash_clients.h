// The clients of a crash-torture cycle, each on its own thread and HTTP connection: writers
// (one per ledger), a query client and a maintenance client. They run until told to stop or
// until the server goes away; what they saw goes into CycleTally.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "src/bench/url.h"
#include "src/torture/crash_model.h"
#include "src/torture/crash_workload.h"

namespace gnomon::torture {

struct CycleTally {
  std::atomic<uint64_t> acknowledged{0};
  std::atomic<uint64_t> unanswered{0};
  std::atomic<uint64_t> queries{0};
  std::atomic<uint64_t> maintenance{0};
  std::atomic<bool> server_gone{false};  // some client lost the connection
  std::mutex mu;
  std::vector<std::string> failures;  // refused requests that no crash explains
  void Fail(std::string what);
};

// A refusal that the crash under way explains: the power-loss layer took the file system down
// while this request was being made durable, so it was never acknowledged.
bool RefusedBySimulatedCrash(int status, const std::string& body);

// Sends the writer's operations one at a time, recording each in its ledger.
void RunWriter(const bench::Url& url, int writer, OperationSource* source,
               WriterLedger* ledger, const std::atomic<bool>* stop, CycleTally* tally);
// Runs aggregate and newest-rows queries over the four tables.
void RunQueries(const bench::Url& url, uint64_t seed, const std::atomic<bool>* stop, CycleTally* tally);
// Asks for flushes and compactions now and then.
void RunMaintenance(const bench::Url& url, uint64_t seed, const std::atomic<bool>* stop, CycleTally* tally);

}  // namespace gnomon::torture

#include "test/integration/ingest_phase.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

#include "test/integration/ingest_writers.h"
#include "test/integration/live_count_reader.h"
#include "test/integration/server_process.h"

namespace gnomon::test {
namespace {

// How long a phase may wait for its acknowledgements or its flush before signalling anyway.
constexpr auto kPhaseDeadline = std::chrono::seconds(90);

}  // namespace

std::vector<uint64_t> WalSegments(const std::string& data_dir) {
  std::vector<uint64_t> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(data_dir + "/wal", ec)) {
    std::string name = entry.path().filename().string();
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".wal") == 0) {
      out.push_back(std::strtoull(name.c_str(), nullptr, 10));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

size_t MaxSegmentFilesPerTable(const std::string& data_dir) {
  size_t most = 0;
  std::error_code ec;
  for (const auto& db : std::filesystem::directory_iterator(data_dir + "/db", ec)) {
    std::error_code ec2;
    for (const auto& table : std::filesystem::directory_iterator(db.path(), ec2)) {
      size_t n = 0;
      std::error_code ec3;
      for (const auto& f : std::filesystem::directory_iterator(table.path(), ec3)) {
        n += f.path().extension() == ".seg";
      }
      most = std::max(most, n);
    }
  }
  return most;
}

PhaseReport RunPhase(const std::string& binary, const std::string& data_dir, const PhasePlan& plan,
                     TsbsCpuSource* source, IngestLedger* ledger) {
  PhaseReport report;
  ServerProcess server(binary, data_dir, plan.server_args);
  Status started = server.Start();
  if (!started.ok()) {
    ADD_FAILURE() << started.ToString() << " (log " << server.log_path() << ")";
    return report;
  }
  const uint64_t acked_before = ledger->acked();
  const uint64_t unanswered_before = ledger->CountFate(BatchFate::kUnknown);
  IngestWriters writers(server.port(), "/write?db=benchmark", source, ledger, plan.workers);
  std::unique_ptr<LiveCountReader> reader;
  if (plan.live_read_batch_rows > 0) {
    reader = std::make_unique<LiveCountReader>(server.port(), ledger, plan.live_read_batch_rows, 0);
  }

  auto newest_wal = [&] {
    auto segments = WalSegments(data_dir);
    return segments.empty() ? 0 : segments.back();
  };
  uint64_t wal_baseline = newest_wal();
  const auto deadline = std::chrono::steady_clock::now() + kPhaseDeadline;
  while (std::chrono::steady_clock::now() < deadline) {
    if (writers.done()) {
      report.source_ended = true;
      break;
    }
    const uint64_t acked = ledger->acked() - acked_before;
    if (plan.point == SignalPoint::kAfterAcks) {
      if (acked >= plan.min_new_acks) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    if (plan.point == SignalPoint::kFlushStart) {
      uint64_t newest = newest_wal();
      if (acked < plan.min_new_acks) {
        wal_baseline = newest;
      } else if (newest > wal_baseline) {
        report.point_reached = true;
        break;
      }
    } else if (acked >= plan.min_new_acks && MaxSegmentFilesPerTable(data_dir) > 4) {
      report.point_reached = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  if (reader) reader->Stop();
  for (uint64_t s : WalSegments(data_dir)) report.wal_files_at_signal.push_back(std::to_string(s));
  auto code = server.Stop(plan.signal);
  writers.RequestStop();
  writers.Join();
  EXPECT_TRUE(code.ok()) << code.status().ToString();
  if (code.ok()) report.exit_code = *code;
  for (const std::string& e : writers.errors()) ADD_FAILURE() << e;
  report.acked = ledger->acked() - acked_before;
  report.unanswered = ledger->CountFate(BatchFate::kUnknown) - unanswered_before;
  return report;
}

}  // namespace gnomon::test

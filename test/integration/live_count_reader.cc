#include "test/integration/live_count_reader.h"

#include <gtest/gtest.h>

#include <chrono>

#include "test/integration/sql_query.h"

namespace gnomon::test {

LiveCountReader::LiveCountReader(uint16_t port, IngestLedger* ledger, uint64_t batch_rows,
                                 uint64_t last_batch_rows)
    : port_(port), ledger_(ledger), batch_rows_(batch_rows), last_batch_rows_(last_batch_rows) {
  thread_ = std::thread([this] { Loop(); });
}

LiveCountReader::~LiveCountReader() { Stop(); }

void LiveCountReader::Stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void LiveCountReader::Loop() {
  while (!stop_.load()) {
    const uint64_t acked_before = ledger_->acked_rows();
    auto result = RunSql(port_, "benchmark", "SELECT count(*) FROM cpu");
    const uint64_t sent_after = ledger_->added_rows();
    if (!result.ok()) {
      // Before the first write there is no database or table yet.
      if (acked_before > 0 && !stop_.load()) {
        ADD_FAILURE() << "count(*) during the load: " << result.status().ToString();
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      continue;
    }
    if (result->rows.size() != 1 || !result->rows[0][0].is_number()) {
      ADD_FAILURE() << "count(*) answered no single number";
      return;
    }
    const auto n = static_cast<uint64_t>(result->rows[0][0].number());
    const uint64_t tail = n % batch_rows_;
    const bool whole = tail == 0 || tail == last_batch_rows_;
    if (n < acked_before || n > sent_after || !whole) {
      ADD_FAILURE() << "count(*) during the load = " << n << ": rows of acknowledged requests "
                    << acked_before << " (asked before), rows sent " << sent_after
                    << " (after the answer); requests hold " << batch_rows_ << " rows";
      return;  // one report is enough
    }
    queries_.fetch_add(1);
  }
}

}  // namespace gnomon::test

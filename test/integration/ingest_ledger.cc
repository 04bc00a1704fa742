#include "test/integration/ingest_ledger.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "src/base/time_util.h"
#include "test/integration/sql_query.h"

namespace gnomon::test {
namespace {

constexpr size_t kMaxReportedProblems = 20;

const char* FateName(BatchFate fate) {
  switch (fate) {
    case BatchFate::kNotSent: return "never sent";
    case BatchFate::kAcked: return "acknowledged";
    case BatchFate::kUnknown: return "unanswered";
    case BatchFate::kFoundPresent: return "unanswered, found stored earlier";
    case BatchFate::kFoundAbsent: return "unanswered, found missing earlier";
  }
  return "?";
}

bool AsInt64(const JsonValue& v, int64_t* out) {
  if (!v.is_number() || std::nearbyint(v.number()) != v.number()) return false;
  *out = static_cast<int64_t>(v.number());
  return true;
}

// time (RFC 3339, as the server writes it) -> values, for one host.
using HostRows = std::map<std::string, std::array<int64_t, kCpuFieldCount>>;

std::string SeriesQuery(int host) {
  std::string sql = "SELECT time";
  for (std::string_view f : kCpuFields) sql += ", " + std::string(f);
  return sql + " FROM cpu WHERE hostname = 'host_" + std::to_string(host) + "' ORDER BY time";
}

}  // namespace

void IngestLedger::Add(const TsbsBatch& batch) {
  std::lock_guard lock(mu_);
  if (entries_.size() <= batch.index) entries_.resize(batch.index + 1);
  Entry& e = entries_[batch.index];
  e.added = true;
  e.rows = batch.rows;
  e.rows_per_host = batch.rows_per_host;
  e.sampled = batch.sampled;
  added_rows_.fetch_add(batch.rows);
}

void IngestLedger::SetFate(uint64_t index, BatchFate fate) {
  std::lock_guard lock(mu_);
  Entry& e = entries_.at(index);
  if (fate == BatchFate::kAcked && e.fate != BatchFate::kAcked) {
    acked_rows_.fetch_add(e.rows);
    acked_.fetch_add(1);
  }
  e.fate = fate;
}

BatchFate IngestLedger::fate(uint64_t index) {
  std::lock_guard lock(mu_);
  return entries_.at(index).fate;
}

uint64_t IngestLedger::CountFate(BatchFate fate) {
  std::lock_guard lock(mu_);
  uint64_t n = 0;
  for (const Entry& e : entries_) n += e.added && e.fate == fate;
  return n;
}

VerifySummary IngestLedger::Verify(uint16_t port, const std::string& db,
                                   const std::vector<int>& sampled_hosts) {
  VerifySummary summary;
  std::vector<std::string> problems;
  auto problem = [&](std::string text) { problems.push_back(std::move(text)); };

  // What the server holds.
  std::map<int, uint64_t> stored_per_host;
  {
    auto counts = RunSql(port, db, "SELECT hostname, count(*) FROM cpu GROUP BY hostname");
    if (!counts.ok()) {
      ADD_FAILURE() << counts.status().ToString();
      return summary;
    }
    for (const auto& row : counts->rows) {
      int64_t n = 0;
      const std::string& host = row[0].string();
      if (host.rfind("host_", 0) != 0 || !AsInt64(row[1], &n)) {
        problem("unexpected GROUP BY row for host '" + host + "'");
        continue;
      }
      stored_per_host[std::atoi(host.c_str() + 5)] += static_cast<uint64_t>(n);
    }
  }
  std::map<int, HostRows> stored_rows;
  for (int host : sampled_hosts) {
    auto rows = RunSql(port, db, SeriesQuery(host));
    if (!rows.ok()) {
      ADD_FAILURE() << rows.status().ToString();
      return summary;
    }
    HostRows& out = stored_rows[host];
    for (const auto& row : rows->rows) {
      std::array<int64_t, kCpuFieldCount> values{};
      for (size_t f = 0; f < kCpuFieldCount; ++f) {
        if (!AsInt64(row[f + 1], &values[f])) {
          problem("host_" + std::to_string(host) + " at " + row[0].string() + ": " +
                  std::string(kCpuFields[f]) + " is not an integer");
        }
      }
      if (!out.emplace(row[0].string(), values).second) {
        problem("host_" + std::to_string(host) + " has two rows at " + row[0].string());
      }
    }
  }

  // What it should hold.
  std::array<uint64_t, kTsbsHosts> expected_per_host{};
  std::map<int, uint64_t> expected_sampled_rows;
  {
    std::lock_guard lock(mu_);
    for (size_t index = 0; index < entries_.size(); ++index) {
      Entry& e = entries_[index];
      if (!e.added) continue;
      const std::string name = "batch " + std::to_string(index) + " (" + FateName(e.fate) + ")";
      size_t total = 0, found = 0;
      for (const auto& [host, rows] : e.sampled) {
        const HostRows& have = stored_rows[host];
        for (const CpuRow& row : rows) {
          ++total;
          auto it = have.find(FormatRfc3339(row.time));
          if (it == have.end()) continue;
          ++found;
          if (it->second != row.values) {
            problem(name + ": host_" + std::to_string(host) + " at " + it->first +
                    " has other values than the file");
          }
        }
      }
      bool present = false;
      switch (e.fate) {
        case BatchFate::kAcked:
        case BatchFate::kFoundPresent:
          present = true;
          if (found != total) {
            problem(name + ": " + std::to_string(total - found) + " of the " +
                    std::to_string(total) + " sampled rows are missing");
          }
          break;
        case BatchFate::kNotSent:
        case BatchFate::kFoundAbsent:
          if (found != 0) {
            problem(name + ": " + std::to_string(found) + " sampled rows are stored");
          }
          break;
        case BatchFate::kUnknown:
          if (total == 0) {
            problem(name + ": has no rows of a sampled host, so its fate cannot be judged");
          } else if (found == total) {
            present = true;
            e.fate = BatchFate::kFoundPresent;
            ++summary.unknown_found_present;
          } else if (found == 0) {
            e.fate = BatchFate::kFoundAbsent;
            ++summary.unknown_found_absent;
          } else {
            problem(name + ": partly stored (" + std::to_string(found) + " of " +
                    std::to_string(total) + " sampled rows); a request must be all-or-nothing");
          }
          break;
      }
      if (!present) continue;
      ++summary.batches_present;
      summary.rows_present += e.rows;
      for (int h = 0; h < kTsbsHosts; ++h) expected_per_host[h] += e.rows_per_host[h];
      for (const auto& [host, rows] : e.sampled) expected_sampled_rows[host] += rows.size();
    }
  }

  for (int host : sampled_hosts) {
    if (stored_rows[host].size() != expected_sampled_rows[host]) {
      problem("host_" + std::to_string(host) + ": " + std::to_string(stored_rows[host].size()) +
              " rows stored, the present batches hold " +
              std::to_string(expected_sampled_rows[host]));
    }
  }
  uint64_t stored_total = 0;
  for (const auto& [host, n] : stored_per_host) {
    stored_total += n;
    if (host < 0 || host >= kTsbsHosts) problem("rows for unknown host_" + std::to_string(host));
  }
  for (int h = 0; h < kTsbsHosts; ++h) {
    uint64_t have = stored_per_host.count(h) ? stored_per_host[h] : 0;
    if (have != expected_per_host[h]) {
      problem("host_" + std::to_string(h) + ": count(*) is " + std::to_string(have) +
              ", the present batches hold " + std::to_string(expected_per_host[h]));
    }
  }
  EXPECT_EQ(stored_total, summary.rows_present);
  auto count = RunSql(port, db, "SELECT count(*) FROM cpu");
  if (!count.ok()) {
    ADD_FAILURE() << count.status().ToString();
  } else {
    int64_t n = -1;
    EXPECT_TRUE(count->rows.size() == 1 && AsInt64(count->rows[0][0], &n) &&
                n == static_cast<int64_t>(summary.rows_present))
        << "SELECT count(*) answered " << n << ", expected " << summary.rows_present;
  }

  for (size_t i = 0; i < problems.size() && i < kMaxReportedProblems; ++i) ADD_FAILURE() << problems[i];
  if (problems.size() > kMaxReportedProblems) {
    ADD_FAILURE() << "... and " << problems.size() - kMaxReportedProblems << " more problems";
  }
  return summary;
}

}  // namespace gnomon::test

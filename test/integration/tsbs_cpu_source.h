// TsbsCpuSource: reads TSBS's cpu-only line protocol (cpu-only-s100-1d, generated in process:
// byte-identical to TSBS's, test/testdata/tsbs/README.md) and hands it out as numbered batches of whole lines, each with what the test needs to check it on
// the server afterwards: its rows per host, and the parsed rows of a few sampled hosts.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/result.h"
#include "src/bench/input_source.h"

namespace gnomon::test {

inline constexpr int kTsbsHosts = 100;  // host_0 .. host_99 at scale 100
inline constexpr size_t kCpuFieldCount = 10;
// The cpu measurement's fields, in the order every TSBS line carries them.
inline constexpr std::array<std::string_view, kCpuFieldCount> kCpuFields = {
    "usage_user", "usage_system", "usage_idle",  "usage_nice",  "usage_iowait",
    "usage_irq",  "usage_softirq", "usage_steal", "usage_guest", "usage_guest_nice"};

struct CpuRow {
  int64_t time = 0;                               // Unix nanoseconds
  std::array<int64_t, kCpuFieldCount> values{};  // in kCpuFields order
};

struct TsbsBatch {
  uint64_t index = 0;  // 0, 1, 2, ... in file order
  std::string body;    // whole lines, each ending in '\n'
  uint64_t rows = 0;
  std::array<uint32_t, kTsbsHosts> rows_per_host{};
  std::map<int, std::vector<CpuRow>> sampled;  // sampled host number -> its rows in this batch
};

// Thread-safe: writers call Next() concurrently; batches come out in file order.
class TsbsCpuSource {
 public:
  // The whole day of cpu-only at scale 100. `batch_lines`: lines per batch (the last may be
  // shorter); `max_lines`: stop after this many.
  static Result<std::unique_ptr<TsbsCpuSource>> Open(size_t batch_lines,
                                                    std::vector<int> sampled_hosts,
                                                    uint64_t max_lines = UINT64_MAX);

  // The next batch, nullopt at the end of the input. Errors: read failures, lines that are not
  // TSBS cpu lines (with the line number).
  Result<std::optional<TsbsBatch>> Next();

  const std::vector<int>& sampled_hosts() const { return sampled_hosts_; }

 private:
  TsbsCpuSource(std::unique_ptr<bench::ByteSource> input, size_t batch_lines,
                std::vector<int> sampled_hosts, uint64_t max_lines);
  Status ParseLine(std::string_view line, TsbsBatch* batch);
  // Reads more input into buffer_; false at end of input.
  Result<bool> Fill();

  std::mutex mu_;
  std::unique_ptr<bench::ByteSource> input_;
  const size_t batch_lines_;
  const std::vector<int> sampled_hosts_;
  const uint64_t max_lines_;
  std::string buffer_;  // unconsumed input from buffer_pos_
  size_t buffer_pos_ = 0;
  bool eof_ = false;
  uint64_t lines_ = 0;
  uint64_t next_index_ = 0;
};

}  // namespace gnomon::test

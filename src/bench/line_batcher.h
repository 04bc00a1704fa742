// Cuts a line-protocol byte stream into batches of whole lines for the loader, counting rows and
// metrics as TSBS's Influx loader does (spec 8.3): a row is a data line, its metrics are its field
// values. Batches are cut by scanning big buffers for newlines and copying runs of lines with one
// memcpy per run, so the scanner sustains well over 1 M rows/s on one core.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "src/base/status.h"

namespace gnomon::bench {

struct LineCounts {
  uint64_t rows = 0;
  uint64_t metrics = 0;
  LineCounts& operator+=(const LineCounts& o) {
    rows += o.rows;
    metrics += o.metrics;
    return *this;
  }
};

// Fields in one line (without its '\n'; a trailing '\r' is ignored). Blank lines and '#' comments
// count 0 and are not rows. The field set is the text between the first and second unescaped
// spaces (outside double-quoted field strings); its fields are its unescaped, unquoted commas + 1.
// For TSBS data this equals TSBS's "split on spaces, count the middle part's commas + 1".
// Returns false for a blank line or comment (not a row).
bool CountLine(std::string_view line, uint64_t* fields);

// Counts over a whole text; a missing final newline still ends the last line.
LineCounts CountLineProtocol(std::string_view text);

struct LineBatch {
  std::string body;  // whole lines, each ending in '\n' except possibly the stream's last one
  LineCounts counts;
};

// Feed it bytes in pieces of any size; it calls `sink` with every batch of `batch_lines` rows
// (blank and comment lines ride along without counting) and, on Finish(), with the final partial
// batch. A line is never split across batches. The sink's error stops the batcher and is returned.
class LineBatcher {
 public:
  using Sink = std::function<Status(LineBatch&&)>;
  // REQUIRES: batch_lines > 0.
  LineBatcher(uint64_t batch_lines, Sink sink);

  Status Add(std::string_view data);
  // Ends the stream: counts a last line without '\n' and emits the remaining rows.
  Status Finish();

  // Totals of everything emitted so far.
  const LineCounts& emitted() const { return emitted_; }

 private:
  Status Emit();
  void CountCompletedLine(std::string_view line);

  const uint64_t batch_lines_;
  Sink sink_;
  LineBatch current_;
  // When the last Add ended inside a line, that line's first bytes sit at current_.body[partial_]..
  size_t partial_start_ = 0;
  bool has_partial_ = false;
  size_t expected_batch_bytes_ = 0;  // capacity hint learned from the previous batch
  LineCounts emitted_;
};

// The batches LineBatcher would cut from `text` given whole, as views into it (no copies): for a
// stream already in memory, e.g. a mapped file. The sink's error stops the cutting and is returned.
// REQUIRES: batch_lines > 0.
Status CutLineBatches(std::string_view text, uint64_t batch_lines,
                      const std::function<Status(std::string_view body, const LineCounts& counts)>& sink);

}  // namespace gnomon::bench

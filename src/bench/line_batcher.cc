#include "src/bench/line_batcher.h"

#include <algorithm>
#include <cstring>

#include "src/base/check.h"

namespace gnomon::bench {

namespace {

// The byte-by-byte scan, from `i` inside the series key (a backslash escapes the next byte; the
// field set is between the first and second unescaped spaces, quotes hiding its commas and spaces).
uint64_t CountFieldsSlow(std::string_view line, size_t i) {
  const size_t n = line.size();
  for (; i < n; ++i) {
    char c = line[i];
    if (c == '\\') {
      ++i;
    } else if (c == ' ') {
      break;
    }
  }
  ++i;  // past the space (or past the end: a line without fields has one "field", as in TSBS)
  uint64_t count = 1;
  bool quoted = false;
  for (; i < n; ++i) {
    char c = line[i];
    if (c == '\\') {
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (!quoted) {
      if (c == ',') {
        ++count;
      } else if (c == ' ') {
        break;
      }
    }
  }
  return count;
}

// Position of `c` in line[from, to), or `to`.
size_t Find(std::string_view line, size_t from, size_t to, char c) {
  const void* p = std::memchr(line.data() + from, c, to - from);
  return p == nullptr ? to : static_cast<const char*>(p) - line.data();
}

}  // namespace

bool CountLine(std::string_view line, uint64_t* fields) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  size_t i = 0;
  const size_t n = line.size();
  while (i < n && (line[i] == ' ' || line[i] == '\t')) ++i;
  if (i == n || line[i] == '#') {
    *fields = 0;
    return false;
  }
  // Fast path, the loader's hot loop: library scans (vectorised) instead of a byte loop, valid
  // while the key before its first space has no backslash and the field set has no backslash or
  // quote (then its commas are exactly its field separators). Anything else takes the full scan.
  size_t key_end = Find(line, i, n, ' ');
  if (Find(line, i, key_end, '\\') != key_end) {
    *fields = CountFieldsSlow(line, i);
    return true;
  }
  if (key_end == n) {
    *fields = 1;  // no field set: one "field", as in TSBS
    return true;
  }
  size_t begin = key_end + 1;
  size_t end = Find(line, begin, n, ' ');
  if (Find(line, begin, end, '"') != end || Find(line, begin, end, '\\') != end) {
    *fields = CountFieldsSlow(line, key_end);
    return true;
  }
  *fields = 1 + static_cast<uint64_t>(std::count(line.data() + begin, line.data() + end, ','));
  return true;
}

namespace {

// Counts the line starting at `pos` into *counts; returns where the next line starts (past its
// newline, or text.size() for the last line).
size_t CountNextLine(std::string_view text, size_t pos, LineCounts* counts) {
  const void* nl = std::memchr(text.data() + pos, '\n', text.size() - pos);
  const size_t end = nl ? static_cast<const char*>(nl) - text.data() : text.size();
  uint64_t fields;
  if (CountLine(text.substr(pos, end - pos), &fields)) {
    ++counts->rows;
    counts->metrics += fields;
  }
  return nl ? end + 1 : end;
}

}  // namespace

LineCounts CountLineProtocol(std::string_view text) {
  LineCounts counts;
  for (size_t pos = 0; pos < text.size();) pos = CountNextLine(text, pos, &counts);
  return counts;
}

LineBatcher::LineBatcher(uint64_t batch_lines, Sink sink)
    : batch_lines_(batch_lines), sink_(std::move(sink)) {
  GNOMON_CHECK(batch_lines_ > 0);
}

void LineBatcher::CountCompletedLine(std::string_view line) {
  uint64_t fields;
  if (CountLine(line, &fields)) {
    ++current_.counts.rows;
    current_.counts.metrics += fields;
  }
}

Status LineBatcher::Emit() {
  if (current_.counts.rows == 0) {
    current_.body.clear();  // only blank or comment lines: nothing worth a request
    return Status::OK();
  }
  emitted_ += current_.counts;
  expected_batch_bytes_ = std::max(expected_batch_bytes_, current_.body.size());
  LineBatch batch = std::move(current_);
  current_ = LineBatch();
  current_.body.reserve(expected_batch_bytes_ + expected_batch_bytes_ / 8);
  return sink_(std::move(batch));
}

Status LineBatcher::Add(std::string_view data) {
  const char* base = data.data();
  const size_t n = data.size();
  size_t pos = 0;
  if (has_partial_) {
    const void* nl = std::memchr(base, '\n', n);
    if (nl == nullptr) {
      current_.body.append(data);
      return Status::OK();
    }
    size_t end = static_cast<const char*>(nl) - base;
    current_.body.append(base, end + 1);
    has_partial_ = false;
    CountCompletedLine(std::string_view(current_.body).substr(
        partial_start_, current_.body.size() - 1 - partial_start_));
    pos = end + 1;
    if (current_.counts.rows == batch_lines_) GNOMON_RETURN_IF_ERROR(Emit());
  }
  // Whole lines in [run_start, pos) are appended to the batch in one copy.
  size_t run_start = pos;
  while (pos < n) {
    const void* nl = std::memchr(base + pos, '\n', n - pos);
    if (nl == nullptr) {
      current_.body.append(base + run_start, n - run_start);
      partial_start_ = current_.body.size() - (n - pos);
      has_partial_ = true;
      return Status::OK();
    }
    size_t end = static_cast<const char*>(nl) - base;
    CountCompletedLine(std::string_view(base + pos, end - pos));
    pos = end + 1;
    if (current_.counts.rows == batch_lines_) {
      current_.body.append(base + run_start, pos - run_start);
      run_start = pos;
      GNOMON_RETURN_IF_ERROR(Emit());
    }
  }
  current_.body.append(base + run_start, pos - run_start);
  return Status::OK();
}

Status LineBatcher::Finish() {
  if (has_partial_) {
    has_partial_ = false;
    CountCompletedLine(std::string_view(current_.body).substr(partial_start_));
  }
  return Emit();
}

Status CutLineBatches(std::string_view text, uint64_t batch_lines,
                      const std::function<Status(std::string_view body, const LineCounts& counts)>& sink) {
  GNOMON_CHECK(batch_lines > 0);
  LineCounts counts;
  size_t batch_start = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    pos = CountNextLine(text, pos, &counts);
    if (counts.rows == batch_lines) {
      GNOMON_RETURN_IF_ERROR(sink(text.substr(batch_start, pos - batch_start), counts));
      batch_start = pos;
      counts = LineCounts();
    }
  }
  // As LineBatcher::Finish: a tail of only blank lines and comments is not sent.
  if (counts.rows > 0) GNOMON_RETURN_IF_ERROR(sink(text.substr(batch_start), counts));
  return Status::OK();
}

}  // namespace gnomon::bench

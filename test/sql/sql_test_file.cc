#include "test/sql/sql_test_file.h"

#include <sstream>

#include "src/base/split.h"

namespace gnomon::sqltest {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r' || s.back() == '\t')) s.remove_suffix(1);
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

// Right-trims only: leading tabs are significant in result lines (an empty first cell).
std::string_view RTrimNewline(std::string_view s) {
  while (!s.empty() && s.back() == '\r') s.remove_suffix(1);
  return s;
}

std::vector<std::string> Words(std::string_view s) {
  std::vector<std::string> out;
  std::istringstream in{std::string(s)};
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

Status Err(int line, const std::string& what) {
  return Status::InvalidArgument("test file line " + std::to_string(line) + ": " + what);
}

}  // namespace

std::vector<std::string> SplitCells(std::string_view line) {
  std::vector<std::string> cells;
  for (std::string_view cell : SplitOn(line, '\t')) cells.emplace_back(cell);
  return cells;
}

Result<std::vector<SqlTestStep>> ParseSqlTestFile(std::string_view text) {
  std::vector<std::string_view> lines;
  for (size_t pos = 0; pos <= text.size();) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) {
      if (pos < text.size()) lines.push_back(text.substr(pos));
      break;
    }
    lines.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }

  std::vector<SqlTestStep> steps;
  std::string pending_skip;
  int pending_skip_line = 0;
  size_t i = 0;
  // Reads lines until one that is exactly `end`; returns them. Fails at end of file.
  auto block_until_end = [&](int start_line, std::vector<std::string_view>* out) -> Status {
    while (i < lines.size()) {
      std::string_view l = RTrimNewline(lines[i++]);
      if (Trim(l) == "end") return Status::OK();
      out->push_back(l);
    }
    return Err(start_line, "block is not closed by `end`");
  };
  // Splits a block at its `----` line into the SQL part and the expectation part.
  auto split_block = [](const std::vector<std::string_view>& block, std::string* sql,
                        std::vector<std::string_view>* expect) -> bool {
    bool seen = false;
    for (std::string_view l : block) {
      if (!seen && Trim(l) == "----") {
        seen = true;
        continue;
      }
      if (seen) {
        expect->push_back(l);
      } else {
        if (!sql->empty()) *sql += "\n";
        *sql += std::string(l);
      }
    }
    return seen;
  };

  while (i < lines.size()) {
    const int line_no = static_cast<int>(i) + 1;
    std::string_view raw = Trim(lines[i++]);
    if (raw.empty() || raw.front() == '#') continue;
    std::vector<std::string> w = Words(raw);
    const std::string& d = w[0];
    SqlTestStep step;
    step.line = line_no;
    if (d == "skip") {
      std::string_view reason = Trim(raw.substr(4));
      if (reason.empty()) return Err(line_no, "`skip` needs a reason");
      if (!pending_skip.empty()) return Err(line_no, "two `skip` directives in a row");
      pending_skip = std::string(reason);
      pending_skip_line = line_no;
      continue;
    }
    if (d == "database" || d == "now") {
      if (w.size() < 2) return Err(line_no, "`" + d + "` needs an argument");
      step.kind = d == "database" ? StepKind::kDatabase : StepKind::kNow;
      step.argument = std::string(Trim(raw.substr(d.size())));
    } else if (d == "flush" || d == "compact" || d == "restart") {
      step.kind = d == "flush" ? StepKind::kFlush : d == "compact" ? StepKind::kCompact : StepKind::kRestart;
    } else if (d == "load") {
      step.kind = StepKind::kLoad;
      std::vector<std::string_view> block;
      GNOMON_RETURN_IF_ERROR(block_until_end(line_no, &block));
      for (std::string_view l : block) {
        step.argument += std::string(l);
        step.argument += "\n";
      }
    } else if (d == "statement") {
      step.kind = StepKind::kStatement;
      std::vector<std::string_view> block;
      GNOMON_RETURN_IF_ERROR(block_until_end(line_no, &block));
      std::vector<std::string_view> expect;
      if (split_block(block, &step.sql, &expect)) return Err(line_no, "`statement` takes no `----`");
    } else if (d == "query") {
      step.kind = StepKind::kQuery;
      for (size_t k = 1; k < w.size(); ++k) {
        if (w[k] == "rowsort") {
          step.rowsort = true;
        } else if (w[k] == "typed") {
          step.typed = true;
        } else {
          return Err(line_no, "unknown query option '" + w[k] + "'");
        }
      }
      std::vector<std::string_view> block;
      GNOMON_RETURN_IF_ERROR(block_until_end(line_no, &block));
      std::vector<std::string_view> expect;
      if (!split_block(block, &step.sql, &expect)) return Err(line_no, "query without `----`");
      if (expect.empty()) return Err(line_no, "query without a header line");
      step.header = SplitCells(expect[0]);
      size_t first_row = 1;
      if (step.typed) {
        if (expect.size() < 2) return Err(line_no, "typed query without a types line");
        step.types = SplitCells(expect[1]);
        if (step.types.size() != step.header.size()) return Err(line_no, "types line width != header width");
        first_row = 2;
      }
      for (size_t k = first_row; k < expect.size(); ++k) step.rows.push_back(SplitCells(expect[k]));
    } else if (d == "error") {
      step.kind = StepKind::kError;
      std::vector<std::string_view> block;
      GNOMON_RETURN_IF_ERROR(block_until_end(line_no, &block));
      std::vector<std::string_view> expect;
      if (!split_block(block, &step.sql, &expect)) return Err(line_no, "error without `----`");
      if (expect.size() != 1 || Trim(expect[0]).empty()) {
        return Err(line_no, "error wants exactly one line of expected message");
      }
      step.expected_error = std::string(Trim(expect[0]));
    } else {
      return Err(line_no, "unknown directive '" + d + "'");
    }
    if (!pending_skip.empty()) {
      if (step.kind != StepKind::kQuery && step.kind != StepKind::kError && step.kind != StepKind::kStatement) {
        return Err(pending_skip_line, "`skip` must precede a query, error or statement block");
      }
      step.skip_reason = std::move(pending_skip);
      pending_skip.clear();
    }
    if ((step.kind == StepKind::kQuery || step.kind == StepKind::kError || step.kind == StepKind::kStatement) &&
        Trim(step.sql).empty()) {
      return Err(line_no, "empty SQL");
    }
    steps.push_back(std::move(step));
  }
  if (!pending_skip.empty()) return Err(pending_skip_line, "`skip` at end of file");
  return steps;
}

}  // namespace gnomon::sqltest

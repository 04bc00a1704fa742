// Test helpers for the query engine: a sink that renders results as text rows.
#pragma once

#include <string>
#include <vector>

#include "src/query/execution/value.h"
#include "src/query/query_engine.h"

namespace gnomon::query::testing {

// Collects a result as rows of strings (NULL as "NULL", timestamps in RFC 3339).
class TextSink : public ResultSink {
 public:
  Status Begin(const std::vector<ResultColumn>& columns) override {
    this->columns = columns;
    return Status::OK();
  }
  Status Chunk(const ResultChunk& chunk) override {
    for (size_t r = 0; r < chunk.rows; ++r) {
      std::vector<std::string> row;
      for (const auto& col : chunk.columns) row.push_back(GetValue(col, r).ToString());
      rows.push_back(std::move(row));
    }
    return Status::OK();
  }
  Status End(const QueryStats& s) override {
    stats = s;
    ended = true;
    return Status::OK();
  }

  std::vector<ResultColumn> columns;
  std::vector<std::vector<std::string>> rows;
  QueryStats stats;
  bool ended = false;
};

}  // namespace gnomon::query::testing

#include "src/query/execution/basic_operators.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

#include "src/query/execution/expression_executor.h"

namespace gnomon::query {

FilterOperator::FilterOperator(OperatorPtr child, BoundExprPtr predicate, std::string text)
    : child_(std::move(child)), predicate_(std::move(predicate)), text_(std::move(text)) {
  schema_ = child_->schema();
}

Status FilterOperator::NextImpl(Chunk* chunk, bool* done) {
  std::vector<uint32_t> sel;
  while (true) {
    GNOMON_RETURN_IF_ERROR(child_->Next(chunk, done));
    if (chunk->rows > 0) {
      GNOMON_RETURN_IF_ERROR(EvaluateFilter(*predicate_, *chunk, &sel));
      SelectRows(chunk, sel);
    }
    if (chunk->rows > 0 || *done) return Status::OK();
  }
}

ProjectionOperator::ProjectionOperator(OperatorPtr child, std::vector<BoundExprPtr> exprs,
                                       std::vector<std::string> names)
    : child_(std::move(child)), exprs_(std::move(exprs)) {
  for (size_t i = 0; i < exprs_.size(); ++i) schema_.push_back(ResultColumn{names[i], exprs_[i]->type});
  // Count every reference to each input column, nested ones included.
  std::vector<int> uses(child_->schema().size(), 0);
  std::function<void(const BoundExpr&)> count = [&](const BoundExpr& e) {
    if (e.kind == BoundKind::kColumn && e.column >= 0 && static_cast<size_t>(e.column) < uses.size()) {
      ++uses[e.column];
    }
    for (const auto& c : e.children) count(*c);
  };
  for (const auto& e : exprs_) count(*e);
  move_from_.assign(exprs_.size(), -1);
  for (size_t i = 0; i < exprs_.size(); ++i) {
    const BoundExpr& e = *exprs_[i];
    if (e.kind == BoundKind::kColumn && uses[e.column] == 1 && child_->schema()[e.column].type == e.type) {
      move_from_[i] = e.column;
    }
  }
  input_uses_ = std::move(uses);
}

std::string ProjectionOperator::Describe() const {
  std::string d = "Project:";
  for (const auto& c : schema_) d += " " + c.name;
  return d;
}

Status ProjectionOperator::NextImpl(Chunk* chunk, bool* done) {
  Chunk in;
  GNOMON_RETURN_IF_ERROR(child_->Next(&in, done));
  chunk->rows = in.rows;
  chunk->columns.resize(exprs_.size());
  for (size_t i = 0; i < exprs_.size(); ++i) {
    if (move_from_[i] >= 0) {
      chunk->columns[i] = std::move(in.columns[move_from_[i]]);  // no copy of the column
    } else {
      GNOMON_RETURN_IF_ERROR(Evaluate(*exprs_[i], in, &chunk->columns[i]));
    }
    chunk->columns[i].type = exprs_[i]->type;
  }
  return Status::OK();
}

LimitOperator::LimitOperator(OperatorPtr child, int64_t limit, int64_t offset)
    : child_(std::move(child)), limit_(limit), offset_(offset) {
  schema_ = child_->schema();
}

std::string LimitOperator::Describe() const {
  std::string d = "Limit";
  if (limit_ >= 0) d += " " + std::to_string(limit_);
  if (offset_ > 0) d += " offset " + std::to_string(offset_);
  return d;
}

Status LimitOperator::NextImpl(Chunk* chunk, bool* done) {
  while (true) {
    if (limit_ >= 0 && emitted_ >= limit_) {
      chunk->rows = 0;
      chunk->columns.clear();
      *done = true;
      return Status::OK();
    }
    GNOMON_RETURN_IF_ERROR(child_->Next(chunk, done));
    std::vector<uint32_t> sel;
    for (uint32_t r = 0; r < chunk->rows; ++r) {
      if (skipped_ < offset_) {
        ++skipped_;
        continue;
      }
      if (limit_ >= 0 && emitted_ >= limit_) break;
      sel.push_back(r);
      ++emitted_;
    }
    SelectRows(chunk, sel);
    if (limit_ >= 0 && emitted_ >= limit_) *done = true;
    if (chunk->rows > 0 || *done) return Status::OK();
  }
}

void GatherRows(const Vector& src, const uint32_t* idx, size_t n, Vector* dst) {
  InitVector(dst, src.type);
  auto gather = [&](const auto& from, auto& to) {
    to.resize(n);
    for (size_t i = 0; i < n; ++i) to[i] = from[idx[i]];
  };
  switch (src.type) {
    case ValueType::kInt64:
    case ValueType::kTimestamp: gather(src.i64, dst->i64); break;
    case ValueType::kFloat64: gather(src.f64, dst->f64); break;
    case ValueType::kUInt64: gather(src.u64, dst->u64); break;
    case ValueType::kBool: gather(src.b, dst->b); break;
    case ValueType::kString: gather(src.str, dst->str); break;
    case ValueType::kNull: dst->validity.assign(n, 0); return;
  }
  if (!src.validity.empty()) gather(src.validity, dst->validity);
}

int CompareKey(const Vector& x, uint32_t a, const Vector& y, uint32_t b, const SortKey& k) {
  const bool an = x.type == ValueType::kNull || x.IsNull(a);
  const bool bn = y.type == ValueType::kNull || y.IsNull(b);
  if (an || bn) {
    if (an && bn) return 0;
    // NULLs first or last regardless of direction, as asked.
    return an == k.nulls_first ? -1 : 1;
  }
  int r = 0;
  switch (x.type) {
    case ValueType::kInt64:
    case ValueType::kTimestamp: r = x.i64[a] < y.i64[b] ? -1 : (x.i64[a] > y.i64[b] ? 1 : 0); break;
    case ValueType::kUInt64: r = x.u64[a] < y.u64[b] ? -1 : (x.u64[a] > y.u64[b] ? 1 : 0); break;
    case ValueType::kBool: r = x.b[a] < y.b[b] ? -1 : (x.b[a] > y.b[b] ? 1 : 0); break;
    case ValueType::kString: {
      const int c = x.str[a].compare(y.str[b]);
      r = c < 0 ? -1 : (c > 0 ? 1 : 0);
      break;
    }
    case ValueType::kFloat64: {
      // As CompareValues orders doubles (NaN after every number), without boxing them.
      const double p = x.f64[a], q = y.f64[b];
      const bool pn = std::isnan(p), qn = std::isnan(q);
      if (pn || qn) r = pn == qn ? 0 : (pn ? 1 : -1);
      else r = p < q ? -1 : (p > q ? 1 : 0);
      break;
    }
    default: break;
  }
  return k.descending ? -r : r;
}

int CompareRows(const Chunk& c, uint32_t a, uint32_t b, const std::vector<SortKey>& keys) {
  for (const SortKey& k : keys) {
    const Vector& v = c.columns[k.column];
    if (int r = CompareKey(v, a, v, b, k); r != 0) return r;
  }
  return 0;
}

void AppendRowKey(const Chunk& chunk, size_t row, size_t n, std::string* key) {
  std::vector<int> columns(n);
  for (size_t c = 0; c < n; ++c) columns[c] = static_cast<int>(c);
  AppendRowKeyOf(chunk, row, columns, key);
}

void AppendRowKeyOf(const Chunk& chunk, size_t row, const std::vector<int>& columns, std::string* key) {
  for (int c : columns) {
    const Vector& v = chunk.columns[c];
    if (v.type == ValueType::kNull || v.IsNull(row)) {
      key->push_back('\0');
      continue;
    }
    key->push_back('\1');
    switch (v.type) {
      case ValueType::kInt64:
      case ValueType::kTimestamp: key->append(reinterpret_cast<const char*>(&v.i64[row]), 8); break;
      case ValueType::kUInt64: key->append(reinterpret_cast<const char*>(&v.u64[row]), 8); break;
      case ValueType::kFloat64: {
        double d = v.f64[row] == 0 ? 0.0 : v.f64[row];  // -0.0 groups with 0.0
        key->append(reinterpret_cast<const char*>(&d), 8);
        break;
      }
      case ValueType::kBool: key->push_back(static_cast<char>(v.b[row])); break;
      case ValueType::kString: {
        uint32_t len = static_cast<uint32_t>(v.str[row].size());
        key->append(reinterpret_cast<const char*>(&len), 4);
        key->append(v.str[row]);
        break;
      }
      default: break;
    }
  }
}

DistinctOperator::DistinctOperator(OperatorPtr child, std::vector<int> key_columns, bool on)
    : child_(std::move(child)), key_columns_(std::move(key_columns)), on_(on) {
  schema_ = child_->schema();
}

Status DistinctOperator::NextImpl(Chunk* chunk, bool* done) {
  while (true) {
    GNOMON_RETURN_IF_ERROR(child_->Next(chunk, done));
    std::vector<uint32_t> sel;
    std::string key;
    for (uint32_t r = 0; r < chunk->rows; ++r) {
      key.clear();
      AppendRowKeyOf(*chunk, r, key_columns_, &key);
      if (seen_.insert(key).second) sel.push_back(r);
    }
    SelectRows(chunk, sel);
    if (chunk->rows > 0 || *done) return Status::OK();
  }
}

ChunkSourceOperator::ChunkSourceOperator(std::vector<ResultColumn> schema, Chunk chunk,
                                         std::string description)
    : chunk_(std::move(chunk)), description_(std::move(description)) {
  schema_ = std::move(schema);
}

Status ChunkSourceOperator::NextImpl(Chunk* chunk, bool* done) {
  if (emitted_) {
    chunk->rows = 0;
    chunk->columns.clear();
  } else {
    *chunk = std::move(chunk_);
    emitted_ = true;
  }
  *done = true;
  return Status::OK();
}

TrimColumnsOperator::TrimColumnsOperator(OperatorPtr child, size_t keep)
    : child_(std::move(child)), keep_(keep) {
  schema_.assign(child_->schema().begin(), child_->schema().begin() + keep);
}

Status TrimColumnsOperator::NextImpl(Chunk* chunk, bool* done) {
  GNOMON_RETURN_IF_ERROR(child_->Next(chunk, done));
  if (chunk->columns.size() > keep_) chunk->columns.resize(keep_);
  return Status::OK();
}

}  // namespace gnomon::query

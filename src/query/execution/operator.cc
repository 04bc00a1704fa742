#include "src/query/execution/operator.h"

#include <cstdio>

#include "src/base/task_pool.h"

namespace gnomon::query {

void ExecutionContext::ParallelFor(int width, const std::function<void(int)>& body) const {
  if (pool != nullptr) return pool->ParallelFor(width, body);
  for (int slot = 0; slot < width; ++slot) body(slot);
}

Status Operator::Next(Chunk* chunk, bool* done) {
  auto start = std::chrono::steady_clock::now();
  Status s = NextImpl(chunk, done);
  elapsed_ns_ += std::chrono::duration_cast<std::chrono::nanoseconds>(
                     std::chrono::steady_clock::now() - start)
                     .count();
  if (!s.ok()) return s;
  rows_out_ += chunk->rows;
  // An empty chunk still has the operator's columns, so that consumers index them freely
  // (a LIMIT reached or a source drained says so with no columns at all).
  if (chunk->rows == 0 && chunk->columns.size() != schema_.size()) {
    chunk->columns.resize(schema_.size());
    for (size_t c = 0; c < schema_.size(); ++c) InitVector(&chunk->columns[c], schema_[c].type);
  }
  return s;
}

namespace {
void Render(const Operator& op, bool analyze, int depth, std::string* out) {
  out->append(static_cast<size_t>(depth) * 2, ' ');
  out->append(depth == 0 ? "" : "-> ");
  out->append(op.Describe());
  if (analyze) {
    char buf[96];
    // Times include the children's (operators pull from them).
    std::snprintf(buf, sizeof(buf), "  (rows=%llu time=%.3f ms)",
                  static_cast<unsigned long long>(op.rows_out()), op.elapsed_ns() / 1e6);
    out->append(buf);
  }
  out->push_back('\n');
  for (const Operator* c : op.children()) Render(*c, analyze, depth + 1, out);
}
}  // namespace

std::string ExplainTree(const Operator& root, bool analyze) {
  std::string out;
  Render(root, analyze, 0, &out);
  return out;
}

void AppendChunk(Chunk* dst, const Chunk& src) {
  if (dst->columns.size() < src.columns.size()) {
    dst->columns.resize(src.columns.size());
    for (size_t c = 0; c < src.columns.size(); ++c) {
      if (dst->rows == 0) InitVector(&dst->columns[c], src.columns[c].type);
    }
  }
  for (size_t c = 0; c < src.columns.size(); ++c) {
    Vector& d = dst->columns[c];
    const Vector& s = src.columns[c];
    if (d.type == ValueType::kNull && s.type != ValueType::kNull && dst->rows == 0) d.type = s.type;
    if (d.type == s.type && s.type != ValueType::kNull) {
      // Same type: bulk copies of the values and the validity.
      const size_t before = VectorSize(d);
      const size_t n = src.rows;
      auto append = [n](auto& to, const auto& from) { to.insert(to.end(), from.begin(), from.begin() + n); };
      switch (s.type) {
        case ValueType::kInt64:
        case ValueType::kTimestamp: append(d.i64, s.i64); break;
        case ValueType::kFloat64: append(d.f64, s.f64); break;
        case ValueType::kUInt64: append(d.u64, s.u64); break;
        case ValueType::kBool: append(d.b, s.b); break;
        case ValueType::kString: append(d.str, s.str); break;
        default: break;
      }
      if (!s.validity.empty() || !d.validity.empty()) {
        if (d.validity.empty()) d.validity.assign(before, 1);
        if (s.validity.empty()) d.validity.resize(before + n, 1);
        else append(d.validity, s.validity);
      }
      continue;
    }
    for (size_t r = 0; r < src.rows; ++r) AppendFrom(&d, s, r);
  }
  dst->rows += src.rows;
}

Status ForEachChunk(Operator* op, ExecutionContext* ctx, const std::function<size_t(const Chunk&)>& bytes_per_row,
                    const std::function<void(Chunk&&)>& take) {
  while (true) {
    GNOMON_RETURN_IF_ERROR(ctx->Check());
    Chunk chunk;
    bool done = false;
    GNOMON_RETURN_IF_ERROR(op->Next(&chunk, &done));
    if (chunk.rows > 0) {
      GNOMON_RETURN_IF_ERROR(ctx->Reserve(chunk.rows * bytes_per_row(chunk)));
      take(std::move(chunk));
    }
    if (done) return Status::OK();
  }
}

Status DrainAll(Operator* op, Chunk* out, ExecutionContext* ctx) {
  out->rows = 0;
  out->columns.clear();
  out->columns.resize(op->schema().size());
  for (size_t c = 0; c < op->schema().size(); ++c) InitVector(&out->columns[c], op->schema()[c].type);
  return ForEachChunk(
      op, ctx, [](const Chunk& chunk) { return chunk.columns.size() * 16; },
      [out](Chunk&& chunk) {
        bool same_types = out->rows == 0 && chunk.columns.size() == out->columns.size();
        for (size_t c = 0; same_types && c < chunk.columns.size(); ++c) {
          same_types = chunk.columns[c].type == out->columns[c].type;
        }
        if (same_types) {
          *out = std::move(chunk);  // the first chunk: taken over, not copied
        } else {
          AppendChunk(out, chunk);
        }
      });
}

}  // namespace gnomon::query

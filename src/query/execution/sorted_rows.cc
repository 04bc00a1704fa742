#include "src/query/execution/sorted_rows.h"

#include <algorithm>

namespace gnomon::query {
namespace {

// Where row `row` of v is stored: a constant vector holds its one value at 0.
uint32_t At(const Vector& v, uint32_t row) { return v.constant ? 0 : row; }

// The chunk as `like`'s column types (an operator may send a NULL-typed column in one chunk and
// a typed one in the next), its constant vectors spelled out; AppendChunk converts value by value.
Chunk Conformed(Chunk chunk, const Chunk& like) {
  for (Vector& v : chunk.columns) {
    if (!v.constant) continue;
    Vector full;
    InitVector(&full, v.type);
    for (size_t r = 0; r < chunk.rows; ++r) AppendFrom(&full, v, 0);
    v = std::move(full);
  }
  Chunk out;
  out.columns.resize(like.columns.size());
  for (size_t c = 0; c < like.columns.size(); ++c) InitVector(&out.columns[c], like.columns[c].type);
  AppendChunk(&out, chunk);
  return out;
}

bool SameTypes(const Chunk& a, const Chunk& b) {
  if (a.columns.size() != b.columns.size()) return false;
  for (size_t c = 0; c < a.columns.size(); ++c) {
    if (a.columns[c].type != b.columns[c].type) return false;
  }
  return true;
}

// to[i] = the value of column c at refs[i], moved out of its chunk (copied from a constant
// vector, which every row of its chunk shares).
template <typename Refs, typename Member>
void Gather(std::vector<Chunk>& chunks, const Refs& refs, size_t c, Member member, Vector* to) {
  auto& out = to->*member;
  out.resize(refs.size());
  for (size_t i = 0; i < refs.size(); ++i) {
    Vector& from = chunks[refs[i].chunk].columns[c];
    if (from.constant) {
      out[i] = (from.*member)[0];
    } else {
      out[i] = std::move((from.*member)[refs[i].row]);
    }
  }
}

}  // namespace

Status SortedRows::Load(Operator* input, ExecutionContext* ctx) {
  GNOMON_RETURN_IF_ERROR(ForEachChunk(
      input, ctx, [](const Chunk& chunk) { return chunk.columns.size() * 16 + sizeof(Ref); },
      [this](Chunk&& chunk) {
        if (!chunks_.empty() && !SameTypes(chunk, chunks_.front())) chunk = Conformed(std::move(chunk), chunks_.front());
        const auto id = static_cast<uint32_t>(chunks_.size());
        for (uint32_t r = 0; r < chunk.rows; ++r) refs_.push_back(Ref{0, id, r});
        chunks_.push_back(std::move(chunk));
      }));
  // Which columns hold a NULL anywhere, once, for every Emit.
  has_validity_.assign(input->schema().size(), false);
  for (const Chunk& chunk : chunks_) {
    for (size_t c = 0; c < has_validity_.size() && c < chunk.columns.size(); ++c) {
      has_validity_[c] = has_validity_[c] || !chunk.columns[c].validity.empty();
    }
  }
  return Status::OK();
}

bool SortedRows::FirstKeyIsFast(const SortKey& key) const {
  for (const Chunk& c : chunks_) {
    const Vector& v = c.columns[key.column];
    if (v.constant || (v.type != ValueType::kInt64 && v.type != ValueType::kTimestamp)) return false;
    if (std::find(v.validity.begin(), v.validity.end(), uint8_t{0}) != v.validity.end()) return false;
  }
  return true;
}

bool SortedRows::ConstantInEveryChunk(const SortKey& key) const {
  return std::all_of(chunks_.begin(), chunks_.end(), [&](const Chunk& c) { return c.columns[key.column].constant; });
}

std::vector<uint32_t> SortedRows::RankChunks(const std::vector<SortKey>& keys) const {
  std::vector<uint32_t> order(chunks_.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  auto compare = [&](uint32_t a, uint32_t b) {
    for (const SortKey& k : keys) {
      if (int r = CompareKey(chunks_[a].columns[k.column], 0, chunks_[b].columns[k.column], 0, k); r != 0) return r;
    }
    return 0;
  };
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return compare(a, b) < 0; });
  std::vector<uint32_t> rank(chunks_.size());
  for (size_t i = 0, r = 0; i < order.size(); ++i) {
    if (i > 0 && compare(order[i - 1], order[i]) != 0) ++r;
    rank[order[i]] = static_cast<uint32_t>(r);
  }
  return rank;
}

void SortedRows::Sort(const std::vector<SortKey>& keys, int64_t top_n) {
  size_t first_compared = 0;  // keys before it are in Ref::key or the chunk ranks
  const bool fast_key = !keys.empty() && FirstKeyIsFast(keys[0]);
  if (fast_key) {
    for (Ref& r : refs_) r.key = chunks_[r.chunk].columns[keys[0].column].i64[r.row];
    first_compared = 1;
  }
  // The keys that follow, while each is one value per chunk (a series' tags), rank the chunks.
  size_t ranked = first_compared;
  while (ranked < keys.size() && ConstantInEveryChunk(keys[ranked])) ++ranked;
  std::vector<uint32_t> rank;
  if (ranked > first_compared) {
    rank = RankChunks(std::vector<SortKey>(keys.begin() + first_compared, keys.begin() + ranked));
    first_compared = ranked;
  }
  const bool descending = !keys.empty() && keys[0].descending;
  auto less = [&](const Ref& a, const Ref& b) {
    if (fast_key && a.key != b.key) return descending ? a.key > b.key : a.key < b.key;
    if (!rank.empty() && rank[a.chunk] != rank[b.chunk]) return rank[a.chunk] < rank[b.chunk];
    const Chunk& ca = chunks_[a.chunk];
    const Chunk& cb = chunks_[b.chunk];
    for (size_t k = first_compared; k < keys.size(); ++k) {
      const Vector& x = ca.columns[keys[k].column];
      const Vector& y = cb.columns[keys[k].column];
      if (int r = CompareKey(x, At(x, a.row), y, At(y, b.row), keys[k]); r != 0) return r < 0;
    }
    return a.chunk != b.chunk ? a.chunk < b.chunk : a.row < b.row;  // stable
  };
  // Input already in order (one series by time, an index-ordered scan) costs one pass.
  const bool sorted = std::is_sorted(refs_.begin(), refs_.end(), less);
  if (top_n >= 0 && static_cast<size_t>(top_n) < refs_.size()) {
    if (!sorted) std::partial_sort(refs_.begin(), refs_.begin() + top_n, refs_.end(), less);
    refs_.resize(top_n);
  } else if (!sorted) {
    std::sort(refs_.begin(), refs_.end(), less);
  }
}

void SortedRows::Emit(size_t begin, size_t end, const std::vector<ResultColumn>& schema, Chunk* chunk) {
  struct Span {
    const Ref* first;
    size_t n;
    size_t size() const { return n; }
    const Ref& operator[](size_t i) const { return first[i]; }
  } refs{refs_.data() + begin, end - begin};
  chunk->rows = refs.size();
  chunk->columns.resize(schema.size());
  for (size_t c = 0; c < schema.size(); ++c) {
    Vector* to = &chunk->columns[c];
    const ValueType type = chunks_.empty() ? schema[c].type : chunks_.front().columns[c].type;
    InitVector(to, type);
    switch (type) {
      case ValueType::kInt64:
      case ValueType::kTimestamp: Gather(chunks_, refs, c, &Vector::i64, to); break;
      case ValueType::kFloat64: Gather(chunks_, refs, c, &Vector::f64, to); break;
      case ValueType::kUInt64: Gather(chunks_, refs, c, &Vector::u64, to); break;
      case ValueType::kBool: Gather(chunks_, refs, c, &Vector::b, to); break;
      case ValueType::kString: Gather(chunks_, refs, c, &Vector::str, to); break;
      case ValueType::kNull: to->validity.assign(refs.size(), 0); continue;
    }
    if (c >= has_validity_.size() || !has_validity_[c]) continue;
    to->validity.resize(refs.size());
    for (size_t i = 0; i < refs.size(); ++i) {
      const Vector& from = chunks_[refs[i].chunk].columns[c];
      to->validity[i] = from.validity.empty() ? 1 : from.validity[At(from, refs[i].row)];
    }
  }
}

}  // namespace gnomon::query

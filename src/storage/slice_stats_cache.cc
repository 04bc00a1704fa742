#include "src/storage/slice_stats_cache.h"

#include <algorithm>
#include <cstring>
#include <new>

namespace gnomon::storage {

bool CacheBudget::TryCharge(size_t bytes) {
  size_t used = used_.load(std::memory_order_relaxed);
  do {
    if (bytes > limit_ || used > limit_ - bytes) return false;
  } while (!used_.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
  return true;
}

namespace {

// ColumnStats in 40 bytes (it takes 80). The three numbers are an int64 column's exact minimum,
// maximum and sum (the sum's double when it is not exact), else the double ones; the column's
// type tells which, and the derived doubles are recomputed on unpacking, as
// DecodeColumnStats computes them.
struct PackedStats {
  uint64_t a = 0, b = 0, c = 0;
  int64_t head_isum = 0;
  uint32_t count = 0;
  uint8_t exact_sum = 0;
  uint8_t numeric = 0;
  uint8_t has_head = 0;
};

template <typename T>
uint64_t Bits(T v) {
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  return bits;
}
template <typename T>
T FromBits(uint64_t bits) {
  T v;
  std::memcpy(&v, &bits, 8);
  return v;
}

enum class Kind { kInt, kDouble, kCountOnly };
Kind KindOf(ValueType type) {
  switch (type) {
    case ValueType::kInt64: return Kind::kInt;
    case ValueType::kFloat64:
    case ValueType::kUInt64:
    case ValueType::kBool: return Kind::kDouble;
    default: return Kind::kCountOnly;
  }
}

PackedStats Pack(Kind kind, const ColumnStats& s) {
  PackedStats p;
  p.count = s.count;
  p.numeric = s.has_numeric ? 1 : 0;
  p.has_head = s.has_head ? 1 : 0;
  p.head_isum = s.head_isum;
  if (kind == Kind::kInt) {
    p.a = Bits(s.imin);
    p.b = Bits(s.imax);
    p.exact_sum = s.isum_exact ? 1 : 0;
    p.c = s.isum_exact ? Bits(s.isum) : Bits(s.sum);
  } else if (kind == Kind::kDouble) {
    p.a = Bits(s.min);
    p.b = Bits(s.max);
    p.c = Bits(s.sum);
  }
  return p;
}

void Unpack(Kind kind, const PackedStats& p, ColumnStats* s) {
  *s = ColumnStats{};
  s->count = p.count;
  if (kind == Kind::kInt) {
    s->imin = FromBits<int64_t>(p.a);
    s->imax = FromBits<int64_t>(p.b);
    s->min = static_cast<double>(s->imin);
    s->max = static_cast<double>(s->imax);
    if (p.exact_sum) {
      s->isum = FromBits<int64_t>(p.c);
      s->isum_exact = true;
      s->sum = static_cast<double>(s->isum);
    } else {
      s->sum = FromBits<double>(p.c);
    }
  } else if (kind == Kind::kDouble) {
    s->min = FromBits<double>(p.a);
    s->max = FromBits<double>(p.b);
    s->sum = FromBits<double>(p.c);
  }
  s->has_numeric = p.numeric != 0;
  s->has_head = p.has_head != 0;
  s->head_isum = p.head_isum;
}

}  // namespace

// One allocation: the count, then the statistics (a scan reaching an entry then misses the
// cache once, not twice).
struct SliceStatsCache::Entry {
  size_t n;  // followed by n PackedStats

  PackedStats* stats() { return reinterpret_cast<PackedStats*>(this + 1); }
  const PackedStats* stats() const { return reinterpret_cast<const PackedStats*>(this + 1); }
  static size_t Bytes(size_t n) { return sizeof(Entry) + n * sizeof(PackedStats); }
  static Entry* New(size_t n) {
    static_assert(sizeof(Entry) % alignof(PackedStats) == 0);
    void* memory = ::operator new(Bytes(n));
    Entry* e = new (memory) Entry{n};
    for (size_t i = 0; i < n; ++i) new (e->stats() + i) PackedStats;
    return e;
  }
  static void Delete(Entry* e) { ::operator delete(e); }  // every part is trivially destructible
};

SliceStatsCache::SliceStatsCache(std::shared_ptr<CacheBudget> budget, size_t chunks) : budget_(std::move(budget)) {
  // The directory is charged too (8 bytes a chunk); without room for it nothing is cached.
  if (budget_ == nullptr || chunks == 0 || !budget_->TryCharge(chunks * sizeof(std::atomic<Entry*>))) return;
  chunks_ = chunks;
  entries_.reset(new std::atomic<Entry*>[chunks]);
  for (size_t i = 0; i < chunks; ++i) entries_[i].store(nullptr, std::memory_order_relaxed);
}

SliceStatsCache::~SliceStatsCache() {
  if (chunks_ == 0) return;
  size_t freed = chunks_ * sizeof(std::atomic<Entry*>);
  for (size_t i = 0; i < chunks_; ++i) {
    Entry* e = entries_[i].load(std::memory_order_relaxed);
    if (e == nullptr) continue;
    freed += Entry::Bytes(e->n);
    Entry::Delete(e);
  }
  budget_->Release(freed);
}

bool SliceStatsCache::Read(size_t chunk, ValueType type, size_t slices, size_t first, size_t needed,
                           std::vector<ColumnStats>* out) const {
  if (chunk >= chunks_) return false;
  const Entry* e = entries_[chunk].load(std::memory_order_acquire);
  if (e == nullptr || e->n != slices) return false;
  const Kind kind = KindOf(type);
  out->resize(e->n);
  const size_t end = std::min<size_t>(needed, e->n);
  for (size_t i = std::min(first, end); i < end; ++i) Unpack(kind, e->stats()[i], &(*out)[i]);
  return true;
}

void SliceStatsCache::Insert(size_t chunk, ValueType type, const std::vector<ColumnStats>& stats) {
  if (chunk >= chunks_ || stats.empty() || entries_[chunk].load(std::memory_order_relaxed) != nullptr) return;
  const size_t bytes = Entry::Bytes(stats.size());
  if (!budget_->TryCharge(bytes)) return;
  Entry* e = Entry::New(stats.size());
  const Kind kind = KindOf(type);
  for (size_t i = 0; i < stats.size(); ++i) e->stats()[i] = Pack(kind, stats[i]);
  Entry* expected = nullptr;
  if (!entries_[chunk].compare_exchange_strong(expected, e, std::memory_order_acq_rel)) {
    Entry::Delete(e);  // another reader cached it first
    budget_->Release(bytes);
  }
}

void SliceStatsCache::Prefetch(size_t chunk, size_t first, size_t needed) const {
  if (chunk >= chunks_) return;
  const Entry* e = entries_[chunk].load(std::memory_order_acquire);
  if (e == nullptr) return;
  const auto* begin = reinterpret_cast<const char*>(e->stats() + std::min(first, e->n));
  const auto* end = reinterpret_cast<const char*>(e->stats() + std::min(needed, e->n));
  for (const char* p = begin; p < end; p += 64) __builtin_prefetch(p);
}

}  // namespace gnomon::storage

#include "src/query/execution/join_key_table.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "src/base/hash.h"

namespace gnomon::query {
namespace {

uint64_t Mix(uint64_t x) {  // splitmix64's finaliser
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

uint64_t HashValue(const Vector& v, size_t r) {
  switch (v.type) {
    case ValueType::kInt64:
    case ValueType::kTimestamp: return Mix(static_cast<uint64_t>(v.i64[r]));
    case ValueType::kUInt64: return Mix(v.u64[r]);
    case ValueType::kBool: return Mix(v.b[r]);
    case ValueType::kFloat64: {
      double d = v.f64[r];
      if (d == 0) d = 0;                                  // -0.0 with 0.0
      if (std::isnan(d)) d = std::numeric_limits<double>::quiet_NaN();  // every NaN alike
      uint64_t bits;
      std::memcpy(&bits, &d, sizeof(bits));
      return Mix(bits);
    }
    case ValueType::kString: return Hash64(v.str[r]);
    case ValueType::kNull: return 0;
  }
  return 0;
}

bool ValueEqual(const Vector& a, size_t i, const Vector& b, size_t j) {
  switch (a.type) {
    case ValueType::kInt64:
    case ValueType::kTimestamp: return a.i64[i] == b.i64[j];
    case ValueType::kUInt64: return a.u64[i] == b.u64[j];
    case ValueType::kBool: return a.b[i] == b.b[j];
    case ValueType::kFloat64: {
      const double x = a.f64[i], y = b.f64[j];
      return x == y || (std::isnan(x) && std::isnan(y));
    }
    case ValueType::kString: return a.str[i] == b.str[j];
    case ValueType::kNull: return false;
  }
  return false;
}

}  // namespace

void JoinKeyTable::HashRows(const std::vector<Vector>& keys, size_t rows, std::vector<uint64_t>* hashes,
                            std::vector<uint8_t>* valid) {
  hashes->assign(rows, 0x9e3779b97f4a7c15ULL);
  valid->assign(rows, 1);
  for (const Vector& k : keys) {
    for (size_t r = 0; r < rows; ++r) {
      if (k.type == ValueType::kNull || k.IsNull(r)) {
        (*valid)[r] = 0;
        continue;
      }
      (*hashes)[r] = Mix((*hashes)[r] ^ HashValue(k, r));  // chained, so the keys' order matters
    }
  }
}

bool JoinKeyTable::Equal(const std::vector<Vector>& a, size_t i, const std::vector<Vector>& b, size_t j) {
  for (size_t k = 0; k < a.size(); ++k) {
    if (!ValueEqual(a[k], i, b[k], j)) return false;
  }
  return true;
}

void JoinKeyTable::Grow() {
  const size_t size = slots_.empty() ? 1024 : slots_.size() * 2;
  slots_.assign(size, -1);
  const size_t mask = size - 1;
  for (uint32_t g = 0; g < group_row_.size(); ++g) {
    size_t s = group_hash_[g] & mask;
    while (slots_[s] >= 0) s = (s + 1) & mask;
    slots_[s] = static_cast<int32_t>(g);
  }
}

uint32_t JoinKeyTable::Insert(uint64_t hash, uint32_t row) {
  if ((group_row_.size() + 1) * 2 > slots_.size()) Grow();
  const size_t mask = slots_.size() - 1;
  for (size_t s = hash & mask;; s = (s + 1) & mask) {
    const int32_t g = slots_[s];
    if (g < 0) {
      slots_[s] = static_cast<int32_t>(group_row_.size());
      group_hash_.push_back(hash);
      group_row_.push_back(row);
      return static_cast<uint32_t>(group_row_.size() - 1);
    }
    if (group_hash_[g] == hash && Equal(*build_keys_, group_row_[g], *build_keys_, row)) return static_cast<uint32_t>(g);
  }
}

int64_t JoinKeyTable::Find(uint64_t hash, const std::vector<Vector>& keys, size_t row) const {
  if (slots_.empty()) return -1;
  const size_t mask = slots_.size() - 1;
  for (size_t s = hash & mask;; s = (s + 1) & mask) {
    const int32_t g = slots_[s];
    if (g < 0) return -1;
    if (group_hash_[g] == hash && Equal(*build_keys_, group_row_[g], keys, row)) return g;
  }
}

}  // namespace gnomon::query

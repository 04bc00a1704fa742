#include "src/encoding/rle.h"

#include <algorithm>

#include "src/base/coding.h"
#include "src/encoding/block_format.h"

namespace gnomon::encoding {
namespace {

// Calls fn(value, length) for each maximal run.
template <typename T, typename Fn>
void ForEachRun(std::span<const T> v, Fn fn) {
  size_t start = 0;
  for (size_t i = 1; i <= v.size(); ++i) {
    if (i == v.size() || v[i] != v[start]) {
      fn(v[start], i - start);
      start = i;
    }
  }
}

}  // namespace

size_t CountRuns(std::span<const int64_t> v) {
  if (v.empty()) return 0;
  size_t runs = 1;
  for (size_t i = 1; i < v.size(); ++i) runs += v[i] != v[i - 1];
  return runs;
}

size_t RleEncodedSize(std::span<const int64_t> v) {
  size_t total = 0;
  ForEachRun(v, [&](int64_t value, size_t len) { total += VarintLength(ZigZagEncode(value)) + VarintLength(len); });
  return total;
}

void EncodeRle(std::span<const int64_t> v, std::string* out) {
  ForEachRun(v, [&](int64_t value, size_t len) {
    PutVarsint64(out, value);
    PutVarint64(out, len);
  });
}

Status DecodeRle(std::string_view payload, size_t n, int64_t* out) {
  std::string_view in = payload;
  size_t at = 0;
  while (at < n) {
    int64_t value;
    uint64_t len;
    if (!GetVarsint64(&in, &value) || !GetVarint64(&in, &len)) {
      return PayloadCorruption(Codec::kRle, "truncated run", payload, in);
    }
    if (len == 0 || len > n - at) return PayloadCorruption(Codec::kRle, "run length out of range", payload, in);
    std::fill(out + at, out + at + len, value);
    at += len;
  }
  return ExpectConsumed(Codec::kRle, payload, in);
}

void EncodeBoolRle(std::span<const uint8_t> v, std::string* out) {
  out->push_back(static_cast<char>(v[0]));
  ForEachRun(v, [&](uint8_t, size_t len) { PutVarint64(out, len); });
}

Status DecodeBoolRle(std::string_view payload, size_t n, uint8_t* out) {
  std::string_view in = payload;
  if (n == 0) return PayloadCorruption(Codec::kBoolRle, "needs one or more values", payload, in);
  if (in.empty() || static_cast<uint8_t>(in[0]) > 1) {
    return PayloadCorruption(Codec::kBoolRle, "missing or invalid first value", payload, in);
  }
  uint8_t value = static_cast<uint8_t>(in[0]);
  in.remove_prefix(1);
  size_t at = 0;
  while (at < n) {
    uint64_t len;
    if (!GetVarint64(&in, &len)) return PayloadCorruption(Codec::kBoolRle, "truncated run", payload, in);
    if (len == 0 || len > n - at) return PayloadCorruption(Codec::kBoolRle, "run length out of range", payload, in);
    std::fill(out + at, out + at + len, value);
    at += len;
    value ^= 1;
  }
  return ExpectConsumed(Codec::kBoolRle, payload, in);
}

}  // namespace gnomon::encoding

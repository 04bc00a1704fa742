#include "src/encoding/delta.h"

#include "src/base/coding.h"
#include "src/encoding/block_format.h"
#include "src/encoding/frame_of_reference.h"

namespace gnomon::encoding {
namespace {

inline int64_t WrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

}  // namespace

void ComputeDeltas(std::span<const int64_t> v, int64_t* out) {
  for (size_t i = 1; i < v.size(); ++i) {
    out[i - 1] = static_cast<int64_t>(static_cast<uint64_t>(v[i]) - static_cast<uint64_t>(v[i - 1]));
  }
}

void EncodeConstantDelta(int64_t first, int64_t step, std::string* out) {
  PutVarsint64(out, first);
  PutVarsint64(out, step);
}

Status DecodeConstantDelta(std::string_view payload, size_t n, int64_t* out) {
  std::string_view in = payload;
  int64_t v, step;
  if (n < 2) return PayloadCorruption(Codec::kConstantDelta, "needs two or more values", payload, in);
  if (!GetVarsint64(&in, &v) || !GetVarsint64(&in, &step)) {
    return PayloadCorruption(Codec::kConstantDelta, "truncated first value or step", payload, in);
  }
  for (size_t i = 0; i < n; ++i) {
    out[i] = v;
    v = WrapAdd(v, step);
  }
  return ExpectConsumed(Codec::kConstantDelta, payload, in);
}

void EncodeDeltaFor(std::span<const int64_t> v, std::span<const int64_t> deltas, std::string* out) {
  PutVarsint64(out, v[0]);
  ForEncode(deltas, out);
}

Status DecodeDeltaFor(std::string_view payload, size_t n, int64_t* out) {
  std::string_view in = payload;
  if (n == 0) return PayloadCorruption(Codec::kDeltaFor, "needs one or more values", payload, in);
  if (!GetVarsint64(&in, &out[0])) return PayloadCorruption(Codec::kDeltaFor, "truncated first value", payload, in);
  if (!ForDecodeDelta(&in, n - 1, out[0], out + 1)) {
    return PayloadCorruption(Codec::kDeltaFor, "truncated or invalid group", payload, in);
  }
  return ExpectConsumed(Codec::kDeltaFor, payload, in);
}

void EncodeDeltaDeltaFor(std::span<const int64_t> v, std::span<const int64_t> deltas,
                         std::span<const int64_t> dods, std::string* out) {
  PutVarsint64(out, v[0]);
  PutVarsint64(out, deltas[0]);
  ForEncode(dods, out);
}

Status DecodeDeltaDeltaFor(std::string_view payload, size_t n, int64_t* out) {
  std::string_view in = payload;
  int64_t first_delta;
  if (n < 2) return PayloadCorruption(Codec::kDeltaDeltaFor, "needs two or more values", payload, in);
  if (!GetVarsint64(&in, &out[0]) || !GetVarsint64(&in, &first_delta)) {
    return PayloadCorruption(Codec::kDeltaDeltaFor, "truncated first value or delta", payload, in);
  }
  // Rebuild the deltas in place (out[2..n) holds delta[1..n-1)), then integrate them.
  if (!ForDecodeDelta(&in, n - 2, first_delta, out + 2)) {
    return PayloadCorruption(Codec::kDeltaDeltaFor, "truncated or invalid group", payload, in);
  }
  out[1] = WrapAdd(out[0], first_delta);
  for (size_t i = 2; i < n; ++i) out[i] = WrapAdd(out[i - 1], out[i]);
  return ExpectConsumed(Codec::kDeltaDeltaFor, payload, in);
}

void EncodeDeltaVarint(std::span<const int64_t> v, std::span<const int64_t> deltas, std::string* out) {
  PutVarsint64(out, v[0]);
  for (int64_t d : deltas) PutVarsint64(out, d);
}

Status DecodeDeltaVarint(std::string_view payload, size_t n, int64_t* out) {
  if (n == 0) return PayloadCorruption(Codec::kDeltaVarint, "needs one or more values", payload, payload);
  const char* p = payload.data();
  const char* const limit = p + payload.size();
  uint64_t acc = 0;  // the first "delta" is the first value itself
  for (size_t i = 0; i < n; ++i) {
    uint64_t z;
    // One-byte varints dominate (small deltas), so test for them before the general decoder.
    if (p < limit && static_cast<uint8_t>(*p) < 0x80) {
      z = static_cast<uint8_t>(*p++);
    } else {
      const char* next = DecodeVarint64(p, limit, &z);
      if (next == nullptr) {
        return PayloadCorruption(Codec::kDeltaVarint, "truncated value " + std::to_string(i), payload,
                                 std::string_view(p, limit - p));
      }
      p = next;
    }
    acc += static_cast<uint64_t>(ZigZagDecode(z));
    out[i] = static_cast<int64_t>(acc);
  }
  return ExpectConsumed(Codec::kDeltaVarint, payload, std::string_view(p, limit - p));
}

}  // namespace gnomon::encoding

#include "src/encoding/alp.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "src/base/coding.h"
#include "src/encoding/bit_packing.h"
#include "src/encoding/block_format.h"
#include "src/encoding/int_codec.h"

namespace gnomon::encoding {
namespace {

constexpr double kPow10[kAlpMaxExponent + 1] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,
                                                1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18};
constexpr double kInvPow10[kAlpMaxExponent + 1] = {1e0,   1e-1,  1e-2,  1e-3,  1e-4,  1e-5,  1e-6,
                                                   1e-7,  1e-8,  1e-9,  1e-10, 1e-11, 1e-12, 1e-13,
                                                   1e-14, 1e-15, 1e-16, 1e-17, 1e-18};
// Adding and subtracting 2^52 + 2^51 rounds a double below 2^51 in magnitude to an integer (ties to even)
// without a libm call.
constexpr double kRoundMagic = 6755399441055744.0;
constexpr double kMaxEncodable = 2251799813685248.0;  // 2^51

// The decode expression; encoding verifies each value against exactly this, so they must stay equal.
inline double AlpDecodeOne(int64_t d, int e, int f) {
  return static_cast<double>(d) * kPow10[f] * kInvPow10[e];
}

// True (with *d) when v round-trips through (e, f).
inline bool AlpEncodeOne(double v, int e, int f, int64_t* d) {
  const double scaled = v * kPow10[e] * kInvPow10[f];
  if (!(std::fabs(scaled) < kMaxEncodable)) return false;  // also rejects NaN
  const int64_t r = static_cast<int64_t>((scaled + kRoundMagic) - kRoundMagic);
  if (std::bit_cast<uint64_t>(AlpDecodeOne(r, e, f)) != std::bit_cast<uint64_t>(v)) return false;
  *d = r;
  return true;
}

}  // namespace

AlpParams ChooseAlpParams(std::span<const double> v) {
  constexpr size_t kSample = 32;
  double sample[kSample];
  const size_t m = std::min(kSample, v.size());
  for (size_t i = 0; i < m; ++i) sample[i] = v[i * v.size() / m];

  AlpParams best;
  best.sample_size = m;
  best.sample_exceptions = m + 1;
  size_t best_cost = SIZE_MAX;
  for (int e = 0; e <= kAlpMaxExponent; ++e) {
    for (int f = 0; f <= e; ++f) {
      size_t exceptions = 0;
      int64_t lo = INT64_MAX, hi = INT64_MIN;
      for (size_t i = 0; i < m; ++i) {
        int64_t d;
        if (AlpEncodeOne(sample[i], e, f, &d)) {
          lo = std::min(lo, d);
          hi = std::max(hi, d);
        } else {
          ++exceptions;
        }
      }
      const int width = lo > hi ? 0 : BitWidth(static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo));
      // An exception costs its 64-bit value plus about 16 bits of position.
      const size_t cost = m * static_cast<size_t>(width) + exceptions * 80;
      if (cost < best_cost) {
        best_cost = cost;
        best.e = e;
        best.f = f;
        best.sample_exceptions = exceptions;
      }
    }
  }
  return best;
}

void EncodeAlp(std::span<const double> v, const AlpParams& params, std::string* out) {
  std::vector<int64_t> ints(v.size());
  std::vector<uint32_t> positions;
  int64_t fill = 0;
  // Exceptions take the next encodable integer (or the previous one) so deltas stay small.
  for (double x : v) {
    if (AlpEncodeOne(x, params.e, params.f, &fill)) break;
  }
  for (size_t i = 0; i < v.size(); ++i) {
    int64_t d;
    if (AlpEncodeOne(v[i], params.e, params.f, &d)) {
      ints[i] = d;
      fill = d;
    } else {
      ints[i] = fill;
      positions.push_back(static_cast<uint32_t>(i));
    }
  }
  out->push_back(static_cast<char>(params.e));
  out->push_back(static_cast<char>(params.f));
  PutVarint64(out, positions.size());
  for (size_t k = 0; k < positions.size(); ++k) {
    PutVarint64(out, k == 0 ? positions[0] : positions[k] - positions[k - 1] - 1);
  }
  for (uint32_t p : positions) PutFixed64(out, std::bit_cast<uint64_t>(v[p]));
  EncodeIntBlock(ints, out);
}

Status DecodeAlp(std::string_view payload, size_t n, double* out) {
  std::string_view in = payload;
  if (in.size() < 2) return PayloadCorruption(Codec::kAlp, "truncated exponents", payload, in);
  const int e = static_cast<uint8_t>(in[0]);
  const int f = static_cast<uint8_t>(in[1]);
  if (e > kAlpMaxExponent || f > kAlpMaxExponent) {
    return PayloadCorruption(Codec::kAlp, "exponent out of range", payload, in);
  }
  in.remove_prefix(2);
  uint64_t exceptions;
  if (!GetVarint64(&in, &exceptions) || exceptions > n) {
    return PayloadCorruption(Codec::kAlp, "missing or impossible exception count", payload, in);
  }
  // Positions are validated into a small vector first: the nested block must be decoded before the
  // exception values can be patched in.
  std::vector<uint32_t> positions(exceptions);
  uint64_t next = 0;
  for (uint64_t k = 0; k < exceptions; ++k) {
    uint64_t gap;
    if (!GetVarint64(&in, &gap) || gap >= n - next) {
      return PayloadCorruption(Codec::kAlp, "exception position out of range", payload, in);
    }
    positions[k] = static_cast<uint32_t>(next + gap);
    next = positions[k] + 1;
  }
  if (in.size() < exceptions * 8) return PayloadCorruption(Codec::kAlp, "truncated exception values", payload, in);
  const std::string_view exception_values = in.substr(0, exceptions * 8);
  in.remove_prefix(exceptions * 8);

  std::string scratch;
  BlockView nested;
  Status s = OpenBlock(in, &scratch, &nested);
  if (s.ok() && nested.count != n) s = Status::Corruption("nested count " + std::to_string(nested.count) + " != " + std::to_string(n));
  std::vector<int64_t> ints(n);
  if (s.ok()) s = DecodeIntPayload(nested, ints.data());
  if (!s.ok()) return s.WithContext("alp: nested integer block at payload offset " + std::to_string(payload.size() - in.size()));

  for (size_t i = 0; i < n; ++i) out[i] = AlpDecodeOne(ints[i], e, f);
  for (uint64_t k = 0; k < exceptions; ++k) {
    out[positions[k]] = std::bit_cast<double>(DecodeFixed64(exception_values.data() + 8 * k));
  }
  return Status::OK();
}

}  // namespace gnomon::encoding

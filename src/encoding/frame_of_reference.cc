#include "src/encoding/frame_of_reference.h"

#include <algorithm>

#include "src/base/coding.h"
#include "src/encoding/bit_packing.h"

namespace gnomon::encoding {
namespace {

struct GroupFrame {
  int64_t base;
  int width;
};

inline GroupFrame FrameOf(const int64_t* v, size_t n) {
  int64_t lo = v[0], hi = v[0];
  for (size_t i = 1; i < n; ++i) {
    lo = std::min(lo, v[i]);
    hi = std::max(hi, v[i]);
  }
  return {lo, BitWidth(static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo))};
}

// Reads a group header and checks the packed bytes are present. On success *in points at them.
inline bool ReadGroupHeader(std::string_view* in, size_t group_n, GroupFrame* frame) {
  if (in->empty()) return false;
  frame->width = static_cast<uint8_t>((*in)[0]);
  if (frame->width > 64) return false;
  in->remove_prefix(1);
  if (!GetVarsint64(in, &frame->base)) return false;
  return in->size() >= PackedBytes(group_n, frame->width);
}

}  // namespace

size_t ForEncodedSize(std::span<const int64_t> values) {
  size_t total = 0;
  for (size_t at = 0; at < values.size(); at += kForGroupSize) {
    const size_t n = std::min(kForGroupSize, values.size() - at);
    const GroupFrame f = FrameOf(values.data() + at, n);
    total += 1 + VarintLength(ZigZagEncode(f.base)) + PackedBytes(n, f.width);
  }
  return total;
}

void ForEncode(std::span<const int64_t> values, std::string* out) {
  uint64_t offsets[kForGroupSize];
  for (size_t at = 0; at < values.size(); at += kForGroupSize) {
    const size_t n = std::min(kForGroupSize, values.size() - at);
    const int64_t* v = values.data() + at;
    const GroupFrame f = FrameOf(v, n);
    out->push_back(static_cast<char>(f.width));
    PutVarsint64(out, f.base);
    for (size_t i = 0; i < n; ++i) offsets[i] = static_cast<uint64_t>(v[i]) - static_cast<uint64_t>(f.base);
    PackBits(offsets, n, f.width, out);
  }
}

bool ForDecode(std::string_view* in, size_t n, int64_t* out) {
  for (size_t at = 0; at < n; at += kForGroupSize) {
    const size_t gn = std::min(kForGroupSize, n - at);
    GroupFrame f;
    if (!ReadGroupHeader(in, gn, &f)) return false;
    // int64_t and uint64_t may alias each other, so unpack straight into the output.
    auto* u = reinterpret_cast<uint64_t*>(out + at);
    UnpackBits(reinterpret_cast<const uint8_t*>(in->data()), gn, f.width, u);
    in->remove_prefix(PackedBytes(gn, f.width));
    const uint64_t base = static_cast<uint64_t>(f.base);
    for (size_t i = 0; i < gn; ++i) u[i] += base;
  }
  return true;
}

bool ForDecodeDelta(std::string_view* in, size_t n, int64_t start, int64_t* out) {
  uint64_t acc = static_cast<uint64_t>(start);
  for (size_t at = 0; at < n; at += kForGroupSize) {
    const size_t gn = std::min(kForGroupSize, n - at);
    GroupFrame f;
    if (!ReadGroupHeader(in, gn, &f)) return false;
    auto* u = reinterpret_cast<uint64_t*>(out + at);
    UnpackBits(reinterpret_cast<const uint8_t*>(in->data()), gn, f.width, u);
    in->remove_prefix(PackedBytes(gn, f.width));
    const uint64_t base = static_cast<uint64_t>(f.base);
    for (size_t i = 0; i < gn; ++i) {
      acc += u[i] + base;
      u[i] = acc;
    }
  }
  return true;
}

}  // namespace gnomon::encoding

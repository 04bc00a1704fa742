#include "src/encoding/gorilla.h"

#include <bit>
#include <cstdint>

#include "src/encoding/bit_stream.h"
#include "src/encoding/block_format.h"

namespace gnomon::encoding {

void EncodeGorilla(std::span<const double> v, std::string* out) {
  BitWriter w(out);
  uint64_t prev = std::bit_cast<uint64_t>(v[0]);
  w.Write(prev, 64);
  int prev_lead = -1;  // no window yet
  int prev_trail = 0;
  for (size_t i = 1; i < v.size(); ++i) {
    const uint64_t cur = std::bit_cast<uint64_t>(v[i]);
    const uint64_t x = cur ^ prev;
    prev = cur;
    if (x == 0) {
      w.Write(0, 1);
      continue;
    }
    int lead = __builtin_clzll(x);
    const int trail = __builtin_ctzll(x);
    if (lead > 31) lead = 31;  // five bits
    if (prev_lead >= 0 && lead >= prev_lead && trail >= prev_trail) {
      w.Write(0b01, 2);  // '1' then '0', LSB first
      w.Write(x >> prev_trail, 64 - prev_lead - prev_trail);
      continue;
    }
    const int len = 64 - lead - trail;
    w.Write(0b11, 2);
    w.Write(static_cast<uint64_t>(lead), 5);
    w.Write(static_cast<uint64_t>(len - 1), 6);
    w.Write(x >> trail, len);
    prev_lead = lead;
    prev_trail = trail;
  }
  w.Flush();
}

Status DecodeGorilla(std::string_view payload, size_t n, double* out) {
  auto corrupt = [&](const char* what, const BitReader& r) {
    return PayloadCorruption(Codec::kGorilla, what, payload, payload.substr(std::min(r.BytesConsumed(), payload.size())));
  };
  BitReader r(payload);
  if (n == 0) return corrupt("needs one or more values", r);
  uint64_t prev;
  if (!r.Read(64, &prev)) return corrupt("truncated first value", r);
  out[0] = std::bit_cast<double>(prev);
  int lead = -1;
  int trail = 0;
  for (size_t i = 1; i < n; ++i) {
    uint64_t bits;
    if (!r.Read(1, &bits)) return corrupt("truncated control bit", r);
    if (bits != 0) {
      if (!r.Read(1, &bits)) return corrupt("truncated control bit", r);
      if (bits != 0) {
        uint64_t l, len;
        if (!r.Read(5, &l) || !r.Read(6, &len)) return corrupt("truncated window", r);
        lead = static_cast<int>(l);
        trail = 64 - lead - static_cast<int>(len + 1);
        if (trail < 0) return corrupt("window wider than 64 bits", r);
      } else if (lead < 0) {
        return corrupt("window reused before one was set", r);
      }
      uint64_t meaningful;
      if (!r.Read(64 - lead - trail, &meaningful)) return corrupt("truncated value bits", r);
      prev ^= meaningful << trail;
    }
    out[i] = std::bit_cast<double>(prev);
  }
  if (r.BytesConsumed() != payload.size()) return corrupt("trailing bytes", r);
  return Status::OK();
}

}  // namespace gnomon::encoding

// Fuzz target over every block decoder. Input: [type selector: u8][block bytes]. A decoder may reject the
// block (Corruption) but must not crash or over-read; when it accepts, re-encoding the decoded values and
// decoding again must give the same values (bit-exact for doubles) and PeekBlockHeader must agree.
// Seed corpus: src/encoding/fuzz/corpus, one valid block per codec, files named <type>_<codec>.
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "src/encoding/block_codec.h"

namespace {

using namespace gnomon::encoding;  // NOLINT: fuzz harness

void Require(bool cond) {
  if (!cond) std::abort();
}

void CheckHeader(std::string_view block, size_t decoded) {
  uint8_t tag;
  uint32_t count;
  Require(PeekBlockHeader(block, &tag, &count).ok());
  Require(count == decoded);
}

template <typename T, typename Encode, typename Decode>
void RoundTrip(std::string_view block, Encode encode, Decode decode) {
  std::vector<T> out;
  gnomon::Status s = decode(block, &out);
  if (!s.ok()) {
    Require(s.IsCorruption() && out.empty());
    return;
  }
  CheckHeader(block, out.size());
  std::string again;
  encode(std::span<const T>(out), &again);
  std::vector<T> out2;
  Require(decode(again, &out2).ok());
  Require(out2.size() == out.size());
  for (size_t i = 0; i < out.size(); ++i) {
    if constexpr (std::is_same_v<T, double>) {
      Require(std::bit_cast<uint64_t>(out[i]) == std::bit_cast<uint64_t>(out2[i]));
    } else {
      Require(out[i] == out2[i]);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view block(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 5) {
    case 0:
      RoundTrip<int64_t>(block, [](auto v, auto* o) { EncodeInt64s(v, o); },
                         [](auto b, auto* o) { return DecodeInt64s(b, o); });
      break;
    case 1:
      RoundTrip<uint64_t>(block, [](auto v, auto* o) { EncodeUInt64s(v, o); },
                          [](auto b, auto* o) { return DecodeUInt64s(b, o); });
      break;
    case 2:
      RoundTrip<double>(block, [](auto v, auto* o) { EncodeFloat64s(v, o); },
                        [](auto b, auto* o) { return DecodeFloat64s(b, o); });
      break;
    case 3:
      RoundTrip<uint8_t>(block, [](auto v, auto* o) { EncodeBools(v, o); },
                         [](auto b, auto* o) { return DecodeBools(b, o); });
      break;
    default: {
      std::vector<std::string_view> out;
      std::string arena;
      gnomon::Status s = DecodeStrings(block, &out, &arena);
      if (!s.ok()) {
        Require(s.IsCorruption() && out.empty());
        break;
      }
      CheckHeader(block, out.size());
      std::string again;
      EncodeStrings(out, &again);
      std::vector<std::string_view> out2;
      std::string arena2;
      Require(DecodeStrings(again, &out2, &arena2).ok() && out2 == out);
    }
  }
  return 0;
}

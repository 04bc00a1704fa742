#include "src/encoding/int_codec.h"

#include <algorithm>

#include "src/base/check.h"
#include "src/base/coding.h"
#include "src/encoding/delta.h"
#include "src/encoding/frame_of_reference.h"
#include "src/encoding/general_compression.h"
#include "src/encoding/rle.h"

namespace gnomon::encoding {
namespace {

inline size_t ZigZagVarintLength(int64_t v) {
  const uint64_t z = ZigZagEncode(v);
  return 1 + static_cast<size_t>(63 - __builtin_clzll(z | 1)) / 7;
}

size_t VarintStreamSize(std::span<const int64_t> v) {
  size_t total = 0;
  for (int64_t x : v) total += ZigZagVarintLength(x);
  return total;
}

bool AllEqual(std::span<const int64_t> v) {
  for (size_t i = 1; i < v.size(); ++i) {
    if (v[i] != v[0]) return false;
  }
  return true;
}

void EncodeVarint(std::span<const int64_t> v, std::string* out) {
  for (int64_t x : v) PutVarsint64(out, x);
}

Status DecodeVarint(std::string_view payload, size_t n, int64_t* out) {
  std::string_view in = payload;
  for (size_t i = 0; i < n; ++i) {
    if (!GetVarsint64(&in, &out[i])) return PayloadCorruption(Codec::kVarint, "truncated value", payload, in);
  }
  return ExpectConsumed(Codec::kVarint, payload, in);
}

Status DecodeConstant(std::string_view payload, size_t n, int64_t* out) {
  std::string_view in = payload;
  if (n == 0) return ExpectConsumed(Codec::kConstant, payload, in);
  int64_t v;
  if (!GetVarsint64(&in, &v)) return PayloadCorruption(Codec::kConstant, "truncated value", payload, in);
  std::fill(out, out + n, v);
  return ExpectConsumed(Codec::kConstant, payload, in);
}

struct Candidate {
  Codec codec;
  size_t size;  // exact payload size before the general-purpose stage
};

void EncodePayload(Codec codec, std::span<const int64_t> v, std::span<const int64_t> deltas,
                   std::span<const int64_t> dods, std::string* out) {
  switch (codec) {
    case Codec::kRle: EncodeRle(v, out); break;
    case Codec::kFor: ForEncode(v, out); break;
    case Codec::kDeltaFor: EncodeDeltaFor(v, deltas, out); break;
    case Codec::kDeltaDeltaFor: EncodeDeltaDeltaFor(v, deltas, dods, out); break;
    case Codec::kDeltaVarint: EncodeDeltaVarint(v, deltas, out); break;
    default: EncodeVarint(v, out); break;
  }
}

}  // namespace

void EncodeIntBlock(std::span<const int64_t> v, std::string* out, const ChunkLayout& layout) {
  const uint32_t n = static_cast<uint32_t>(v.size());
  GNOMON_CHECK(v.size() <= kMaxBlockValues);
  std::string payload;
  if (AllEqual(v)) {  // also the empty block
    if (n > 0) PutVarsint64(&payload, v[0]);
    AppendBlock(Codec::kConstant, Compression::kNone, n, payload, out);
    return;
  }
  std::vector<int64_t> deltas(n - 1);
  ComputeDeltas(v, deltas.data());
  if (AllEqual(deltas)) {
    EncodeConstantDelta(v[0], deltas[0], &payload);
    AppendBlock(Codec::kConstantDelta, Compression::kNone, n, payload, out);
    return;
  }
  std::vector<int64_t> dods(n >= 3 ? n - 2 : 0);
  if (n >= 3) ComputeDeltas(deltas, dods.data());

  // Exact payload sizes from cheap passes; the smallest is encoded.
  const size_t first = ZigZagVarintLength(v[0]);
  const size_t delta_varint_size = first + VarintStreamSize(deltas);
  Candidate best{Codec::kVarint, VarintStreamSize(v)};
  auto consider = [&best](Codec c, size_t size) {
    if (size < best.size) best = {c, size};
  };
  consider(Codec::kDeltaVarint, delta_varint_size);
  consider(Codec::kFor, ForEncodedSize(v));
  consider(Codec::kDeltaFor, first + ForEncodedSize(deltas));
  if (n >= 3) consider(Codec::kDeltaDeltaFor, first + ZigZagVarintLength(deltas[0]) + ForEncodedSize(dods));
  if (CountRuns(v) * 4 <= n) consider(Codec::kRle, RleEncodedSize(v));

  EncodePayload(best.codec, v, deltas, dods, &payload);
  std::string stored;
  Compression compression = CompressPayload(payload, &stored);
  size_t best_final = compression == Compression::kNone ? payload.size() : stored.size();

  // Small deltas written one per byte are a skewed byte stream that the entropy stage (Huffman) codes
  // near its entropy, well below a bit-packed width (random walks: ~2.3 vs ~3.3 bits/value). Offer that form too
  // when the deltas fit in about a byte each. A compressed form must beat the uncompressed winner by 10%
  // to be worth its slower decode.
  if (best.codec != Codec::kDeltaVarint && delta_varint_size <= static_cast<size_t>(n) * 5 / 4 + 8) {
    std::string alt;
    EncodeDeltaVarint(v, deltas, &alt);
    std::string alt_stored;
    const Compression alt_compression = CompressPayload(alt, &alt_stored);
    if (alt_compression != Compression::kNone && alt_stored.size() < best_final &&
        alt_stored.size() * 10 <= payload.size() * 9) {
      best.codec = Codec::kDeltaVarint;
      payload = std::move(alt);
      stored = std::move(alt_stored);
      compression = alt_compression;
      best_final = stored.size();
    }
  }
  if (layout.enabled() && best.codec == Codec::kDeltaVarint && compression == Compression::kHuffman) {
    // The same code as delta_varint+huffman, cut where the writer wants to be able to start reading.
    std::string chunked;
    EncodeChunkedDelta(v, deltas, layout, &chunked);
    AppendBlock(Codec::kChunkedDelta, Compression::kNone, n, chunked, out);
    return;
  }
  AppendBlock(best.codec, compression, n, compression == Compression::kNone ? payload : stored, out);
}

Status DecodeIntPayload(const BlockView& view, int64_t* out) {
  const size_t n = view.count;
  switch (view.codec) {
    case Codec::kConstant: return DecodeConstant(view.payload, n, out);
    case Codec::kConstantDelta: return DecodeConstantDelta(view.payload, n, out);
    case Codec::kRle: return DecodeRle(view.payload, n, out);
    case Codec::kFor: {
      std::string_view in = view.payload;
      if (!ForDecode(&in, n, out)) return PayloadCorruption(Codec::kFor, "truncated or invalid group", view.payload, in);
      return ExpectConsumed(Codec::kFor, view.payload, in);
    }
    case Codec::kDeltaFor: return DecodeDeltaFor(view.payload, n, out);
    case Codec::kDeltaDeltaFor: return DecodeDeltaDeltaFor(view.payload, n, out);
    case Codec::kVarint: return DecodeVarint(view.payload, n, out);
    case Codec::kDeltaVarint: return DecodeDeltaVarint(view.payload, n, out);
    case Codec::kChunkedDelta: return DecodeChunkedDelta(view.payload, n, 0, n, out);
    default:
      return Status::Corruption("block: codec " + std::string(CodecName(static_cast<uint8_t>(view.codec))) +
                                " is not an integer codec");
  }
}

Status DecodeIntPayloadRanges(const BlockView& view, std::span<const ValueRange> ranges, int64_t* out,
                              std::vector<int64_t>* scratch) {
  for (const auto& [b, e] : ranges) GNOMON_CHECK(b <= e && e <= view.count);
  switch (view.codec) {
    case Codec::kChunkedDelta: {
      ChunkedDeltaReader reader;
      GNOMON_RETURN_IF_ERROR(reader.Open(view.payload, view.count));
      for (const auto& [b, e] : ranges) {
        GNOMON_RETURN_IF_ERROR(reader.Decode(b, e, out));
        out += e - b;
      }
      return Status::OK();
    }
    case Codec::kConstant: {
      size_t total = 0;
      for (const auto& [b, e] : ranges) total += e - b;
      if (total == 0) return Status::OK();
      return DecodeConstant(view.payload, total, out);
    }
    default: break;
  }
  scratch->resize(view.count);
  GNOMON_RETURN_IF_ERROR(DecodeIntPayload(view, scratch->data()));
  for (const auto& [b, e] : ranges) out = std::copy(scratch->begin() + b, scratch->begin() + e, out);
  return Status::OK();
}

Status DecodeIntBlock(std::string_view block, std::vector<int64_t>* out) {
  std::string scratch;
  BlockView view;
  GNOMON_RETURN_IF_ERROR(OpenBlock(block, &scratch, &view));
  out->resize(view.count);
  Status s = DecodeIntPayload(view, out->data());
  if (!s.ok()) out->clear();
  return s;
}

}  // namespace gnomon::encoding

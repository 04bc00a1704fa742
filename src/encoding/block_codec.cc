#include "src/encoding/block_codec.h"

#include <bit>
#include <cstring>

#if defined(__BMI2__)
#include <immintrin.h>
#endif

#include "src/base/check.h"
#include "src/base/coding.h"
#include "src/encoding/alp.h"
#include "src/encoding/block_format.h"
#include "src/encoding/gorilla.h"
#include "src/encoding/int_codec.h"
#include "src/encoding/rle.h"
#include "src/encoding/string_codec.h"

namespace gnomon::encoding {
namespace {

// ---- floats: constant | ALP | Gorilla | raw ----

void EncodeRawFloats(std::span<const double> v, std::string* out) {
  for (double x : v) PutFixed64(out, std::bit_cast<uint64_t>(x));
}

Status DecodeFloatPayload(const BlockView& view, double* out) {
  const size_t n = view.count;
  std::string_view p = view.payload;
  switch (view.codec) {
    case Codec::kConstant: {
      if (p.size() != (n == 0 ? 0u : 8u)) return PayloadCorruption(Codec::kConstant, "expected 8 bytes", p, p);
      if (n > 0) std::fill(out, out + n, std::bit_cast<double>(DecodeFixed64(p.data())));
      return Status::OK();
    }
    case Codec::kRawFloat: {
      if (p.size() != n * 8) return PayloadCorruption(Codec::kRawFloat, "size is not 8 bytes per value", p, p);
      if (n > 0) std::memcpy(out, p.data(), n * 8);  // little-endian host (x86-64, aarch64)
      return Status::OK();
    }
    case Codec::kGorilla: return DecodeGorilla(p, n, out);
    case Codec::kAlp: return DecodeAlp(p, n, out);
    default:
      return Status::Corruption("block: codec " + std::string(CodecName(static_cast<uint8_t>(view.codec))) +
                                " is not a float codec");
  }
}

// ---- bools: constant | bit-packed | RLE ----

void PackBools(std::span<const uint8_t> v, std::string* out) {
  size_t i = 0;
  for (; i + 8 <= v.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, v.data() + i, 8);
#if defined(__BMI2__)
    out->push_back(static_cast<char>(_pext_u64(word, 0x0101010101010101ull)));
#else
    uint8_t b = 0;
    for (int k = 0; k < 8; ++k) b |= static_cast<uint8_t>((word >> (8 * k)) & 1) << k;
    out->push_back(static_cast<char>(b));
#endif
  }
  if (i < v.size()) {
    uint8_t b = 0;
    for (int k = 0; i + k < v.size(); ++k) b |= static_cast<uint8_t>(v[i + k] << k);
    out->push_back(static_cast<char>(b));
  }
}

Status UnpackBools(std::string_view p, size_t n, uint8_t* out) {
  if (p.size() != (n + 7) / 8) return PayloadCorruption(Codec::kBitPacked, "size is not one bit per value", p, p);
  const auto* in = reinterpret_cast<const uint8_t*>(p.data());
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
#if defined(__BMI2__)
    const uint64_t word = _pdep_u64(in[i / 8], 0x0101010101010101ull);  // one bit -> one byte
#else
    uint64_t word = 0;
    for (int k = 0; k < 8; ++k) word |= static_cast<uint64_t>((in[i / 8] >> k) & 1) << (8 * k);
#endif
    std::memcpy(out + i, &word, 8);
  }
  for (; i < n; ++i) out[i] = (in[i / 8] >> (i % 8)) & 1;
  return Status::OK();
}

Status DecodeBoolPayload(const BlockView& view, uint8_t* out) {
  const size_t n = view.count;
  std::string_view p = view.payload;
  switch (view.codec) {
    case Codec::kConstant: {
      if (n == 0) return ExpectConsumed(Codec::kConstant, p, p);
      if (p.size() != 1 || static_cast<uint8_t>(p[0]) > 1) {
        return PayloadCorruption(Codec::kConstant, "expected one byte 0 or 1", p, p);
      }
      std::fill(out, out + n, static_cast<uint8_t>(p[0]));
      return Status::OK();
    }
    case Codec::kBitPacked: return UnpackBools(p, n, out);
    case Codec::kBoolRle: return DecodeBoolRle(p, n, out);
    default:
      return Status::Corruption("block: codec " + std::string(CodecName(static_cast<uint8_t>(view.codec))) +
                                " is not a bool codec");
  }
}

// Opens `block` and decodes it with `decode` into *out, which is left empty on error.
template <typename T, typename DecodeFn>
Status DecodeBlock(std::string_view block, std::vector<T>* out, DecodeFn decode) {
  std::string scratch;
  BlockView view;
  out->clear();
  GNOMON_RETURN_IF_ERROR(OpenBlock(block, &scratch, &view));
  out->resize(view.count);
  Status s = decode(view, out->data());
  if (!s.ok()) out->clear();
  return s;
}

}  // namespace

void EncodeTimestamps(std::span<const int64_t> values, std::string* out) { EncodeIntBlock(values, out); }

void EncodeInt64s(std::span<const int64_t> values, std::string* out) { EncodeIntBlock(values, out); }

void EncodeUInt64s(std::span<const uint64_t> values, std::string* out) {
  // uint64_t and int64_t may alias; the integer codecs work mod 2^64, so the bit patterns round-trip.
  EncodeIntBlock(std::span<const int64_t>(reinterpret_cast<const int64_t*>(values.data()), values.size()), out);
}

void EncodeInt64s(std::span<const int64_t> values, const ChunkLayout& layout, std::string* out) {
  EncodeIntBlock(values, out, layout);
}

void EncodeUInt64s(std::span<const uint64_t> values, const ChunkLayout& layout, std::string* out) {
  EncodeIntBlock(std::span<const int64_t>(reinterpret_cast<const int64_t*>(values.data()), values.size()), out,
                 layout);
}

void EncodeFloat64s(std::span<const double> values, std::string* out) {
  const uint32_t n = static_cast<uint32_t>(values.size());
  GNOMON_CHECK(values.size() <= kMaxBlockValues);
  std::string payload;
  bool constant = true;
  for (size_t i = 1; i < n && constant; ++i) {
    constant = std::bit_cast<uint64_t>(values[i]) == std::bit_cast<uint64_t>(values[0]);
  }
  if (constant) {
    if (n > 0) PutFixed64(&payload, std::bit_cast<uint64_t>(values[0]));
    AppendBlock(Codec::kConstant, Compression::kNone, n, payload, out);
    return;
  }
  Codec best = Codec::kRawFloat;
  size_t best_size = size_t{n} * 8;
  // ALP is tried only when the sample says most values are short decimals.
  const AlpParams alp = ChooseAlpParams(values);
  if (alp.sample_exceptions * 4 <= alp.sample_size) {
    EncodeAlp(values, alp, &payload);
    if (payload.size() < best_size) {
      best = Codec::kAlp;
      best_size = payload.size();
    }
  }
  std::string gorilla;
  EncodeGorilla(values, &gorilla);
  if (gorilla.size() < best_size) {
    best = Codec::kGorilla;
    payload = std::move(gorilla);
  } else if (best == Codec::kRawFloat) {
    payload.clear();
    EncodeRawFloats(values, &payload);
  }
  // ALP's integers and Gorilla's bit stream are already dense; raw doubles may still repeat.
  AppendMaybeCompressed(best, n, payload, /*try_compress=*/best == Codec::kRawFloat, out);
}

void EncodeBools(std::span<const uint8_t> values, std::string* out) {
  const uint32_t n = static_cast<uint32_t>(values.size());
  GNOMON_CHECK(values.size() <= kMaxBlockValues);
  std::vector<uint8_t> normalized;
  std::span<const uint8_t> v = values;
  for (uint8_t b : values) {
    if (b > 1) {
      normalized.reserve(n);
      for (uint8_t x : values) normalized.push_back(x != 0);
      v = normalized;
      break;
    }
  }
  std::string payload;
  size_t runs = 0;
  size_t rle_size = 1;
  for (size_t i = 0, start = 0; i < n; ++i) {
    if (i + 1 == n || v[i + 1] != v[start]) {
      ++runs;
      for (uint64_t len = i + 1 - start; ; len >>= 7) {
        ++rle_size;
        if (len < 0x80) break;
      }
      start = i + 1;
    }
  }
  if (runs <= 1) {
    if (n > 0) payload.push_back(static_cast<char>(v[0]));
    AppendBlock(Codec::kConstant, Compression::kNone, n, payload, out);
  } else if (rle_size < (size_t{n} + 7) / 8) {
    EncodeBoolRle(v, &payload);
    AppendMaybeCompressed(Codec::kBoolRle, n, payload, /*try_compress=*/true, out);
  } else {
    PackBools(v, &payload);
    AppendMaybeCompressed(Codec::kBitPacked, n, payload, /*try_compress=*/true, out);
  }
}

void EncodeStrings(std::span<const std::string_view> values, std::string* out) { EncodeStringBlock(values, out); }

Status DecodeTimestamps(std::string_view block, std::vector<int64_t>* out) { return DecodeInt64s(block, out); }

Status DecodeInt64s(std::string_view block, std::vector<int64_t>* out) {
  return DecodeBlock(block, out, [](const BlockView& v, int64_t* o) { return DecodeIntPayload(v, o); });
}

Status DecodeUInt64s(std::string_view block, std::vector<uint64_t>* out) {
  return DecodeBlock(block, out, [](const BlockView& v, uint64_t* o) {
    return DecodeIntPayload(v, reinterpret_cast<int64_t*>(o));
  });
}

Status DecodeFloat64s(std::string_view block, std::vector<double>* out) {
  return DecodeBlock(block, out, DecodeFloatPayload);
}

Status DecodeBools(std::string_view block, std::vector<uint8_t>* out) {
  return DecodeBlock(block, out, DecodeBoolPayload);
}

Status DecodeStrings(std::string_view block, std::vector<std::string_view>* out, std::string* arena) {
  return DecodeStringBlock(block, out, arena);
}

namespace {

// InvalidArgument unless every range lies inside a block of `count` values; *total: their values.
Status CheckRanges(std::span<const ValueRange> ranges, uint32_t count, size_t* total) {
  for (const auto& [begin, end] : ranges) {
    if (begin > end || end > count) {
      return Status::InvalidArgument("block: range [" + std::to_string(begin) + ", " + std::to_string(end) +
                                     ") is outside the block's " + std::to_string(count) + " values");
    }
    *total += end - begin;
  }
  return Status::OK();
}

}  // namespace

Status DecodeInt64RangesMany(std::span<const std::string_view> blocks,
                             std::span<const std::pair<uint32_t, uint32_t>> ranges,
                             std::span<std::vector<int64_t>* const> outs) {
  GNOMON_CHECK(blocks.size() == outs.size());
  // Per-thread buffers, reused: a reader holds a decode table (8 KB) that should not be zeroed
  // and freed for every row group.
  thread_local std::vector<ChunkedDeltaReader> readers;
  thread_local std::vector<ChunkedDeltaReader*> chunked;
  thread_local std::vector<int64_t*> chunked_out;
  thread_local std::string scratch;
  thread_local std::vector<int64_t> whole;
  if (readers.size() < blocks.size()) readers.resize(blocks.size());
  chunked.clear();
  chunked_out.clear();
  for (size_t i = 0; i < blocks.size(); ++i) {
    BlockView view;
    GNOMON_RETURN_IF_ERROR(OpenBlock(blocks[i], &scratch, &view));
    size_t total = 0;
    GNOMON_RETURN_IF_ERROR(CheckRanges(ranges, view.count, &total));
    outs[i]->resize(total);
    if (view.codec == Codec::kChunkedDelta && view.compression == Compression::kNone) {
      GNOMON_RETURN_IF_ERROR(readers[i].Open(view.payload, view.count));
      chunked.push_back(&readers[i]);
      chunked_out.push_back(outs[i]->data());
    } else {
      GNOMON_RETURN_IF_ERROR(DecodeIntPayloadRanges(view, ranges, outs[i]->data(), &whole));
    }
  }
  return DecodeChunkedTogether(chunked, ranges, chunked_out);
}

Status DecodeInt64Range(std::string_view block, uint32_t begin, uint32_t end, std::vector<int64_t>* out) {
  const std::pair<uint32_t, uint32_t> range{begin, end};
  std::vector<int64_t>* outs[] = {out};
  Status s = DecodeInt64RangesMany(std::span<const std::string_view>(&block, 1),
                                   std::span<const std::pair<uint32_t, uint32_t>>(&range, 1), outs);
  if (!s.ok()) out->clear();
  return s;
}

bool PeekConstantStep(std::string_view block, int64_t* first, int64_t* step) {
  if (block.empty() || static_cast<uint8_t>(block[0]) != MakeTag(Codec::kConstantDelta, Compression::kNone)) {
    return false;
  }
  std::string_view rest = block.substr(1);
  uint32_t count;
  return GetVarint32(&rest, &count) && count >= 2 && GetVarsint64(&rest, first) && GetVarsint64(&rest, step) &&
         rest.empty();
}

bool PeekChunkLayout(std::string_view block, ChunkLayout* layout) {
  if (block.empty() || static_cast<uint8_t>(block[0]) != MakeTag(Codec::kChunkedDelta, Compression::kNone)) {
    return false;
  }
  std::string_view rest = block.substr(1);
  uint32_t count;
  if (!GetVarint32(&rest, &count) || rest.empty()) return false;
  rest.remove_prefix(1);  // flags
  return GetVarint32(&rest, &layout->first) && GetVarint32(&rest, &layout->size) && layout->enabled();
}

Status PeekBlockHeader(std::string_view block, uint8_t* codec, uint32_t* count) {
  if (block.empty()) return Status::Corruption("block: empty, expected a codec tag at offset 0");
  const uint8_t tag = static_cast<uint8_t>(block[0]);
  if (!IsValidTag(tag)) return Status::Corruption("block: unknown codec tag " + std::to_string(tag) + " at offset 0");
  std::string_view rest = block.substr(1);
  if (!GetVarint32(&rest, count)) return Status::Corruption("block: truncated value count at offset 1");
  if (*count > kMaxBlockValues) return Status::Corruption("block: value count exceeds limit at offset 1");
  *codec = tag;
  return Status::OK();
}

}  // namespace gnomon::encoding

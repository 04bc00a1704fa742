#include "src/encoding/chunked_delta.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <vector>

#include "src/base/check.h"
#include "src/base/coding.h"
#include "src/encoding/bit_stream.h"
#include "src/encoding/block_format.h"
#include "src/encoding/huffman.h"

namespace gnomon::encoding {
namespace {

constexpr uint8_t kMultiByteFlag = 1;
// Chunk headers bit-packed (first-value steps and stream lengths in bits, frame of reference) and
// the chunks' streams back to back without byte padding: ~1.5 bytes a chunk instead of ~2.5.
constexpr uint8_t kPackedHeadersFlag = 4;
// Decode tables are built per range read, sized to it: a read of a few dozen symbols (the newest
// minutes, a partial hour's tail) builds a 64-entry table and takes longer codes the slow way; a
// longer one builds 256 entries (TSBS cpu codes are rarely longer than 6 bits).
constexpr int kSmallReadPrimaryBits = 6;
constexpr size_t kSmallReadSymbols = 128;
constexpr int kPrimaryBits = 8;

size_t NumChunks(size_t n, const ChunkLayout& layout) {
  if (n <= layout.first) return 1;
  return 1 + (n - layout.first + layout.size - 1) / layout.size;
}

size_t ChunkStart(size_t c, const ChunkLayout& layout) { return c == 0 ? 0 : layout.first + (c - 1) * size_t{layout.size}; }

using ChunkInfo = ChunkedDeltaReader::Chunk;

// One chunk's decoding state in one-byte mode: symbol i is the zigzag delta of value i + 1.
struct Cursor {
  const HuffmanDecodeTable* table;
  const uint8_t* bits;  // the byte holding the stream's first bit; 8 bytes past its end are
                        // readable (the payload's, or padding)
  uint64_t end;   // the stream's end, in bits from `bits`
  uint64_t min_end;  // a whole decode must end in [min_end, end] (byte-padded streams: end - 7)
  uint64_t pos;   // bit position
  int64_t* out;   // out[0] holds the base; deltas fill out[1..n]
  size_t n;       // deltas to decode
  size_t i;       // deltas decoded
  uint64_t acc;
  bool exact;     // the whole stream is decoded: it must be consumed exactly
  bool pad;       // the stream ends within 8 bytes of the payload: decode from a padded copy
};

// The table entry of the code at the bottom of `w`. A bit pattern that is no code sets *bad and
// reads as a one-bit code, so that decoding of a corrupt stream stays bounded; the caller reports it.
inline uint32_t Entry(const HuffmanDecodeTable& t, uint64_t w, uint32_t* bad) {
  uint32_t e = t.entries[w & t.mask];
  if (__builtin_expect(e == 0, 0)) {
    e = t.LookupLong(w);
    if (e == 0) {
      *bad = 1;
      e = 1u << 8;
    }
  }
  return e;
}

// Four symbols of one lane from one 8-byte load (>= 57 bits; codes are <= 12 bits).
[[gnu::always_inline]] inline void DecodeFour(const HuffmanDecodeTable& t, const uint8_t* bits, uint64_t& pos,
                                              uint64_t& acc, int64_t* out, uint32_t* bad) {
  uint64_t w;
  std::memcpy(&w, bits + (pos >> 3), 8);
  w >>= (pos & 7);
  for (int j = 0; j < 4; ++j) {
    const uint32_t e = Entry(t, w, bad);
    const uint32_t len = e >> 8;
    const uint32_t z = e & 0xff;
    w >>= len;
    pos += len;
    acc += static_cast<uint64_t>(ZigZagDecode(z));
    out[j] = static_cast<int64_t>(acc);
  }
}

// `rounds` rounds of four symbols on each of `L` cursors in lockstep, their state in locals: the
// lanes' table-lookup chains are independent, so they overlap (one chain alone is bound by the
// lookup latency). REQUIRES: each cursor has >= 4 * rounds symbols left. False when a stream runs
// past its end (corrupt), before reading beyond what Cursor::bits allows.
template <int L>
bool RunLanes(Cursor* const* cs, size_t rounds, uint32_t* bad) {
  uint64_t pos[L], acc[L], limit[L];
  int64_t* out[L];
  for (int k = 0; k < L; ++k) {
    pos[k] = cs[k]->pos;
    acc[k] = cs[k]->acc;
    out[k] = cs[k]->out + cs[k]->i + 1;
    limit[k] = cs[k]->end;
  }
  bool overrun = false;
  for (size_t r = 0; r < rounds; ++r) {
    for (int k = 0; k < L; ++k) {
      DecodeFour(*cs[k]->table, cs[k]->bits, pos[k], acc[k], out[k], bad);
      out[k] += 4;
    }
    for (int k = 0; k < L; ++k) overrun |= pos[k] > limit[k];
    if (__builtin_expect(overrun, 0)) return false;
  }
  for (int k = 0; k < L; ++k) {
    cs[k]->pos = pos[k];
    cs[k]->acc = acc[k];
    cs[k]->i += 4 * rounds;
  }
  return true;
}

// The cursor's last (< 4) symbols one at a time, then the end-of-stream checks.
bool Finish(Cursor* c, uint32_t* bad) {
  const HuffmanDecodeTable& t = *c->table;
  while (c->i < c->n) {
    uint64_t w;
    std::memcpy(&w, c->bits + (c->pos >> 3), 8);
    w >>= (c->pos & 7);
    const uint32_t e = Entry(t, w, bad);
    const uint32_t z = e & 0xff;
    c->pos += e >> 8;
    if (c->pos > c->end) return false;
    c->acc += static_cast<uint64_t>(ZigZagDecode(z));
    c->out[++c->i] = static_cast<int64_t>(c->acc);
  }
  return !c->exact || (c->pos >= c->min_end && c->pos <= c->end);  // a whole stream has no extra bytes
}

// Runs every cursor, four at a time in lockstep; a finished cursor's place goes to the next one.
// Streams that end too close to their payload's end are first copied into `padded`. False on a
// bad stream.
bool RunCursors(Cursor* cs, size_t n, std::vector<uint8_t>* padded) {
  size_t pad_bytes = 0;
  for (size_t k = 0; k < n; ++k) pad_bytes += cs[k].pad ? (cs[k].end + 7) / 8 + 8 : 0;
  if (pad_bytes > 0) {
    padded->assign(pad_bytes, 0);
    uint8_t* p = padded->data();
    for (size_t k = 0; k < n; ++k) {
      if (!cs[k].pad) continue;
      const size_t bytes = (cs[k].end + 7) / 8;
      std::memcpy(p, cs[k].bits, bytes);
      cs[k].bits = p;
      p += bytes + 8;
    }
  }
  Cursor* active[4];
  int na = 0;
  size_t next = 0;
  uint32_t bad = 0;
  for (;;) {
    while (na < 4 && next < n) active[na++] = &cs[next++];
    if (na == 0) break;
    if (na == 4) {
      size_t rounds = SIZE_MAX;
      for (int k = 0; k < 4; ++k) rounds = std::min(rounds, (active[k]->n - active[k]->i) / 4);
      if (rounds > 0 && !RunLanes<4>(active, rounds, &bad)) return false;
    } else {
      // The last few cursors: pairs still overlap two chains.
      for (int k = 0; k + 1 < na; k += 2) {
        const size_t rounds = std::min(active[k]->n - active[k]->i, active[k + 1]->n - active[k + 1]->i) / 4;
        if (rounds > 0 && !RunLanes<2>(active + k, rounds, &bad)) return false;
      }
      for (int k = 0; k < na; ++k) {
        const size_t rounds = (active[k]->n - active[k]->i) / 4;
        if (rounds > 0 && !RunLanes<1>(active + k, rounds, &bad)) return false;
      }
    }
    for (int k = 0; k < na;) {
      Cursor* c = active[k];
      if (c->n - c->i >= 4) {
        ++k;
        continue;
      }
      if (!Finish(c, &bad)) return false;
      active[k] = active[--na];
    }
  }
  return bad == 0;
}

// Multi-byte mode: the chunk's varint bytes are decoded first, then read as LEB128 deltas.
Status DecodeMultiByteChunk(const HuffmanDecodeTable& t, const ChunkInfo& ch, const uint8_t* stream, size_t values,
                            bool whole, std::string_view payload, int64_t* out) {
  auto corrupt = [&](const std::string& what) {
    return Status::Corruption("block: codec chunked_delta: " + what + " in the chunk at value " + std::to_string(ch.start) +
                              " (payload of " + std::to_string(payload.size()) + " bytes)");
  };
  std::vector<uint8_t> bytes(ch.varint_bytes);
  const size_t stream_bytes = ch.stream_bits / 8;  // multi-byte streams are byte-padded
  const uint64_t total_bits = ch.stream_bits;
  uint64_t pos = 0;
  for (size_t i = 0; i < ch.varint_bytes; ++i) {
    const size_t byte = pos >> 3;
    if (byte >= stream_bytes) return corrupt("truncated bit stream");
    uint64_t w = 0;
    std::memcpy(&w, stream + byte, std::min<size_t>(8, stream_bytes - byte));
    w >>= (pos & 7);
    const uint16_t e = t.Lookup(w);
    const uint32_t len = e >> 8;
    if (len == 0) return corrupt("invalid code");
    pos += len;
    if (pos > total_bits) return corrupt("truncated bit stream");
    bytes[i] = static_cast<uint8_t>(e & 0xff);
  }
  if ((pos + 7) / 8 != stream_bytes) return corrupt("padded bit stream");
  const char* p = reinterpret_cast<const char*>(bytes.data());
  const char* const limit = p + bytes.size();
  uint64_t acc = static_cast<uint64_t>(ch.base);
  out[0] = ch.base;
  for (size_t i = 1; i < values; ++i) {
    uint64_t z;
    p = DecodeVarint64(p, limit, &z);
    if (p == nullptr) return corrupt("truncated delta " + std::to_string(i));
    acc += static_cast<uint64_t>(ZigZagDecode(z));
    out[i] = static_cast<int64_t>(acc);
  }
  if (whole && p != limit) return corrupt("trailing varint bytes");
  return Status::OK();
}

void AppendChunkStreams(std::span<const int64_t> v, const ChunkLayout& layout, size_t chunks, const HuffmanCode& code,
                        std::string_view symbols, const std::vector<size_t>& cut, bool multi_byte, std::string* out) {
  const size_t n = v.size();
  std::vector<std::string> streams(chunks);
  int64_t previous_base = 0;
  for (size_t c = 0; c < chunks; ++c) {
    AppendHuffmanStream(code, symbols.substr(cut[c], cut[c + 1] - cut[c]), &streams[c]);
    const size_t start = ChunkStart(c, layout);
    const size_t values = std::min(n, ChunkStart(c + 1, layout)) - start;
    PutVarsint64(out, static_cast<int64_t>(static_cast<uint64_t>(v[start]) - static_cast<uint64_t>(previous_base)));
    previous_base = v[start];
    PutVarint64(out, streams[c].size());
    if (multi_byte) PutVarint64(out, (cut[c + 1] - cut[c]) - (values - 1));
  }
  for (const std::string& s : streams) out->append(s);
}

// The chunks' code lengths in bits (symbols [cut[c], cut[c + 1]) each).
std::vector<uint64_t> ChunkBits(const HuffmanCode& code, std::string_view symbols, const std::vector<size_t>& cut) {
  std::vector<uint64_t> bits(cut.size() - 1);
  for (size_t c = 0; c + 1 < cut.size(); ++c) {
    for (size_t i = cut[c]; i < cut[c + 1]; ++i) bits[c] += code.lengths[static_cast<uint8_t>(symbols[i])];
  }
  return bits;
}

// Frame of reference over `values`: u8(width) then the base (s() when `is_signed`, else v()),
// then each value - base in `width` bits, byte-padded. Arithmetic is modulo 2^64.
struct Frame {
  uint64_t base = 0;
  int width = 0;
};
Frame FrameOf(const std::vector<uint64_t>& values, bool is_signed) {
  Frame f;
  f.base = values.empty() ? 0 : values[0];
  for (uint64_t x : values) {
    if (is_signed ? static_cast<int64_t>(x) < static_cast<int64_t>(f.base) : x < f.base) f.base = x;
  }
  uint64_t spread = 0;
  for (uint64_t x : values) spread = std::max(spread, x - f.base);
  f.width = static_cast<int>(std::bit_width(spread));
  return f;
}
size_t FrameBytes(const std::vector<uint64_t>& values, bool is_signed) {
  const Frame f = FrameOf(values, is_signed);
  const uint64_t base = is_signed ? ZigZagEncode(static_cast<int64_t>(f.base)) : f.base;
  return 1 + VarintLength(base) + (values.size() * static_cast<size_t>(f.width) + 7) / 8;
}
void AppendFrame(const std::vector<uint64_t>& values, bool is_signed, std::string* out) {
  const Frame f = FrameOf(values, is_signed);
  out->push_back(static_cast<char>(f.width));
  if (is_signed) {
    PutVarsint64(out, static_cast<int64_t>(f.base));
  } else {
    PutVarint64(out, f.base);
  }
  BitWriter w(out);
  for (uint64_t x : values) w.Write(x - f.base, f.width);
  w.Flush();
}

// The first value of each chunk after the first, less the one before it (modulo 2^64).
std::vector<uint64_t> BaseSteps(std::span<const int64_t> v, const ChunkLayout& layout, size_t chunks) {
  std::vector<uint64_t> steps;
  for (size_t c = 1; c < chunks; ++c) {
    steps.push_back(static_cast<uint64_t>(v[ChunkStart(c, layout)]) - static_cast<uint64_t>(v[ChunkStart(c - 1, layout)]));
  }
  return steps;
}

// Whether packed headers (kPackedHeadersFlag) take fewer bytes than varint headers and
// byte-padded streams for these chunks.
bool PackedHeadersSmaller(std::span<const int64_t> v, const ChunkLayout& layout, size_t chunks,
                          const std::vector<uint64_t>& steps, const std::vector<uint64_t>& bits) {
  size_t varint = 0, packed_bits = 0;
  int64_t previous = 0;
  for (size_t c = 0; c < chunks; ++c) {
    const int64_t base = v[ChunkStart(c, layout)];
    varint += VarintLength(ZigZagEncode(static_cast<int64_t>(static_cast<uint64_t>(base) - static_cast<uint64_t>(previous))));
    previous = base;
    varint += VarintLength((bits[c] + 7) / 8) + (bits[c] + 7) / 8;
    packed_bits += bits[c];
  }
  size_t packed = VarintLength(ZigZagEncode(v[0])) + FrameBytes(bits, false) + (packed_bits + 7) / 8;
  if (chunks > 1) packed += FrameBytes(steps, true);
  return packed < varint;
}

// Packed headers: s(first value), the steps' frame (when chunks > 1), the stream lengths' frame,
// then the streams back to back, the last byte zero-padded.
void AppendPackedChunks(std::span<const int64_t> v, size_t chunks, const HuffmanCode& code, std::string_view symbols,
                        const std::vector<uint64_t>& steps, const std::vector<uint64_t>& bits, std::string* out) {
  PutVarsint64(out, v[0]);
  if (chunks > 1) AppendFrame(steps, true, out);
  AppendFrame(bits, false, out);
  BitWriter w(out);
  for (unsigned char c : symbols) w.Write(code.codes[c], code.lengths[c]);
  w.Flush();
}

// Flags (with kPackedHeadersFlag added when smaller), layout, then `table` and the chunks.
void AppendChunkedPayload(std::span<const int64_t> v, const ChunkLayout& layout, size_t chunks, uint8_t flags,
                          const std::string& table, const HuffmanCode& code, std::string_view symbols,
                          const std::vector<size_t>& cut, std::string* out) {
  const bool multi_byte = (flags & kMultiByteFlag) != 0;
  const std::vector<uint64_t> bits = ChunkBits(code, symbols, cut);
  const std::vector<uint64_t> steps = multi_byte ? std::vector<uint64_t>{} : BaseSteps(v, layout, chunks);
  const bool packed = !multi_byte && PackedHeadersSmaller(v, layout, chunks, steps, bits);
  out->push_back(static_cast<char>(flags | (packed ? kPackedHeadersFlag : 0)));
  PutVarint32(out, layout.first);
  PutVarint32(out, layout.size);
  out->append(table);
  if (packed) {
    AppendPackedChunks(v, chunks, code, symbols, steps, bits, out);
  } else {
    AppendChunkStreams(v, layout, chunks, code, symbols, cut, multi_byte, out);
  }
}

}  // namespace

void EncodeChunkedDelta(std::span<const int64_t> v, std::span<const int64_t> deltas, const ChunkLayout& layout,
                        std::string* out) {
  GNOMON_CHECK(v.size() >= 2 && layout.enabled() && deltas.size() + 1 == v.size());
  const size_t n = v.size();
  const size_t chunks = NumChunks(n, layout);
  bool multi_byte = false;
  for (int64_t d : deltas) multi_byte |= ZigZagEncode(d) >= 0x80;
  // The varint bytes of each chunk's deltas (delta i - 1 leads to value i).
  std::string bytes;
  std::vector<size_t> cut(chunks + 1);
  std::array<uint64_t, 256> counts{};
  for (size_t c = 0; c < chunks; ++c) {
    cut[c] = bytes.size();
    const size_t begin = ChunkStart(c, layout);
    const size_t end = std::min(n, ChunkStart(c + 1, layout));
    for (size_t i = begin + 1; i < end; ++i) PutVarsint64(&bytes, deltas[i - 1]);
  }
  cut[chunks] = bytes.size();
  for (unsigned char b : bytes) ++counts[b];
  if (bytes.empty()) counts[0] = 1;  // every chunk holds one value: a one-symbol code, no streams
  const HuffmanCode code = BuildHuffmanCode(counts);

  std::string table;
  AppendHuffmanTable(code, &table);
  AppendChunkedPayload(v, layout, chunks, multi_byte ? kMultiByteFlag : 0, table, code, bytes, cut, out);
}

namespace {

// A frame written by AppendFrame holding `count` values, from the front of *in (consumed).
bool ReadFrame(std::string_view* in, size_t count, bool is_signed, std::vector<uint64_t>* out) {
  if (in->empty()) return false;
  const int width = static_cast<uint8_t>((*in)[0]);
  in->remove_prefix(1);
  if (width > 64) return false;
  uint64_t base;
  if (is_signed) {
    int64_t b;
    if (!GetVarsint64(in, &b)) return false;
    base = static_cast<uint64_t>(b);
  } else if (!GetVarint64(in, &base)) {
    return false;
  }
  const uint64_t bytes = (uint64_t{count} * static_cast<uint64_t>(width) + 7) / 8;
  if (bytes > in->size()) return false;
  out->resize(count);
  if (width <= 56) {
    // Every block opens its headers at each range read: one 8-byte load a value rather than bit
    // by bit.
    const uint64_t mask = width == 0 ? 0 : (uint64_t{1} << width) - 1;
    const auto* data = reinterpret_cast<const uint8_t*>(in->data());
    uint64_t* dst = out->data();
    // Values whose 8-byte load stays inside the frame read it in place; the last few go through
    // a zero-padded copy of the frame's tail.
    const size_t direct = bytes >= 8 ? std::min<size_t>(count, ((bytes - 8) * 8) / std::max(width, 1) + 1) : 0;
    size_t i = 0;
    for (; i < direct; ++i) {
      const uint64_t bit = uint64_t{i} * static_cast<uint64_t>(width);
      uint64_t w;
      std::memcpy(&w, data + bit / 8, 8);
      dst[i] = base + ((w >> (bit % 8)) & mask);
    }
    if (i < count) {
      uint8_t tail[24] = {};
      const size_t from = bytes >= 16 ? bytes - 16 : 0;
      std::memcpy(tail, data + from, bytes - from);
      for (; i < count; ++i) {
        const uint64_t bit = uint64_t{i} * static_cast<uint64_t>(width);
        uint64_t w;
        std::memcpy(&w, tail + (bit / 8 - from), 8);
        dst[i] = base + ((w >> (bit % 8)) & mask);
      }
    }
  } else {
    BitReader r(in->substr(0, bytes));
    for (size_t i = 0; i < count; ++i) {
      uint64_t x;
      if (!r.Read(width, &x)) return false;
      (*out)[i] = base + x;
    }
  }
  in->remove_prefix(bytes);
  return true;
}

}  // namespace

Status ChunkedDeltaReader::ReadPackedHeaders(size_t chunks, std::string_view* in) {
  auto corrupt = [&](const std::string& what) { return PayloadCorruption(Codec::kChunkedDelta, what, payload_, *in); };
  thread_local std::vector<uint64_t> steps, bits;
  int64_t first;
  if (!GetVarsint64(in, &first)) return corrupt("truncated first value");
  if (chunks > 1 && !ReadFrame(in, chunks - 1, true, &steps)) return corrupt("truncated chunk steps");
  if (!ReadFrame(in, chunks, false, &bits)) return corrupt("truncated chunk lengths");
  if (chunks_.size() < chunks) chunks_.resize(chunks);
  const uint64_t limit = uint64_t{in->size()} * 8;
  uint64_t base = static_cast<uint64_t>(first), at = 0;
  size_t start = 0;
  for (size_t c = 0; c < chunks; ++c) {
    Chunk& ch = chunks_[c];
    const size_t next = c == 0 ? size_t{layout_.first} : start + layout_.size;  // ChunkStart(c + 1)
    ch.start = start;
    ch.values = std::min(n_, next) - start;
    start = next;
    if (c > 0) base += steps[c - 1];
    ch.base = static_cast<int64_t>(base);
    if (bits[c] > limit - at) return corrupt("chunk streams exceed the payload");
    ch.stream_bit = at;
    ch.stream_bits = bits[c];
    ch.varint_bytes = ch.values - 1;
    at += bits[c];
  }
  if ((at + 7) / 8 != in->size()) return corrupt("chunk streams do not fill the payload");
  streams_ = reinterpret_cast<const uint8_t*>(in->data());
  return Status::OK();
}

Status ChunkedDeltaReader::OpenTable(std::string_view* in) {
  auto corrupt = [&](const std::string& what) { return PayloadCorruption(Codec::kChunkedDelta, what, payload_, *in); };
  table_bits_ = 0;  // built by the first Plan, sized to its range
  GNOMON_RETURN_IF_ERROR(ReadHuffmanSymbols(payload_, in, &symbols_, &num_symbols_).WithContext("codec chunked_delta"));
  if (!multi_byte_) {
    // One-byte deltas are zigzag values below 0x80; the decoder relies on the code holding no other.
    for (size_t k = 0; k < num_symbols_; ++k) {
      if (symbols_[k].symbol >= 0x80) return corrupt("multi-byte symbol in a one-byte code table");
    }
  }
  return Status::OK();
}

void ChunkedDeltaReader::BuildTable(size_t symbols) {
  const int bits = symbols <= kSmallReadSymbols ? kSmallReadPrimaryBits : kPrimaryBits;
  if (table_bits_ >= bits) return;
  // Cannot fail: OpenTable checked the lengths.
  (void)BuildHuffmanDecodeTable({symbols_.data(), num_symbols_}, &table_, bits);
  table_bits_ = bits;
}

Status ChunkedDeltaReader::Open(std::string_view payload, size_t n) {
  payload_ = payload;
  n_ = n;
  std::string_view in = payload;
  auto corrupt = [&](const std::string& what) {
    return PayloadCorruption(Codec::kChunkedDelta, what, payload, in);
  };
  if (n == 0) return corrupt("needs one or more values");
  if (in.empty()) return corrupt("missing flags");
  const uint8_t flags = static_cast<uint8_t>(in[0]);
  in.remove_prefix(1);
  if ((flags & ~(kMultiByteFlag | kPackedHeadersFlag)) != 0 || flags == (kMultiByteFlag | kPackedHeadersFlag)) {
    return corrupt("unknown flags");
  }
  multi_byte_ = (flags & kMultiByteFlag) != 0;
  packed_headers_ = (flags & kPackedHeadersFlag) != 0;
  if (!GetVarint32(&in, &layout_.first) || !GetVarint32(&in, &layout_.size) || !layout_.enabled()) {
    return corrupt("bad chunk layout");
  }
  GNOMON_RETURN_IF_ERROR(OpenTable(&in));
  const size_t chunks = NumChunks(n, layout_);
  if (packed_headers_) return ReadPackedHeaders(chunks, &in);
  if (chunks > in.size() / 2) return corrupt("more chunks than chunk headers");  // each header >= 2 bytes
  // Every field of every chunk is set below: a reused reader's chunks need no clearing.
  if (chunks_.size() < chunks) chunks_.resize(chunks);
  // Every range read opens its block, and a block of a day's half hours has ~48 chunk headers:
  // they are parsed with raw pointers, one-byte varints (the usual) on a fast path.
  const char* p = in.data();
  const char* const limit = p + in.size();
  uint64_t base = 0;
  uint64_t stream_total = 0;
  size_t start = 0;
  for (size_t c = 0; c < chunks; ++c) {
    Chunk& ch = chunks_[c];
    const size_t next = c == 0 ? size_t{layout_.first} : start + layout_.size;  // ChunkStart(c + 1)
    ch.start = start;
    ch.values = std::min(n, next) - start;
    start = next;
    const char* const header = p;  // where a corrupt header is reported
    uint64_t zigzag, size;
    if (limit - p >= 2 && static_cast<uint8_t>(p[0]) < 0x80 && static_cast<uint8_t>(p[1]) < 0x80) {
      zigzag = static_cast<uint8_t>(p[0]);
      size = static_cast<uint8_t>(p[1]);
      p += 2;
    } else if ((p = DecodeVarint64(p, limit, &zigzag)) == nullptr ||
               (p = DecodeVarint64(p, limit, &size)) == nullptr) {
      in = std::string_view(header, limit - header);
      return corrupt("truncated chunk header");
    }
    base += static_cast<uint64_t>(ZigZagDecode(zigzag));
    ch.base = static_cast<int64_t>(base);
    ch.stream_bit = stream_total * 8;
    ch.stream_bits = size * 8;
    ch.varint_bytes = ch.values - 1;
    if (multi_byte_) {
      uint64_t extra;
      if ((p = DecodeVarint64(p, limit, &extra)) == nullptr || extra > uint64_t{9} * (ch.values - 1)) {
        in = std::string_view(header, limit - header);
        return corrupt("bad chunk byte count");
      }
      ch.varint_bytes += extra;
    }
    stream_total += size;
    if (size > payload.size()) {
      in = std::string_view(header, limit - header);
      return corrupt("chunk stream size out of range");
    }
  }
  in = std::string_view(p, limit - p);
  if (stream_total != in.size()) return corrupt("chunk streams do not fill the payload");
  streams_ = reinterpret_cast<const uint8_t*>(in.data());
  return Status::OK();
}

// Decoding work planned across readers and ranges, run together.
struct ChunkedRangePlan {
  std::vector<Cursor> cursors;
  std::vector<uint8_t> padded;  // copies of streams that end too near their payload's end
  struct Copy {
    const int64_t* from;
    size_t count;
    int64_t* to;
  };
  std::vector<Copy> copies;  // chunks that start before their range: decoded aside, then copied
  // Buffers for those chunks, reused across calls (a moved inner vector keeps its buffer, so
  // pointers into them survive the outer vector's growth).
  std::vector<std::vector<int64_t>> scratch;
  size_t scratch_used = 0;

  void Reset() {
    cursors.clear();
    copies.clear();
    scratch_used = 0;
  }
  int64_t* Scratch(size_t n) {
    if (scratch_used == scratch.size()) scratch.emplace_back();
    std::vector<int64_t>& v = scratch[scratch_used++];
    v.resize(n);
    return v.data();
  }

  Status Run() {
    if (!RunCursors(cursors.data(), cursors.size(), &padded)) {
      return Status::Corruption("block: codec chunked_delta: invalid, truncated, overlong or padded bit stream");
    }
    for (const Copy& c : copies) std::copy(c.from, c.from + c.count, c.to);
    return Status::OK();
  }
};

Status ChunkedDeltaReader::Plan(size_t begin, size_t end, int64_t* out, ChunkedRangePlan* plan) {
  GNOMON_CHECK(begin <= end && end <= n_);
  if (begin == end) return Status::OK();
  // The chunks holding [begin, end); a chunk starting before `begin` is decoded aside.
  const size_t c0 = begin < layout_.first ? 0 : 1 + (begin - layout_.first) / layout_.size;
  const size_t c1 = end <= layout_.first ? 0 : 1 + (end - 1 - layout_.first) / layout_.size;
  const bool whole = begin == 0 && end == n_;
  BuildTable(end - chunks_[c0].start);
  for (size_t c = c0; c <= c1; ++c) {
    const Chunk& ch = chunks_[c];
    const size_t values = std::min(ch.values, end - ch.start);  // stop inside the last chunk
    int64_t* dst = out + (ch.start - std::min(ch.start, begin));
    if (ch.start < begin) {
      dst = plan->Scratch(values);
      plan->copies.push_back({dst + (begin - ch.start), values - (begin - ch.start), out});
    }
    const uint8_t* stream = streams_ + ch.stream_bit / 8;
    if (multi_byte_) {
      GNOMON_RETURN_IF_ERROR(DecodeMultiByteChunk(table_, ch, stream, values, whole, payload_, dst));
    } else {
      dst[0] = ch.base;
      const auto* payload_end = reinterpret_cast<const uint8_t*>(payload_.data()) + payload_.size();
      const uint64_t first_bit = ch.stream_bit % 8;
      const uint64_t stream_end = first_bit + ch.stream_bits;
      const uint64_t min_end = packed_headers_ ? stream_end : stream_end - std::min<uint64_t>(stream_end, 7);
      plan->cursors.push_back(Cursor{&table_, stream, stream_end, min_end, first_bit, dst, values - 1, 0,
                                     static_cast<uint64_t>(ch.base), whole,
                                     stream + (stream_end + 7) / 8 + 8 > payload_end});
    }
  }
  return Status::OK();
}

namespace {

// One plan per thread, reused: decoding a few hundred values should not allocate.
ChunkedRangePlan& ThreadPlan() {
  thread_local ChunkedRangePlan plan;
  plan.Reset();
  return plan;
}

}  // namespace

Status ChunkedDeltaReader::Decode(size_t begin, size_t end, int64_t* out) {
  ChunkedRangePlan& plan = ThreadPlan();
  GNOMON_RETURN_IF_ERROR(Plan(begin, end, out, &plan));
  return plan.Run();
}

Status DecodeChunkedTogether(std::span<ChunkedDeltaReader* const> readers,
                             std::span<const std::pair<uint32_t, uint32_t>> ranges, std::span<int64_t* const> outs) {
  GNOMON_CHECK(readers.size() == outs.size());
  ChunkedRangePlan& plan = ThreadPlan();
  for (size_t i = 0; i < readers.size(); ++i) {
    int64_t* out = outs[i];
    for (const auto& [b, e] : ranges) {
      GNOMON_RETURN_IF_ERROR(readers[i]->Plan(b, e, out, &plan));
      out += e - b;
    }
  }
  return plan.Run();
}

Status DecodeChunkedDelta(std::string_view payload, size_t n, size_t begin, size_t end, int64_t* out) {
  ChunkedDeltaReader reader;
  GNOMON_RETURN_IF_ERROR(reader.Open(payload, n));
  return reader.Decode(begin, end, out);
}

}  // namespace gnomon::encoding

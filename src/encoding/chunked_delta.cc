#include "src/encoding/chunked_delta.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "src/base/check.h"
#include "src/base/coding.h"
#include "src/encoding/block_format.h"
#include "src/encoding/huffman.h"

namespace gnomon::encoding {
namespace {

constexpr uint8_t kMultiByteFlag = 1;
// Pairs of deltas (each zigzag value below 16) as one symbol, low nibble first: the code then
// spends whole bits on pairs, not on single deltas, and comes within ~1% of their entropy
// (TSBS cpu: 2.17 bits a delta against 2.25 coding each alone; entropy 2.15).
constexpr uint8_t kPairsFlag = 2;
constexpr int kPrimaryBits = 8;
constexpr int kPairPrimaryBits = 10;  // pair codes are longer: fewer take the slow path

inline uint64_t ZigZag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }

size_t NumChunks(size_t n, const ChunkLayout& layout) {
  if (n <= layout.first) return 1;
  return 1 + (n - layout.first + layout.size - 1) / layout.size;
}

size_t ChunkStart(size_t c, const ChunkLayout& layout) { return c == 0 ? 0 : layout.first + (c - 1) * size_t{layout.size}; }

using ChunkInfo = ChunkedDeltaReader::Chunk;

// One chunk's decoding state in one-byte or pair mode: delta i leads to value i + 1 (a symbol is
// one delta, or in pair mode two).
struct Cursor {
  const HuffmanDecodeTable* table;
  const uint8_t* bits;  // the stream; 8 bytes past its end are readable (the payload's, or padding)
  size_t nbytes;
  uint64_t pos;   // bit position
  int64_t* out;   // out[0] holds the base; deltas fill out[1..n]
  size_t n;       // deltas to decode
  size_t i;       // deltas decoded
  uint64_t acc;
  bool exact;     // the whole stream is decoded: it must be consumed exactly
  bool pad;       // the stream ends within 8 bytes of the payload: decode from a padded copy
  bool pairs;     // a symbol holds two deltas (kPairsFlag)
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

inline uint64_t UnZigZag(uint32_t z) { return (uint64_t{z} >> 1) ^ (uint64_t{0} - (z & 1)); }

// Four symbols of one lane from one 8-byte load (>= 57 bits; codes are <= 12 bits): four deltas,
// or in pair mode eight.
template <bool Pairs>
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
    if constexpr (Pairs) {
      acc += UnZigZag(z & 15);
      out[2 * j] = static_cast<int64_t>(acc);
      acc += UnZigZag(z >> 4);
      out[2 * j + 1] = static_cast<int64_t>(acc);
    } else {
      acc += UnZigZag(z);
      out[j] = static_cast<int64_t>(acc);
    }
  }
}

template <bool Pairs>
constexpr size_t kDeltasPerRound = Pairs ? 8 : 4;

// `rounds` rounds of four symbols on each of `L` cursors in lockstep, their state in locals: the
// lanes' table-lookup chains are independent, so they overlap (one chain alone is bound by the
// lookup latency). REQUIRES: each cursor has >= kDeltasPerRound * rounds deltas left. False when a
// stream runs past its end (corrupt), before reading beyond what Cursor::bits allows.
template <int L, bool Pairs>
bool RunLanes(Cursor* const* cs, size_t rounds, uint32_t* bad) {
  uint64_t pos[L], acc[L], limit[L];
  int64_t* out[L];
  for (int k = 0; k < L; ++k) {
    pos[k] = cs[k]->pos;
    acc[k] = cs[k]->acc;
    out[k] = cs[k]->out + cs[k]->i + 1;
    limit[k] = uint64_t{cs[k]->nbytes} * 8;
  }
  bool overrun = false;
  for (size_t r = 0; r < rounds; ++r) {
    for (int k = 0; k < L; ++k) {
      DecodeFour<Pairs>(*cs[k]->table, cs[k]->bits, pos[k], acc[k], out[k], bad);
      out[k] += kDeltasPerRound<Pairs>;
    }
    for (int k = 0; k < L; ++k) overrun |= pos[k] > limit[k];
    if (__builtin_expect(overrun, 0)) return false;
  }
  for (int k = 0; k < L; ++k) {
    cs[k]->pos = pos[k];
    cs[k]->acc = acc[k];
    cs[k]->i += kDeltasPerRound<Pairs> * rounds;
  }
  return true;
}

// The cursor's last deltas (fewer than a round) one symbol at a time, then the end-of-stream
// checks. A pair chunk's last symbol may carry one delta and padding, which must be zero.
bool Finish(Cursor* c, uint32_t* bad) {
  const HuffmanDecodeTable& t = *c->table;
  while (c->i < c->n) {
    uint64_t w;
    std::memcpy(&w, c->bits + (c->pos >> 3), 8);
    w >>= (c->pos & 7);
    const uint32_t e = Entry(t, w, bad);
    const uint32_t z = e & 0xff;
    c->pos += e >> 8;
    if (c->pos > uint64_t{c->nbytes} * 8) return false;
    if (!c->pairs) {
      c->acc += UnZigZag(z);
      c->out[++c->i] = static_cast<int64_t>(c->acc);
      continue;
    }
    c->acc += UnZigZag(z & 15);
    c->out[++c->i] = static_cast<int64_t>(c->acc);
    if (c->i < c->n) {
      c->acc += UnZigZag(z >> 4);
      c->out[++c->i] = static_cast<int64_t>(c->acc);
    } else if (c->exact && (z >> 4) != 0) {
      *bad = 1;  // the padding of a chunk's odd last delta
    }
  }
  return !c->exact || (c->pos + 7) / 8 == c->nbytes;  // a whole stream has no extra bytes
}

// Runs the cursors (all of one mode), four at a time in lockstep; a finished cursor's place goes
// to the next one. False on a bad stream.
template <bool Pairs>
bool RunMode(Cursor* const* cs, size_t n, uint32_t* bad) {
  constexpr size_t kRound = kDeltasPerRound<Pairs>;
  Cursor* active[4];
  int na = 0;
  size_t next = 0;
  for (;;) {
    while (na < 4 && next < n) active[na++] = cs[next++];
    if (na == 0) break;
    if (na == 4) {
      size_t rounds = SIZE_MAX;
      for (int k = 0; k < 4; ++k) rounds = std::min(rounds, (active[k]->n - active[k]->i) / kRound);
      if (rounds > 0 && !RunLanes<4, Pairs>(active, rounds, bad)) return false;
    } else {
      // The last few cursors: pairs still overlap two chains.
      for (int k = 0; k + 1 < na; k += 2) {
        const size_t rounds = std::min(active[k]->n - active[k]->i, active[k + 1]->n - active[k + 1]->i) / kRound;
        if (rounds > 0 && !RunLanes<2, Pairs>(active + k, rounds, bad)) return false;
      }
      for (int k = 0; k < na; ++k) {
        const size_t rounds = (active[k]->n - active[k]->i) / kRound;
        if (rounds > 0 && !RunLanes<1, Pairs>(active + k, rounds, bad)) return false;
      }
    }
    for (int k = 0; k < na;) {
      Cursor* c = active[k];
      if (c->n - c->i >= kRound) {
        ++k;
        continue;
      }
      if (!Finish(c, bad)) return false;
      active[k] = active[--na];
    }
  }
  return true;
}

// Runs every cursor, those of each mode together. Streams that end too close to their payload's
// end are first copied into `padded`. False on a bad stream.
bool RunCursors(Cursor* cs, size_t n, std::vector<uint8_t>* padded) {
  size_t pad_bytes = 0;
  for (size_t k = 0; k < n; ++k) pad_bytes += cs[k].pad ? cs[k].nbytes + 8 : 0;
  if (pad_bytes > 0) {
    padded->assign(pad_bytes, 0);
    uint8_t* p = padded->data();
    for (size_t k = 0; k < n; ++k) {
      if (!cs[k].pad) continue;
      std::memcpy(p, cs[k].bits, cs[k].nbytes);
      cs[k].bits = p;
      p += cs[k].nbytes + 8;
    }
  }
  thread_local std::vector<Cursor*> singles, pairs;
  singles.clear();
  pairs.clear();
  for (size_t k = 0; k < n; ++k) (cs[k].pairs ? pairs : singles).push_back(&cs[k]);
  uint32_t bad = 0;
  if (!RunMode<false>(singles.data(), singles.size(), &bad)) return false;
  if (!RunMode<true>(pairs.data(), pairs.size(), &bad)) return false;
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
  const uint64_t total_bits = uint64_t{ch.stream_bytes} * 8;
  uint64_t pos = 0;
  for (size_t i = 0; i < ch.varint_bytes; ++i) {
    const size_t byte = pos >> 3;
    if (byte >= ch.stream_bytes) return corrupt("truncated bit stream");
    uint64_t w = 0;
    std::memcpy(&w, stream + byte, std::min<size_t>(8, ch.stream_bytes - byte));
    w >>= (pos & 7);
    const uint16_t e = t.Lookup(w);
    const uint32_t len = e >> 8;
    if (len == 0) return corrupt("invalid code");
    pos += len;
    if (pos > total_bits) return corrupt("truncated bit stream");
    bytes[i] = static_cast<uint8_t>(e & 0xff);
  }
  if ((pos + 7) / 8 != ch.stream_bytes) return corrupt("padded bit stream");
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

// Bytes of the chunks' streams: symbols [cut[c], cut[c + 1]) of `symbols` each padded to a byte.
size_t StreamBytes(const HuffmanCode& code, std::string_view symbols, const std::vector<size_t>& cut) {
  size_t total = 0;
  for (size_t c = 0; c + 1 < cut.size(); ++c) {
    uint64_t bits = 0;
    for (size_t i = cut[c]; i < cut[c + 1]; ++i) bits += code.lengths[static_cast<uint8_t>(symbols[i])];
    total += (bits + 7) / 8;
  }
  return total;
}

// The pair symbols of each chunk's deltas (a chunk with an odd count pads its last with 0), and
// the zigzag bound m (every delta's zigzag value < m <= 16); false when some delta is too large.
bool PairSymbols(std::span<const int64_t> deltas, size_t n, const ChunkLayout& layout, size_t chunks,
                 std::string* symbols, std::vector<size_t>* cut, int* m) {
  uint64_t largest = 0;
  for (int64_t d : deltas) largest = std::max(largest, ZigZag(d));
  if (largest >= 16) return false;
  *m = static_cast<int>(largest) + 1;
  cut->assign(chunks + 1, 0);
  for (size_t c = 0; c < chunks; ++c) {
    (*cut)[c] = symbols->size();
    const size_t begin = ChunkStart(c, layout);
    const size_t end = std::min(n, ChunkStart(c + 1, layout));
    for (size_t i = begin + 1; i < end; i += 2) {
      const uint64_t lo = ZigZag(deltas[i - 1]);
      const uint64_t hi = i + 1 < end ? ZigZag(deltas[i]) : 0;
      symbols->push_back(static_cast<char>(lo | hi << 4));
    }
  }
  (*cut)[chunks] = symbols->size();
  return true;
}

// u8(m - 1), then the code length of each pair (a, b), a and b < m, a-major, as nibbles (low first).
void AppendPairTable(const HuffmanCode& code, int m, std::string* out) {
  out->push_back(static_cast<char>(m - 1));
  uint8_t byte = 0;
  int k = 0;
  for (int a = 0; a < m; ++a) {
    for (int b = 0; b < m; ++b, ++k) {
      const uint8_t len = code.lengths[a | b << 4];
      if (k % 2 == 0) {
        byte = len;
      } else {
        out->push_back(static_cast<char>(byte | len << 4));
      }
    }
  }
  if (k % 2 != 0) out->push_back(static_cast<char>(byte));
}
size_t PairTableBytes(int m) { return 1 + (size_t(m) * m + 1) / 2; }

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

}  // namespace

void EncodeChunkedDelta(std::span<const int64_t> v, std::span<const int64_t> deltas, const ChunkLayout& layout,
                        std::string* out) {
  GNOMON_CHECK(v.size() >= 2 && layout.enabled() && deltas.size() + 1 == v.size());
  const size_t n = v.size();
  const size_t chunks = NumChunks(n, layout);
  bool multi_byte = false;
  for (int64_t d : deltas) multi_byte |= ZigZag(d) >= 0x80;
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

  // Pairs when they come out smaller, table included.
  std::string pairs;
  std::vector<size_t> pair_cut;
  int m = 0;
  if (!bytes.empty() && PairSymbols(deltas, n, layout, chunks, &pairs, &pair_cut, &m)) {
    std::array<uint64_t, 256> pair_counts{};
    for (unsigned char p : pairs) ++pair_counts[p];
    const HuffmanCode pair_code = BuildHuffmanCode(pair_counts);
    size_t single_table = 1;
    for (uint8_t l : code.lengths) single_table += l != 0 ? 2 : 0;
    if (PairTableBytes(m) + StreamBytes(pair_code, pairs, pair_cut) < single_table + StreamBytes(code, bytes, cut)) {
      out->push_back(static_cast<char>(kPairsFlag));
      PutVarint32(out, layout.first);
      PutVarint32(out, layout.size);
      AppendPairTable(pair_code, m, out);
      AppendChunkStreams(v, layout, chunks, pair_code, pairs, pair_cut, false, out);
      return;
    }
  }

  out->push_back(static_cast<char>(multi_byte ? kMultiByteFlag : 0));
  PutVarint32(out, layout.first);
  PutVarint32(out, layout.size);
  AppendHuffmanTable(code, out);
  AppendChunkStreams(v, layout, chunks, code, bytes, cut, multi_byte, out);
}

Status ChunkedDeltaReader::ReadPairTable(std::string_view* in) {
  auto corrupt = [&](const std::string& what) { return PayloadCorruption(Codec::kChunkedDelta, what, payload_, *in); };
  if (in->empty()) return corrupt("missing pair bound");
  const int m = static_cast<uint8_t>((*in)[0]) + 1;
  if (m > 16) return corrupt("pair bound out of range");
  const size_t bytes = (size_t(m) * m + 1) / 2;
  if (in->size() < 1 + bytes) return corrupt("truncated pair code table");
  const auto* p = reinterpret_cast<const uint8_t*>(in->data()) + 1;
  std::array<uint8_t, 256> lengths{};
  for (int k = 0; k < m * m; ++k) {
    const uint8_t len = (p[k / 2] >> (k % 2 * 4)) & 15;
    if (len > kHuffmanMaxCodeLength) return corrupt("pair code length out of range");
    lengths[(k / m) | (k % m) << 4] = len;
  }
  if (m * m % 2 != 0 && (p[bytes - 1] >> 4) != 0) return corrupt("pair code table padding");
  GNOMON_RETURN_IF_ERROR(BuildHuffmanDecodeTable(lengths, &table_, kPairPrimaryBits).WithContext("codec chunked_delta"));
  in->remove_prefix(1 + bytes);
  return Status::OK();
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
  if ((flags & ~(kMultiByteFlag | kPairsFlag)) != 0 || flags == (kMultiByteFlag | kPairsFlag)) {
    return corrupt("unknown flags");
  }
  multi_byte_ = (flags & kMultiByteFlag) != 0;
  pairs_ = (flags & kPairsFlag) != 0;
  if (!GetVarint32(&in, &layout_.first) || !GetVarint32(&in, &layout_.size) || !layout_.enabled()) {
    return corrupt("bad chunk layout");
  }
  if (pairs_) {
    GNOMON_RETURN_IF_ERROR(ReadPairTable(&in));
  } else {
    // A small primary table: ranges decode a few hundred symbols, and the codes of small deltas are short.
    GNOMON_RETURN_IF_ERROR(ReadHuffmanTable(payload, &in, &table_, kPrimaryBits).WithContext("codec chunked_delta"));
  }
  if (!multi_byte_ && !pairs_) {
    // One-byte deltas are zigzag values below 0x80; the decoder relies on the code holding no other.
    int symbols = 0;
    for (int len = 1; len <= kHuffmanMaxCodeLength; ++len) symbols += table_.count[len];
    for (int k = 0; k < symbols; ++k) {
      if (table_.sorted[k] >= 0x80) return corrupt("multi-byte symbol in a one-byte code table");
    }
  }
  const size_t chunks = NumChunks(n, layout_);
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
    ch.stream_offset = stream_total;
    ch.stream_bytes = size;
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
  for (size_t c = c0; c <= c1; ++c) {
    const Chunk& ch = chunks_[c];
    const size_t values = std::min(ch.values, end - ch.start);  // stop inside the last chunk
    int64_t* dst = out + (ch.start - std::min(ch.start, begin));
    if (ch.start < begin) {
      dst = plan->Scratch(values);
      plan->copies.push_back({dst + (begin - ch.start), values - (begin - ch.start), out});
    }
    const uint8_t* stream = streams_ + ch.stream_offset;
    if (multi_byte_) {
      GNOMON_RETURN_IF_ERROR(DecodeMultiByteChunk(table_, ch, stream, values, whole, payload_, dst));
    } else {
      dst[0] = ch.base;
      const auto* payload_end = reinterpret_cast<const uint8_t*>(payload_.data()) + payload_.size();
      plan->cursors.push_back(Cursor{&table_, stream, ch.stream_bytes, 0, dst, values - 1, 0,
                                     static_cast<uint64_t>(ch.base), whole, stream + ch.stream_bytes + 8 > payload_end,
                                     pairs_});
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

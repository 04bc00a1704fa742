#include "src/encoding/huffman.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "src/base/check.h"
#include "src/base/coding.h"
#include "src/encoding/bit_stream.h"

namespace gnomon::encoding {
namespace {

// Bit-reversed bytes: codes are read LSB-first, so table slots are indexed by reversed codes.
constexpr std::array<uint8_t, 256> kReversedBytes = [] {
  std::array<uint8_t, 256> r{};
  for (int i = 0; i < 256; ++i) {
    for (int b = 0; b < 8; ++b) r[i] |= static_cast<uint8_t>(((i >> b) & 1) << (7 - b));
  }
  return r;
}();

// The low `len` bits of `code` (len <= 16) in reverse order.
inline uint32_t ReverseCode(uint32_t code, int len) {
  const uint32_t r16 = (uint32_t{kReversedBytes[code & 0xff]} << 8) | kReversedBytes[(code >> 8) & 0xff];
  return r16 >> (16 - len);
}

constexpr int kTableBits = kHuffmanMaxCodeLength;
constexpr size_t kTableSize = size_t{1} << kTableBits;

// Huffman code lengths for the nonzero counts; symbols with count 0 get length 0.
//
// The tree is the one a min-heap of (weight, node index) builds, leaves indexed in symbol order and
// internal nodes after them in creation order, but built with two queues (van Leeuwen): sorted
// leaves, and internal nodes, which are created in (weight, index) order. The smaller front of the
// two is the heap's minimum, so the lengths are the heap's exactly (the stored bytes do not
// change), without its allocations: encoders build a code per block.
std::array<uint8_t, 256> HuffmanLengths(const std::array<uint64_t, 256>& counts) {
  std::array<uint8_t, 256> lengths{};
  struct Node {
    uint64_t weight;
    int index;
  };
  std::array<Node, 256> leaves;
  std::array<int, 256> symbol_of{};  // leaf index -> symbol
  int k = 0;
  for (int s = 0; s < 256; ++s) {
    if (counts[s] == 0) continue;
    leaves[k] = Node{counts[s], k};
    symbol_of[k] = s;
    ++k;
  }
  if (k == 0) return lengths;
  if (k == 1) {
    lengths[symbol_of[0]] = 1;
    return lengths;
  }
  auto less = [](const Node& a, const Node& b) {
    return a.weight != b.weight ? a.weight < b.weight : a.index < b.index;
  };
  std::sort(leaves.begin(), leaves.begin() + k, less);
  std::array<Node, 256> internal;  // k - 1 of them, in creation order
  std::array<int, 511> parent;
  int next_leaf = 0, next_internal = 0, internal_count = 0;
  auto take = [&]() -> Node {
    if (next_leaf < k && (next_internal == internal_count || less(leaves[next_leaf], internal[next_internal]))) {
      return leaves[next_leaf++];
    }
    return internal[next_internal++];
  };
  for (int n = 0; n < k - 1; ++n) {
    const Node a = take();
    const Node b = take();
    const int p = k + internal_count;
    parent[a.index] = p;
    parent[b.index] = p;
    internal[internal_count++] = Node{a.weight + b.weight, p};
  }
  // Depths top-down: a parent's index is above its children's, the root's is the highest.
  std::array<int, 511> depth;
  const int root = 2 * k - 2;
  depth[root] = 0;
  for (int n = root - 1; n >= 0; --n) depth[n] = depth[parent[n]] + 1;
  for (int leaf = 0; leaf < k; ++leaf) lengths[symbol_of[leaf]] = static_cast<uint8_t>(std::min(depth[leaf], 255));
  return lengths;
}

// Canonical codes, bit-reversed for an LSB-first stream. REQUIRES: lengths satisfy Kraft.
// Codes go to symbols in (length, symbol) order, each length's first code found from the counts
// per length (RFC 1951, 3.2.2).
std::array<uint16_t, 256> CanonicalCodes(const std::array<uint8_t, 256>& lengths) {
  std::array<uint32_t, kHuffmanMaxCodeLength + 2> per_length{};
  for (uint8_t l : lengths) ++per_length[l];
  per_length[0] = 0;
  std::array<uint32_t, kHuffmanMaxCodeLength + 2> next{};
  uint32_t code = 0;
  for (int len = 1; len <= kHuffmanMaxCodeLength; ++len) {
    code = (code + per_length[len - 1]) << 1;
    next[len] = code;
  }
  std::array<uint16_t, 256> codes{};
  for (int s = 0; s < 256; ++s) {
    const int len = lengths[s];
    if (len != 0) codes[s] = static_cast<uint16_t>(ReverseCode(next[len]++, len));
  }
  return codes;
}

constexpr int kStreams = 4;

size_t SegmentSize(size_t n) { return (n + kStreams - 1) / kStreams; }

// One stream's decoding state.
struct StreamCursor {
  const uint8_t* bits;
  size_t nbytes;
  uint64_t pos = 0;  // bit position
  char* out;
  size_t n;          // symbols to produce
  size_t i = 0;      // symbols produced
};

}  // namespace

HuffmanCode BuildHuffmanCode(const std::array<uint64_t, 256>& counts_in) {
  std::array<uint64_t, 256> counts = counts_in;
  HuffmanCode code;
  code.lengths = HuffmanLengths(counts);
  // Limit code lengths by flattening the distribution until the tree is shallow enough: simple, and
  // the loss is negligible because only symbols rarer than ~2^-12 are affected.
  while (*std::max_element(code.lengths.begin(), code.lengths.end()) > kHuffmanMaxCodeLength) {
    for (auto& c : counts) {
      if (c != 0) c = (c + 1) / 2;
    }
    code.lengths = HuffmanLengths(counts);
  }
  code.codes = CanonicalCodes(code.lengths);
  return code;
}

void AppendHuffmanTable(const HuffmanCode& code, std::string* out) {
  int k = 0;
  for (uint8_t l : code.lengths) k += l != 0;
  out->push_back(static_cast<char>(k - 1));
  for (int s = 0; s < 256; ++s) {
    if (code.lengths[s] == 0) continue;
    out->push_back(static_cast<char>(s));
    out->push_back(static_cast<char>(code.lengths[s]));
  }
}

void AppendHuffmanStream(const HuffmanCode& code, std::string_view bytes, std::string* out) {
  BitWriter w(out);
  for (unsigned char c : bytes) w.Write(code.codes[c], code.lengths[c]);
  w.Flush();
}

size_t HuffmanCompressedSizeLowerBound(std::string_view in) {
  GNOMON_CHECK(!in.empty());
  std::array<uint32_t, 256> counts{};
  for (unsigned char c : in) ++counts[c];
  // Entropy in bits: n log2 n - sum c log2 c. Rounded down (a little below the exact value, so
  // that floating-point error cannot lift it above any real code's length).
  const double n = static_cast<double>(in.size());
  double bits = n * std::log2(n);
  size_t symbols = 0;
  for (uint32_t c : counts) {
    if (c == 0) continue;
    ++symbols;
    bits -= c * std::log2(static_cast<double>(c));
  }
  const double safe_bits = std::max(0.0, bits * (1 - 1e-9) - 1);
  const size_t stream_bytes = static_cast<size_t>(std::ceil(safe_bits / 8));
  // Table: a count byte and (symbol, length) pairs; then kStreams - 1 stream lengths of at least a
  // byte each.
  return 1 + 2 * symbols + (kStreams - 1) + stream_bytes;
}

void HuffmanCompress(std::string_view in, std::string* out) {
  GNOMON_CHECK(!in.empty());
  std::array<uint64_t, 256> counts{};
  for (unsigned char c : in) ++counts[c];
  const HuffmanCode code = BuildHuffmanCode(counts);
  AppendHuffmanTable(code, out);
  std::string streams[kStreams];
  const size_t seg = SegmentSize(in.size());
  for (int j = 0; j < kStreams; ++j) {
    const size_t begin = std::min(in.size(), j * seg);
    const size_t end = std::min(in.size(), begin + seg);
    AppendHuffmanStream(code, in.substr(begin, end - begin), &streams[j]);
  }
  for (int j = 0; j < kStreams - 1; ++j) PutVarint64(out, streams[j].size());
  for (const std::string& s : streams) out->append(s);
}

uint16_t HuffmanDecodeTable::LookupLong(uint64_t window) const {
  // Canonical decoding, one bit at a time (codes are stored bit-reversed: the stream's next bit is
  // the code's most significant one). As in DEFLATE decoders such as zlib's puff.
  uint32_t code = 0, first = 0, index = 0;
  for (int len = 1; len <= longest; ++len) {
    code |= (window >> (len - 1)) & 1;
    const uint32_t n = count[len];
    if (code - first < n) return static_cast<uint16_t>(sorted[index + code - first] | (len << 8));
    index += n;
    first = (first + n) << 1;
    code <<= 1;
  }
  return 0;
}

Status BuildHuffmanDecodeTable(std::span<const HuffmanSymbol> symbols, HuffmanDecodeTable* table, int primary_bits) {
  uint32_t kraft = 0;  // in units of 2^-12
  int longest = 0;
  table->count.fill(0);
  for (const HuffmanSymbol& sym : symbols) {
    if (sym.length == 0 || sym.length > kHuffmanMaxCodeLength) return Status::Corruption("huffman: code length out of range");
    ++table->count[sym.length];
    longest = std::max<int>(longest, sym.length);
    kraft += uint32_t{1} << (kTableBits - sym.length);
  }
  if (longest == 0) return Status::Corruption("huffman: no symbols");
  if (kraft > kTableSize) return Status::Corruption("huffman: code lengths oversubscribed");
  // Symbols in canonical order, and each length's first code (DEFLATE's next_code).
  std::array<uint16_t, kHuffmanMaxCodeLength + 2> offset{}, next_code{};
  for (int len = 1; len <= kHuffmanMaxCodeLength; ++len) offset[len + 1] = offset[len] + table->count[len];
  uint32_t code = 0;
  for (int len = 1; len <= kHuffmanMaxCodeLength; ++len) {
    code = (code + table->count[len - 1]) << 1;
    next_code[len] = static_cast<uint16_t>(code);
  }
  table->longest = longest;
  table->bits = std::min(longest, std::max(1, primary_bits));
  table->mask = (uint32_t{1} << table->bits) - 1;
  const size_t size = size_t{1} << table->bits;
  std::fill(table->entries.begin(), table->entries.begin() + size, uint16_t{0});
  for (const HuffmanSymbol& sym : symbols) {  // ascending: canonical codes within a length ascend too
    const int len = sym.length;
    table->sorted[offset[len]++] = sym.symbol;
    const uint32_t c = next_code[len]++;
    if (len > table->bits) continue;
    const uint32_t reversed = ReverseCode(c, len);
    const auto entry = static_cast<uint16_t>(sym.symbol | (len << 8));
    for (size_t j = reversed; j < size; j += size_t{1} << len) table->entries[j] = entry;
  }
  return Status::OK();
}

Status ReadHuffmanSymbols(std::string_view whole, std::string_view* in, std::array<HuffmanSymbol, 256>* symbols,
                          size_t* count) {
  auto corrupt = [&](const std::string& what, size_t at) {
    return Status::Corruption("huffman: " + what + " at offset " + std::to_string(whole.size() - in->size() + at));
  };
  if (in->empty()) return corrupt("missing symbol count", 0);
  const size_t k = static_cast<uint8_t>((*in)[0]) + size_t{1};
  if (in->size() < 1 + 2 * k) return corrupt("truncated code table", in->size());
  const auto* p = reinterpret_cast<const uint8_t*>(in->data()) + 1;
  int prev_symbol = -1;
  uint32_t kraft = 0;  // in units of 2^-12
  for (size_t i = 0; i < k; ++i) {
    const int s = p[2 * i];
    const int len = p[2 * i + 1];
    if (s <= prev_symbol) return corrupt("symbols not ascending", 1 + 2 * i);
    if (len < 1 || len > kHuffmanMaxCodeLength) return corrupt("code length out of range", 2 + 2 * i);
    prev_symbol = s;
    (*symbols)[i] = HuffmanSymbol{static_cast<uint8_t>(s), static_cast<uint8_t>(len)};
    kraft += uint32_t{1} << (kTableBits - len);
  }
  if (kraft > kTableSize) return corrupt("code lengths oversubscribed", 1);
  in->remove_prefix(1 + 2 * k);
  *count = k;
  return Status::OK();
}

Status ReadHuffmanTable(std::string_view whole, std::string_view* in, HuffmanDecodeTable* table, int primary_bits) {
  std::array<HuffmanSymbol, 256> symbols;
  size_t k = 0;
  GNOMON_RETURN_IF_ERROR(ReadHuffmanSymbols(whole, in, &symbols, &k));
  return BuildHuffmanDecodeTable({symbols.data(), k}, table, primary_bits);
}

namespace {

// Streams are decoded from padded copies: kPad zero bytes follow each, so a decoder may read 8
// bytes at any position up to the stream's end plus what one round of four codes can overrun
// (48 bits), and checks the position against the stream's end only once per round.
constexpr size_t kPad = 16;

// Four symbols from one 8-byte load (>= 57 bits; codes are <= 12 bits). REQUIRES: c.i + 4 <= c.n.
inline int DecodeFour(const HuffmanDecodeTable& table, StreamCursor* c) {
  uint64_t w;
  std::memcpy(&w, c->bits + (c->pos >> 3), 8);
  w >>= (c->pos & 7);
  int invalid = 0;
  for (int j = 0; j < 4; ++j) {
    const uint16_t e = table.Lookup(w);
    const int len = e >> 8;
    invalid |= len == 0;
    w >>= len;
    c->pos += len;
    c->out[c->i++] = static_cast<char>(e & 0xff);
  }
  return invalid;
}

inline bool Overrun(const StreamCursor& c) { return c.pos > uint64_t{c.nbytes} * 8; }

// The cursor's remaining symbols; false on an invalid code or a stream that is too short or too long.
bool DecodeRest(const HuffmanDecodeTable& table, StreamCursor* c) {
  int invalid = 0;
  while (c->i + 4 <= c->n) {
    invalid |= DecodeFour(table, c);
    if (Overrun(*c)) return false;
  }
  for (; c->i < c->n; ++c->i) {
    uint64_t w;
    std::memcpy(&w, c->bits + (c->pos >> 3), 8);
    const uint16_t e = table.Lookup(w >> (c->pos & 7));
    invalid |= (e >> 8) == 0;
    c->pos += e >> 8;
    c->out[c->i] = static_cast<char>(e & 0xff);
  }
  return invalid == 0 && !Overrun(*c) && (c->pos + 7) / 8 == c->nbytes;
}

}  // namespace

Status HuffmanDecompress(std::string_view stored, size_t raw_len, char* out) {
  auto corrupt = [&](const std::string& what, size_t offset) {
    return Status::Corruption("huffman: " + what + " at offset " + std::to_string(offset));
  };
  std::string_view rest = stored;
  HuffmanDecodeTable table;
  GNOMON_RETURN_IF_ERROR(ReadHuffmanTable(stored, &rest, &table));

  uint64_t sizes[kStreams];
  uint64_t used = 0;
  for (int j = 0; j < kStreams - 1; ++j) {
    if (!GetVarint64(&rest, &sizes[j]) || sizes[j] > rest.size() - std::min<uint64_t>(used, rest.size())) {
      return corrupt("stream size out of range", stored.size() - rest.size());
    }
    used += sizes[j];
  }
  if (used > rest.size()) return corrupt("stream sizes exceed the data", stored.size() - rest.size());
  sizes[kStreams - 1] = rest.size() - used;

  // Padded copies of the streams (see kPad), in a buffer each thread reuses.
  thread_local std::vector<uint8_t> padded;
  padded.assign(rest.size() + kStreams * kPad, 0);
  StreamCursor cur[kStreams];
  const size_t seg = SegmentSize(raw_len);
  const auto* data = reinterpret_cast<const uint8_t*>(rest.data());
  for (size_t j = 0, at = 0; j < kStreams; ++j) {
    uint8_t* copy = padded.data() + at + j * kPad;
    std::memcpy(copy, data + at, sizes[j]);
    const size_t begin = std::min(raw_len, j * seg);
    cur[j] = StreamCursor{copy, static_cast<size_t>(sizes[j]), 0, out + begin, std::min(raw_len, begin + seg) - begin};
    at += sizes[j];
  }
  // The four streams in lockstep while each has four symbols left: their lookup chains overlap.
  int invalid = 0;
  while (cur[0].i + 4 <= cur[0].n && cur[1].i + 4 <= cur[1].n && cur[2].i + 4 <= cur[2].n &&
         cur[3].i + 4 <= cur[3].n) {
    invalid |= DecodeFour(table, &cur[0]);
    invalid |= DecodeFour(table, &cur[1]);
    invalid |= DecodeFour(table, &cur[2]);
    invalid |= DecodeFour(table, &cur[3]);
    if (Overrun(cur[0]) || Overrun(cur[1]) || Overrun(cur[2]) || Overrun(cur[3])) invalid = 1;
    if (invalid) break;
  }
  for (StreamCursor& c : cur) {
    if (invalid || !DecodeRest(table, &c)) {
      return corrupt("invalid, truncated or padded bit stream", stored.size() - rest.size());
    }
  }
  return Status::OK();
}

}  // namespace gnomon::encoding

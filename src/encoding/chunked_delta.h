// chunked_delta: small integer deltas, Huffman-coded in independently decodable chunks (codec 16).
//
// The same entropy coding as delta_varint+huffman (zigzag LEB128 deltas, one canonical Huffman code
// per block), but the block is cut into chunks at row offsets the writer chooses (a segment cuts
// at its hour slices). Each chunk stores its first value and its own bit stream, so a reader can
// decode rows [begin, end) by decoding only the chunks that hold them, stopping inside the last.
// The price is ~2-3 bytes per chunk.
//
// Payload (docs/format/encoding.md):
//   u8(flags)            bit 0: deltas may take several varint bytes (chunk headers then carry
//                        their byte counts); bit 2: packed headers (below), never with bit 0;
//                        other bits zero
//   v(first_chunk) v(chunk)   chunk 0 holds first_chunk values, later ones chunk values (the last
//                        one the rest); both >= 1
//   huffman table        as huffman.h's AppendHuffmanTable
//   per chunk: s(first value - previous chunk's first value (0 before chunk 0)) v(stream bytes)
//              [v(varint bytes - (values - 1))]   -- flag bit 0
//   the chunks' bit streams, back to back: the codes of the varint bytes of the chunk's
//   values - 1 deltas, LSB-first, zero-padded to a byte
// Packed headers (flag bit 2, never with bit 0): instead of the per-chunk headers,
//   s(first value)  [frame of the chunks' first-value steps, chunks > 1]  frame of stream bits
//   frame := u8(width <= 64) base (s() for the steps, v() for the lengths) (value - base in width
//            bits)* zero-padded to a byte
// and the streams follow back to back, bit-contiguous, the last byte zero-padded.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/base/status.h"
#include "src/encoding/huffman.h"

namespace gnomon::encoding {

// Where a writer wants seek points: chunk 0 has `first` values, the others `size`. size == 0: none.
struct ChunkLayout {
  uint32_t first = 0;
  uint32_t size = 0;
  bool enabled() const { return size > 0 && first > 0; }
};

// Appends the payload for v (REQUIRES: v.size() >= 2, layout.enabled(), deltas = v[i+1] - v[i]).
void EncodeChunkedDelta(std::span<const int64_t> v, std::span<const int64_t> deltas, const ChunkLayout& layout,
                        std::string* out);

struct ChunkedRangePlan;

// An opened chunked_delta payload: the header and code table parsed once, then any number of
// ranges decoded. The payload must outlive the reader.
class ChunkedDeltaReader {
 public:
  struct Chunk {
    size_t start = 0;      // first value's index in the block
    size_t values = 0;     // values in the chunk (>= 1)
    int64_t base = 0;      // the chunk's first value
    uint64_t stream_bit = 0;   // where its bit stream starts, in bits from the first chunk's
    uint64_t stream_bits = 0;  // its length (byte-padded streams: whole bytes)
    size_t varint_bytes = 0;  // symbols in the stream
  };

  // Parses an n-value payload's header, code table and chunk headers.
  Status Open(std::string_view payload, size_t n);
  // Decodes values [begin, end) into out[0..end-begin). REQUIRES: Open succeeded, begin <= end <= n.
  // A full decode (0, n) checks that every stream is consumed exactly.
  Status Decode(size_t begin, size_t end, int64_t* out);
  // Adds the work of decoding [begin, end) into out to *plan (DecodeChunkedTogether).
  Status Plan(size_t begin, size_t end, int64_t* out, ChunkedRangePlan* plan);

 private:
  // Parses and checks the code table at the front of *in (consumed) into symbols_.
  Status OpenTable(std::string_view* in);
  // Builds table_ from symbols_ for a read of about `symbols` symbols, unless one as large is built.
  void BuildTable(size_t symbols);
  // Parses packed chunk headers (kPackedHeadersFlag) from *in, the rest being the streams.
  Status ReadPackedHeaders(size_t chunks, std::string_view* in);

  std::string_view payload_;
  const uint8_t* streams_ = nullptr;  // the chunks' bit streams, back to back
  size_t n_ = 0;
  bool multi_byte_ = false;
  bool packed_headers_ = false;
  ChunkLayout layout_;
  std::array<HuffmanSymbol, 256> symbols_;  // the code's symbols, ascending
  size_t num_symbols_ = 0;
  HuffmanDecodeTable table_;
  int table_bits_ = 0;  // table_'s primary bits; 0: not built for this payload
  std::vector<Chunk> chunks_;
};

// Decodes `ranges` (each [first, second) inside every block) of several opened payloads, e.g. the
// columns of one row group, into outs[i] (concatenated), running their chunks' decode chains side
// by side: a partial-hour read has one or two chunks per column, too few to overlap on their own.
Status DecodeChunkedTogether(std::span<ChunkedDeltaReader* const> readers,
                             std::span<const std::pair<uint32_t, uint32_t>> ranges, std::span<int64_t* const> outs);

// Decodes values [begin, end) of an n-value payload into out[0..end-begin).
// REQUIRES: begin <= end <= n. A full decode (0, n) checks that every stream is consumed exactly.
Status DecodeChunkedDelta(std::string_view payload, size_t n, size_t begin, size_t end, int64_t* out);

}  // namespace gnomon::encoding

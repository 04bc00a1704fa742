#include "src/encoding/codec_tag.h"

#include <array>

namespace gnomon::encoding {
namespace {

// Rows: codec id 0..kMaxCodecId (0 unused); columns: compression none, zstd, lz4, huffman.
constexpr std::array<std::array<std::string_view, 4>, kMaxCodecId + 1> kNames = {{
    {"invalid", "invalid", "invalid", "invalid"},
    {"constant", "constant+zstd", "constant+lz4", "constant+huffman"},
    {"constant_delta", "constant_delta+zstd", "constant_delta+lz4", "constant_delta+huffman"},
    {"rle", "rle+zstd", "rle+lz4", "rle+huffman"},
    {"for", "for+zstd", "for+lz4", "for+huffman"},
    {"delta_for", "delta_for+zstd", "delta_for+lz4", "delta_for+huffman"},
    {"delta_delta_for", "delta_delta_for+zstd", "delta_delta_for+lz4", "delta_delta_for+huffman"},
    {"varint", "varint+zstd", "varint+lz4", "varint+huffman"},
    {"delta_varint", "delta_varint+zstd", "delta_varint+lz4", "delta_varint+huffman"},
    {"gorilla", "gorilla+zstd", "gorilla+lz4", "gorilla+huffman"},
    {"alp", "alp+zstd", "alp+lz4", "alp+huffman"},
    {"raw_float", "raw_float+zstd", "raw_float+lz4", "raw_float+huffman"},
    {"bit_packed", "bit_packed+zstd", "bit_packed+lz4", "bit_packed+huffman"},
    {"bool_rle", "bool_rle+zstd", "bool_rle+lz4", "bool_rle+huffman"},
    {"dictionary", "dictionary+zstd", "dictionary+lz4", "dictionary+huffman"},
    {"plain_strings", "plain_strings+zstd", "plain_strings+lz4", "plain_strings+huffman"},
    {"chunked_delta", "chunked_delta+zstd", "chunked_delta+lz4", "chunked_delta+huffman"},
}};

}  // namespace

std::string_view CodecName(uint8_t codec) {
  if (!IsValidTag(codec)) return "invalid";
  return kNames[TagCodecId(codec)][TagCompressionId(codec)];
}

}  // namespace gnomon::encoding

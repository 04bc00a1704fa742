// Little-endian fixed-width and LEB128 varint coding, plus zigzag, over byte buffers.
// Decoders take a cursor and return false (never read past `limit`) on truncated input.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace gnomon {

inline void EncodeFixed32(char* dst, uint32_t v) { std::memcpy(dst, &v, 4); }
inline void EncodeFixed64(char* dst, uint64_t v) { std::memcpy(dst, &v, 8); }
inline uint32_t DecodeFixed32(const char* p) { uint32_t v; std::memcpy(&v, p, 4); return v; }
inline uint64_t DecodeFixed64(const char* p) { uint64_t v; std::memcpy(&v, p, 8); return v; }

inline void PutFixed32(std::string* dst, uint32_t v) { char b[4]; EncodeFixed32(b, v); dst->append(b, 4); }
inline void PutFixed64(std::string* dst, uint64_t v) { char b[8]; EncodeFixed64(b, v); dst->append(b, 8); }

inline uint64_t ZigZagEncode(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
inline int64_t ZigZagDecode(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

constexpr int kMaxVarint64Bytes = 10;

// Bytes EncodeVarint64 writes for v.
inline size_t VarintLength(uint64_t v) {
  size_t len = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++len;
  }
  return len;
}

// Writes v at dst (room for kMaxVarint64Bytes); returns the byte after the last one written.
inline char* EncodeVarint64(char* dst, uint64_t v) {
  auto* p = reinterpret_cast<uint8_t*>(dst);
  while (v >= 0x80) {
    *p++ = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<uint8_t>(v);
  return reinterpret_cast<char*>(p);
}

inline void PutVarint64(std::string* dst, uint64_t v) {
  char buf[kMaxVarint64Bytes];
  dst->append(buf, EncodeVarint64(buf, v) - buf);
}
inline void PutVarint32(std::string* dst, uint32_t v) { PutVarint64(dst, v); }
inline void PutVarsint64(std::string* dst, int64_t v) { PutVarint64(dst, ZigZagEncode(v)); }

// Length-prefixed bytes: varint length, then the bytes.
inline void PutLengthPrefixed(std::string* dst, std::string_view s) {
  PutVarint64(dst, s.size());
  dst->append(s.data(), s.size());
}

// Decodes a varint at p (< limit). Returns the next byte, or nullptr if truncated or over-long.
inline const char* DecodeVarint64(const char* p, const char* limit, uint64_t* out) {
  uint64_t result = 0;
  for (int shift = 0; shift <= 63 && p < limit; shift += 7) {
    uint64_t byte = static_cast<uint8_t>(*p++);
    result |= (byte & 0x7f) << shift;
    if (byte < 0x80) {
      *out = result;
      return p;
    }
  }
  return nullptr;
}

// Cursor-style decoders over a string_view that is consumed as it is read.
inline bool GetVarint64(std::string_view* in, uint64_t* out) {
  const char* next = DecodeVarint64(in->data(), in->data() + in->size(), out);
  if (next == nullptr) return false;
  in->remove_prefix(next - in->data());
  return true;
}
inline bool GetVarint32(std::string_view* in, uint32_t* out) {
  uint64_t v;
  if (!GetVarint64(in, &v) || v > UINT32_MAX) return false;
  *out = static_cast<uint32_t>(v);
  return true;
}
inline bool GetVarsint64(std::string_view* in, int64_t* out) {
  uint64_t v;
  if (!GetVarint64(in, &v)) return false;
  *out = ZigZagDecode(v);
  return true;
}
inline bool GetFixed32(std::string_view* in, uint32_t* out) {
  if (in->size() < 4) return false;
  *out = DecodeFixed32(in->data());
  in->remove_prefix(4);
  return true;
}
inline bool GetFixed64(std::string_view* in, uint64_t* out) {
  if (in->size() < 8) return false;
  *out = DecodeFixed64(in->data());
  in->remove_prefix(8);
  return true;
}
inline bool GetLengthPrefixed(std::string_view* in, std::string_view* out) {
  uint64_t len;
  if (!GetVarint64(in, &len) || len > in->size()) return false;
  *out = in->substr(0, len);
  in->remove_prefix(len);
  return true;
}

}  // namespace gnomon

// Byte-scanning kernels for the line-protocol tokenizer: find the first of a few special bytes.
// SSE2 compares 16 bytes a step; loads never reach past `end`, so the kernels are safe at the end
// of a buffer (the tail is scanned bytewise).
#pragma once

#include <cstddef>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gnomon::server::internal {

// First byte in [p, end) equal to a or b; end when none.
inline const char* FindAny2(const char* p, const char* end, char a, char b) {
#if defined(__SSE2__)
  const __m128i va = _mm_set1_epi8(a);
  const __m128i vb = _mm_set1_epi8(b);
  while (end - p >= 16) {
    __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    unsigned mask = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb))));
    if (mask != 0) return p + __builtin_ctz(mask);
    p += 16;
  }
#endif
  for (; p < end; ++p) {
    if (*p == a || *p == b) return p;
  }
  return end;
}

// First byte in [p, end) equal to a, b, c or d; end when none.
inline const char* FindAny4(const char* p, const char* end, char a, char b, char c, char d) {
#if defined(__SSE2__)
  const __m128i va = _mm_set1_epi8(a);
  const __m128i vb = _mm_set1_epi8(b);
  const __m128i vc = _mm_set1_epi8(c);
  const __m128i vd = _mm_set1_epi8(d);
  while (end - p >= 16) {
    __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)),
                             _mm_or_si128(_mm_cmpeq_epi8(x, vc), _mm_cmpeq_epi8(x, vd)));
    unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(m));
    if (mask != 0) return p + __builtin_ctz(mask);
    p += 16;
  }
#endif
  for (; p < end; ++p) {
    if (*p == a || *p == b || *p == c || *p == d) return p;
  }
  return end;
}

// First byte in [p, end) equal to c; end when none.
inline const char* FindByte(const char* p, const char* end, char c) {
  const void* hit = std::memchr(p, c, static_cast<size_t>(end - p));
  return hit != nullptr ? static_cast<const char*>(hit) : end;
}

// True when the byte at `p` is preceded (within [begin, p)) by an odd number of backslashes, i.e.
// it is escaped.
inline bool IsEscaped(const char* begin, const char* p) {
  size_t n = 0;
  while (p > begin && p[-1] == '\\') {
    --p;
    ++n;
  }
  return (n & 1) != 0;
}

// The end of a line-protocol series key starting at `begin`: its first unescaped space, else `end`.
inline const char* SeriesKeyEnd(const char* begin, const char* end) {
  const char* q = begin;
  for (;;) {
    q = FindByte(q, end, ' ');
    if (q == end || !IsEscaped(begin, q)) return q;
    ++q;
  }
}

}  // namespace gnomon::server::internal

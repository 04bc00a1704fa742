// Hexadecimal digits, for the parsers that read them (URL escapes, token files).
#pragma once

namespace gnomon {

// The value of one hex digit (either case), or -1 if `c` is not one.
constexpr int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace gnomon

// The shortest text that reads back as the same double, fast.
//
// Byte for byte what std::to_chars(first, last, value) writes (the shortest round-trip digits,
// in fixed notation unless scientific is shorter), faster: the digits come from the Dragonbox
// algorithm (Junekey Jeon, libdragonbox) and are laid out with fixed-size copies. A large query
// answer is mostly doubles, and formatting them was a third of its CPU.
#pragma once

namespace gnomon {

// Most characters FormatDouble writes ("-2.2250738585072014e-308").
inline constexpr int kMaxDoubleChars = 24;
// Room FormatDouble needs at its destination: it writes there directly with fixed-size copies of
// up to 24 bytes (the last may start at byte 19), and bytes past the end it returns may be
// overwritten.
inline constexpr int kDoubleFormatRoom = 48;

// Writes `value` at p (room for kDoubleFormatRoom) and returns the end of its text. NaN and
// infinities are written as std::to_chars writes them ("nan", "inf", "-inf").
char* FormatDouble(char* p, double value);

}  // namespace gnomon

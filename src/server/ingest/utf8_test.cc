#include "src/server/ingest/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace gnomon::server::internal {
namespace {

TEST(Utf8Test, AcceptsWellFormed) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("plain ascii text that is longer than eight bytes"));
  EXPECT_TRUE(IsValidUtf8("\xC2\xB5s"));                  // U+00B5
  EXPECT_TRUE(IsValidUtf8("caf\xC3\xA9 \xE2\x82\xAC"));   // é €
  EXPECT_TRUE(IsValidUtf8("\xF0\x9F\x98\x80 emoji"));      // U+1F600
  EXPECT_TRUE(IsValidUtf8("\xF4\x8F\xBF\xBF"));            // U+10FFFF
  EXPECT_TRUE(IsValidUtf8(std::string("nul\0inside", 10)));
}

TEST(Utf8Test, RejectsMalformed) {
  EXPECT_FALSE(IsValidUtf8("\x80"));                   // lone continuation
  EXPECT_FALSE(IsValidUtf8("abc\xC3"));                // truncated
  EXPECT_FALSE(IsValidUtf8("\xC0\xAF"));               // overlong '/'
  EXPECT_FALSE(IsValidUtf8("\xE0\x80\xAF"));           // overlong 3-byte
  EXPECT_FALSE(IsValidUtf8("\xED\xA0\x80"));           // surrogate U+D800
  EXPECT_FALSE(IsValidUtf8("\xF4\x90\x80\x80"));       // above U+10FFFF
  EXPECT_FALSE(IsValidUtf8("\xF5\x80\x80\x80"));
  EXPECT_FALSE(IsValidUtf8("\xFF"));
  EXPECT_FALSE(IsValidUtf8("12345678\xC3("));          // bad continuation after an ASCII word
}

TEST(Utf8Test, TruncatesAtCharacterBoundaries) {
  EXPECT_EQ(TruncateUtf8("abcdef", 3), "abc");
  EXPECT_EQ(TruncateUtf8("ab", 3), "ab");
  // "a€" = 61 E2 82 AC: cutting at 2 or 3 bytes must drop the whole euro sign.
  EXPECT_EQ(TruncateUtf8("a\xE2\x82\xAC", 2), "a");
  EXPECT_EQ(TruncateUtf8("a\xE2\x82\xAC", 3), "a");
  EXPECT_EQ(TruncateUtf8("a\xE2\x82\xAC", 4), "a\xE2\x82\xAC");
  EXPECT_EQ(TruncateUtf8("a\xE2\x82\xAC" "b", 4), "a\xE2\x82\xAC");
}

}  // namespace
}  // namespace gnomon::server::internal

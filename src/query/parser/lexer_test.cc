#include "src/query/parser/lexer.h"

#include <gtest/gtest.h>

namespace gnomon::query {
namespace {

std::vector<Token> Lex(std::string_view sql) {
  auto tokens = Tokenize(sql);
  EXPECT_TRUE(tokens.ok()) << tokens.status().ToString();
  return tokens.ok() ? *tokens : std::vector<Token>{};
}

TEST(LexerTest, TokenKindsTextAndOffsets) {
  auto t = Lex("SELECT \"A\"\"b\", 'it''s', 12, 1.5, .5, 2e3, 10m, x::int <> != <= >= || ;");
  ASSERT_EQ(t.size(), 25u);
  EXPECT_EQ(t[0].type, TokenType::kIdentifier);
  EXPECT_EQ(t[0].text, "SELECT");
  EXPECT_EQ(t[1].type, TokenType::kQuotedIdentifier);
  EXPECT_EQ(t[1].text, "A\"b");
  EXPECT_EQ(t[1].offset, 7u);
  EXPECT_EQ(t[1].length, 6u);
  EXPECT_EQ(t[3].type, TokenType::kString);
  EXPECT_EQ(t[3].text, "it's");
  EXPECT_EQ(t[5].type, TokenType::kInteger);
  EXPECT_EQ(t[7].type, TokenType::kFloat);
  EXPECT_EQ(t[9].type, TokenType::kFloat);
  EXPECT_EQ(t[11].type, TokenType::kFloat);
  EXPECT_EQ(t[13].type, TokenType::kDuration);
  EXPECT_EQ(t[13].text, "10m");
  EXPECT_EQ(t[16].type, TokenType::kDoubleColon);
  EXPECT_EQ(t[18].type, TokenType::kNotEq);
  EXPECT_EQ(t[19].type, TokenType::kNotEq);
  EXPECT_EQ(t[20].type, TokenType::kLtEq);
  EXPECT_EQ(t[21].type, TokenType::kGtEq);
  EXPECT_EQ(t.back().type, TokenType::kEnd);
}

TEST(LexerTest, CommentsAndWhitespaceAreSkipped) {
  auto t = Lex("-- a\n/* b /* c */ d */\t\r\n x -- y");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].text, "x");
  EXPECT_EQ(t[1].offset, 32u);
}

TEST(LexerTest, MinusMinusIsAComment) {
  auto t = Lex("a--1\n-1");
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[1].type, TokenType::kMinus);
  EXPECT_EQ(t[2].text, "1");
}

TEST(LexerTest, RangeDotsAreNotFloats) {
  auto t = Lex("t.c 1. x");
  EXPECT_EQ(t[1].type, TokenType::kDot);
  EXPECT_EQ(t[3].type, TokenType::kFloat);
  EXPECT_EQ(t[3].text, "1.");
  EXPECT_FALSE(Tokenize("1.x").ok());  // trailing junk, as in PostgreSQL
}

TEST(LexerTest, LocateOffset) {
  const std::string sql = "ab\ncé\nxyz";
  EXPECT_EQ(LocateOffset(sql, 0).line, 1u);
  EXPECT_EQ(LocateOffset(sql, 4).column, 2u);
  EXPECT_EQ(LocateOffset(sql, 6).column, 3u);  // after the two-byte é
  EXPECT_EQ(LocateOffset(sql, 8).line, 3u);
  EXPECT_EQ(LocateOffset(sql, 8).column, 2u);
  EXPECT_EQ(LocateOffset(sql, 100).line, 3u);
}

TEST(LexerTest, ReservedKeywords) {
  EXPECT_TRUE(IsReservedKeyword("select"));
  EXPECT_TRUE(IsReservedKeyword("From"));
  EXPECT_FALSE(IsReservedKeyword("time"));
  EXPECT_FALSE(IsReservedKeyword("hour"));
  EXPECT_FALSE(IsReservedKeyword("name"));
  EXPECT_FALSE(IsReservedKeyword("fill"));
}

}  // namespace
}  // namespace gnomon::query

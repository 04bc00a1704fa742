#include "src/base/split.h"

#include <gtest/gtest.h>

namespace gnomon {
namespace {

TEST(SplitOnTest, KeepsEmptyPieces) {
  EXPECT_EQ(SplitOn("a,,b", ','), (std::vector<std::string_view>{"a", "", "b"}));
  EXPECT_EQ(SplitOn(",a,", ','), (std::vector<std::string_view>{"", "a", ""}));
  EXPECT_EQ(SplitOn("", ','), (std::vector<std::string_view>{""}));
  EXPECT_EQ(SplitOn("a\tb", ','), (std::vector<std::string_view>{"a\tb"}));
  EXPECT_EQ(SplitOn("a\tb", '\t'), (std::vector<std::string_view>{"a", "b"}));
}

}  // namespace
}  // namespace gnomon

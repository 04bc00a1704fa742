// Test helpers for src/index: a scratch directory per test and tag-set builders.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "src/index/series_key.h"
#include "src/port/env.h"

namespace gnomon::index {

// Views into `tags`, which must outlive the result.
inline std::vector<TagRef> Refs(const std::vector<std::pair<std::string, std::string>>& tags) {
  std::vector<TagRef> out;
  for (const auto& [k, v] : tags) out.push_back({k, v});
  return out;
}

class IndexTestDir : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string(info->test_suite_name()) + "_" + info->name();
    for (char& c : name) {
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    dir_ = (std::filesystem::temp_directory_path() /
            ("gnomon_index_" + std::to_string(::getpid()) + "_" + name))
               .string();
    ASSERT_TRUE(env_->RemoveDirRecursive(dir_).ok());
    ASSERT_TRUE(env_->CreateDirs(dir_).ok());
  }
  void TearDown() override { (void)env_->RemoveDirRecursive(dir_); }

  std::string Path(std::string_view name) const { return port::JoinPath(dir_, name); }

  port::Env* env_ = port::Env::Default();
  std::string dir_;
};

}  // namespace gnomon::index

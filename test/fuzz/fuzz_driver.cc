// Runs a libFuzzer-style target without libFuzzer (GCC builds, CI): every file of the seed corpus
// given as argv[1], then deterministic mutations of each (bit flips, truncations, splices, byte
// insertions). A crash, sanitizer report or failed check fails the test. With clang, build the
// same target with -fsanitize=fuzzer instead for coverage-guided fuzzing.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

void Run(const std::string& input) {
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size());
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> corpus;
  if (argc > 1 && std::filesystem::is_directory(argv[1])) {
    for (const auto& entry : std::filesystem::directory_iterator(argv[1])) {
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      corpus.push_back(ss.str());
    }
  }
  corpus.push_back("");
  std::mt19937_64 rng(20261130);
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 2000;
  size_t runs = 0;
  for (const std::string& seed : corpus) {
    Run(seed);
    ++runs;
    for (int i = 0; i < iterations; ++i) {
      std::string m = seed;
      switch (rng() % 5) {
        case 0:
          if (!m.empty()) m[rng() % m.size()] ^= static_cast<char>(1u << (rng() % 8));
          break;
        case 1:
          if (!m.empty()) m.resize(rng() % m.size());
          break;
        case 2:
          m.insert(m.empty() ? 0 : rng() % m.size(), 1, static_cast<char>(rng() % 256));
          break;
        case 3: {
          const std::string& other = corpus[rng() % corpus.size()];
          if (!other.empty() && !m.empty()) {
            size_t at = rng() % m.size();
            m = m.substr(0, at) + other.substr(rng() % other.size());
          }
          break;
        }
        default:
          for (int k = 0; k < 4 && !m.empty(); ++k) m[rng() % m.size()] = static_cast<char>(rng() % 256);
      }
      Run(m);
      ++runs;
    }
  }
  std::printf("fuzz driver: %zu inputs, no crash\n", runs);
  return 0;
}

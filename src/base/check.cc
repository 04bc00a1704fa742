#include "src/base/check.h"

#include <cstdio>
#include <cstdlib>

namespace gnomon::internal {

void CheckFailed(const char* file, int line, const char* condition, const char* message) {
  std::fprintf(stderr, "BUG: %s:%d: check failed: %s%s%s\n", file, line, condition,
               message ? ": " : "", message ? message : "");
  std::fflush(stderr);
  std::abort();
}

}  // namespace gnomon::internal

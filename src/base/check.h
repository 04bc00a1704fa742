// GNOMON_CHECK: for programmer errors only (broken invariants). Aborts loudly with a "BUG:" message.
// Bad input and bad bytes on disk must come back as a Status instead.
#pragma once

namespace gnomon::internal {
[[noreturn]] void CheckFailed(const char* file, int line, const char* condition, const char* message);
}  // namespace gnomon::internal

#define GNOMON_CHECK(cond)                                                  \
  do {                                                                      \
    if (__builtin_expect(!(cond), 0))                                       \
      ::gnomon::internal::CheckFailed(__FILE__, __LINE__, #cond, nullptr);  \
  } while (0)

#define GNOMON_CHECK_MSG(cond, msg)                                         \
  do {                                                                      \
    if (__builtin_expect(!(cond), 0))                                       \
      ::gnomon::internal::CheckFailed(__FILE__, __LINE__, #cond, (msg));    \
  } while (0)

#ifdef NDEBUG
#define GNOMON_DCHECK(cond) \
  do {                      \
  } while (0)
#else
#define GNOMON_DCHECK(cond) GNOMON_CHECK(cond)
#endif

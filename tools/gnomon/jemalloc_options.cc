// jemalloc's options, read when it starts (its `malloc_conf` symbol; MALLOC_CONF in the
// environment still overrides them).
//
// oversize_threshold:0 keeps requests of 8 MiB and more in the ordinary arenas. By default
// jemalloc serves them from a dedicated arena that gives their pages back at once, so each write
// request's batch (a 10,000-line request reserves ~8 MB) faulted in fresh zeroed pages: at ten
// million series that was 3.8 M page faults in a 30 M-row load and ~20% of the server's CPU.
// Kept in the arenas, they are reused within jemalloc's usual 10 s decay (docs/benchmarks.md).
extern "C" {
// NOLINTNEXTLINE: the name and type are jemalloc's interface.
const char* malloc_conf = "oversize_threshold:0";
}

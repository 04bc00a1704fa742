#include "src/bench/tsbs_reference.h"

#include <array>
#include <cstdlib>

#include "src/bench/time_parse.h"

namespace gnomon::bench {
namespace {

const std::array<TsbsReferenceSet, 3>& Sets() {
  static const std::array<TsbsReferenceSet, 3> sets = {{
      {"cpu-only-s100-1d", "cpu-only", 100, 864000, 297699448,
       "d287426a327c38a84ba495b533d8a7512a6a84bd271d5b6d85df6b8ad0f0d732",
       {{"cpu", 864000}}},
      {"devops-s10-1d", "devops", 10, 777600, 332580687,
       "7041b7ded457fdfb8e12ae579e99c5558fa48da51c67c9cdd7a7aa7bfb1f1ffb",
       {{"cpu", 86400}, {"disk", 86400}, {"diskio", 86400}, {"kernel", 86400}, {"mem", 86400},
        {"net", 86400}, {"nginx", 86400}, {"postgresl", 86400}, {"redis", 86400}}},
      {"iot-s100-1d", "iot", 100, 1554681, 370061171,
       "7108c25bec92cbd99f72dd43233e6125294e1a70a86d9ec05054030395e87bfb",
       {{"diagnostics", 777068}, {"readings", 777613}}},
  }};
  return sets;
}

}  // namespace

const TsbsReferenceSet* FindTsbsReference(std::string_view name) {
  for (const TsbsReferenceSet& s : Sets()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

DataGenConfig TsbsReferenceConfig(const TsbsReferenceSet& set) {
  DataGenConfig c;
  c.use_case = std::string(set.use_case);
  c.scale = set.scale;
  c.seed = 123;
  c.start_ns = *ParseRfc3339Nanos("2023-06-11T00:00:00Z");
  c.end_ns = *ParseRfc3339Nanos("2023-06-12T00:00:00Z");
  c.interval_ns = *ParseGoDuration("10s");
  return c;
}

std::string TsbsReferenceXzPath(const TsbsReferenceSet& set, std::string_view fallback_shared_dir) {
  const char* env = std::getenv("GNOMON_SHARED_DIR");
  std::string dir = env != nullptr && *env != '\0' ? std::string(env) : std::string(fallback_shared_dir);
  return dir + "/tsbs/" + std::string(set.name) + ".influx.xz";
}

}  // namespace gnomon::bench

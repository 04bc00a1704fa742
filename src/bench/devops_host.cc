#include "src/bench/devops_host.h"

#include <string>

namespace gnomon::bench {
namespace {

struct Region {
  std::string_view name;
  std::vector<std::string_view> datacenters;
};

const std::vector<Region>& Regions() {
  static const std::vector<Region> kRegions = {
      {"us-east-1", {"us-east-1a", "us-east-1b", "us-east-1c", "us-east-1e"}},
      {"us-west-1", {"us-west-1a", "us-west-1b"}},
      {"us-west-2", {"us-west-2a", "us-west-2b", "us-west-2c"}},
      {"eu-west-1", {"eu-west-1a", "eu-west-1b", "eu-west-1c"}},
      {"eu-central-1", {"eu-central-1a", "eu-central-1b"}},
      {"ap-southeast-1", {"ap-southeast-1a", "ap-southeast-1b"}},
      {"ap-southeast-2", {"ap-southeast-2a", "ap-southeast-2b"}},
      {"ap-northeast-1", {"ap-northeast-1a", "ap-northeast-1c"}},
      {"sa-east-1", {"sa-east-1a", "sa-east-1b", "sa-east-1c"}},
  };
  return kRegions;
}

constexpr std::string_view kTeams[] = {"SF", "NYC", "LON", "CHI"};
constexpr std::string_view kOses[] = {"Ubuntu16.10", "Ubuntu16.04LTS", "Ubuntu15.10"};
constexpr std::string_view kArches[] = {"x64", "x86"};
constexpr std::string_view kEnvironments[] = {"production", "staging", "test"};

template <size_t N>
std::string Choose(GoRand& rng, const std::string_view (&choices)[N]) {
  return std::string(choices[rng.Intn(N)]);
}

}  // namespace

const std::string_view kHostTagKeys[10] = {
    "hostname", "region", "datacenter", "rack", "os",
    "arch", "team", "service", "service_version", "service_environment"};

std::unique_ptr<Generator> NewDevopsHost(
    GoRand& rng, int64_t id, std::vector<std::unique_ptr<SimulatedMeasurement>> measurements) {
  // Draw order is Go's struct-literal order in TSBS's host constructor, not the row order.
  const Region& region = Regions()[rng.Intn(Regions().size())];
  std::string datacenter(region.datacenters[rng.Intn(region.datacenters.size())]);
  std::string rack = std::to_string(rng.Int63n(100));
  std::string arch = Choose(rng, kArches);
  std::string os = Choose(rng, kOses);
  std::string service = std::to_string(rng.Int63n(20));
  std::string service_version = std::to_string(rng.Int63n(2));
  std::string environment = Choose(rng, kEnvironments);
  std::string team = Choose(rng, kTeams);

  auto host = std::make_unique<Generator>();
  std::string values[10] = {"host_" + std::to_string(id), std::string(region.name), datacenter,
                            rack, os, arch, team, service, service_version, environment};
  host->tags.resize(10);
  for (int i = 0; i < 10; ++i) {
    host->tags[i].key = kHostTagKeys[i];
    host->tags[i].str = std::move(values[i]);
  }
  host->measurements = std::move(measurements);
  return host;
}

}  // namespace gnomon::bench

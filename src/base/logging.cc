#include "src/base/logging.h"

#include <spdlog/sinks/stdout_color_sinks.h>

#include <string>

namespace gnomon {

void InitLogging(std::string_view level) {
  auto logger = spdlog::stderr_color_mt("gnomon");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%fZ %l %v", spdlog::pattern_time_type::utc);
  spdlog::set_level(spdlog::level::from_str(std::string(level)));
}

}  // namespace gnomon

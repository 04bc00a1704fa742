// Structured logging through spdlog: "ts level [component] message key=value ...".
#pragma once

#include <spdlog/spdlog.h>

#include <string_view>

namespace gnomon {

// Sets the process-wide log level ("trace".."off") and pattern; call once at start-up.
void InitLogging(std::string_view level);

}  // namespace gnomon

#define GNOMON_LOG_DEBUG(...) SPDLOG_DEBUG(__VA_ARGS__)
#define GNOMON_LOG_INFO(...) SPDLOG_INFO(__VA_ARGS__)
#define GNOMON_LOG_WARN(...) SPDLOG_WARN(__VA_ARGS__)
#define GNOMON_LOG_ERROR(...) SPDLOG_ERROR(__VA_ARGS__)

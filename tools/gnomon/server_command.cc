// `gnomon server`: opens the storage engine and serves the HTTP API until SIGINT/SIGTERM.
// Shutdown order: stop accepting, finish in-flight requests, then Engine::Close() (which flushes).
#include <csignal>
#include <cstdio>
#include <memory>
#include <thread>

#include <pthread.h>
#include <sys/resource.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "src/base/logging.h"
#include "src/server/api/api_context.h"
#include "src/server/api/api_routes.h"
#include "src/server/api/sql_endpoint.h"
#include "src/server/auth/token_store.h"
#include "src/query/query_engine.h"
#include "src/server/config.h"
#include "src/server/http/http_server.h"
#include "src/server/http/router.h"
#include "src/storage/engine.h"
#include "tools/gnomon/commands.h"
#include "tools/gnomon/server_crash_testing.h"

#ifndef GNOMON_VERSION
#define GNOMON_VERSION "dev"
#endif

namespace gnomon::tools {
namespace {

// Flag values; a flag overrides the TOML file only when given on the command line.
struct ServerFlags {
  std::string config_file;
  server::ServerConfig values;
  std::string wal_sync = "fsync";
  // The text of each DurationSettings() flag, by position.
  std::vector<std::string> durations = std::vector<std::string>(server::DurationSettings().size());
  CrashTestingFlags crash_testing;
};

// Raises the soft open-file limit to the hard one: the default of 1,024 would cap connections
// (half of it, see --max-connections) and leave few descriptors for the engine's files.
void RaiseFileLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max) return;
  limit.rlim_cur = limit.rlim_max;
  if (setrlimit(RLIMIT_NOFILE, &limit) != 0) {
    GNOMON_LOG_WARN("[server] cannot raise the open-file limit: {}", std::strerror(errno));
  }
}

constexpr auto kShutdownGrace = std::chrono::seconds(30);

int RunServer(const server::ServerConfig& config, const CrashTestingFlags& crash_testing) {
  InitLogging(config.log_level);
  // Block the stop signals in every thread (threads inherit the mask, so this comes before the
  // engine and the server start theirs); this thread then waits for them with sigwait.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  sigset_t blocked = stop_signals;
  AddCrashTestingSignals(crash_testing, &blocked);
  pthread_sigmask(SIG_BLOCK, &blocked, nullptr);
  std::signal(SIGPIPE, SIG_IGN);  // a client hanging up must not kill the server
  RaiseFileLimit();

  std::string host;
  uint16_t port = 0;
  if (Status s = server::SplitHostPort(config.http_addr, &host, &port); !s.ok()) {
    GNOMON_LOG_ERROR("[server] {}", s.message());
    return 2;
  }
  storage::EngineOptions engine_options = server::ToEngineOptions(config);
  engine_options.env = port::Env::Default();
  auto crash_testing_state = StartCrashTesting(crash_testing, &engine_options.env);
  if (!crash_testing_state.ok()) {
    GNOMON_LOG_ERROR("[server] {}", crash_testing_state.status().message());
    return 2;
  }
  GNOMON_LOG_INFO("[server] opening data directory {}", config.data_dir);
  auto engine = storage::Engine::Open(engine_options);
  if (!engine.ok()) {
    GNOMON_LOG_ERROR("[server] cannot open {}: {}", config.data_dir, engine.status().ToString());
    return 1;
  }

  // The token file is read even without --auth, so that the admin endpoints can prepare tokens.
  auto tokens = server::auth::TokenStore::Open(engine_options.env, config.data_dir);
  if (!tokens.ok()) {
    GNOMON_LOG_ERROR("[server] cannot read the tokens of {}: {}", config.data_dir,
                     tokens.status().ToString());
    (void)(*engine)->Close();
    return 1;
  }
  if (config.auth && (*tokens)->size() == 0) {
    GNOMON_LOG_WARN("[server] --auth is on but {} has no tokens: every request but /ping and "
                    "/health will be refused; create one with `gnomon token create`",
                    config.data_dir);
  }

  server::http::HttpStats http_stats;
  server::api::ApiContext ctx;
  ctx.auth_required = config.auth;
  ctx.tokens = tokens->get();
  ctx.engine = engine->get();
  ctx.http_stats = &http_stats;
  ctx.version = GNOMON_VERSION;
  ctx.line_limits = server::ToLineLimits(config);
  auto query_engine = query::QueryEngine::Create(engine->get(), server::ToQueryEngineOptions(config));
  ctx.sql_handler = server::api::MakeSqlEndpoint(query_engine.get());
  ctx.query_engine = query_engine.get();
  server::http::Router router;
  server::api::RegisterApiRoutes(&ctx, &router);

  server::http::ServerOptions options = server::ToHttpOptions(config);
  options.default_headers = server::api::DefaultResponseHeaders(ctx);
  server::http::HttpServer http(options, &router, &http_stats);
  if (Status s = http.Start(); !s.ok()) {
    GNOMON_LOG_ERROR("[server] {}", s.message());
    (void)(*engine)->Close();
    return 1;
  }
  const char* scheme = http.tls() ? "https" : "http";
  GNOMON_LOG_INFO("[server] listening on {}://{} (io threads {}, worker threads {}, max body {} MiB)",
                  scheme, http.address(), config.threads == 0 ? "auto" : std::to_string(config.threads),
                  config.worker_threads == 0 ? "auto" : std::to_string(config.worker_threads),
                  config.max_body_mb);
  if (!http.loopback_only() && !config.auth) {
    GNOMON_LOG_WARN("[server] listening on {} beyond loopback WITHOUT authentication: anyone who "
                    "can reach this port can read, write and delete data (use --auth; see "
                    "docs/security.md)",
                    http.address());
  }
  GNOMON_LOG_INFO("[server] authentication {}", config.auth ? "on (tokens required)" : "off");
  // One machine-readable line on stdout, for scripts and tests that start the server on port 0.
  std::printf("gnomon listening on %s://%s\n", scheme, http.address().c_str());
  std::fflush(stdout);

  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  GNOMON_LOG_INFO("[server] {} received: stopping (finishing in-flight requests)",
                  signal_number == SIGINT ? "SIGINT" : "SIGTERM");
  // A second signal while draining means "now".
  std::thread([stop_signals] {
    int again = 0;
    sigwait(&stop_signals, &again);
    GNOMON_LOG_WARN("[server] second signal: exiting without a clean shutdown");
    std::_Exit(1);
  }).detach();

  http.Shutdown(kShutdownGrace);
  GNOMON_LOG_INFO("[server] HTTP stopped; closing the engine");
  Status closed = (*engine)->Close();
  if (!closed.ok()) {
    GNOMON_LOG_ERROR("[server] engine close failed: {}", closed.ToString());
    return 1;
  }
  GNOMON_LOG_INFO("[server] stopped cleanly");
  return 0;
}

}  // namespace

void RegisterServerCommand(CLI::App& app) {
  auto flags = std::make_shared<ServerFlags>();
  auto* cmd = app.add_subcommand("server", "Serve the HTTP API (InfluxDB-compatible writes, /query)");
  auto& v = flags->values;
  cmd->add_option("--config", flags->config_file, "TOML file with the same keys as these flags");
  auto* data_dir = cmd->add_option("--data-dir", v.data_dir, "Data directory (created if missing)");
  auto* addr = cmd->add_option("--http-addr", v.http_addr, "HOST:PORT to listen on (port 0: any)")
                   ->capture_default_str();
  auto* wal = cmd->add_option("--wal-sync", flags->wal_sync, "fsync (default) or none")
                  ->check(CLI::IsMember({"fsync", "none"}));
  auto* threads = cmd->add_option("--threads", v.threads, "I/O threads (0: one per core)");
  auto* workers = cmd->add_option("--worker-threads", v.worker_threads,
                                  "Request handler threads (0: max(4, 2 x cores))");
  auto* level = cmd->add_option("--log-level", v.log_level, "trace|debug|info|warn|error|off")
                    ->capture_default_str();
  // Sizes and durations, from their tables (config.h).
  std::vector<CLI::Option*> size_options;
  for (const server::SizeSetting& setting : server::SizeSettings()) {
    size_options.push_back(cmd->add_option(std::string("--") + setting.key, v.*(setting.member), setting.help)
                               ->capture_default_str());
  }
  std::vector<CLI::Option*> duration_options;
  for (size_t i = 0; i < server::DurationSettings().size(); ++i) {
    const server::DurationSetting& setting = server::DurationSettings()[i];
    duration_options.push_back(cmd->add_option(std::string("--") + setting.key, flags->durations[i], setting.help));
  }
  auto* auth = cmd->add_flag("--auth", v.auth,
                             "Require an API token on every endpoint but /ping and /health "
                             "(gnomon token create)");
  auto* tls_cert = cmd->add_option("--tls-cert", v.tls_cert, "PEM certificate chain: serve HTTPS (with --tls-key)");
  auto* tls_key = cmd->add_option("--tls-key", v.tls_key, "PEM private key of --tls-cert");
  AddCrashTestingFlags(cmd, &flags->crash_testing);

  cmd->callback([flags, data_dir, addr, wal, threads, workers, level, auth, tls_cert, tls_key, size_options,
                 duration_options] {
    server::ServerConfig config;
    if (!flags->config_file.empty()) {
      if (Status s = server::ApplyTomlFile(flags->config_file, &config); !s.ok()) {
        std::fprintf(stderr, "gnomon server: %s\n", s.message().c_str());
        return SetExitCode(2);
      }
    }
    const auto& v = flags->values;
    if (data_dir->count()) config.data_dir = v.data_dir;
    if (addr->count()) config.http_addr = v.http_addr;
    if (threads->count()) config.threads = v.threads;
    if (workers->count()) config.worker_threads = v.worker_threads;
    if (level->count()) config.log_level = v.log_level;
    if (wal->count()) config.wal_sync = *server::ParseWalSync(flags->wal_sync);
    if (auth->count()) config.auth = v.auth;
    if (tls_cert->count()) config.tls_cert = v.tls_cert;
    if (tls_key->count()) config.tls_key = v.tls_key;
    for (size_t i = 0; i < size_options.size(); ++i) {
      const auto member = server::SizeSettings()[i].member;
      if (size_options[i]->count()) config.*member = v.*member;
    }
    for (size_t i = 0; i < duration_options.size(); ++i) {
      if (!duration_options[i]->count()) continue;
      auto d = server::ParseDuration(flags->durations[i]);
      if (!d.ok()) {
        std::fprintf(stderr, "gnomon server: --%s: %s\n", server::DurationSettings()[i].key,
                     d.status().message().c_str());
        return SetExitCode(2);
      }
      config.*(server::DurationSettings()[i].member) = *d;
    }
    if (Status s = server::ValidateConfig(config); !s.ok()) {
      std::fprintf(stderr, "gnomon server: %s\n", s.message().c_str());
      return SetExitCode(2);
    }
    SetExitCode(RunServer(config, flags->crash_testing));
  });
}

}  // namespace gnomon::tools

#include <csignal>

#include "tools/commands.h"

namespace ataxx::cli {
namespace {

std::atomic<bool> g_stop{false};

void request_stop(int) { g_stop = true; }

}  // namespace

const std::atomic<bool>& install_stop_handlers() {
  std::signal(SIGINT, request_stop);
  std::signal(SIGTERM, request_stop);
  return g_stop;
}

}  // namespace ataxx::cli

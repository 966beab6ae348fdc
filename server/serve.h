// `ataxx-zero serve`: the browser view's routes over the web server, and the command's loop.
//
//   GET /                          the page (and its scripts and styles, compiled into the binary)
//   GET /api/run                   the run's summary; 404 without --run-dir
//   GET /api/run/table/NAME        metrics, ratings, gating, matches, selfplay
//   GET /api/run/log?lines=N       the log's end
//   GET /api/run/live              the newest self-play game, replayed for drawing
//   WS  /api/play                  one board to play on (server/play_session.h)
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "players/net_shelf.h"
#include "server/run_view.h"
#include "server/web_server.h"

namespace ataxx::server {

struct ServeOptions {
  std::string address = "127.0.0.1";
  int port = 8080;
  std::string run_dir;  // "" for none
  std::string model;    // "" for the shipped nets only
  std::string nets_dir;
  std::vector<std::string> host_names;  // DNS names the page is reached by, besides addresses and localhost
  int search_threads = 1;
  int server_threads = 2;
};

// The routes of the view; `run` and `nets` must outlive them.
Routes view_routes(const RunView* run, const NetShelf& nets, int search_threads);

// Serves until SIGINT or SIGTERM; says the address on stdout once listening.
void serve(const ServeOptions& options);

}  // namespace ataxx::server

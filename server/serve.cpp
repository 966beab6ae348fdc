#include "server/serve.h"

#include <fmt/format.h>
#include <pthread.h>

#include <csignal>
#include <iostream>
#include <limits>

#include "server/assets.h"
#include "server/game_view.h"
#include "server/play_session.h"
#include "util/text.h"

namespace ataxx::server {
namespace {

using nlohmann::json;

HttpReply json_reply(const json& body, int status = 200) { return {status, "application/json", text_of(body)}; }
HttpReply not_found(std::string_view what) { return json_reply({{"error", std::string(what) + " not found"}}, 404); }

// The value of key in a query string ("lines=50&x=1"), or "".
std::string_view query_value(std::string_view query, std::string_view key) {
  while (!query.empty()) {
    const std::size_t end = query.find('&');
    const std::string_view pair = query.substr(0, end);
    if (pair.size() > key.size() && pair.substr(0, key.size()) == key && pair[key.size()] == '=')
      return pair.substr(key.size() + 1);
    if (end == std::string_view::npos) break;
    query.remove_prefix(end + 1);
  }
  return {};
}

json live_json(const RunView& run) {
  json live = run.live_game();
  if (live.is_null()) return live;
  const auto moves = live["moves"].get<std::vector<std::string>>();
  const std::string game = live["game"], fen = live["start_fen"];
  const RuleSettings rules{live["rules"]["halfmove_limit"].get<int>(), live["rules"]["repetition_limit"].get<int>()};
  json replay = with_game(game, [&]<typename G>() {
    return replay_json<G>(G::from_fen(fen, game), moves, G::rules_from(rules));
  });
  replay["model"] = live["model"];
  replay["age_seconds"] = live["age_seconds"];
  replay["game"] = game;
  return replay;
}

json chunk_game_json(const RunView& run, std::string_view name, int index) {
  const json game = run.chunk_game(name, index);
  const std::string played = game["game"];  // the game's or its variant's name
  json replay = with_game(played, [&]<typename G>() {
    std::vector<typename G::Position> positions;
    for (const auto& fen : game["fens"]) positions.push_back(G::from_fen(fen.get<std::string>(), played));
    return positions_json<G>(positions, game["searched"]);
  });
  replay["game"] = game["game"];
  replay["games"] = game["games"];
  return replay;
}

HttpReply run_api(const RunView* run, std::string_view path, std::string_view query) {
  if (!run) return not_found("no run: start serve with --run-dir; the run");
  if (path == "/api/run") return json_reply(run->summary());
  if (path == "/api/run/log") {
    const auto lines = parse_integer(query_value(query, "lines"));
    return json_reply(run->log_tail(lines ? static_cast<int>(std::clamp<long long>(*lines, 0, 1000)) : 100));
  }
  if (path == "/api/run/live") {
    try {
      return json_reply(live_json(*run));
    } catch (const std::exception& e) {  // a live file being rewritten, or of a newer format
      return json_reply({{"error", e.what()}}, 503);
    }
  }
  if (path == "/api/run/chunks") return json_reply(run->chunks(50));
  if (path == "/api/run/chunk") {
    const std::string_view game = query_value(query, "game");
    const auto index = game.empty() ? 0 : parse_integer(game);
    if (!index || *index < 0 || *index > std::numeric_limits<int>::max())
      return json_reply({{"error", "game= is a game's place in the chunk from 0, not '" + std::string(game) + "'"}},
                        400);
    try {
      return json_reply(chunk_game_json(*run, query_value(query, "name"), static_cast<int>(*index)));
    } catch (const std::exception& e) {  // not a chunk of the run, a game it does not hold, a damaged chunk
      return json_reply({{"error", e.what()}}, 404);
    }
  }
  constexpr std::string_view kTable = "/api/run/table/";
  if (path.starts_with(kTable))
    if (auto table = run->table(path.substr(kTable.size()))) return json_reply(*table);
  return not_found(fmt::format("'{}'", path));
}

}  // namespace

Routes view_routes(const RunView* run, const NetShelf& nets, int search_threads) {
  Routes routes;
  routes.get = [run](std::string_view path, std::string_view query) -> HttpReply {
    if (path.starts_with("/api/")) return run_api(run, path, query);
    if (const Asset* asset = find_asset(path))
      return {200, std::string(asset->content_type), std::string(asset->body)};
    return {404, "text/plain", "not found\n"};
  };
  routes.socket = [&nets, search_threads](std::string_view path, SendText send) -> std::unique_ptr<SocketHandler> {
    if (path != "/api/play") return nullptr;
    return std::make_unique<PlaySession>(PlayOptions{&nets, search_threads}, std::move(send));
  };
  return routes;
}

void serve(const ServeOptions& options) {
  const NetShelf nets(options.model, options.nets_dir);
  std::optional<RunView> run;
  if (!options.run_dir.empty()) run.emplace(options.run_dir);
  // The signals are taken by sigwait below, never by a thread of the server.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  WebServerLimits limits;
  limits.host_names = options.host_names;
  WebServer server(options.address, options.port, view_routes(run ? &*run : nullptr, nets, options.search_threads),
                   limits);
  server.start(options.server_threads);
  std::cout << "serving http://" << (options.address.find(':') != std::string::npos ? "[" + options.address + "]" : options.address)
            << ":" << server.port() << "/" << std::endl;
  int signal = 0;
  sigwait(&signals, &signal);
  std::cout << "stopping" << std::endl;
  server.stop();
  server.wait();
}

}  // namespace ataxx::server

#include <cstdio>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <utility>

#include "players/net_shelf.h"
#include "players/network_player.h"
#include "players/player.h"
#include "tools/commands.h"
#include "tools/variant_option.h"
#include "util/text.h"

namespace ataxx::cli {
namespace {

template <typename G>
std::string legal_list(const typename G::Position& pos) {
  typename G::MoveList moves;
  pos.generate_moves(moves);
  std::string text;
  for (const typename G::Move m : moves) text.append(" ").append(G::move_text(m, pos));
  return text;
}

// The game back at the human's turn before their last move (the engine's replies after it taken
// back too), replayed from its start; none when they have made no move.
template <typename G>
std::optional<typename G::Game> taken_back(const typename G::Game& game, Color human) {
  typename G::Game replay(game.start(), game.rules());
  std::optional<typename G::Game> back;  // the game before the human's latest move so far
  for (const auto& move : game.moves()) {
    if (replay.position().side_to_move() == human) back = replay;
    replay.play(move);
  }
  return back;
}

// The game in the terminal, for either game: the human's moves from standard input, the
// engine's from its player; `human` is x (who moves first), o or none; `commands` says what the
// human may type, and is said again at `help`.
template <typename G>
void play_in_terminal(typename G::Game game, BasicPlayer<G>& engine, const std::string& human, int movetime_ms,
                      const std::string& commands) {
  MoveLimits limits;
  limits.movetime_ms = movetime_ms;
  engine.set_limits(limits);
  const Color human_side = human == "o" ? Color::kO : Color::kX;
  while (!game.outcome().is_over()) {
    std::fputs(G::View::diagram(game.position()).c_str(), stdout);
    const Color side = game.position().side_to_move();
    const bool human_turn = human != "none" && side == human_side;
    if (!human_turn) {
      const typename G::Move move = engine.choose_move(game);
      const BasicMoveReport<G> report = engine.last_report();
      const std::string eval = report.mate
                                   ? "mate " + std::to_string(*report.mate)
                                   : (report.score_cp >= 0 ? "+" : "") + std::to_string(report.score_cp) + " cp";
      std::printf("engine plays %s   eval %s, %llu nodes, %.2f s\n", G::move_text(move, game.position()).c_str(),
                  eval.c_str(), static_cast<unsigned long long>(report.nodes), report.seconds);
      game.play(move);
      continue;
    }
    std::printf("your move: ");
    std::fflush(stdout);
    std::string read;
    if (!std::getline(std::cin, read)) return;
    const std::string line(trim(read));
    if (line == "quit") return;
    if (line.empty()) continue;
    if (line == "help") {
      std::printf("%s\nlegal moves:%s\n", commands.c_str(), legal_list<G>(game.position()).c_str());
      continue;
    }
    if (line == "undo") {
      if (auto back = taken_back<G>(game, human_side))
        game = std::move(*back);
      else
        std::printf("no move of yours to take back\n");
      continue;
    }
    try {
      game.play(line);
    } catch (const std::invalid_argument& e) {
      std::printf("%s\nlegal moves:%s\n", e.what(), legal_list<G>(game.position()).c_str());
    }
  }
  std::fputs(G::View::diagram(game.position()).c_str(), stdout);
  const Outcome outcome = game.outcome();
  std::printf("game over: %s (%s)\n", to_string(outcome.result).c_str(), to_string(outcome.reason).c_str());
}

// The engine side and its name: the model, else the engine spec, else `fallback`. A model's path
// never goes through a spec: a ',' or '=' in it would change its meaning.
template <typename G>
std::pair<std::unique_ptr<BasicPlayer<G>>, std::string> terminal_engine(const std::string& model,
                                                                        const std::string& engine, int visits,
                                                                        const std::string& fallback) {
  if (!model.empty()) {
    BasicNetworkPlayerOptions<G> network;
    network.model = model;
    network.search.visits = visits;
    return {make_network_player<G>(network), "the model " + model};
  }
  const std::string spec = engine.empty() ? fallback : engine;
  return {make_player<G>(spec), spec};
}

// The user's model, else the first shipped net that plays the position ("": none).
template <typename G>
std::string shipped_model(const std::string& model, const typename G::Position& pos) {
  if (!model.empty()) return model;
  const NetShelf nets("", shipped_nets_dir());
  const NetShelf::Net* net = nets.net_for(pos);
  return net ? net->path : "";
}

}  // namespace

void add_play_command(CLI::App& app) {
  struct Options {
    std::string model;
    std::string engine;
    std::string human = "x";
    std::string fen;  // "": the game's start
    int visits = 400;
    int movetime_ms = 0;
    std::string variant;
  };
  auto options = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("play", "Play in the terminal against a model or a baseline (or watch)");
  auto* model =
      cmd->add_option(
             "--model", options->model,
             "Play file for the engine side (default: the shipped net that plays the board: " ATAXX_SHIPPED_NETS_WHERE
             ")")
          ->check(model_file_check());
  cmd->add_option("--engine", options->engine,
                  "Engine player spec instead of a model (default where no net plays the board: alphabeta:depth=4)")
      ->excludes(model);
  cmd->add_option("--visits", options->visits, "Visits per engine move with a model")->check(CLI::Range(1, 10'000'000));
  cmd->add_option("--movetime", options->movetime_ms, "Milliseconds per engine move, in place of its visits or depth")
      ->check(CLI::Range(1, 3'600'000))
      ->default_str("");  // not given: the engine's visits or depth
  cmd->add_option("--human", options->human, "Your side: x, o, or none to watch")->check(CLI::IsMember({"x", "o", "none"}));
  cmd->add_option("--fen", options->fen, fen_help());
  add_variant_option(*cmd, options->variant, "Play this variant, from its start or a --fen of its game");
  cmd->callback([options, &app] {
    const std::string program = app.get_name();
    with_start_position(options->fen, options->variant, [&]<typename G>(const typename G::Position& start) {
      const typename G::Game game(start);
      const std::string model = options->engine.empty() ? shipped_model<G>(options->model, start) : "";
      const std::string fallback = "alphabeta:depth=" + std::to_string(G::Play::kTerminalDepth);
      auto [engine, name] = terminal_engine<G>(model, options->engine, options->visits, fallback);
      ready_to_play(*engine, {start}, std::random_device{}());  // a net of another board refused now
      const std::string commands =
          "Moves: " + G::move_help(start) + "; undo to take back your last move, help for this, quit to stop.";
      // The first mover is x on the command line whatever the game calls it.
      const std::string x_is = G::kSideNames[0] == "x" ? "" : " (x is " + std::string(G::kSideNames[0]) + ")";
      if (options->human == "none")
        std::printf("%s play: %s; you watch %s play itself.\n", program.c_str(), std::string(G::kTitle).c_str(),
                    name.c_str());
      else
        std::printf("%s play: %s; you are %s%s against %s. %s\n", program.c_str(), std::string(G::kTitle).c_str(),
                    options->human.c_str(), x_is.c_str(), name.c_str(), commands.c_str());
      play_in_terminal<G>(game, *engine, options->human, options->movetime_ms, commands);
    });
  });
}

}  // namespace ataxx::cli

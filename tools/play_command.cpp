#include <cstdio>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <utility>

#include "games/ataxx/game.h"
#include "players/net_shelf.h"
#include "players/network_player.h"
#include "players/player.h"
#include "games/schataxx/game.h"
#include "tools/commands.h"
#include "tools/variant_option.h"
#include "util/text.h"

namespace ataxx::cli {
namespace {

char cell_char(const Position& pos, Square sq) {
  const Bitboard b = bit(sq);
  return (pos.pieces(Color::kX) & b) ? 'x' : (pos.pieces(Color::kO) & b) ? 'o' : (pos.gaps() & b) ? '#' : '.';
}

// Rows from the top. A square board is a grid; on the hexagon each row is shifted half a cell per
// row from the middle, so that a cell's six neighbours sit around it on the screen.
void draw(const Position& pos) {
  const Board& board = pos.board();
  std::printf("\n");
  for (int row = board.size - 1; row >= 0; --row) {
    std::string line(2 * board.size + 8, ' ');
    int first = -1, last = -1;
    for (int column = 0; column < board.size; ++column) {
      const auto sq = board.find(column, row);
      if (!sq) continue;
      if (first < 0) first = column;
      last = column;
      line[board.hexagonal ? 2 * column - row + 4 : 2 * column] = cell_char(pos, *sq);
    }
    line.erase(line.find_last_not_of(' ') + 1);
    if (board.hexagonal) line += std::string(2 * board.size + 2 - line.size(), ' ') + "  " + static_cast<char>('a' + first) +
                                 std::to_string(row + 1) + "-" + static_cast<char>('a' + last) + std::to_string(row + 1);
    std::printf("%d   %s\n", row + 1, line.c_str());
  }
  if (!board.hexagonal) {
    std::string files;
    for (int column = 0; column < board.size; ++column) files += std::string(1, static_cast<char>('a' + column)) + " ";
    std::printf("    %s\n", files.c_str());
  }
  std::printf("x %d  o %d   %s to move   %s\n", popcount(pos.pieces(Color::kX)), popcount(pos.pieces(Color::kO)),
              pos.side_to_move() == Color::kX ? "x" : "o", pos.fen().c_str());
}

template <typename G>
std::string legal_list(const typename G::Position& pos) {
  typename G::MoveList moves;
  pos.generate_moves(moves);
  std::string text;
  for (const typename G::Move m : moves) text.append(" ").append(G::move_text(m, pos));
  return text;
}

// Schataxx: the board with White's men in capitals, then both stocks and areas.
void draw(const schataxx::Position& pos) {
  std::printf("\n");
  for (int rank = 7; rank >= 0; --rank) {
    std::string line;
    for (int file = 0; file < 8; ++file) {
      const int sq = rank * 8 + file;
      const schataxx::PieceType type = pos.type_on(sq);
      const char letter = type == schataxx::PieceType::kNone ? '.' : schataxx::piece_letter(type);
      line += (pos.men(schataxx::kBlack) & bit(sq)) ? static_cast<char>(letter - 'A' + 'a') : letter;
      line += ' ';
    }
    std::printf("%d   %s\n", rank + 1, line.c_str());
  }
  std::printf("    a b c d e f g h\n");
  for (const Color side : {schataxx::kWhite, schataxx::kBlack}) {
    std::string stock;
    for (int i = 0; i < schataxx::kStockTypes; ++i) {
      const schataxx::PieceType type = schataxx::stock_type(i);
      const int count = pos.stock(side, type);
      if (count == schataxx::Position::kUnlimitedSoldiers) stock += std::string(" ") + schataxx::piece_letter(type) + "x*";
      else if (count > 0) stock += std::string(" ") + schataxx::piece_letter(type) + (count > 1 ? "x" + std::to_string(count) : "");
    }
    std::printf("%s: area %d, stock%s\n", side == schataxx::kWhite ? "White" : "Black", pos.area(side),
                stock.empty() ? " empty" : stock.c_str());
  }
  std::printf("%s to move   %s\n", pos.side_to_move() == schataxx::kWhite ? "White" : "Black", pos.fen().c_str());
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
    draw(game.position());
    const Color side = game.position().side_to_move();
    const bool human_turn = human != "none" && side == human_side;
    if (!human_turn) {
      const typename G::Move move = engine.choose_move(game);
      const BasicMoveReport<G> report = engine.last_report();
      std::printf("engine plays %s   eval %+d cp, %llu nodes, %.2f s\n", G::move_text(move, game.position()).c_str(),
                  report.score_cp, static_cast<unsigned long long>(report.nodes), report.seconds);
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
  draw(game.position());
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
template <typename P>
std::string shipped_model(const std::string& model, const P& pos) {
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
    std::string fen{Position::kStartFen};
    int visits = 400;
    int movetime_ms = 0;
    std::string variant{schataxx::variant_name(schataxx::Variant::kStandard)};
  };
  auto options = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("play", "Play in the terminal against a model or a baseline (or watch)");
  auto* model = cmd->add_option("--model", options->model,
                                "Play file for the engine side (default: the net of nets/ that plays the board)")
                    ->check(CLI::ExistingFile);
  cmd->add_option("--engine", options->engine,
                  "Engine player spec instead of a model (default where no net plays the board: alphabeta:depth=4)")
      ->excludes(model);
  cmd->add_option("--visits", options->visits, "Visits per engine move with a model")->check(CLI::Range(1, 10'000'000));
  cmd->add_option("--movetime", options->movetime_ms, "Milliseconds per engine move, in place of its visits or depth")
      ->check(CLI::Range(1, 3'600'000));
  cmd->add_option("--human", options->human, "Your side: x, o, or none to watch")->check(CLI::IsMember({"x", "o", "none"}));
  auto* fen = cmd->add_option(
      "--fen", options->fen,
      "Start position, on any board (e.g. the hexagon's " + std::string(board(BoardId::kHexagon).start_fen) +
          "); stocks in brackets make it Schataxx (" + std::string(schataxx::Position::kStartFen) + ")");
  auto* variant = add_variant_option(*cmd, options->variant,
                                     "Play Schataxx in this variant, from its start or a Schataxx --fen: schataxx, "
                                     "schataxx-balanced or schataxx-unlimited");
  cmd->callback([options, fen, variant] {
    if (settle_schataxx_fen(options->fen, fen->count() > 0, variant->count() > 0)) {
      const schataxx::Game game(schataxx::Position::from_fen(options->fen, schataxx::parse_variant(options->variant)));
      const std::string model = options->engine.empty() ? shipped_model(options->model, game.position()) : "";
      auto [engine, name] = terminal_engine<SchataxxGame>(model, options->engine, options->visits, "alphabeta:depth=2");
      engine->new_game(std::random_device{}());
      const std::string commands =
          "Moves: a1b2, drops Q@g8, 0000 (pass); undo to take back your last move, help for this, quit to stop.";
      std::printf("ataxx-zero play: Schataxx; you are %s (x is White) against %s. %s\n", options->human.c_str(),
                  name.c_str(), commands.c_str());
      return play_in_terminal<SchataxxGame>(game, *engine, options->human, options->movetime_ms, commands);
    }
    const Game game(Position::from_fen(options->fen));
    const std::string model = options->engine.empty() ? shipped_model(options->model, game.position()) : "";
    auto [engine, name] = terminal_engine<AtaxxGame>(model, options->engine, options->visits, "alphabeta:depth=4");
    engine->new_game(std::random_device{}());
    const std::string commands =
        "Moves: g2 (clone), a7c5 (jump), 0000 (pass); undo to take back your last move, help for this, quit to stop.";
    std::printf("ataxx-zero play: you are %s against %s. %s\n", options->human.c_str(), name.c_str(), commands.c_str());
    play_in_terminal<AtaxxGame>(game, *engine, options->human, options->movetime_ms, commands);
  });
}

}  // namespace ataxx::cli

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>

#include "match/match.h"
#include "match/openings.h"
#include "players/uai_player.h"
#include "tools/commands.h"
#include "tools/output_option.h"
#include "tools/variant_option.h"
#include "util/parallel.h"

namespace ataxx::cli {
namespace {

struct MatchOptions {
  std::string player1;  // specs
  std::string player2;
  int games = 100;
  int concurrency = 1;
  std::uint64_t seed = 1;
  std::string variant;  // "": the first game; else a variant of a game without boards
  std::string board;    // "": the default board, or the openings file's; else a board to play on
  std::string openings_path;
  int opening_start = 1;  // the match's first opening, from 1
  std::string pgn_path;
  std::string sprt;
  std::string time_control;
  int time_margin_ms = 0;
  bool quiet = false;
};

const char* verdict_text(SprtVerdict verdict) {
  switch (verdict) {
    case SprtVerdict::kAcceptH0: return "H0 was accepted";
    case SprtVerdict::kAcceptH1: return "H1 was accepted";
    case SprtVerdict::kContinue: return "no decision";
  }
  return "?";
}

// The score line of cutechess, which tools read (tools/ab_training.sh).
void print_score(const std::string& p1, const std::string& p2, const MatchScore& score) {
  std::printf("Score of %s vs %s: %d - %d - %d  [%.3f] %d\n", p1.c_str(), p2.c_str(), score.wins, score.losses,
              score.draws, score.score(), score.games());
}

// A pondering engine thinks on its opponent's time on a core of its own: a game with one keeps two
// cores busy (one each, the engines searching on one thread). Where the games at once need more
// than there are, the engines may take time from each other.
void warn_if_pondering_lacks_cores(const MatchOptions& options) {
  if (!uai_spec_ponders(options.player1) && !uai_spec_ponders(options.player2)) return;
  const int games = std::min(options.concurrency, options.games), cores = usable_cores();
  if (2 * games <= cores) return;
  const std::string fits =
      cores >= 2 ? "--concurrency " + std::to_string(cores / 2) + " fits" : "pondering needs a second core";
  std::fprintf(stderr,
               "warning: a pondering player keeps two cores busy in each game: %d game%s at once need%s %d cores, "
               "and this match may run on %d; the engines may take time from each other (%s)\n",
               games, games == 1 ? "" : "s", games == 1 ? "s" : "", 2 * games, cores, fits.c_str());
}

// Plays the match of either game; after_game writes what a game leaves behind (its PGN).
template <typename G>
void play_match(const MatchOptions& options, std::vector<typename G::Position> openings,
                const std::function<void(const BasicGameRecord<G>&)>& after_game) {
  BasicMatchConfig<G> config;
  config.player1 = options.player1;
  config.player2 = options.player2;
  config.games = options.games;
  config.concurrency = options.concurrency;
  config.seed = options.seed;
  if (options.opening_start > static_cast<int>(openings.size()))
    throw std::runtime_error("--opening-start " + std::to_string(options.opening_start) + ": there are only " +
                             std::to_string(openings.size()) + " openings");
  // As cutechess-cli's start=N: on from opening N, and after the last from the first again.
  std::rotate(openings.begin(), openings.begin() + (options.opening_start - 1), openings.end());
  config.openings = std::move(openings);
  if (!options.sprt.empty()) config.sprt = parse_sprt(options.sprt);
  if (!options.time_control.empty()) {
    config.time_control = parse_time_control(options.time_control);
    config.time_control->margin_ms = options.time_margin_ms;
  }
  // A stop (SIGINT, SIGTERM) ends the match at once: a player thinking answers now (an engine is
  // sent `stop`), the engines are told to quit and ended (some never exit when their input
  // closes), and the score so far is printed.
  const std::atomic<bool>& stop = install_stop_handlers();
  config.interrupt = &stop;
  const std::string& p1 = options.player1;
  const std::string& p2 = options.player2;
  const BasicMatchResult<G> result = run_match(config, [&](const BasicGameRecord<G>& game, const MatchScore& score) {
    if (!options.quiet) {
      std::printf("Finished game %d (%s vs %s): %s {%s}\n", game.index + 1, game.player1_is_x ? p1.c_str() : p2.c_str(),
                  game.player1_is_x ? p2.c_str() : p1.c_str(), to_string(game.outcome.result).c_str(),
                  game.failure.empty() ? to_string(game.outcome.reason).c_str() : game.failure.c_str());
      print_score(p1, p2, score);
      std::fflush(stdout);
    }
    if (!game.failure.empty()) std::fprintf(stderr, "game %d: %s\n", game.index + 1, game.failure.c_str());
    if (after_game) after_game(game);
  });
  const MatchScore& score = result.score;
  if (result.stopped) std::printf("Stopped after %d of %d games.\n", score.games(), config.games);
  print_score(p1, p2, score);
  if (score.games() == 0) return;  // no Elo, no colours, no speed of games never played
  std::printf("Elo difference: %s\n", to_string(estimate_elo(score)).c_str());
  MatchScore as_x, as_o;
  for (const BasicGameRecord<G>& game : result.games) (game.player1_is_x ? as_x : as_o).add(game.player1_score());
  const auto colour = [](std::string_view side, const MatchScore& s) {
    return s.games() == 0 ? fmt::format("as {} no game", side)
                          : fmt::format("as {} {} - {} - {} [{:.3f}]", side, s.wins, s.losses, s.draws, s.score());
  };
  std::printf("By colour, %s: %s, %s\n", p1.c_str(), colour(G::kSideNames[0], as_x).c_str(),
              colour(G::kSideNames[1], as_o).c_str());
  for (const auto& [player, is_player1] : {std::pair{&p1, true}, std::pair{&p2, false}})
    if (const std::optional<double> speed = nodes_per_second(result, is_player1))
      std::printf("Speed of %s: %.0f nodes/s\n", player->c_str(), *speed);
  if (config.sprt) {
    std::printf("SPRT: llr %.3g, lbound %.3g, ubound %.3g - %s\n", result.llr,
                sprt_lower_bound(*config.sprt), sprt_upper_bound(*config.sprt), verdict_text(result.verdict));
  }
}

// Throws where games appended to --pgn would spoil it: the match's openings file, or a file of
// something other than PGN games (a net, say). Returns whether it ends in the middle of a line.
bool check_pgn_file(const MatchOptions& options) {
  namespace fs = std::filesystem;
  const std::string& path = options.pgn_path;
  std::error_code error;
  if (!options.openings_path.empty() && fs::equivalent(path, options.openings_path, error))
    throw std::runtime_error("--pgn '" + path + "' is the match's openings file: give another");
  // New, or a device: /dev/stdout is checked as what the output goes to (a log, a terminal).
  if (path.starts_with("/dev/") || path.starts_with("/proc/") || !fs::is_regular_file(path, error)) return false;
  std::ifstream in(path, std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  if (head.starts_with("\xEF\xBB\xBF")) head.erase(0, 3);  // a byte order mark
  const std::size_t first = head.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return false;
  if (std::string_view("[{;%").find(head[first]) == std::string_view::npos || head.find('\0') != std::string::npos)
    throw std::runtime_error("--pgn '" + path +
                             "' holds something other than PGN games: give a new file, or one of games to add to");
  in.clear();
  in.seekg(-1, std::ios::end);
  return in.get() != '\n';
}

// The games of either game as PGN, appended to options.pgn_path (nothing without it). A game that
// cannot be written ends the match: the games before it are in the file.
template <typename G>
std::function<void(const BasicGameRecord<G>&)> pgn_writer(const MatchOptions& options) {
  if (options.pgn_path.empty()) return {};
  auto mid_line = std::make_shared<bool>(check_pgn_file(options));  // ended by the first game, not before
  auto pgn = std::make_shared<std::ofstream>(options.pgn_path, std::ios::app);
  if (!*pgn) throw std::runtime_error("cannot write PGN file '" + options.pgn_path + "': " + std::strerror(errno));
  std::optional<TimeControl> time_control;
  if (!options.time_control.empty()) time_control = parse_time_control(options.time_control);
  return [&options, pgn, mid_line, time_control](const BasicGameRecord<G>& game) {
    if (std::exchange(*mid_line, false)) *pgn << "\n\n";
    if (!(*pgn << to_pgn(game, options.player1, options.player2, "ataxx-zero match", time_control) << std::flush))
      throw std::runtime_error("cannot write game " + std::to_string(game.index + 1) + " to PGN file '" +
                               options.pgn_path + "': " + std::strerror(errno));
  };
}

// The openings of the game of --variant (else the first game): a game with boards on the board
// named ("": a file's positions on any of its boards, else the default board's suite), another
// the variant's suite or a file's positions in the variant.
// A match that ends in an error before any game leaves no empty PGN file of its own making.
void run(const MatchOptions& options) {
  warn_if_pondering_lacks_cores(options);
  const std::string game = options.variant.empty() ? std::string(Games::First::kName) : options.variant;
  std::error_code unknown;  // a file whose presence cannot be told is left as it is
  const bool pgn_made_here =
      !options.pgn_path.empty() && !std::filesystem::exists(options.pgn_path, unknown) && !unknown;
  try {
    with_game(game, [&]<typename G>() {
      if (!G::kHasBoards && !options.board.empty())
        throw std::runtime_error("--board: " + std::string(G::kTitle) + " is played on one board");
      const std::string start = G::kHasBoards ? options.board : game;
      play_match<G>(options, G::openings_of(start, options.openings_path), pgn_writer<G>(options));
    });
  } catch (...) {
    std::error_code ignored;
    if (pgn_made_here && std::filesystem::file_size(options.pgn_path, ignored) == 0)
      std::filesystem::remove(options.pgn_path, ignored);
    throw;
  }
}

}  // namespace

void add_match_command(CLI::App& app) {
  auto options = std::make_shared<MatchOptions>();
  auto* cmd = app.add_subcommand("match", "Play a match between two players and report score, Elo and SPRT");
  cmd->add_option("--p1", options->player1, "First player spec (random, greedy, alphabeta:depth=3, mcts:visits=800, ...)")
      ->required();
  cmd->add_option("--p2", options->player2, "Second player spec")->required();
  cmd->add_option("--games", options->games, "Number of games (each opening is played twice)")
      ->check(CLI::Range(1, 10'000'000));
  cmd->add_option("--openings", options->openings_path,
                  "Openings file, one FEN per line (default: 2 plies from the start)")
      ->check(non_empty("FILE"));
  cmd->add_option("--opening-start", options->opening_start,
                  "Start from this opening (from 1; as cutechess-cli's start=N): two halves of a match at once")
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  auto* board = cmd->add_option("--board", options->board,
                                "Play on this board of the family (4x4 .. 8x8, hexagon; default 7x7), from its 2-ply "
                                "suite or --openings (each opening must be on it)")
                    ->check(non_empty("BOARD"));
  add_variant_option(*cmd, options->variant,
                     "Play this variant, from its 2-ply suite or --openings (the players are the variant's game's)")
      ->excludes(board);
  cmd->add_option("--concurrency", options->concurrency, "Games played at once")->check(CLI::Range(1, 1024));
  cmd->add_option("--pgn", options->pgn_path, "Append the games to this PGN file")->check(non_empty("FILE"));
  cmd->add_option("--sprt", options->sprt, "elo0,elo1,alpha,beta: stop as soon as the test decides")
      ->check(non_empty("ELO0,ELO1,ALPHA,BETA"));
  auto* tc = cmd->add_option("--tc", options->time_control,
                             "SECONDS+INCREMENT: a clock for each side (e.g. 10+0.1); a player past it loses on time")
                 ->check(non_empty("SECONDS+INCREMENT"));
  cmd->add_option("--timemargin", options->time_margin_ms, "Milliseconds a move may overrun the clock before it loses")
      ->check(CLI::Range(0, 86'400'000))
      ->needs(tc);
  cmd->add_option("--seed", options->seed, "Seed for the players' random choices")->check(seed_check());
  cmd->add_flag("--quiet", options->quiet, "Print only the final summary");
  cmd->callback([options] { run(*options); });
}

void add_openings_command(CLI::App& app) {
  struct Options {
    int plies = 2;
    std::string root{Position::kStartFen};
    OutputFile out;
    std::uint64_t seed = 1;
    std::string judge;
    int max_cp = 50;
    std::size_t count = 0;
  };
  auto options = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("openings", "Write an opening suite: every position N plies after a root");
  cmd->add_option("--plies", options->plies, "Plies after the root")->check(CLI::Range(0, 6));
  cmd->add_option("--root", options->root, "Root position FEN (for example a gap layout)");
  add_output_option(*cmd, options->out, "Openings file to write");
  cmd->add_option("--seed", options->seed, "Seed for the suite's order")->check(seed_check());
  auto* judge =
      cmd->add_option("--judge", options->judge,
                      "Keep only positions this player scores near even (a player spec, e.g. nn:model=F,visits=800)");
  cmd->add_option("--max-cp", options->max_cp, "With --judge: the largest |score| kept, centipawns")
      ->check(CLI::Range(0, 100000))
      ->needs(judge);
  cmd->add_option("--count", options->count, "With --judge: stop after this many positions (0 = judge them all)")
      ->needs(judge);
  cmd->callback([options] {
    const std::string out = path_to_write(options->out);
    auto openings = generate_openings(Position::from_fen(options->root), options->plies, options->seed);
    if (openings.empty())  // a suite of none cannot play a match
      throw std::runtime_error("openings: no position is " + std::to_string(options->plies) +
                               (options->plies == 1 ? " ply" : " plies") + " after the root: its game ends sooner");
    std::string comment =
        std::to_string(openings.size()) + " positions " + std::to_string(options->plies) + " plies after " + options->root;
    if (!options->judge.empty()) {
      const auto judge = make_player(options->judge);
      const std::size_t generated = openings.size();
      openings = balanced_openings(openings, *judge, options->max_cp, options->count ? options->count : openings.size());
      if (openings.empty())
        throw std::runtime_error("openings: " + options->judge + " scores none of the " + std::to_string(generated) +
                                 " positions within " + std::to_string(options->max_cp) +
                                 " cp of even: raise --max-cp");
      comment = std::to_string(openings.size()) + " positions " + std::to_string(options->plies) + " plies after " +
                options->root + " that " + options->judge + " scores within " + std::to_string(options->max_cp) +
                " cp of even";
    }
    save_openings(out, openings, comment);
    std::printf("wrote %zu positions to %s\n", openings.size(), out.c_str());
  });
}

}  // namespace ataxx::cli

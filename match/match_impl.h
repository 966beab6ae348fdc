// The template definitions of match/match.h: included by match.cpp, which compiles them for
// every game of games/registry.h, and by code that plays a game of its own (the tests').
#pragma once

#include "match/match.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <stdexcept>

#include "util/parallel.h"
#include "util/text.h"

namespace ataxx {
namespace {

std::uint64_t game_seed(std::uint64_t match_seed, int index, int player) {
  std::uint64_t state = match_seed * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(index) * 2 + player;
  return zobrist::splitmix64(state);
}

// A game lost before its first move: the player of colour `loser` could not start one.
template <typename G>
BasicGameRecord<G> forfeit_before_start(const typename G::Position& start, Color loser, const std::string& why) {
  BasicGameRecord<G> record;
  record.start = start;
  record.outcome = {win_for(~loser), EndReason::kNone};
  record.failure = std::string(G::kSideNames[loser == Color::kX ? 0 : 1]) + " failed to start a game: " + why;
  return record;
}

template <typename G>
MoveComment comment_on(const BasicMoveReport<G>& report, std::chrono::duration<double> took) {
  MoveComment comment;
  comment.seconds = took.count();
  if (report.nodes > 0 || report.depth > 0) {  // a search: its score
    comment.score_cp = report.mate ? std::nullopt : std::optional(report.score_cp);
    comment.mate = report.mate;
    comment.depth = report.depth;
  }
  if (report.nodes > 0 && (report.engine_nps || report.seconds > 0))
    comment.nodes_per_second = report.nodes_per_second();
  return comment;
}

// cutechess-cli's: {+0.25/12 0.512s}, a mate {+M5/12 0.512s}, without a search {0.001s}.
inline std::string comment_text(const MoveComment& comment) {
  std::string score;
  if (comment.mate)
    score = fmt::format("{}M{}/{} ", *comment.mate < 0 ? '-' : '+', std::abs(*comment.mate), comment.depth);
  if (comment.score_cp) score = fmt::format("{:+.2f}/{} ", *comment.score_cp / 100.0, comment.depth);
  return fmt::format("{{{}{:.3f}s}}", score, comment.seconds);
}

}  // namespace

template <typename G>
BasicGameRecord<G> play_game(BasicPlayer<G>& x, BasicPlayer<G>& o,
                             const std::type_identity_t<typename G::Position>& start,
                             const std::type_identity_t<typename G::Rules>& rules,
                             const std::optional<TimeControl>& time_control, const std::function<bool()>& stopped,
                             const std::atomic<bool>* interrupt) {
  BasicGameRecord<G> record;
  record.start = start;
  typename G::Game game(start, rules);
  int clock_ms[2] = {0, 0};  // by colour, when timed
  if (time_control) clock_ms[0] = clock_ms[1] = time_control->base_ms;
  while (!game.outcome().is_over()) {
    if ((stopped && stopped()) || (interrupt && interrupt->load())) {
      record.interrupted = true;
      break;
    }
    const Color mover = game.position().side_to_move();
    const std::string_view mover_name = G::kSideNames[mover == Color::kX ? 0 : 1];
    BasicPlayer<G>& player = mover == Color::kX ? x : o;
    int& own_clock = clock_ms[mover == Color::kX ? 0 : 1];
    if (time_control || interrupt) {
      MoveLimits limits;
      limits.stop = interrupt;
      if (time_control) {
        limits.clock.own_ms = own_clock;
        limits.clock.own_increment_ms = limits.clock.opponent_increment_ms = time_control->increment_ms;
        limits.clock.opponent_ms = clock_ms[mover == Color::kX ? 1 : 0];
      }
      player.set_limits(limits);
    }
    typename G::Move move;
    const auto started = std::chrono::steady_clock::now();
    try {
      move = player.choose_move(game);
      if (interrupt && interrupt->load()) {  // cut short by the stop: not the player's move
        record.interrupted = true;
        break;
      }
    } catch (const std::exception& e) {
      record.failure = std::string(mover_name) + " failed: " + e.what();
      record.outcome = {win_for(~mover), EndReason::kNone};
      break;
    }
    if (time_control) {
      const auto used = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
      if (used.count() > own_clock + time_control->margin_ms) {
        record.failure = std::string(mover_name) + " lost on time: " + std::to_string(used.count()) + " ms used with " +
                         std::to_string(own_clock) + " ms left";
        record.outcome = {win_for(~mover), EndReason::kNone};
        break;
      }
      own_clock = std::max(0, own_clock - static_cast<int>(used.count())) + time_control->increment_ms;
    }
    if (!game.position().is_legal(move)) {
      record.failure = std::string(mover_name) + " played the illegal move " + G::move_text(move, game.position()) +
                       " in " + game.position().fen();
      record.outcome = {win_for(~mover), EndReason::kNone};
      break;
    }
    record.comments.push_back(
        comment_on(player.last_report(), std::chrono::duration<double>(std::chrono::steady_clock::now() - started)));
    game.play(move);
  }
  if (record.failure.empty()) record.outcome = game.outcome();
  record.moves = game.moves();
  return record;
}

template <typename G>
bool stop_asked(const BasicMatchConfig<G>& config) {
  return (config.stopped && config.stopped()) || (config.interrupt && config.interrupt->load());
}

// Each player made, shown every opening and started on a game before any game is played: a bad
// spec, a net of another board or an engine that cannot start ends the match at once with its
// reason, where later each game would have been forfeited for it. A failure once the match is under
// way (an engine that crashed and cannot start again) forfeits the game it happens in. Returns the
// two players, for the first of the match's threads; none where a stop came meanwhile.
template <typename G>
std::array<std::unique_ptr<BasicPlayer<G>>, 2> checked_players(const BasicMatchConfig<G>& config) {
  std::array<std::unique_ptr<BasicPlayer<G>>, 2> players;
  for (int i = 0; i < 2; ++i) {
    const BasicPlayerSource<G>& source = i == 0 ? config.player1 : config.player2;
    players[i] = source.make();
    try {
      ready_to_play(*players[i], config.openings, config.seed);
    } catch (const std::exception& e) {
      if (stop_asked(config)) return {};  // the stop reached the engines too: no failure
      throw std::runtime_error(source.name + " cannot play this match: " + e.what());
    }
  }
  return players;
}

// Plays game `index` of the match; a player that cannot even start it forfeits it.
template <typename G>
BasicGameRecord<G> play_match_game(const BasicMatchConfig<G>& config, int index, BasicPlayer<G>& player1,
                                   BasicPlayer<G>& player2) {
  const bool player1_is_x = index % 2 == 0;
  const typename G::Position& start = config.openings[(index / 2) % config.openings.size()];
  BasicGameRecord<G> record;
  try {
    player1.new_game(game_seed(config.seed, index, 1));
    try {
      player2.new_game(game_seed(config.seed, index, 2));
    } catch (const std::exception& e) {
      record = forfeit_before_start<G>(start, player1_is_x ? Color::kO : Color::kX, e.what());
    }
  } catch (const std::exception& e) {
    record = forfeit_before_start<G>(start, player1_is_x ? Color::kX : Color::kO, e.what());
  }
  if (record.failure.empty()) {
    BasicPlayer<G>& x = player1_is_x ? player1 : player2;
    BasicPlayer<G>& o = player1_is_x ? player2 : player1;
    record = play_game<G>(x, o, start, config.rules, config.time_control, config.stopped, config.interrupt);
  }
  // A stop from the terminal (Ctrl-C) or from `timeout` reaches the whole process group, engines
  // included: an engine ended by it is no forfeit, the game has no result.
  if (!record.failure.empty() && stop_asked(config)) record.interrupted = true;
  record.index = index;
  record.player1_is_x = player1_is_x;
  return record;
}

template <typename G>
BasicMatchResult<G> run_match(
    const BasicMatchConfig<G>& config,
    const std::function<void(const BasicGameRecord<std::type_identity_t<G>>&, const MatchScore&)>& on_game) {
  if (config.openings.empty()) throw std::invalid_argument("match: no openings");
  if (config.games < 1) throw std::invalid_argument("match: the number of games must be at least 1");
  std::array<std::unique_ptr<BasicPlayer<G>>, 2> checked = checked_players(config);
  if (!checked[0]) {  // stopped while checking
    BasicMatchResult<G> stopped;
    stopped.stopped = true;
    return stopped;
  }

  MatchTally tally;
  tally.sprt = config.sprt;
  std::vector<std::optional<BasicGameRecord<G>>> games(config.games);
  std::mutex mutex;  // guards tally, games and checked
  std::atomic<int> next_game{0};
  std::atomic<bool> stop{false};  // a verdict was reached, or a thread failed
  auto play = [&](int) {
    try {
      std::unique_ptr<BasicPlayer<G>> player1, player2;
      {
        std::lock_guard lock(mutex);
        player1 = std::move(checked[0]);
        player2 = std::move(checked[1]);
      }
      if (!player1) player1 = config.player1.make();
      if (!player2) player2 = config.player2.make();
      for (int index = next_game++; index < config.games && !stop; index = next_game++) {
        if (stop_asked(config)) break;
        BasicGameRecord<G> record = play_match_game<G>(config, index, *player1, *player2);
        if (record.interrupted) break;
        std::lock_guard lock(mutex);
        tally.add(record);
        if (tally.verdict != SprtVerdict::kContinue) stop = true;
        if (on_game) on_game(record, tally.score);
        games[index] = std::move(record);
      }
    } catch (const std::exception& e) {
      throw std::runtime_error("match " + config.player1.name + " vs " + config.player2.name + ": " + e.what());
    }
  };
  run_in_parallel(std::clamp(config.concurrency, 1, config.games), play, [&] { stop = true; });

  BasicMatchResult<G> result{tally.score, {}, tally.verdict, tally.llr};
  for (auto& game : games)
    if (game) result.games.push_back(std::move(*game));
  result.stopped = tally.verdict == SprtVerdict::kContinue && static_cast<int>(result.games.size()) < config.games;
  return result;
}

template <typename G>
std::optional<double> nodes_per_second(const BasicMatchResult<G>& result, bool player1) {
  std::vector<double> speeds;
  for (const BasicGameRecord<G>& game : result.games) {
    const bool player1_moves_first = (game.start.side_to_move() == Color::kX) == game.player1_is_x;
    for (std::size_t i = 0; i < game.comments.size(); ++i) {  // every move, a pass too, hands the turn over
      const bool played_by_player1 = (i % 2 == 0) == player1_moves_first;
      if (played_by_player1 == player1 && game.comments[i].nodes_per_second > 0)
        speeds.push_back(game.comments[i].nodes_per_second);
    }
  }
  if (speeds.empty()) return std::nullopt;
  const auto middle = speeds.begin() + static_cast<std::ptrdiff_t>(speeds.size() / 2);
  std::nth_element(speeds.begin(), middle, speeds.end());
  if (speeds.size() % 2 == 1) return *middle;
  return (*middle + *std::max_element(speeds.begin(), middle)) / 2;
}

template <typename G>
std::string to_pgn(const BasicGameRecord<G>& game, const std::string& player1, const std::string& player2,
                   const std::string& event, const std::optional<TimeControl>& time_control) {
  const std::time_t now = std::time(nullptr);
  char date[16];
  std::strftime(date, sizeof date, "%Y.%m.%d", std::gmtime(&now));
  const std::string& x_name = game.player1_is_x ? player1 : player2;
  const std::string& o_name = game.player1_is_x ? player2 : player1;
  std::string pgn;
  auto tag = [&](const char* name, const std::string& value) {  // the value's \\ and " escaped, as PGN asks
    pgn.append("[").append(name).append(" \"");
    for (const char c : value) {
      if (c == '\\' || c == '"') pgn += '\\';
      pgn += c == '\n' || c == '\r' ? ' ' : c;
    }
    pgn.append("\"]\n");
  };
  tag("Event", event);
  tag("Site", "?");
  tag("Date", date);
  tag("Round", std::to_string(game.index + 1));
  tag(G::kPgnColours[0].data(), x_name);
  tag(G::kPgnColours[1].data(), o_name);
  tag("Result", to_string(game.outcome.result));
  if (const std::string variant = G::pgn_variant(game.start); !variant.empty()) tag("Variant", variant);
  tag("FEN", game.start.fen());
  tag("PlyCount", std::to_string(game.moves.size()));
  if (time_control) tag("TimeControl", to_string(*time_control));
  if (!game.failure.empty()) tag("Termination", game.failure);
  else tag("Termination", to_string(game.outcome.reason));
  pgn += '\n';

  typename G::Position pos = game.start;
  std::string line;
  for (std::size_t i = 0; i < game.moves.size(); ++i) {
    std::string token;
    if (pos.side_to_move() == Color::kX) token = std::to_string(pos.fullmove_number()) + ". ";
    else if (i == 0) token = std::to_string(pos.fullmove_number()) + "... ";
    token += G::move_text(game.moves[i], pos);
    if (i < game.comments.size()) token += ' ' + comment_text(game.comments[i]);
    if (line.size() + token.size() + 1 > 80) {
      pgn += line + '\n';
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += token;
    pos.make_move(game.moves[i]);
  }
  const std::string result = to_string(game.outcome.result);
  if (line.size() + result.size() + 1 > 80) {
    pgn += line + '\n';
    line.clear();
  }
  pgn += line + (line.empty() ? "" : " ") + result + "\n\n";
  return pgn;
}

}  // namespace ataxx

// Matches between two players: every opening twice with colours swapped, several games at
// once, an SPRT that can stop the match early. A player that throws or returns an illegal move
// loses that game; the failure is recorded and the match goes on.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "games/registry.h"
#include "players/player.h"
#include "stats/elo.h"

namespace ataxx {

// Everything below is written once for every game (games/registry.h); the names without "Basic" are
// Ataxx's. x is the side that moves first (G::kSideNames[0]).
// What the mover said of its move, for the PGN (cutechess-cli's comments, {+0.25/12 0.512s}): its
// search's score from its view and depth, where it searched, and the time the move took.
struct MoveComment {
  std::optional<int> score_cp;
  std::optional<int> mate;  // an external engine's: a win in N moves (negative: a loss)
  int depth = 0;
  double seconds = 0;
  double nodes_per_second = 0;  // the search's speed as its player reported it; 0 where not known
};

template <typename G>
struct BasicGameRecord {
  int index = 0;             // game number in the match, from 0
  bool player1_is_x = true;
  typename G::Position start;
  std::vector<typename G::Move> moves;
  std::vector<MoveComment> comments;  // one for each move
  Outcome outcome;
  std::string failure;       // why a player forfeited, if one did
  bool interrupted = false;  // the match was stopped before the game ended: it has no result
  // From player 1's view: 1 win, 0.5 draw, 0 loss.
  double player1_score() const { return (result_for(player1_is_x ? Color::kX : Color::kO, outcome.result) + 1) / 2.0; }
};
using GameRecord = BasicGameRecord<DefaultGame>;

// A game clock for each side: base time, plus the increment after each move.
struct TimeControl {
  int base_ms = 0;
  int increment_ms = 0;
  // How far a move may overrun its clock before it loses (cutechess's timemargin); an overrun
  // within it leaves the clock at zero.
  int margin_ms = 0;
};
// "SECONDS" or "SECONDS+INCREMENT" (e.g. "10+0.1"), as cutechess writes it; throws
// std::invalid_argument for anything else.
TimeControl parse_time_control(const std::string& text);
// The same notation back, as PGN's TimeControl tag holds it: "10+0.1", "0.5".
std::string to_string(const TimeControl& time_control);

template <typename G>
struct BasicMatchConfig {
  BasicPlayerSource<G> player1;
  BasicPlayerSource<G> player2;
  int games = 100;
  std::vector<typename G::Position> openings;  // game i starts from openings[(i / 2) % size]
  int concurrency = 1;
  std::uint64_t seed = 1;
  typename G::Rules rules;
  std::optional<SprtParams> sprt;
  std::optional<TimeControl> time_control;  // none: each player's own budget per move
  // Asked between moves: once it says so the match ends, its unfinished games left out.
  std::function<bool()> stopped;
  // A stop that reaches the players in mid-move too (a signal handler's flag): once set, a player
  // thinking answers at once (an engine is sent `stop`), and the match ends as by `stopped`.
  const std::atomic<bool>* interrupt = nullptr;
};

using MatchConfig = BasicMatchConfig<DefaultGame>;

template <typename G>
struct BasicMatchResult {
  MatchScore score;                         // every game played, those finished after a verdict too
  std::vector<BasicGameRecord<G>> games;    // in order of index
  SprtVerdict verdict = SprtVerdict::kContinue;
  double llr = 0.0;               // the SPRT's log-likelihood ratio when it decided (or at the end)
  bool stopped = false;           // config.stopped ended it before its games were played
};
using MatchResult = BasicMatchResult<DefaultGame>;

// The running score of a match. The SPRT verdict, once reached, is final: games that were still
// being played when it came count in the score but cannot take it back.
struct MatchTally {
  std::optional<SprtParams> sprt;
  MatchScore score;
  SprtVerdict verdict = SprtVerdict::kContinue;
  double llr = 0.0;
  template <typename G>
  void add(const BasicGameRecord<G>& game) {
    add_points(game.player1_score());
  }
  void add_points(double player1_points);
};

// Plays one game from start; the players have had new_game() called. With a time control each
// player is given its clock before each move, and a player whose move takes longer than the time
// it has left loses the game on time.
// `stopped`, asked before each move, ends the game unfinished (interrupted); `interrupt`, where
// given, goes to the players as their limits' stop flag and is asked with it.
template <typename G>
BasicGameRecord<G> play_game(BasicPlayer<G>& x, BasicPlayer<G>& o,
                             const std::type_identity_t<typename G::Position>& start,
                             const std::type_identity_t<typename G::Rules>& rules,
                             const std::optional<TimeControl>& time_control = std::nullopt,
                             const std::function<bool()>& stopped = {}, const std::atomic<bool>* interrupt = nullptr);

// on_game runs after each game, one call at a time, with the running score. Throws
// std::runtime_error naming the match when a game thread fails (a player that cannot be made,
// a failing on_game); a player that fails inside a game only loses that game.
template <typename G>
BasicMatchResult<G> run_match(
    const BasicMatchConfig<G>& config,
    const std::function<void(const BasicGameRecord<std::type_identity_t<G>>&, const MatchScore&)>& on_game = {});

// A player's search speed over a match: the median of its moves' nodes a second, as it reported them
// (BasicMoveReport::nodes_per_second); nullopt where none of its moves reported one (random, an
// engine whose info lines give no nodes). The median, not a mean: in a decided endgame most of a
// tree search's visits end at finished games, which cost no evaluation, and a few such moves at
// millions of nodes a second would outweigh a whole game of ordinary ones.
template <typename G>
std::optional<double> nodes_per_second(const BasicMatchResult<G>& result, bool player1);

// A game as PGN, as its game's tools write it (G::kPgnColours, G::pgn_variant: Ataxx's x is Black
// and moves first); a TimeControl tag when the game was played on a clock;
// each move's comment after it.
template <typename G>
std::string to_pgn(const BasicGameRecord<G>& game, const std::string& player1, const std::string& player2,
                   const std::string& event, const std::optional<TimeControl>& time_control = std::nullopt);

}  // namespace ataxx

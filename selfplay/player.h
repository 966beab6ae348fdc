// Anything that picks moves: baselines, MCTS with any evaluator, later networks and external
// engines. Made from a spec string: "random", "greedy", "alphabeta:depth=3", "mcts:visits=800".
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "game/game.h"

namespace ataxx {

class Player {
 public:
  virtual ~Player() = default;
  // Called before each game; the seed makes a player's choices reproducible.
  virtual void new_game(std::uint64_t seed) = 0;
  // A legal move for the side to move in a game that is not over. May throw.
  virtual Move choose_move(const Game& game) = 0;
};

// "kind:key=value,key=value". Each option must be read exactly once by the player's factory;
// finish() rejects the ones nobody read, naming them.
class PlayerSpec {
 public:
  explicit PlayerSpec(std::string_view text);
  const std::string& kind() const { return kind_; }
  const std::string& text() const { return text_; }
  int get_int(const std::string& key, int fallback, int min, int max);
  double get_double(const std::string& key, double fallback, double min, double max);
  std::string get_string(const std::string& key, const std::string& fallback);
  void finish() const;

 private:
  std::string text_;
  std::string kind_;
  std::map<std::string, std::string> options_;
};

// A factory for a player kind: consumes the options it knows from the spec.
using PlayerFactory = std::function<std::unique_ptr<Player>(PlayerSpec&)>;
// Lets modules above this one (the network, external engines) add kinds.
void register_player_kind(const std::string& kind, PlayerFactory factory);

// Throws std::invalid_argument for an unknown kind, unknown option or out-of-range value.
std::unique_ptr<Player> make_player(std::string_view spec);

}  // namespace ataxx

// The UAI protocol, as the Ataxx tool chain speaks it, over any player: a model's MCTS, or a
// baseline when no model is set. The search runs on its own thread so `stop`, `isready` and
// `quit` are answered at once. Malformed input gets an `info string error` and changes nothing.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <thread>

#include "game/game.h"
#include "selfplay/player.h"

namespace ataxx {

class UaiEngine {
 public:
  explicit UaiEngine(std::ostream& out);
  ~UaiEngine();
  // Handles one command line; false once the engine should exit (`quit`).
  bool handle(std::string_view line);
  void set_option(const std::string& name, const std::string& value);

 private:
  struct Options {
    std::string model;
    std::string player = "alphabeta";
    int visits = 800;
    int threads = 1;
    int batch_size = 64;
    std::string device = "cpu";
    int cache_size = 0;
  };
  void say(const std::string& line);
  void handle_position(std::string_view args);
  void handle_go(std::string_view args);
  void handle_setoption(std::string_view args);
  void stop_search();      // `stop` and `quit`: end the search now, bestmove follows
  void wait_for_search();  // other commands that arrive mid-search wait for it to end
  std::string player_spec() const;

  std::ostream& out_;
  std::mutex out_mutex_;  // guards out_: the search thread writes info and bestmove lines
  Options options_;
  std::unique_ptr<Player> player_;  // made on the first `go` after the options changed
  Game game_;
  std::thread search_;
  std::atomic<bool> stop_{false};
};

// Milliseconds to spend on a move from the clock, never more than the time left minus margin_ms.
int allocate_move_time(int remaining_ms, int increment_ms, int moves_to_go, int margin_ms = 50);

}  // namespace ataxx

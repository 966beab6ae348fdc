#include "trainer/replay_buffer_impl.h"

namespace ataxx {

CountedOnly CountedOnly::read(const std::string& games_dir) {
  const std::string path = games_dir + "/" + kFileName;
  CountedOnly counted;
  std::ifstream in(path);
  if (!in) return counted;
  std::string chunks, samples, games;
  in >> chunks >> counted.chunks >> samples >> counted.samples >> games >> counted.games;
  if (!in || chunks != "chunks" || samples != "samples" || games != "games" || counted.chunks < 0 ||
      counted.samples < 0 || counted.games < 0)
    throw std::runtime_error("'" + path + "' is not 'chunks N samples N games N' (a packed run's tally of the chunks it left behind)");
  return counted;
}

void CountedOnly::write(const std::string& games_dir) const {
  write_file_atomically(games_dir + "/" + kFileName,
                        "chunks " + std::to_string(chunks) + "\nsamples " + std::to_string(samples) + "\ngames " +
                            std::to_string(games) + "\n");
}

BoardSet boards_of(const RunConfig& config) {
  BoardSet set;
  set.boards.clear();
  for (const BoardPlan& plan : board_plans(config)) set.boards.push_back(plan.board);
  return set;
}

#define ATAXX_INSTANTIATE(G) \
  template class BasicReplayBuffer<G>; \
  template BasicReplayBuffer<G> run_replay_buffer<G>(const RunConfig&);
ATAXX_FOR_EACH_GAME(ATAXX_INSTANTIATE)
#undef ATAXX_INSTANTIATE

}  // namespace ataxx

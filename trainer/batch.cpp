#include "trainer/batch_impl.h"

namespace ataxx {

#define ATAXX_BATCHES(G)                                                                                        \
  template TrainingBatch assemble_batch<G>(const GameEncoder<G>&, std::span<const BasicTrainingSample<G>* const>, \
                                           std::span<const int>, float);                                       \
  template TrainingBatch sample_batch<G>(const GameEncoder<G>&, const BasicReplayBuffer<G>&, int, float,         \
                                         std::mt19937_64&);
ATAXX_FOR_EACH_GAME(ATAXX_BATCHES)
#undef ATAXX_BATCHES

}  // namespace ataxx

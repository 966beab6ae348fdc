#include "selfplay/training_data_impl.h"

namespace ataxx {

template ChunkCounts chunk_counts<>(const std::string&);

#define ATAXX_CHUNKS(G)                                                                                      \
  template void write_chunk<G>(const std::string&, int, const std::vector<BasicTrainingSample<G>>&);        \
  template std::vector<BasicTrainingSample<G>> read_chunk<G>(const std::string&);                           \
  template std::vector<BasicTrainingSample<G>> parse_chunk<G>(std::string_view, const std::string&);        \
  template ChunkCounts chunk_counts<G>(const std::string&);
ATAXX_FOR_EACH_GAME(ATAXX_CHUNKS)
#undef ATAXX_CHUNKS

}  // namespace ataxx

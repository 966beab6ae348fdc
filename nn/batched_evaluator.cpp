#include "nn/batched_evaluator_impl.h"

namespace ataxx {

#define ATAXX_INSTANTIATE(G) template class BasicBatchedEvaluator<G>;
ATAXX_FOR_EACH_GAME(ATAXX_INSTANTIATE)
#undef ATAXX_INSTANTIATE

}  // namespace ataxx

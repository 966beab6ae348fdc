// The nets a program plays with when the user names none, and which of them plays a position:
// the first, in order, trained on its game and board (a play file given by the user first, then
// the shipped ones of a nets/ folder, then those built into the program: nn/built_in_nets.h).
// `uai`, `play` and `serve` choose their engine with it.
#pragma once

#include <string>
#include <vector>

#include "games/registry.h"
#include "nn/model_info.h"

namespace ataxx {

// Whether a net plays the position: of its game and trained on its board.
template <typename P>
bool net_plays(const ModelInfo& info, const P& pos) {
  using G = GameOfPosition<P>;
  return info.game == G::kName && make_encoder<G>(info.boards).plays(pos);
}

class NetShelf {
 public:
  struct Net {
    std::string path;
    ModelInfo info;
  };
  NetShelf() = default;
  // model: a play file the user gave ("" for none; its errors are thrown now); nets_dir: a folder
  // of play files, read once in name order (files that are not play files are left out; "" or a
  // missing folder: none); then the built-in nets.
  NetShelf(const std::string& model, const std::string& nets_dir);
  // The first net that plays pos; nullptr for none.
  template <typename P>
  const Net* net_for(const P& pos) const {
    for (const Net& net : nets_)
      if (net_plays(net.info, pos)) return &net;
    return nullptr;
  }
  bool empty() const { return nets_.empty(); }
  // Where its nets come from, for messages: "FOLDER", "FOLDER, built-in" or "built-in"; "" for a
  // shelf of the user's model alone, and for one with no nets.
  std::string sources() const;

 private:
  std::vector<Net> nets_;
  std::string nets_dir_;
};

}  // namespace ataxx

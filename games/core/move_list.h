// A fixed-capacity list of moves, as move generation fills it: no heap, nothing initialised.
#pragma once

#include <array>

namespace ataxx {

template <typename Move, int Capacity>
class BasicMoveList {
 public:
  void push_back(Move move) { moves_[size_++] = move; }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() { size_ = 0; }
  Move operator[](int i) const { return moves_[i]; }
  const Move* begin() const { return moves_.data(); }
  const Move* end() const { return moves_.data() + size_; }

 private:
  std::array<Move, Capacity> moves_;
  int size_ = 0;
};

}  // namespace ataxx

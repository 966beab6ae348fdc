// The ownership of a search, as KataGo's analysis reports it (its average tree ownership): a node's
// is the net's ownership of its position blended with its children's, which weigh N / (N + 1) of
// it (N their visits), shared among them as their visits squared, so that the lines the search
// believes in most speak most. A child whose weight in the whole falls below kMinOwnershipWeight
// is not visited: its weight stays with its parent's own.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

namespace ataxx::analysis {

inline constexpr double kMinOwnershipWeight = 1e-3;

struct OwnershipSpread {
  std::vector<float> mean;   // a value a cell, from -1 to 1
  std::vector<float> stdev;  // a value a cell: how far the nodes' ownerships spread about the mean, by their weights
};

// The ownership over a search's visited_tree (nodes with `parent` and `visits`, each node's
// children together, after it), of any node's subtree.
template <typename Node>
class TreeOwnership {
 public:
  explicit TreeOwnership(std::span<const Node> tree, double min_weight = kMinOwnershipWeight)
      : tree_(tree), first_child_(tree.size(), 0), children_(tree.size(), 0), min_weight_(min_weight) {
    for (std::size_t i = 1; i < tree.size(); ++i)
      if (children_[tree[i].parent]++ == 0) first_child_[tree[i].parent] = i;
  }

  // Of node `from`'s subtree; owner_of(i): the net's ownership of node i's position, every node's
  // from the same side's view.
  template <typename OwnerOf>
  OwnershipSpread of(std::size_t from, OwnerOf&& owner_of) const {
    std::vector<double> sum, square_sum;
    add(from, 1.0, owner_of, sum, square_sum);
    OwnershipSpread spread;
    for (std::size_t cell = 0; cell < sum.size(); ++cell) {
      spread.mean.push_back(static_cast<float>(sum[cell]));
      spread.stdev.push_back(static_cast<float>(std::sqrt(std::max(0.0, square_sum[cell] - sum[cell] * sum[cell]))));
    }
    return spread;
  }

 private:
  // Adds node's subtree at `weight` in all.
  template <typename OwnerOf>
  void add(std::size_t node, double weight, OwnerOf& owner_of, std::vector<double>& sum,
           std::vector<double>& square_sum) const {
    const std::size_t first = first_child_[node], end = first + children_[node];
    double visits = 0, squares = 0;
    for (std::size_t child = first; child < end; ++child) {
      visits += tree_[child].visits;
      squares += static_cast<double>(tree_[child].visits) * tree_[child].visits;
    }
    double own_weight = weight;
    for (std::size_t child = first; child < end; ++child) {
      const double child_weight =
          weight * visits / (visits + 1) * static_cast<double>(tree_[child].visits) * tree_[child].visits / squares;
      if (child_weight < min_weight_) continue;
      add(child, child_weight, owner_of, sum, square_sum);
      own_weight -= child_weight;
    }
    const std::vector<float>& owners = owner_of(node);
    sum.resize(owners.size());
    square_sum.resize(owners.size());
    for (std::size_t cell = 0; cell < owners.size(); ++cell) {
      sum[cell] += own_weight * owners[cell];
      square_sum[cell] += own_weight * owners[cell] * owners[cell];
    }
  }

  std::span<const Node> tree_;
  std::vector<std::size_t> first_child_, children_;  // by node: where its children start, and how many
  double min_weight_;
};

}  // namespace ataxx::analysis

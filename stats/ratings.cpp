#include "stats/ratings.h"

#include <Eigen/Dense>

#include <cmath>
#include <map>
#include <stdexcept>

namespace ataxx {

std::vector<Rating> fit_ratings(const std::vector<PairResult>& results, const std::string& anchor) {
  std::map<std::string, int> index;
  std::vector<Rating> ratings;
  auto id = [&](const std::string& name) {
    const auto [it, added] = index.emplace(name, static_cast<int>(ratings.size()));
    if (added) ratings.push_back({name});
    return it->second;
  };
  for (const PairResult& r : results) {
    id(r.first);
    id(r.second);
  }
  if (!index.count(anchor)) throw std::invalid_argument("ratings: the anchor '" + anchor + "' played no game");
  const int n = static_cast<int>(ratings.size());

  // wins(i, j): points i scored against j; games(i, j): games between them, both with the prior.
  constexpr double kPriorDraws = 1.0;
  Eigen::MatrixXd wins = Eigen::MatrixXd::Zero(n, n), games = Eigen::MatrixXd::Zero(n, n);
  for (const PairResult& r : results) {
    const int a = index[r.first], b = index[r.second];
    const int played = r.first_wins + r.draws + r.second_wins;
    ratings[a].games += played;
    ratings[b].games += played;
    wins(a, b) += r.first_wins + 0.5 * r.draws;
    wins(b, a) += r.second_wins + 0.5 * r.draws;
    games(a, b) += played;
    games(b, a) += played;
  }
  if (n == 1) return ratings;  // only the anchor, playing itself: nothing to fit
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (i != j && games(i, j) > 0) {
        wins(i, j) += 0.5 * kPriorDraws;
        games(i, j) += kPriorDraws;
      }

  // Newton's method on the log-likelihood in natural units, the anchor's rating held at 0.
  const int fixed = index[anchor];
  auto free_index = [&](int i) { return i < fixed ? i : i - 1; };
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(n);
  Eigen::MatrixXd information(n - 1, n - 1);
  for (int iteration = 0; iteration < 100; ++iteration) {
    Eigen::VectorXd gradient = Eigen::VectorXd::Zero(n - 1);
    information.setZero();
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        if (i == j || games(i, j) == 0) continue;
        const double p = 1.0 / (1.0 + std::exp(theta(j) - theta(i)));
        const double curvature = games(i, j) * p * (1 - p);
        if (i != fixed) {
          gradient(free_index(i)) += wins(i, j) - games(i, j) * p;
          information(free_index(i), free_index(i)) += curvature;
          if (j != fixed) information(free_index(i), free_index(j)) -= curvature;
        }
      }
    }
    information.diagonal().array() += 1e-9;  // players cut off from the anchor stay finite
    const Eigen::VectorXd step = information.ldlt().solve(gradient);
    for (int i = 0; i < n; ++i)
      if (i != fixed) theta(i) += step(free_index(i));
    if (step.cwiseAbs().maxCoeff() < 1e-10) break;
  }
  const double to_elo = 400.0 / std::log(10.0);
  const Eigen::MatrixXd covariance = information.ldlt().solve(Eigen::MatrixXd::Identity(n - 1, n - 1));
  for (int i = 0; i < n; ++i) {
    ratings[i].elo = theta(i) * to_elo;
    ratings[i].error95 = i == fixed ? 0.0 : 1.959963984540054 * std::sqrt(covariance(free_index(i), free_index(i))) * to_elo;
  }
  return ratings;
}

}  // namespace ataxx

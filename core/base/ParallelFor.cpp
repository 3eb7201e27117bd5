#include "base/ParallelFor.hpp"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace flexarm {

void parallelFor(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& body) {
  if (count == 0) return;
  const unsigned wanted = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  const unsigned n = static_cast<unsigned>(std::min<std::size_t>(wanted, count));
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t k; (k = next++) < count;) body(k);
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < n; ++t) pool.emplace_back(worker);
  worker();  // the calling thread is one of the n
  for (std::thread& t : pool) t.join();
}

}  // namespace flexarm

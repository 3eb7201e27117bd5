#pragma once
// Runs body(0) ... body(count - 1) on a pool of threads, each taking the next index as it is free
// (the long and the short runs of a study share the cores). Returns when every call has returned.
#include <cstddef>
#include <functional>

namespace flexarm {

// threads = 0: the machine's cores; never more threads than indices.
void parallelFor(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& body);

}  // namespace flexarm

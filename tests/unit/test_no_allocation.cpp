// Evaluating the right-hand side (forward dynamics) must not touch the heap.
// Every global operator new is counted; the count must not move across evaluations.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>

#include "dynamics/ForwardDynamics.hpp"
#include "io/ProjectFile.hpp"

namespace {
std::atomic<long> g_allocations{0};
}

void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

int main() {
  using namespace flexarm;
  int failures = 0, checks = 0;
  for (const char* name : {"double-pendulum.flexarm.json", "spatial-3r-arm.flexarm.json", "two-link-flexible-arm.flexarm.json",
                           "spin-up-beam.flexarm.json", "cantilever.flexarm.json"}) {
    LoadedProject loaded = loadProjectFile(std::string(FLEXARM_PROJECTS_DIR) + "/" + name);
    if (!loaded.project) {
      std::fprintf(stderr, "cannot load %s\n%s", name, loaded.diagnostics.text().c_str());
      return 1;
    }
    // A prescribed joint exercises the partitioned path too.
    Project prescribed = *loaded.project;
    prescribed.model.joints[0].drive.kind = JointDrive::Kind::Prescribed;
    prescribed.model.joints[0].drive.law.law = TimeFunction::Law::SpinUp;
    prescribed.model.joints[0].drive.law.omega0 = 2.0;
    prescribed.model.joints[0].drive.law.T = 3.0;
    for (const Project* p : {&*loaded.project, &prescribed}) {
      ++checks;
      const MultibodySystem sys = MultibodySystem::fromModel(p->model, p->coupling);
      ForwardDynamics fd(sys);
      std::vector<double> y(fd.stateSize(), 0.1), ydot(fd.stateSize(), 0.0);
      fd.evaluate(ForwardDynamics::Request::accelerations(0.0, y.data(), ydot.data()));  // warm-up
      const long before = g_allocations.load();
      bool ok = true;
      for (int k = 0; k < 200; ++k) {
        y[0] = 0.001 * k;
        ok = fd.evaluate(ForwardDynamics::Request::accelerations(0.01 * k, y.data(), ydot.data())) && ok;
      }
      const long allocated = g_allocations.load() - before;
      std::printf("%s%s: %ld heap allocations in 200 right-hand-side evaluations\n", name,
                  p == &prescribed ? " (joint 0 prescribed)" : "", allocated);
      if (allocated != 0 || !ok) ++failures;
    }
  }
  std::printf("%d passed, %d failed\n", checks - failures, failures);
  return failures == 0 ? 0 : 1;
}

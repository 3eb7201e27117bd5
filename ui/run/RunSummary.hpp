#pragma once
// A run's method and error in words, for the status bar, its tooltip and the messages: what auto chose,
// the error estimate of the end effector against the accuracy asked, every group's estimate, and what a
// verification measured.
#include <QString>

#include "results/Results.hpp"

namespace flexarm {

// "Generalized-α (auto)", or the method's label when the project names it; from the run's description.
QString runMethodWords(const Results& results);
// "error ≤ 0.07 % (accuracy 0.1 %)": the end effector's estimate (the largest group's without one); empty
// without an estimate.
QString runErrorWords(const Results& results);
// One line per group: "ee: 6.5e-04 m, 0.065 % of its excursion (measured 0.012 %)", then what auto chose and why.
QString runErrorDetails(const Results& results);
// The wall time a running run has left, from the working seconds it took to simulate t of t_end: "about
// 40 s left", "about 12 min left", "about 3.5 h left", "more than a day left"; "time left unknown" until
// the rate means something (a second of work and 0.1 % of the run done).
QString timeLeftWords(double working_seconds, double t, double t_end);

}  // namespace flexarm

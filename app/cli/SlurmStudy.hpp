#pragma once
// A prepared study (solvers/StudyFolder.hpp) as a Slurm job array: the job script that runs
// `flexarm-cli study DIR --case K` for each case, its submission with sbatch, and what squeue and
// sacct say about the submitted tasks. Slurm schedules; FlexArm only writes and reads its files:
//   DIR/slurm/job-N.sh     the N-th submission's job script (one array task per line of tasks-N.txt)
//   DIR/slurm/tasks-N.txt  line T: the case numbers array task T runs
//   DIR/slurm/jobs.txt     "JOBID N" for each submitted script
//   DIR/slurm/job-N-task-T.out  the tasks' output
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "solvers/StudyFolder.hpp"

namespace flexarm::cli {

struct SlurmOptions {
  std::optional<long> array_max;  // largest array (tasks); default: the cluster's MaxArraySize - 1
  std::string partition, time;    // empty: the cluster's default
  std::optional<long> cpus_per_task;
  std::vector<std::string> sbatch_args;  // written as #SBATCH lines
  bool submit = true;
};

// Writes the job script for `cases` (numbers 1 ... N) and submits it unless !options.submit; prints
// what it did. Returns the exit code (2 when sbatch is missing or refuses the job).
int submitStudyCases(const StudyFolder& study, const std::vector<std::size_t>& cases, const SlurmOptions& options);

// Forgets earlier submissions (a study that starts afresh): removes DIR/slurm/jobs.txt.
void forgetSubmissions(const StudyFolder& study);

// What the scheduler says about the cases of the recorded jobs that have no result yet.
struct SlurmCaseStates {
  bool submitted = false;                       // the study has recorded jobs
  std::map<std::size_t, std::string> queue;     // case -> squeue state (PENDING, RUNNING, ...)
  std::map<std::size_t, std::string> accounts;  // case -> sacct state of an ended task (FAILED, TIMEOUT, ...)
  std::vector<std::string> notes;               // e.g. "sacct: accounting storage is disabled"
};
SlurmCaseStates slurmCaseStates(const StudyFolder& study);

}  // namespace flexarm::cli

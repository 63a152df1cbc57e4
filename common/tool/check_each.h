// check_each.h - `--check-each` of the optimizing stages (sonopt, cfgopt):
// the program's behaviour under pipe-run, checked after every pass
// application that changed something.
//
// The verifier (--verify-each) proves that a pass kept the level's
// contract; it cannot see a pass that keeps the contract and changes what
// the program computes. This check runs `main` of the whole module under
// pipe-run before the first application (the reference: stdout and exit
// status) and again after every application that reported a change; the
// first application after which either differs is named, with its number
// for --bisect-limit, and the run stops (an internal error, exit 3, as a
// broken contract under --verify-each is). An application that reports no
// change is not run: it left the module as it was.
//
// The reference run must end cleanly: a runtime error (pipe-run's status
// 70: undefined behaviour it can see, a C library function pipe-run lacks,
// a step limit), a verifier error or a timeout there means the input cannot
// serve as a reference, and is reported as bad input (exit 1), unless the
// stage was told to skip the check then (--check-unrunnable=skip, which
// pipecc --check-each uses: it compiles programs pipe-run cannot run): a
// warning says so and no application is checked. stdout, stderr and the exit status are
// compared; the reference ran cleanly, so its stderr is the program's own,
// and a runtime error that appears after a pass changes the status (70).
//
// The module goes to pipe-run in the binary encoding through a temporary
// file; pipe-run is the tool next to the running stage (sibling_tool).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace pl {

// What a run of the program did.
struct Behaviour {
  int status = 0;
  std::string out, err;
};

class BehaviourCheck {
 public:
  // `tool` names the stage in messages; `timeout` bounds each run (seconds).
  BehaviourCheck(std::string tool, double timeout, bool skip_unrunnable);
  ~BehaviourCheck();
  BehaviourCheck(const BehaviourCheck&) = delete;
  BehaviourCheck& operator=(const BehaviourCheck&) = delete;

  // Whether the reference was taken (or given up: then check() does nothing).
  bool has_reference() const { return has_reference_; }
  // Runs the module as it is before any pass: the reference. Throws
  // FormatError (bad input) when it does not run cleanly.
  void take_reference(const std::vector<const Function*>& fns, const ModuleHeader& header);
  // Runs the module after an application; throws std::logic_error naming
  // `what` (pass, application, function) when its behaviour differs from
  // the reference's.
  void check(const std::vector<const Function*>& fns, const ModuleHeader& header, const std::string& what,
             uint64_t application);

 private:
  struct Run {
    Behaviour behaviour;
    std::string problem;  // non-empty when pipe-run could not run it to an end (timeout, crash, bad module)
  };
  Run run(const std::vector<const Function*>& fns, const ModuleHeader& header) const;

  std::string tool_;
  double timeout_;
  std::string path_;  // the temporary module file
  std::string pipe_run_;
  bool skip_unrunnable_ = false;
  bool has_reference_ = false;
  bool skipped_ = false;  // the reference did not run cleanly and skip_unrunnable_
  Behaviour reference_;
};

// "stdout differs at line 3: 'x = 16' before, 'x = 10' after", or the exit
// statuses: a one-line description of how b differs from a ("" if equal).
std::string describe_difference(const Behaviour& reference, const Behaviour& now);

}  // namespace pl

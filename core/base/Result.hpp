#pragma once
// The one way the engine says something could not be done: a Result holds either the value or an
// Error whose text names what is at fault - the JSON path, file or parameter - and why:
//   "links[2].E: must be > 0", "results.csv: line 3: 4 values, the header has 5".
// Status is a Result without a value. Two things are not errors of this kind: a project file's many
// findings at once are Diagnostics (io/Diagnostics.hpp, each with its JSON path), and a run that
// diverges or fails is a Results with its status and message. The equations' evaluation, called
// thousands of times per run, answers false and keeps what failed (ForwardDynamics::error(),
// ConstraintRows::error) so that it allocates nothing; the run turns that into its status.
// Nothing in the engine throws for bad input.
#include <optional>
#include <string>
#include <utility>

namespace flexarm {

struct Error {
  std::string where;    // JSON path, file name or parameter; may be empty
  std::string message;  // what is wrong
  std::string text() const { return where.empty() ? message : where + ": " + message; }
};

inline Error errorAt(std::string where, std::string message) { return Error{std::move(where), std::move(message)}; }
inline Error error(std::string message) { return Error{{}, std::move(message)}; }

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit, so that `return value;` works
  Result(Error e) : error_(std::move(e)) {}      // NOLINT: implicit, so that `return error(...);` works

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  const T& value() const& { return *value_; }
  T& value() & { return *value_; }
  T&& value() && { return std::move(*value_); }
  const T& operator*() const& { return *value_; }
  T& operator*() & { return *value_; }
  const T* operator->() const { return &*value_; }
  T* operator->() { return &*value_; }
  const Error& error() const { return error_; }  // meaningful when !ok()

 private:
  std::optional<T> value_;
  Error error_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error e) : failed_(true), error_(std::move(e)) {}  // NOLINT: implicit, as above

  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  const Error& error() const { return error_; }

 private:
  bool failed_ = false;
  Error error_;
};

using Status = Result<void>;

}  // namespace flexarm

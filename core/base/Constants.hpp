#pragma once
// Mathematical constants, defined once for the engine, the workbench and the tests (C++17 has no
// std::numbers).
namespace flexarm {

inline constexpr double kPi = 3.14159265358979323846;
inline constexpr double kTwoPi = 2.0 * kPi;

}  // namespace flexarm

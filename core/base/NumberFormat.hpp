#pragma once
// Numbers as text, for files and messages: every layer of the engine formats numbers this way.
#include <string>

namespace flexarm {

std::string formatNumber(double x);                 // shortest text that reads back the same value
std::string formatShort(double x, int digits = 5);  // for messages: a few significant digits

}  // namespace flexarm

#pragma once
// Numbers as text, for files and messages: every layer of the engine formats numbers this way.
#include <optional>
#include <string>

namespace flexarm {

std::string formatNumber(double x);                 // shortest text that reads back the same value
std::string formatShort(double x, int digits = 5);  // for messages: a few significant digits

// A finite decimal number, the whole of `text` (leading blanks and a '+' allowed): "1.5kg", "1,5",
// "nan", "inf", "1e400" and "" are not. Independent of the C locale, as formatNumber.
std::optional<double> parseNumber(const std::string& text);

}  // namespace flexarm

#pragma once
// Reading Python literals from their source text: one reader for the whole of core/ (the
// semantic model, the shape engine and the rules all ask for integer values).

#include <QtGlobal>

#include <optional>
#include <string_view>

namespace cnready {

/// The value of a Python integer literal from its source text: `42`, `1_000`, `0x1F`, `0b101`
/// (base prefixes as QString::toLongLong with base 0 reads them; a leading `0` reads as octal).
/// Nothing when the text is no integer that fits in 64 bits (`0o17`, `12j`, too many digits).
std::optional<qint64> integerLiteralValue(std::string_view text);

} // namespace cnready

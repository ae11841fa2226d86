#pragma once
// What a function's docstring says about its parameters. Scientific Python documents types in
// the docstring far more often than in annotations (numpydoc: `d : ndarray`; Google style:
// `d (np.ndarray): ...`), so an expert reading `def tridisolve(d, e, b)` knows from there that
// `d` is an array. The semantic model takes that as evidence for an unannotated parameter.

#include <string_view>
#include <vector>

namespace cnready {

/// Names of the parameters that the docstring `doc` (the raw text of the string literal, quotes
/// and prefixes included) documents as NumPy arrays, in the order documented. Read are the
/// numpydoc "Parameters" section (`name : type`, several names separated by commas) and the
/// Google-style "Args:" / "Arguments:" / "Parameters:" section (`name (type): text`).
/// A type counts as an array when it names `ndarray` or a bare `array`, or when it is
/// `array_like` / `array-like` given with a shape (`array-like of shape (n, m)`); a container of
/// arrays (`list of ndarray`, `tuple`, `sequence`, `dict`, `iterable`) does not count.
/// The views point into `doc`. Empty when the docstring documents no such parameter.
std::vector<std::string_view> documentedArrayParameters(std::string_view doc);

/// Whether a documented type (the text after `name :`, or inside `name (...)`) names a NumPy
/// array in the sense of documentedArrayParameters().
bool documentedTypeIsArray(std::string_view type);

} // namespace cnready

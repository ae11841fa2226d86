#pragma once
// Name tables of the NumPy API that the semantic model and the rules classify calls with.
// All names are "leaves" relative to the `numpy` package: "zeros", "linalg.norm",
// "random.rand"; array methods are bare method names ("sum", "item").

#include <QSet>
#include <QString>

namespace cnready::numpy {

/// Full reductions to a scalar when called without an axis: "sum", "max", "mean", "any",
/// "linalg.norm", "allclose", ... (module functions, without the "numpy." prefix).
bool isReduction(const QString& leaf);
/// ndarray methods that reduce without an axis: "sum", "max", "mean", "any", "all", ...
bool isReductionMethod(const QString& method);
/// Allocating constructors: zeros/ones/empty/full and *_like, array/asarray/copy, arange,
/// linspace, logspace, eye, identity, meshgrid, ...
bool isConstructor(const QString& leaf);
/// Element-wise functions (ufuncs and friends: sqrt, exp, add, maximum, where with 3 args,
/// clip, ...) whose result has the kind of their array arguments.
bool isElementwise(const QString& leaf);
/// Calls that return a tuple or list of arrays ("nonzero", "meshgrid", "linalg.qr",
/// "linalg.svd", "histogram", "split", ...). `canonical` is the full "numpy.X" name.
bool returnsArrayTuple(const QString& canonical);
/// NumPy scalar types used as conversions ("float64", "int32", "bool_", ...): host scalars.
bool isScalarType(const QString& leaf);
/// ndarray methods that return a new array ("astype", "copy", "reshape", "ravel", ...).
bool isArrayMethodReturningArray(const QString& method);
/// Names of NumPy module-level functions the model knows (for `from numpy import *`).
QSet<QString> knownFunctionNames();
/// Whether a canonical dotted name (of any module) goes through a module's metadata attribute
/// (`scipy.__version__.split`, `numpy.__file__`): reading a version string or a path is no
/// array work and crosses no boundary, so neither rules nor evidence count it.
bool throughModuleMetadata(const QString& canonical);
/// The default of the `order` keyword in NumPy's signature of `leaf` ("C" for `zeros`,
/// `reshape`, `ravel`; "K" for `array`, `asarray`, `copy`, the `*_like` constructors), as a
/// module function or, with `method`, as an ndarray method (`ndarray.copy` is "C" where
/// `np.copy` is "K"); empty when NumPy has no such keyword or no fixed default. Source: the
/// numpy.org reference page of each function.
QString defaultOrder(const QString& leaf, bool method);
/// defaultOrder() of a call by its canonical name: an ndarray method when the name is
/// `numpy.ndarray.*` or empty (a method on a receiver judged an array), a module function only
/// when it is `numpy.<leaf>` itself (a submodule's function has no default known); empty
/// otherwise.
QString defaultOrderOfCall(const QString& callName, const QString& leaf);

} // namespace cnready::numpy

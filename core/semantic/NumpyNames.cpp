#include "semantic/NumpyNames.h"

#include <QHash>
#include <QStringList>

#include <algorithm>

namespace cnready::numpy {

namespace {

QSet<QString> setOf(std::initializer_list<const char*> names) {
    QSet<QString> s;
    for (const char* n : names)
        s.insert(QString::fromLatin1(n));
    return s;
}

const QSet<QString>& reductions() {
    static const QSet<QString> s =
        setOf({"sum",           "prod",          "mean",        "average",     "median",
               "std",           "var",           "max",         "min",         "amax",
               "amin",          "nanmax",        "nanmin",      "nansum",      "nanprod",
               "nanmean",       "nanstd",        "nanvar",      "nanmedian",   "ptp",
               "any",           "all",           "argmax",      "argmin",      "nanargmax",
               "nanargmin",     "count_nonzero", "linalg.norm", "linalg.det",  "linalg.matrix_rank",
               "linalg.cond",   "trace",         "vdot",        "percentile",  "quantile",
               "nanpercentile", "nanquantile",   "allclose",    "array_equal", "array_equiv",
               "alltrue",       "sometrue"});
    return s;
}

const QSet<QString>& reductionMethods() {
    static const QSet<QString> s = setOf({"sum", "prod", "mean", "std", "var", "max", "min", "any",
                                          "all", "argmax", "argmin", "ptp", "trace"});
    return s;
}

const QSet<QString>& constructors() {
    static const QSet<QString> s =
        setOf({"zeros",          "ones",       "empty",      "full",
               "zeros_like",     "ones_like",  "empty_like", "full_like",
               "array",          "asarray",    "asanyarray", "ascontiguousarray",
               "asfortranarray", "copy",       "arange",     "linspace",
               "logspace",       "geomspace",  "eye",        "identity",
               "meshgrid",       "mgrid",      "ogrid",      "indices",
               "fromfunction",   "frombuffer", "fromiter",   "diag",
               "diagflat",       "tri",        "tril",       "triu",
               "vander",         "loadtxt",    "genfromtxt", "load",
               "fromfile"});
    return s;
}

const QSet<QString>& elementwise() {
    static const QSet<QString> s = setOf(
        {"add",         "subtract",      "multiply",    "divide",     "true_divide", "floor_divide",
         "power",       "float_power",   "mod",         "remainder",  "fmod",        "negative",
         "positive",    "absolute",      "abs",         "fabs",       "sign",        "sqrt",
         "cbrt",        "square",        "exp",         "exp2",       "expm1",       "log",
         "log2",        "log10",         "log1p",       "sin",        "cos",         "tan",
         "arcsin",      "arccos",        "arctan",      "arctan2",    "sinh",        "cosh",
         "tanh",        "arcsinh",       "arccosh",     "arctanh",    "asin",        "acos",
         "atan",        "atan2",         "hypot",       "degrees",    "radians",     "deg2rad",
         "rad2deg",     "floor",         "ceil",        "trunc",      "rint",        "round",
         "around",      "fix",           "maximum",     "minimum",    "fmax",        "fmin",
         "clip",        "where",         "logical_and", "logical_or", "logical_not", "logical_xor",
         "bitwise_and", "bitwise_or",    "bitwise_xor", "invert",     "left_shift",  "right_shift",
         "greater",     "greater_equal", "less",        "less_equal", "equal",       "not_equal",
         "isnan",       "isinf",         "isfinite",    "isclose",    "real",        "imag",
         "conj",        "conjugate",     "angle",       "reciprocal", "heaviside",   "copysign",
         "nan_to_num",  "sinc",          "logaddexp",   "logaddexp2", "signbit",     "ldexp",
         "gcd",         "lcm",           "interp",      "nextafter",  "spacing",     "i0",
         "isreal",      "iscomplex",     "isneginf",    "isposinf",   "bitwise_not"});
    return s;
}

const QSet<QString>& arrayTuples() {
    static const QSet<QString> s = setOf({"numpy.nonzero",
                                          "numpy.meshgrid",
                                          "numpy.linalg.qr",
                                          "numpy.linalg.svd",
                                          "numpy.linalg.eig",
                                          "numpy.linalg.eigh",
                                          "numpy.linalg.slogdet",
                                          "numpy.linalg.lstsq",
                                          "numpy.histogram",
                                          "numpy.histogram2d",
                                          "numpy.histogramdd",
                                          "numpy.unique",
                                          "numpy.gradient",
                                          "numpy.divmod",
                                          "numpy.modf",
                                          "numpy.frexp",
                                          "numpy.broadcast_arrays",
                                          "numpy.split",
                                          "numpy.array_split",
                                          "numpy.hsplit",
                                          "numpy.vsplit",
                                          "numpy.dsplit",
                                          "numpy.indices",
                                          "numpy.unravel_index",
                                          "numpy.tril_indices",
                                          "numpy.triu_indices",
                                          "numpy.diag_indices",
                                          "numpy.atleast_1d",
                                          "numpy.atleast_2d",
                                          "numpy.atleast_3d",
                                          "numpy.polyfit",
                                          "numpy.ix_"});
    return s;
}

const QSet<QString>& scalarTypes() {
    static const QSet<QString> s =
        setOf({"float16", "float32", "float64", "float128", "longdouble", "double", "single",
               "half", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
               "intp", "uintp", "int_", "uint", "bool_", "bool", "complex64", "complex128",
               "complex_", "float_", "longlong", "ulonglong", "short", "ushort", "intc", "uintc",
               "byte", "ubyte", "csingle", "cdouble",
               // Text scalars (`np.string_(b"")`, `np.str_(s)`): one bytes or str value.
               "string_", "bytes_", "str_", "unicode_"});
    return s;
}

const QSet<QString>& arrayMethods() {
    static const QSet<QString> s =
        setOf({"astype",       "copy",     "reshape",  "ravel",        "flatten",   "transpose",
               "swapaxes",     "squeeze",  "clip",     "round",        "conj",      "conjugate",
               "cumsum",       "cumprod",  "dot",      "take",         "repeat",    "view",
               "diagonal",     "argsort",  "compress", "searchsorted", "choose",    "byteswap",
               "newbyteorder", "getfield", "__copy__", "__deepcopy__", "__array__", "__abs__",
               "__neg__"});
    return s;
}

} // namespace

bool isReduction(const QString& leaf) {
    return reductions().contains(leaf);
}
bool isReductionMethod(const QString& method) {
    return reductionMethods().contains(method);
}
bool isConstructor(const QString& leaf) {
    return constructors().contains(leaf);
}
bool isElementwise(const QString& leaf) {
    return elementwise().contains(leaf);
}
bool returnsArrayTuple(const QString& canonical) {
    return arrayTuples().contains(canonical);
}
bool isScalarType(const QString& leaf) {
    return scalarTypes().contains(leaf);
}
bool isArrayMethodReturningArray(const QString& method) {
    return arrayMethods().contains(method);
}

QSet<QString> knownFunctionNames() {
    QSet<QString> s = reductions() + constructors() + elementwise();
    for (const QString& c : arrayTuples())
        s.insert(c.mid(6));
    s +=
        setOf({"dot",      "matmul",       "einsum",       "tensordot", "inner",       "outer",
               "kron",     "cross",        "concatenate",  "stack",     "hstack",      "vstack",
               "dstack",   "column_stack", "append",       "reshape",   "ravel",       "transpose",
               "swapaxes", "moveaxis",     "roll",         "flip",      "fliplr",      "flipud",
               "rot90",    "tile",         "repeat",       "sort",      "argsort",     "cumsum",
               "cumprod",  "diff",         "convolve",     "correlate", "vectorize",   "frompyfunc",
               "nditer",   "ndindex",      "ndenumerate",  "take",      "put",         "putmask",
               "choose",   "select",       "searchsorted", "argwhere",  "flatnonzero", "pad",
               "squeeze",  "expand_dims",  "broadcast_to", "isscalar",  "ndim",        "shape",
               "size"});
    s.remove(QStringLiteral("linalg.norm"));
    s.remove(QStringLiteral("linalg.det"));
    s.remove(QStringLiteral("linalg.matrix_rank"));
    s.remove(QStringLiteral("linalg.cond"));
    return s;
}

bool throughModuleMetadata(const QString& canonical) {
    static const QSet<QString> metadata = {
        QStringLiteral("__version__"), QStringLiteral("__file__"),   QStringLiteral("__name__"),
        QStringLiteral("__path__"),    QStringLiteral("__doc__"),    QStringLiteral("__spec__"),
        QStringLiteral("__package__"), QStringLiteral("__loader__"), QStringLiteral("__all__")};
    if (!canonical.contains(QLatin1String(".__")))
        return false;
    const QStringList parts = canonical.split(QLatin1Char('.'));
    return std::any_of(parts.cbegin() + 1, parts.cend(),
                       [](const QString& p) { return metadata.contains(p); });
}

QString defaultOrder(const QString& leaf, bool method) {
    static const QHash<QString, QString> functions = {
        {QStringLiteral("reshape"), QStringLiteral("C")},
        {QStringLiteral("ravel"), QStringLiteral("C")},
        {QStringLiteral("zeros"), QStringLiteral("C")},
        {QStringLiteral("ones"), QStringLiteral("C")},
        {QStringLiteral("empty"), QStringLiteral("C")},
        {QStringLiteral("full"), QStringLiteral("C")},
        {QStringLiteral("ravel_multi_index"), QStringLiteral("C")},
        {QStringLiteral("unravel_index"), QStringLiteral("C")},
        {QStringLiteral("array"), QStringLiteral("K")},
        {QStringLiteral("asarray"), QStringLiteral("K")},
        {QStringLiteral("copy"), QStringLiteral("K")},
        {QStringLiteral("zeros_like"), QStringLiteral("K")},
        {QStringLiteral("ones_like"), QStringLiteral("K")},
        {QStringLiteral("empty_like"), QStringLiteral("K")},
        {QStringLiteral("full_like"), QStringLiteral("K")},
    };
    static const QHash<QString, QString> methods = {
        {QStringLiteral("reshape"), QStringLiteral("C")},
        {QStringLiteral("ravel"), QStringLiteral("C")},
        {QStringLiteral("flatten"), QStringLiteral("C")},
        {QStringLiteral("copy"), QStringLiteral("C")},
        {QStringLiteral("astype"), QStringLiteral("K")},
    };
    return (method ? methods : functions).value(leaf);
}

QString defaultOrderOfCall(const QString& callName, const QString& leaf) {
    const bool method = callName.isEmpty() || callName.startsWith(QLatin1String("numpy.ndarray."));
    if (!method && callName != QLatin1String("numpy.") + leaf)
        return {};
    return defaultOrder(leaf, method);
}

} // namespace cnready::numpy

#include "semantic/Shapes.h"

#include "parse/SyntaxTree.h"
#include "semantic/Literals.h"
#include "semantic/ModelInternals.h"
#include "semantic/NumpyNames.h"
#include "semantic/SemanticModel.h"

#include <QStringList>
#include <QVarLengthArray>

#include <algorithm>
#include <optional>
#include <span>
#include <unordered_map>

namespace cnready {

// ---- The model's shape queries (created on the first one) -----------------------------------

Shape SemanticModel::shapeOf(TSNode expr) const {
    if (!m_shapes)
        m_shapes = std::make_unique<ShapeEngine>(*this);
    return m_shapes->shapeOf(expr);
}

Extent SemanticModel::extentOf(TSNode intExpr) const {
    if (!m_shapes)
        m_shapes = std::make_unique<ShapeEngine>(*this);
    return m_shapes->extentOf(intExpr);
}

SizeClass SemanticModel::extentClass(TSNode intExpr) const {
    return extentOf(intExpr).size;
}

SizeClass SemanticModel::arraySizeClass(TSNode expr) const {
    return shapeOf(expr).sizeClass();
}

bool SemanticModel::isBookkeepingArray(TSNode expr) const {
    return arraySizeClass(expr) == SizeClass::Small;
}

ElementKind SemanticModel::elementKind(TSNode expr) const {
    if (!m_shapes)
        m_shapes = std::make_unique<ShapeEngine>(*this);
    return m_shapes->elementKind(expr);
}

bool SemanticModel::holdsNonNumeric(TSNode expr) const {
    const ElementKind k = elementKind(expr);
    return k == ElementKind::String || k == ElementKind::Object;
}

namespace {
bool stringArrayName(std::string_view name); // below, with the other names of arrays
} // namespace

bool SemanticModel::isTextArrayName(std::string_view name) {
    return stringArrayName(name);
}

// ---- Size classes, extents and shapes -------------------------------------------------------

SizeClass literalClass(qint64 value) {
    if (value < 0)
        return SizeClass::Unknown;
    return value <= kSmallLiteral ? SizeClass::Small : SizeClass::Data;
}

SizeClass joinClass(SizeClass a, SizeClass b) {
    if (a == SizeClass::Data || b == SizeClass::Data)
        return SizeClass::Data;
    if (a == SizeClass::Small && b == SizeClass::Small)
        return SizeClass::Small;
    return SizeClass::Unknown;
}

int randomDrawSizePosition(const QString& leaf) {
    static const QStringList first = {
        QStringLiteral("rand"),
        QStringLiteral("randn"),
        QStringLiteral("random"),
        QStringLiteral("random_sample"),
        QStringLiteral("ranf"),
        QStringLiteral("sample"),
        QStringLiteral("standard_normal"),
        QStringLiteral("standard_exponential"),
        QStringLiteral("standard_cauchy"),
        QStringLiteral("permutation"),
    };
    static const QStringList second = {
        QStringLiteral("standard_gamma"), QStringLiteral("standard_t"), QStringLiteral("chisquare"),
        QStringLiteral("exponential"),    QStringLiteral("poisson"),    QStringLiteral("rayleigh"),
        QStringLiteral("geometric"),      QStringLiteral("choice"),
    };
    static const QStringList third = {
        QStringLiteral("normal"),   QStringLiteral("uniform"),   QStringLiteral("randint"),
        QStringLiteral("integers"), QStringLiteral("binomial"),  QStringLiteral("gamma"),
        QStringLiteral("beta"),     QStringLiteral("lognormal"), QStringLiteral("laplace"),
        QStringLiteral("logistic"), QStringLiteral("gumbel"),    QStringLiteral("multinomial"),
    };
    if (first.contains(leaf))
        return 0;
    if (second.contains(leaf))
        return 1;
    if (third.contains(leaf))
        return 2;
    return -1;
}

Extent Extent::literal(qint64 v) {
    Extent e;
    e.kind = Kind::Literal;
    e.value = v;
    e.size = literalClass(v);
    return e;
}

Extent Extent::symbolic(std::string_view text, SizeClass c) {
    Extent e;
    e.kind = Kind::Symbol;
    e.symbol = text;
    e.size = c;
    return e;
}

namespace {
constexpr qint64 kLiteralLimit = qint64(1) << 40; // products beyond are not kept as literals
}

Extent Extent::product(const Extent& a, const Extent& b) {
    if (a.isLiteral() && b.isLiteral() && a.value >= 0 && b.value >= 0 &&
        (a.value == 0 || b.value <= kLiteralLimit / std::max<qint64>(a.value, 1)))
        return literal(a.value * b.value);
    if (a.isLiteral(1))
        return b;
    if (b.isLiteral(1))
        return a;
    Extent e;
    e.kind = (a.kind == Kind::Unknown || b.kind == Kind::Unknown) ? Kind::Unknown : Kind::Product;
    e.value = (a.isLiteral() ? a.value : 1) * (b.isLiteral() ? b.value : 1);
    e.symbol = !a.isLiteral() ? a.symbol : b.symbol;
    // A product of a data extent and anything non-zero is data; of two small ones, at most
    // kSmallLiteral² (still at the Gate 2 floor): small.
    e.size = joinClass(a.size, b.size);
    if (a.size == SizeClass::Data || b.size == SizeClass::Data)
        e.size = SizeClass::Data;
    return e;
}

Extent Extent::sum(const Extent& a, const Extent& b) {
    if (a.isLiteral() && b.isLiteral() && a.value >= 0 && b.value >= 0)
        return literal(a.value + b.value);
    Extent e;
    e.kind = (a.kind == Kind::Unknown || b.kind == Kind::Unknown) ? Kind::Unknown : Kind::Product;
    e.value = 1;
    e.symbol = !a.isLiteral() ? a.symbol : b.symbol;
    e.size = joinClass(a.size, b.size);
    return e;
}

bool Extent::sameAs(const Extent& o) const {
    if (kind != o.kind || size != o.size)
        return false;
    if (kind == Kind::Literal)
        return value == o.value;
    if (kind == Kind::Unknown)
        return false;
    return value == o.value && symbol == o.symbol && !symbol.empty();
}

QString Extent::toString() const {
    switch (kind) {
    case Kind::Literal:
        return QString::number(value);
    case Kind::Symbol:
        return QString::fromUtf8(symbol.data(), qsizetype(symbol.size()));
    case Kind::Product: {
        QString s = QString::fromUtf8(symbol.data(), qsizetype(symbol.size()));
        if (value != 1)
            s += QStringLiteral("·") + QString::number(value);
        return s + QStringLiteral("·…");
    }
    case Kind::Unknown:
        break;
    }
    switch (size) {
    case SizeClass::Small:
        return QStringLiteral("?small");
    case SizeClass::Data:
        return QStringLiteral("?data");
    case SizeClass::Unknown:
        break;
    }
    return QStringLiteral("?");
}

Shape Shape::vector(const Extent& e) {
    Shape s;
    s.rank = 1;
    s.axes[0] = e;
    return s;
}

Extent Shape::axis(int k) const {
    if (rank < 0)
        return Extent::unknown();
    if (k < 0)
        k += rank;
    if (k < 0 || k >= rank || k >= kMaxAxes)
        return Extent::unknown();
    return axes[size_t(k)];
}

void Shape::setAxis(int k, const Extent& e) {
    if (k >= 0 && k < kMaxAxes)
        axes[size_t(k)] = e;
}

Extent Shape::size() const {
    if (rank < 0)
        return Extent::unknown(unknownRankClass);
    Extent e = Extent::literal(1);
    for (int k = 0; k < rank; ++k)
        e = Extent::product(e, axis(k));
    return e;
}

SizeClass Shape::sizeClass() const {
    if (rank < 0)
        return unknownRankClass;
    SizeClass c = SizeClass::Small;
    for (int k = 0; k < rank; ++k) {
        const SizeClass a = axis(k).size;
        if (a == SizeClass::Data)
            return SizeClass::Data;
        if (a == SizeClass::Unknown)
            c = SizeClass::Unknown;
    }
    return c;
}

Shape Shape::dropAxis(int k) const {
    if (rank < 0)
        return Shape::unknown();
    if (k < 0)
        k += rank;
    if (k < 0 || k >= rank)
        return Shape::unknown();
    Shape s;
    s.rank = qint8(rank - 1);
    s.element = element;
    for (int i = 0, j = 0; i < rank; ++i)
        if (i != k)
            s.setAxis(j++, axis(i));
    return s;
}

Shape Shape::transposed() const {
    if (rank < 0)
        return *this;
    Shape s = *this;
    for (int i = 0; i < rank; ++i)
        s.setAxis(i, axis(rank - 1 - i));
    return s;
}

QString Shape::toString() const {
    QString s;
    if (rank < 0) {
        s = QStringLiteral("<unknown>");
        if (unknownRankClass == SizeClass::Small)
            s += QStringLiteral(":small");
        else if (unknownRankClass == SizeClass::Data)
            s += QStringLiteral(":data");
    } else {
        s = QStringLiteral("(");
        for (int k = 0; k < rank; ++k) {
            if (k)
                s += QStringLiteral(", ");
            s += axis(k).toString();
        }
        if (rank == 1)
            s += QLatin1Char(',');
        s += QLatin1Char(')');
    }
    if (element == ElementKind::String)
        s += QStringLiteral(" str");
    else if (element == ElementKind::Object)
        s += QStringLiteral(" object");
    else if (element == ElementKind::Bool)
        s += QStringLiteral(" bool");
    return s;
}

namespace {
QChar classLetter(SizeClass c) {
    return c == SizeClass::Small  ? QLatin1Char('S')
           : c == SizeClass::Data ? QLatin1Char('D')
                                  : QLatin1Char('U');
}
SizeClass classOfLetter(QChar c) {
    return c == QLatin1Char('S')   ? SizeClass::Small
           : c == QLatin1Char('D') ? SizeClass::Data
                                   : SizeClass::Unknown;
}
} // namespace

QString Shape::toSummary() const {
    if (rank < 0)
        return QStringLiteral("U:") + classLetter(unknownRankClass);
    QString s = QString::number(rank);
    for (int k = 0; k < rank; ++k) {
        const Extent e = axis(k);
        s += QLatin1Char(':');
        s += classLetter(e.size);
        if (e.isLiteral())
            s += QLatin1Char('=') + QString::number(e.value);
        else if (e.parameter >= 0) {
            s += QLatin1Char('@') + QString::number(e.parameter);
            if (e.parameterAxis >= 0)
                s += QLatin1Char('.') + QString::number(e.parameterAxis);
        }
    }
    return s;
}

Shape Shape::fromSummary(QStringView text) {
    const auto parts = text.split(QLatin1Char(':'));
    if (parts.isEmpty())
        return Shape::unknown();
    if (parts[0] == QLatin1String("U"))
        return Shape::unknown(parts.size() > 1 && !parts[1].isEmpty() ? classOfLetter(parts[1][0])
                                                                      : SizeClass::Unknown);
    bool ok = false;
    const int rank = parts[0].toInt(&ok);
    if (!ok || rank < 0 || rank > 64 || parts.size() != rank + 1)
        return Shape::unknown();
    Shape s;
    s.rank = qint8(rank);
    for (int k = 0; k < rank; ++k) {
        const QStringView p = parts[k + 1];
        if (p.isEmpty())
            return Shape::unknown();
        Extent e = Extent::unknown(classOfLetter(p[0]));
        if (p.size() > 1 && p[1] == QLatin1Char('=')) {
            const qint64 v = p.mid(2).toLongLong(&ok);
            if (ok)
                e = Extent::literal(v);
        } else if (p.size() > 1 && p[1] == QLatin1Char('@')) {
            const auto ref = p.mid(2).split(QLatin1Char('.'));
            e.parameter = qint8(ref[0].toInt());
            if (ref.size() > 1)
                e.parameterAxis = qint8(ref[1].toInt());
        }
        s.setAxis(k, e);
    }
    return s;
}

namespace {
Extent broadcastExtent(const Extent& a, const Extent& b) {
    if (a.isLiteral(1))
        return b;
    if (b.isLiteral(1))
        return a;
    if (a.sameAs(b))
        return a;
    if (a.kind == Extent::Kind::Unknown && b.kind != Extent::Kind::Unknown)
        return b;
    if (b.kind == Extent::Kind::Unknown && a.kind != Extent::Kind::Unknown)
        return a;
    // Two different known extents that must be equal at run time (or one is 1): keep the one
    // that says more about the size.
    if (a.size == SizeClass::Data)
        return a;
    if (b.size == SizeClass::Data)
        return b;
    return Extent::unknown(joinClass(a.size, b.size));
}

ElementKind joinElement(ElementKind a, ElementKind b) {
    if (a == b)
        return a;
    if (a == ElementKind::Unknown)
        return b;
    if (b == ElementKind::Unknown)
        return a;
    return ElementKind::Numeric;
}
} // namespace

Shape Shape::broadcast(const Shape& a, const Shape& b) {
    if (a.rank == 0 && b.rank >= 0)
        return b;
    if (b.rank == 0 && a.rank >= 0)
        return a;
    if (a.rank < 0 || b.rank < 0) {
        // The known side bounds the size from below.
        // Two bookkeeping arrays broadcast to one: every output extent is one of theirs.
        const SizeClass ca = a.sizeClass(), cb = b.sizeClass();
        Shape s = Shape::unknown(joinClass(ca, cb));
        if (a.rank == 0)
            s = b;
        if (b.rank == 0)
            s = a;
        return s;
    }
    Shape s;
    s.rank = std::max(a.rank, b.rank);
    s.element = joinElement(a.element, b.element);
    for (int k = 1; k <= s.rank; ++k) {
        const Extent ea = k <= a.rank ? a.axis(-k) : Extent::literal(1);
        const Extent eb = k <= b.rank ? b.axis(-k) : Extent::literal(1);
        s.setAxis(s.rank - k, broadcastExtent(ea, eb));
    }
    return s;
}

Shape Shape::merge(const Shape& a, const Shape& b) {
    if (a.rank != b.rank || a.rank < 0) {
        const SizeClass c = joinClass(a.sizeClass(), b.sizeClass());
        Shape s = Shape::unknown(c);
        s.element = a.element == b.element ? a.element : ElementKind::Unknown;
        return s;
    }
    Shape s = a;
    if (a.element != b.element)
        s.element = ElementKind::Unknown;
    for (int k = 0; k < a.rank; ++k) {
        const Extent ea = a.axis(k), eb = b.axis(k);
        if (!ea.sameAs(eb))
            s.setAxis(k, Extent::unknown(joinClass(ea.size, eb.size)));
    }
    return s;
}

// ---- The engine -------------------------------------------------------------------------------

namespace {

// Named children of a node except comments.
QVarLengthArray<TSNode, 8> items(TSNode n) {
    QVarLengthArray<TSNode, 8> out;
    const uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; ++i) {
        const TSNode c = ts_node_named_child(n, i);
        if (!is(c, Sym::comment))
            out.push_back(c);
    }
    return out;
}

// Words of a snake_case or camelCase name, lower-cased: "sigmas_mm" → {sigmas, mm}.
QStringList nameWords(std::string_view name) {
    QStringList out;
    QString cur;
    for (const char ch : name) {
        if (ch == '_') {
            if (!cur.isEmpty())
                out << cur;
            cur.clear();
        } else {
            cur += QChar::fromLatin1(ch).toLower();
        }
    }
    if (!cur.isEmpty())
        out << cur;
    return out;
}

bool inList(const QString& w, std::initializer_list<const char*> list) {
    for (const char* s : list)
        if (w == QLatin1String(s))
            return true;
    return false;
}

// An integer named as a count of few things: dimensions, polynomial order, levels, parameters,
// and the sizes that are small by the domain's own nature though they arrive at run time: a
// model's order and lags (`nlags`, `k_ar`), its equations and state vector (`neqs`, `k_endog`,
// `k_states`: statsmodels' `k_*` convention counts model terms), spline knots, clusters, classes,
// components and spectral bands, the peaks of a fit, the layers of a wall or a stack and the
// folds of a cross-validation (`n_splits`, `n_folds`: five or ten, whatever the data). An
// expert reads `range(neqs)` as a handful of passes; the data is the observations these terms
// are fitted to.
bool smallCountName(std::string_view name) {
    const QStringList w = nameWords(name);
    if (w.isEmpty())
        return false;
    const QString whole = w.join(QString());
    if (inList(whole,
               {"ndim",     "ndims",     "dim",        "dims",       "naxes",    "naxis",
                "order",    "degree",    "deg",        "nlevels",    "nlevel",   "nlev",
                "levels",   "nparams",   "nparam",     "npar",       "ncoords",  "ncomponents",
                "ncomp",    "nchannels", "nspecies",   "nsides",     "porder",   "nderiv",
                "nder",     "norder",    "rank",       "nvars",      "nvar",     "nstages",
                "noutputs", "ninputs",   "nlags",      "nlag",       "maxlag",   "maxlags",
                "nlagsmax", "neqs",      "neq",        "nequations", "nknots",   "nclusters",
                "nclass",   "nclasses",  "nfactors",   "nbands",     "numbands", "nregimes",
                "nstates",  "nendog",    "nexog",      "ncoef",      "ncoefs",   "ncoeffs",
                "nbasis",   "nmodes",    "nharmonics", "nterms",     "ntaps",    "ncategories",
                "radius",   "halfwidth", "kradius",    "npeaks",     "nlayers",  "nsplits",
                "nfolds"}))
        return true;
    // statsmodels' k_ar, k_endog, k_states, k_exog, k_trend: a count of model terms.
    if (w.size() == 2 && w.first() == QLatin1String("k") &&
        !inList(w.last(), {"size", "len", "length", "count", "points", "samples", "rows", "cols",
                           "obs", "nobs", "cells", "elements", "pixels", "voxels", "steps"}))
        return true;
    // n_levels, num_dims, poly_order, max_degree, n_lags, max_lags, n_clusters
    const QString& last = w.last();
    return inList(last,
                  {"ndim",      "ndims",  "dims",      "order",   "degree",     "deg",   "levels",
                   "params",    "stages", "coords",    "axes",    "lags",       "lag",   "eqs",
                   "equations", "knots",  "clusters",  "classes", "components", "bands", "factors",
                   "regimes",   "states", "harmonics", "modes",   "terms",      "taps",  "coefs",
                   "coeffs",    "peaks",  "layers",    "splits",  "folds"}) &&
           (w.size() == 1 || inList(w.first(), {"n", "num", "max", "poly", "spline", "filter",
                                                "interp", "deriv", "n_", "nb", "number"}));
}

// A name that reads as a scalar tolerance: eps, epsilon, tol, atol, rtol, thresh, threshold.
bool toleranceName(std::string_view name) {
    const QStringList w = nameWords(name);
    return w.size() == 1 && inList(w.first(), {"eps", "epsilon", "tol", "atol", "rtol", "thresh",
                                               "threshold", "tolerance"});
}

// A constant named as a size: N, NX, N_ROWS, GRID_SIZE, NUM_POINTS, LENGTH.
bool sizeName(std::string_view name) {
    const QStringList w = nameWords(name);
    if (w.isEmpty())
        return false;
    const QString whole = w.join(QString());
    if (inList(whole, {"n",         "nx",       "ny",     "nz",      "nt",         "npts",
                       "npoints",   "nsamples", "nrows",  "ncols",   "ncells",     "nelem",
                       "nelements", "ngrid",    "nsteps", "nbodies", "nparticles", "size",
                       "length",    "len",      "count",  "m"}))
        return true;
    const QString& last = w.last();
    if (inList(last, {"size", "len", "length", "count", "points", "samples", "rows", "cols",
                      "cells", "elements", "particles", "bodies", "pixels", "voxels"}))
        return true;
    return w.size() >= 2 && inList(w.first(), {"n", "num", "nb"});
}

// An array parameter named as a few per-axis or per-tap values: sigmas, taps, exponents,
// an axes tuple, a voxel spacing. Its length is a count of axes or taps, not data.
bool smallArrayName(std::string_view name) {
    const QStringList w = nameWords(name);
    if (w.isEmpty())
        return false;
    const auto small = [](const QString& s) {
        return inList(s,
                      {"sigma",     "sigmas",      "zoom",    "taps",       "tap",       "axes",
                       "exponents", "powers",      "degrees", "orders",     "spacing",   "spacings",
                       "zooms",     "voxelsize",   "shape",   "newshape",   "strides",   "dims",
                       "origin",    "sampling",    "pixdim",  "resolution", "bounds",    "extent",
                       "quantiles", "percentiles", "box",     "quaternion", "quat",      "euler",
                       "direction", "fractions",   "splits",  "folds",      "dimensions"});
    };
    return small(w.first()) || small(w.last()) || small(w.join(QString()));
}

// A parameter or name that holds strings: paths, names, labels, file names, types, symbols,
// chain and segment identifiers. The last word decides; it may also end in one of the plural
// nouns of text (`atomnames`, `resnames`, `varlabels`, `dtypes`). Not `ids`, `resids` or
// `keys`: an array so named usually holds numbers (`ids: np.ndarray` iterated, a key looked up
// in a dict). A count (`n_names`, `num_labels`) is a number.
bool stringArrayName(std::string_view name) {
    const QStringList w = nameWords(name);
    if (w.isEmpty() || inList(w.first(), {"n", "num"}))
        return false;
    const QString& last = w.last();
    if (inList(last,
               {"paths", "filenames", "fnames", "files", "outfiles", "infiles", "suffixes",
                "prefixes", "extensions", "colnames", "texts", "tokens", "chainids", "segids"}))
        return true;
    for (const char* tail :
         {"names", "labels", "types", "symbols", "strings", "tags", "titles", "words"})
        if (last.endsWith(QLatin1String(tail)))
            return true;
    return false;
}

bool isStringLiteral(TSNode n) {
    n = unparen(n);
    return is(n, Sym::string) || is(n, Sym::concatenated_string);
}

// A string literal, or a tuple/list/set whose items are all string literals.
bool isStringConstant(TSNode n) {
    n = unparen(n);
    if (isStringLiteral(n))
        return true;
    if (is(n, Sym::tuple) || is(n, Sym::list) || is(n, Sym::set)) {
        const auto it = items(n);
        if (it.isEmpty())
            return false;
        return std::all_of(it.begin(), it.end(), [](TSNode c) { return isStringLiteral(c); });
    }
    return false;
}

ElementKind dtypeKind(std::string_view t) {
    if (t == "str" || t == "np.str_" || t == "numpy.str_" || t == "bytes" || t == "np.bytes_" ||
        t == "np.unicode_")
        return ElementKind::String;
    if (t.size() >= 3 && (t[0] == '"' || t[0] == '\'')) {
        const std::string_view in = t.substr(1, t.size() - 2);
        if (!in.empty() && (in[0] == 'U' || in[0] == 'S' || in.substr(0, 2) == "<U" ||
                            in.substr(0, 2) == "|S" || in == "str"))
            return ElementKind::String;
        if (in == "O" || in == "object")
            return ElementKind::Object;
        if (in == "bool" || in == "?")
            return ElementKind::Bool;
        return ElementKind::Numeric;
    }
    if (t == "object" || t == "np.object_" || t == "numpy.object_")
        return ElementKind::Object;
    if (t == "bool" || t == "np.bool_" || t == "np.bool" || t == "numpy.bool_")
        return ElementKind::Bool;
    return ElementKind::Unknown;
}

bool isReductionLeaf(const QString& leaf) {
    return numpy::isReduction(leaf) || leaf == QLatin1String("cumsum") ||
           leaf == QLatin1String("cumprod") || leaf == QLatin1String("nancumsum");
}

} // namespace

// The shape memo of one file: a NodeMemo of 4-byte codes (16-byte cells) instead of whole
// 136-byte Shapes in cells kept at most half full. A plain unknown shape (no rank, no element
// kind, nothing on any axis; most answers in a large module) is stored as its size class in
// the code alone; any other shape once in a dense list. On a generated 20,000-line module the
// memo held 14.2 MB of the analysis's 48 MB heap peak (massif); the answers are the same.
namespace {
class ShapeMemo {
public:
    const Shape* find(const void* key) const {
        const quint32* code = m_codes.find(key);
        if (!code)
            return nullptr;
        if (*code >= kPlainBase)
            return &plain(SizeClass(*code - kPlainBase));
        return &m_values[*code / kChunk][*code % kChunk];
    }
    void insert(const void* key, const Shape& v) {
        if (isPlainUnknown(v)) {
            m_codes.insert(key, kPlainBase + quint32(v.unknownRankClass));
            return;
        }
        if (m_count % kChunk == 0)
            m_values.push_back(std::make_unique<Shape[]>(kChunk));
        m_values.back()[m_count % kChunk] = v;
        m_codes.insert(key, m_count++);
    }

private:
    static constexpr quint32 kPlainBase = 0xFFFFFFF0u;
    static bool isPlainUnknown(const Shape& s) {
        if (s.rank >= 0 || s.element != ElementKind::Unknown)
            return false;
        for (const Extent& e : s.axes)
            if (e.kind != Extent::Kind::Unknown || e.size != SizeClass::Unknown ||
                e.parameter != -1 || e.parameterAxis != -1 || e.value != 0 || !e.symbol.empty())
                return false;
        return true;
    }
    static const Shape& plain(SizeClass c) {
        static const Shape all[3] = {Shape::unknown(SizeClass::Unknown),
                                     Shape::unknown(SizeClass::Small),
                                     Shape::unknown(SizeClass::Data)};
        return all[int(c)];
    }
    model_internals::NodeMemo<quint32> m_codes;
    // The stored shapes in chunks of kChunk: a list grown by doubling held up to twice them
    // (10.5 MB for ~45,000 shapes on a generated 100,000-line module).
    static constexpr quint32 kChunk = 512;
    std::vector<std::unique_ptr<Shape[]>> m_values;
    quint32 m_count = 0;
};
} // namespace

struct ShapeEngine::Impl {
    const SemanticModel& m;
    // Per-node caches (open addressing, no allocation per entry).
    ShapeMemo shapes;
    model_internals::NodeMemo<Extent> extents;
    model_internals::NodeMemo<ElementKind> elements;
    // Names being resolved (first binding index) with what is known of them so far: a
    // binding that reads the name itself (`x = x[1:]`) sees the earlier bindings' shape.
    struct Pending {
        int binding;
        Shape shape;
    };
    std::vector<Pending> pendingShapes;
    std::vector<int> pendingExtents;
    std::vector<const void*> active; // call/return chains being evaluated (cycle guard)
    // Reads of a partial answer (a pending name, a function whose returns are being
    // evaluated): a result computed while this grew is not cached.
    int partialReads = 0;
    // Per function index: the sorted names truthTested() accepts there (built on first use).
    std::vector<std::optional<std::vector<std::string_view>>> truthNames;
    // A validation guard that pins a name's extents (`if box.shape != (6,): raise`,
    // `assert len(v) == 3`): from the end of the guard on, the name has those extents.
    struct Pin {
        std::string_view name;
        uint32_t from = 0;   ///< end byte of the guard
        int axis = -1;       ///< -1: the whole shape (`extents` is every axis)
        bool length = false; ///< from `len(x)`: a 1-D array when nothing else says its rank
        QVarLengthArray<qint64, 4> extents;
    };
    // Per function index: its guards' pins (built on first use).
    std::vector<std::optional<std::vector<Pin>>> pins;
    const std::vector<Pin>& pinsOf(const FunctionRegion& f);
    void collectPins(TSNode cond, bool equalPins, uint32_t from, std::vector<Pin>& out);
    Shape pinned(TSNode id, Shape acc);

    explicit Impl(const SemanticModel& model) : m(model) {}

    std::string_view text(TSNode n) const { return m.text(n); }

    // The memo of the engine's lazy queries (shape, extent, element kind): the cached answer
    // for `n`, else what `compute` gives, cached unless it read a partial answer.
    template <class V, class Compute>
    V memoized(model_internals::NodeMemo<V>& memo, TSNode n, Compute&& compute) {
        if (const V* hit = memo.find(n.id))
            return *hit;
        const int before = partialReads;
        const V v = compute();
        if (partialReads == before && !memo.find(n.id)) {
            memo.insert(n.id, v);
            ++memoInserts;
        }
        return v;
    }

    // Answers of shape() that read a partial answer, keyed by everything such a computation
    // depends on: the node, the depth, the pending names (with what is known of them so far)
    // and active call chains, and the number of entries the memos hold (they only grow, so an
    // equal count means equal contents). With an equal key the computation would run the same
    // steps again and cache nothing new (it cached nothing the first time, or the count
    // would have moved on), so its answer is reused; without this, functions that call each
    // other re-evaluated every return along every call path (exponential in the chain).
    struct KeyHash {
        size_t operator()(const std::vector<quint64>& k) const {
            quint64 h = 0x9E3779B97F4A7C15ull;
            for (const quint64 w : k)
                h = (h ^ w) * 0x100000001B3ull;
            return size_t(h ^ (h >> 29));
        }
    };
    std::unordered_map<std::vector<quint64>, Shape, KeyHash> partialShapes;
    quint64 memoInserts = 0;

    static void appendShape(std::vector<quint64>& k, const Shape& s) {
        k.push_back(quint64(quint8(s.rank)) | quint64(s.element) << 8 |
                    quint64(s.unknownRankClass) << 16);
        for (const Extent& e : s.axes) {
            k.push_back(quint64(e.kind) | quint64(e.size) << 8 |
                        quint64(quint8(e.parameter)) << 16 |
                        quint64(quint8(e.parameterAxis)) << 24);
            k.push_back(quint64(e.value));
            k.push_back(quint64(reinterpret_cast<uintptr_t>(e.symbol.data())));
            k.push_back(quint64(e.symbol.size()));
        }
    }
    std::vector<quint64> stateKey(TSNode n, int depth) const {
        std::vector<quint64> k;
        k.reserve(4 + active.size() + pendingExtents.size() + 18 * pendingShapes.size());
        k.push_back(quint64(reinterpret_cast<uintptr_t>(n.id)));
        k.push_back(quint64(uint32_t(depth)));
        k.push_back(memoInserts);
        k.push_back(quint64(active.size()) | quint64(pendingShapes.size()) << 20 |
                    quint64(pendingExtents.size()) << 40);
        for (const void* a : active)
            k.push_back(quint64(reinterpret_cast<uintptr_t>(a)));
        for (const int b : pendingExtents)
            k.push_back(quint64(uint32_t(b)));
        for (const Pending& p : pendingShapes) {
            k.push_back(quint64(uint32_t(p.binding)));
            appendShape(k, p.shape);
        }
        return k;
    }

    Shape shape(TSNode n, int depth);
    Shape shapeUncached(TSNode n, int depth);
    Shape nameShape(TSNode id, bool selfAttr, int depth);
    Shape bindingShape(const SemanticModel::NameBinding& b, TSNode id, int depth);
    Shape callShape(TSNode call, int depth);
    Shape numpyShape(TSNode call, const QString& leaf, bool method, TSNode receiver, int depth);
    Shape subscriptShape(TSNode sub, int depth);
    /// The count of a slice `lo:hi:step` whose stop is its start plus a literal (`i:i + 3`),
    /// or -1.
    qint64 sliceWidth(TSNode lo, TSNode hi, TSNode step) const;
    qint64 sliceWidthOf(TSNode slice) const;
    /// A slice's start, stop and step (null where missing).
    std::array<TSNode, 3> sliceParts(TSNode slice) const;
    /// Whether binary operator `op` is the value of `x = x <op> y` inside a loop.
    bool selfUpdate(TSNode op) const;
    /// Whether parameter name `param` has a number literal as its default (`stretch=0.05`).
    bool numberDefault(TSNode param) const;
    Shape shapeFromSpec(TSNode spec, int depth);
    Shape shapeFromDims(TSNode call, int from, int depth);
    Shape sequenceShape(TSNode seq, int depth);
    Shape matmul(const Shape& a, const Shape& b);
    /// The eigenvalues or singular values of a dense decomposition: a vector of Small length.
    /// A dense decomposition costs the cube of the matrix's side, so the matrices programs
    /// decompose are a few thousand wide at most (bands, features, states): their spectrum is
    /// far below Gate 2's 65,536-element floor, a vector to sort and loop over on the host.
    static Shape spectrumShape() { return Shape::vector(Extent::unknown(SizeClass::Small)); }
    Shape reduce(const Shape& s, TSNode call, bool method, const QString& leaf, int depth);
    Shape returnShape(int fn, int depth);
    Extent extent(TSNode n, int depth);
    Extent extentUncached(TSNode n, int depth);
    Extent nameExtent(TSNode id, bool selfAttr, int depth);
    Extent runtimeAxis(TSNode array, int axis, TSNode whole, int depth);
    ElementKind element(TSNode n, int depth);
    ElementKind elementUncached(TSNode n, int depth);
    ElementKind comparedWithStrings(TSNode id);
    bool isParameter(TSNode expr);
    bool grown(TSNode target);
    bool truthTested(TSNode id);

    TSNode arg(TSNode call, int i) const { return SemanticModel::argument(call, i); }
    TSNode kw(TSNode call, std::string_view name) const { return m.keywordArgument(call, name); }
    int argc(TSNode call) const { return SemanticModel::positionalCount(call); }
};

ShapeEngine::ShapeEngine(const SemanticModel& model) : p(std::make_unique<Impl>(model)) {}
ShapeEngine::~ShapeEngine() = default;

Shape ShapeEngine::shapeOf(TSNode expr) {
    const Shape s = p->shape(expr, 0);
    if (p->active.empty() && p->pendingShapes.empty() && p->pendingExtents.empty())
        p->partialShapes.clear(); // a query from outside: its chains are done
    return s;
}

Extent ShapeEngine::extentOf(TSNode intExpr) {
    return p->extent(intExpr, 0);
}

ElementKind ShapeEngine::elementKind(TSNode expr) {
    return p->element(expr, 0);
}

namespace {
constexpr int kMaxDepth = 24;
}

Shape ShapeEngine::Impl::shape(TSNode n, int depth) {
    if (ts_node_is_null(n) || depth > kMaxDepth)
        return Shape::unknown();
    ++t_workCounters.shapeQueries;
    if (const Shape* hit = shapes.find(n.id))
        return *hit;
    std::vector<quint64> key = stateKey(n, depth);
    if (const auto it = partialShapes.find(key); it != partialShapes.end())
        return ++partialReads, it->second;
    const int before = partialReads;
    const Shape v = shapeUncached(n, depth);
    if (partialReads != before) {
        partialShapes.emplace(std::move(key), v);
    } else if (!shapes.find(n.id)) {
        shapes.insert(n.id, v);
        ++memoInserts;
    }
    return v;
}

Shape ShapeEngine::Impl::shapeUncached(TSNode n, int depth) {
    Sym t;
    n = unparen(n, t);
    if (t == Sym::integer || t == Sym::float_ || t == Sym::true_ || t == Sym::false_) {
        Shape s = Shape::scalar();
        s.element = t == Sym::true_ || t == Sym::false_ ? ElementKind::Bool : ElementKind::Numeric;
        return s;
    }
    if (t == Sym::string || t == Sym::concatenated_string) {
        Shape s = Shape::scalar();
        s.element = ElementKind::String;
        return s;
    }
    if (t == Sym::identifier)
        return nameShape(n, false, depth);
    if (t == Sym::list || t == Sym::tuple)
        return sequenceShape(n, depth);
    if (t == Sym::list_comprehension || t == Sym::generator_expression) {
        // One element per iteration of the first `for` clause.
        for (const TSNode c : items(n)) {
            if (!is(c, Sym::for_in_clause))
                continue;
            const TSNode iter = field(c, F().right);
            Extent e;
            const TSNode it = unparen(iter);
            if (is(it, Sym::call) && text(field(it, F().function)) == "range")
                e = extent(arg(it, argc(it) > 1 ? 1 : 0), depth + 1);
            else
                e = shape(iter, depth + 1).axis(0);
            Shape s = Shape::vector(e);
            const TSNode body = field(n, F().body);
            if (isStringLiteral(body) || is(body, Sym::string))
                s.element = ElementKind::String;
            else if (is(unparen(body), Sym::comparison_operator) ||
                     is(unparen(body), Sym::not_operator))
                s.element = ElementKind::Bool;
            return s;
        }
        return Shape::unknown();
    }
    if (t == Sym::unary_operator || t == Sym::not_operator) {
        const TSNode a = field(n, F().argument);
        return shape(a, depth + 1);
    }
    if (t == Sym::binary_operator) {
        const std::string_view op = text(field(n, F().op));
        const Shape l = shape(field(n, F().left), depth + 1);
        const Shape r = shape(field(n, F().right), depth + 1);
        if (op == "@")
            return matmul(l, r);
        if (op == "%" && l.element == ElementKind::String)
            return l; // string formatting
        const Shape b = Shape::broadcast(l, r);
        if (!b.known() && l.known() && selfUpdate(n))
            return l;
        return b;
    }
    if (t == Sym::comparison_operator) {
        const auto it = items(n);
        Shape s = Shape::scalar();
        for (const TSNode c : it) {
            // A bare tolerance (`abs(t) > eps`, `d < tol`) is a number to compare with.
            if (is(c, Sym::identifier) && toleranceName(text(c)))
                continue;
            s = Shape::broadcast(s, shape(c, depth + 1));
        }
        s.element = ElementKind::Bool;
        return s;
    }
    if (t == Sym::boolean_operator)
        return Shape::merge(shape(field(n, F().left), depth + 1),
                            shape(field(n, F().right), depth + 1));
    if (t == Sym::conditional_expression) {
        const auto it = items(n);
        if (it.size() >= 3)
            return Shape::merge(shape(it[0], depth + 1), shape(it[2], depth + 1));
        return Shape::unknown();
    }
    if (t == Sym::subscript)
        return subscriptShape(n, depth);
    if (t == Sym::attribute) {
        const TSNode obj = field(n, F().object);
        const std::string_view a = text(field(n, F().attribute));
        if (is(obj, Sym::identifier) && text(obj) == "self")
            return nameShape(n, true, depth);
        if (a == "T" || a == "mT")
            return shape(obj, depth + 1).transposed();
        if (a == "real" || a == "imag") {
            Shape s = shape(obj, depth + 1);
            if (s.known() || s.sizeClass() != SizeClass::Unknown)
                return s;
            return Shape::unknown();
        }
        if (a == "flat") {
            const Shape s = shape(obj, depth + 1);
            return s.known() ? Shape::vector(s.size()) : Shape::unknown(s.sizeClass());
        }
        if (a == "shape" || a == "strides") {
            const Shape s = shape(obj, depth + 1);
            return s.known() ? Shape::vector(Extent::literal(s.rank))
                             : Shape::vector(Extent::unknown(SizeClass::Small));
        }
        if (a == "ndim" || a == "size" || a == "itemsize" || a == "nbytes")
            return Shape::scalar();
        // `geom.data_shape`, `grid.spacing`: an attribute named as a bookkeeping vector.
        return smallArrayName(a) ? Shape::unknown(SizeClass::Small) : Shape::unknown();
    }
    if (t == Sym::call)
        return callShape(n, depth);
    return Shape::unknown();
}

Shape ShapeEngine::Impl::sequenceShape(TSNode seq, int depth) {
    const auto it = items(seq);
    Shape s = Shape::vector(Extent::literal(it.size()));
    if (it.isEmpty())
        return Shape::unknown(); // `out = []`, filled later with items of any shape
    bool allStrings = true, anyString = false, allNested = true;
    for (const TSNode c : it) {
        if (is(c, Sym::list_splat) || is(c, Sym::parenthesized_list_splat))
            return Shape::vector(Extent::unknown());
        const bool str = isStringLiteral(c);
        allStrings = allStrings && str;
        anyString = anyString || str;
        const TSNode u = unparen(c);
        allNested = allNested && (is(u, Sym::list) || is(u, Sym::tuple));
    }
    if (allStrings)
        s.element = ElementKind::String;
    else if (anyString)
        s.element = ElementKind::Object;
    if (allNested) {
        // Nested literal lists: one axis per level when the rows agree.
        Shape row = shape(it[0], depth + 1);
        for (qsizetype i = 1; i < it.size(); ++i)
            row = Shape::merge(row, shape(it[i], depth + 1));
        if (row.known() && row.rank + 1 <= 64) {
            Shape out;
            out.rank = qint8(row.rank + 1);
            out.element = row.element;
            out.setAxis(0, Extent::literal(it.size()));
            for (int k = 0; k < row.rank; ++k)
                out.setAxis(k + 1, row.axis(k));
            return out;
        }
    } else if (!allStrings) {
        // Items that are arrays themselves (`[a, b]` stacked by np.array): their common shape
        // follows the first axis. Numbers, strings and other host objects are 0-d items; an
        // item of unknown shape leaves the whole unknown (a list of rows of unknown length).
        bool have = false, unknownItem = false;
        SizeClass unknownClass = SizeClass::Unknown;
        Shape row = Shape::scalar();
        for (const TSNode c : it) {
            Shape sc = shape(c, depth + 1);
            if (!sc.known()) {
                const ValueKind k = m.valueKind(c);
                if (k == ValueKind::HostScalar || k == ValueKind::String || k == ValueKind::None ||
                    k == ValueKind::DeviceScalar || k == ValueKind::Object) {
                    sc = Shape::scalar();
                } else {
                    unknownItem = true;
                    if (sc.sizeClass() == SizeClass::Data)
                        unknownClass = SizeClass::Data;
                    continue;
                }
            }
            row = have ? Shape::merge(row, sc) : sc;
            have = true;
        }
        if (unknownItem)
            return Shape::unknown(unknownClass);
        if (row.known() && row.rank > 0) {
            Shape out;
            out.rank = qint8(row.rank + 1);
            out.element = row.element;
            out.setAxis(0, Extent::literal(it.size()));
            for (int k = 0; k < row.rank; ++k)
                out.setAxis(k + 1, row.axis(k));
            return out;
        }
        if (!row.known())
            return Shape::unknown(row.sizeClass());
    }
    return s;
}

Shape ShapeEngine::Impl::nameShape(TSNode id, bool selfAttr, int depth) {
    const std::string_view name = selfAttr ? text(field(id, F().attribute)) : text(id);
    std::array<SemanticModel::NameBinding, 8> bs;
    const int n = m.nameBindings(name, id, selfAttr, bs.data(), int(bs.size()));
    if (n <= 0 || n > int(bs.size()))
        return smallArrayName(name) ? Shape::unknown(SizeClass::Small) : Shape::unknown();
    for (const Pending& p : pendingShapes)
        if (p.binding == bs[0].index)
            return ++partialReads, p.shape;
    pendingShapes.push_back({bs[0].index, Shape::unknown()});
    const size_t mine = pendingShapes.size() - 1;
    bool have = false;
    Shape acc = Shape::unknown();
    for (int i = 0; i < n; ++i) {
        const auto& b = bs[size_t(i)];
        if (b.kind == SemanticModel::NameBinding::Kind::Augment)
            continue; // `x += y` keeps x's shape
        const Shape s = bindingShape(b, id, depth);
        acc = have ? Shape::merge(acc, s) : s;
        have = true;
        pendingShapes[mine].shape = acc;
    }
    pendingShapes.resize(mine);
    if (have && !acc.known() && !selfAttr && truthTested(id))
        return Shape::scalar();
    // A name that says it holds a shape, axes or spacings (`new_shape`, `self.data_shape`)
    // when its values do not say more: the author's word for a bookkeeping vector.
    if (!acc.known() && acc.sizeClass() == SizeClass::Unknown && smallArrayName(name)) {
        const ElementKind e = acc.element;
        acc = Shape::unknown(SizeClass::Small);
        acc.element = e;
    }
    return selfAttr ? acc : pinned(id, acc);
}

bool ShapeEngine::Impl::isParameter(TSNode expr) {
    expr = unparen(expr);
    if (!is(expr, Sym::identifier))
        return false;
    std::array<SemanticModel::NameBinding, 2> bs;
    const int n = m.nameBindings(text(expr), expr, false, bs.data(), int(bs.size()));
    return n >= 1 && bs[0].kind == SemanticModel::NameBinding::Kind::Param;
}

bool ShapeEngine::Impl::grown(TSNode target) {
    // `name.append(…)` / `extend` / `insert` in the function around the binding.
    const FunctionRegion* f = m.enclosingFunctionRegion(target);
    const std::string_view name = text(target);
    const auto list =
        f ? SemanticModel::within(m.calls(), f->node) : std::span<const TSNode>(m.calls());
    for (const TSNode c : list) {
        const TSNode fn = field(c, F().function);
        if (!is(fn, Sym::attribute) || text(field(fn, F().object)) != name)
            continue;
        const std::string_view a = text(field(fn, F().attribute));
        if (a == "append" || a == "extend" || a == "insert")
            return true;
    }
    const auto augs = f ? SemanticModel::within(m.augmentedAssignments(), f->node)
                        : std::span<const TSNode>(m.augmentedAssignments());
    for (const TSNode a : augs)
        if (text(field(a, F().left)) == name)
            return true; // `name += [item]`
    return false;
}

void ShapeEngine::Impl::collectPins(TSNode cond, bool equalPins, uint32_t from,
                                    std::vector<Pin>& out) {
    cond = unparen(cond);
    // `if a or b: raise` fails on either; `assert a and b` holds both.
    if (is(cond, Sym::boolean_operator)) {
        const std::string_view op = text(ts_node_child(cond, 1));
        if ((op == "or") != equalPins) {
            collectPins(field(cond, F().left), equalPins, from, out);
            collectPins(field(cond, F().right), equalPins, from, out);
        }
        return;
    }
    if (!is(cond, Sym::comparison_operator) || ts_node_child_count(cond) != 3)
        return;
    if (text(ts_node_child(cond, 1)) != (equalPins ? "==" : "!="))
        return;
    TSNode a = unparen(ts_node_child(cond, 0));
    TSNode b = unparen(ts_node_child(cond, 2));
    if (is(a, Sym::integer) || is(a, Sym::tuple))
        std::swap(a, b);
    Pin pin;
    pin.from = from;
    if (is(a, Sym::attribute) && text(field(a, F().attribute)) == "shape" && is(b, Sym::tuple)) {
        pin.name = text(field(a, F().object));
        for (const TSNode x : items(b)) {
            const std::optional<qint64> v =
                is(unparen(x), Sym::integer) ? integerLiteralValue(text(unparen(x))) : std::nullopt;
            if (!v)
                return;
            pin.extents.append(*v);
        }
    } else if (is(b, Sym::integer)) {
        const std::optional<qint64> v = integerLiteralValue(text(b));
        if (!v)
            return;
        pin.extents.append(*v);
        if (is(a, Sym::call) && text(field(a, F().function)) == "len" &&
            SemanticModel::positionalCount(a) == 1) {
            pin.name = text(unparen(SemanticModel::argument(a, 0)));
            pin.axis = 0;
            pin.length = true;
        } else if (is(a, Sym::subscript)) {
            const TSNode base = unparen(field(a, F().value));
            const TSNode k = unparen(field(a, F().subscript));
            const qint64 axis =
                is(k, Sym::integer) ? integerLiteralValue(text(k)).value_or(-1) : qint64(-1);
            if (!is(base, Sym::attribute) || text(field(base, F().attribute)) != "shape" ||
                axis < 0 || axis >= Shape::kMaxAxes)
                return;
            pin.name = text(field(base, F().object));
            pin.axis = int(axis);
        }
    }
    if (!pin.name.empty() && !pin.extents.isEmpty() &&
        pin.name.find_first_of("()[] ") == std::string_view::npos)
        out.push_back(std::move(pin));
}

const std::vector<ShapeEngine::Impl::Pin>& ShapeEngine::Impl::pinsOf(const FunctionRegion& f) {
    if (pins.size() < m.functions().size())
        pins.resize(m.functions().size());
    std::optional<std::vector<Pin>>& list = pins[size_t(f.index)];
    if (!list) {
        list.emplace();
        for (const TSNode i : SemanticModel::within(m.ifs(), f.node)) {
            // The guard's own block ends by raising: past it, the condition is false.
            const TSNode body = ts_node_child_by_field_name(i, "consequence", 11);
            const uint32_t n = ts_node_named_child_count(body);
            if (n == 0 || SyntaxTree::type(ts_node_named_child(body, n - 1)) != "raise_statement")
                continue;
            collectPins(field(i, F().condition), false, ts_node_end_byte(i), *list);
        }
        for (const TSNode a : SemanticModel::within(m.asserts(), f.node))
            if (ts_node_named_child_count(a) > 0)
                collectPins(ts_node_named_child(a, 0), true, ts_node_end_byte(a), *list);
    }
    return *list;
}

Shape ShapeEngine::Impl::pinned(TSNode id, Shape acc) {
    const FunctionRegion* f = m.enclosingFunctionRegion(id);
    if (!f || f->index < 0 || (m.ifs().empty() && m.asserts().empty()))
        return acc;
    const std::string_view name = text(id);
    for (const Pin& p : pinsOf(*f)) {
        if (p.name != name || p.from > ts_node_start_byte(id))
            continue;
        if (p.axis < 0) {
            Shape s;
            s.rank = qint8(std::min<qsizetype>(p.extents.size(), Shape::kMaxAxes));
            s.element = acc.element;
            for (int k = 0; k < s.rank; ++k)
                s.setAxis(k, Extent::literal(p.extents[k]));
            acc = s;
        } else if (acc.rank > p.axis) {
            acc.setAxis(p.axis, Extent::literal(p.extents[0]));
        } else if (acc.rank < 0 && p.length) {
            const ElementKind e = acc.element;
            acc = Shape::vector(Extent::literal(p.extents[0]));
            acc.element = e;
        }
    }
    return acc;
}

bool ShapeEngine::Impl::truthTested(TSNode id) {
    // `while now < t[-1]:` / `if err > tol:` with the name as a comparison operand: Python
    // asks the truth value of the comparison, which raises for an array of more than one
    // element, so the name holds one number.
    const FunctionRegion* f = m.enclosingFunctionRegion(id);
    if (!f || f->index < 0)
        return false;
    // The names are collected once per function: scanning its conditions for every name
    // read made this quadratic in the function's size.
    if (truthNames.size() < m.functions().size())
        truthNames.resize(m.functions().size());
    std::optional<std::vector<std::string_view>>& names = truthNames[size_t(f->index)];
    if (!names) {
        names.emplace();
        const auto collect = [&](TSNode cond) {
            cond = unparen(cond);
            if (!is(cond, Sym::comparison_operator))
                return;
            // Only ordering and equality need a truth value of the elements: `x is None`,
            // `k in table` say nothing about x's size.
            const uint32_t nc = ts_node_child_count(cond);
            for (uint32_t i = 0; i < nc; ++i) {
                const TSNode c = ts_node_child(cond, i);
                if (ts_node_is_named(c))
                    continue;
                const std::string_view op = text(c);
                if (op != "<" && op != "<=" && op != ">" && op != ">=" && op != "==" && op != "!=")
                    return;
            }
            QVarLengthArray<std::string_view, 4> operands;
            for (const TSNode x : items(cond)) {
                const TSNode u = unparen(x);
                if (is(u, Sym::none))
                    return;
                if (is(u, Sym::identifier))
                    operands.append(text(u));
            }
            names->insert(names->end(), operands.begin(), operands.end());
        };
        for (const TSNode w : SemanticModel::within(m.whiles(), f->node))
            collect(field(w, F().condition));
        for (const TSNode i : SemanticModel::within(m.ifs(), f->node))
            collect(field(i, F().condition));
        std::sort(names->begin(), names->end());
    }
    return std::binary_search(names->begin(), names->end(), text(id));
}

Shape ShapeEngine::Impl::bindingShape(const SemanticModel::NameBinding& b, TSNode id, int depth) {
    using K = SemanticModel::NameBinding::Kind;
    switch (b.kind) {
    case K::Assign:
    case K::Walrus: {
        if (b.position == -1) {
            const TSNode v = unparen(b.value);
            if ((is(v, Sym::list) || is(v, Sym::list_comprehension)) && grown(b.target)) {
                // A list that the function appends to has no fixed length or item shape.
                return Shape::unknown();
            }
            return shape(b.value, depth + 1);
        }
        if (b.position < 0)
            return Shape::unknown();
        const TSNode v = unparen(b.value);
        if (is(v, Sym::tuple) || is(v, Sym::expression_list) || is(v, Sym::list)) {
            const auto it = items(v);
            if (b.position < it.size())
                return shape(it[b.position], depth + 1);
            return Shape::unknown();
        }
        if (is(v, Sym::call)) {
            const QString cn = m.callName(v);
            if (cn == QLatin1String("numpy.meshgrid") ||
                cn == QLatin1String("numpy.broadcast_arrays"))
                return callShape(v, depth + 1); // every output has the same shape
            // `w, v = np.linalg.eigh(c)`: the spectrum of a matrix small enough to decompose
            // densely (cubic in its side) is a bookkeeping-sized vector; the vectors have the
            // matrix's shape. `u, s, vt = np.linalg.svd(x)`: the singular values likewise.
            const bool eig =
                cn == QLatin1String("numpy.linalg.eig") || cn == QLatin1String("numpy.linalg.eigh");
            if (eig && b.position == 0)
                return spectrumShape();
            if (eig && b.position == 1)
                return shape(arg(v, 0), depth + 1);
            if (cn == QLatin1String("numpy.linalg.svd") && b.position == 1)
                return spectrumShape();
        }
        // Unpacking an array along its first axis: `x, y = pts` gives rows.
        const Shape s = shape(v, depth + 1);
        if (s.known() && s.rank >= 1)
            return s.dropAxis(0);
        return Shape::unknown();
    }
    case K::ForTarget: {
        const TSNode v = unparen(b.value);
        if (is(v, Sym::call)) {
            const std::string_view f = text(field(v, F().function));
            if (f == "range")
                return Shape::scalar();
            if (f == "enumerate" && b.position == 0)
                return Shape::scalar();
            if (f == "enumerate" && b.position == 1) {
                const Shape s = shape(arg(v, 0), depth + 1);
                return s.known() && s.rank >= 1 ? s.dropAxis(0) : Shape::unknown();
            }
        }
        if (b.position != -1)
            return Shape::unknown();
        const Shape s = shape(v, depth + 1);
        return s.known() && s.rank >= 1 ? s.dropAxis(0) : Shape::unknown();
    }
    case K::Param: {
        if (b.splat)
            return Shape::unknown();
        if (const std::vector<TSNode>* args = m.bindingArguments(b.index); args && !args->empty()) {
            Shape acc = shape((*args)[0], depth + 1);
            for (size_t i = 1; i < args->size(); ++i)
                acc = Shape::merge(acc, shape((*args)[i], depth + 1));
            if (acc.known() || acc.sizeClass() != SizeClass::Unknown)
                return acc;
        }
        const std::string_view nm = text(b.target);
        // `stretch=0.05`: a parameter whose default is a number is a number.
        if (numberDefault(b.target))
            return Shape::scalar();
        Shape s;
        if (smallArrayName(nm))
            s = Shape::unknown(SizeClass::Small);
        else if (m.valueKind(b.target) == ValueKind::Array)
            s = Shape::unknown(SizeClass::Data); // an array from the caller: a runtime size
        else
            s = Shape::unknown();
        if (stringArrayName(nm))
            s.element = ElementKind::String;
        s.axes[0].parameter = qint8(std::clamp(b.argIndex, -1, 127));
        return s;
    }
    case K::WithAs:
    case K::Import:
    case K::Def:
    case K::Augment:
        break;
    }
    Q_UNUSED(id);
    return Shape::unknown();
}

Shape ShapeEngine::Impl::matmul(const Shape& a, const Shape& b) {
    if (!a.known() || !b.known()) {
        const SizeClass c = joinClass(a.sizeClass(), b.sizeClass());
        return Shape::unknown(c == SizeClass::Small ? SizeClass::Small : SizeClass::Unknown);
    }
    if (a.rank == 0 || b.rank == 0)
        return Shape::broadcast(a, b);
    if (a.rank == 1 && b.rank == 1)
        return Shape::scalar();
    if (a.rank == 1)
        return b.dropAxis(-2);
    if (b.rank == 1)
        return a.dropAxis(-1);
    // Batch axes broadcast; the last two are (n, k) @ (k, m) → (n, m).
    Shape batchA = a, batchB = b;
    batchA.rank = qint8(a.rank - 2);
    batchB.rank = qint8(b.rank - 2);
    Shape out = Shape::broadcast(batchA, batchB);
    if (!out.known())
        return Shape::unknown();
    const int r = out.rank;
    out.rank = qint8(r + 2);
    out.setAxis(r, a.axis(-2));
    out.setAxis(r + 1, b.axis(-1));
    return out;
}

Shape ShapeEngine::Impl::shapeFromDims(TSNode call, int from, int depth) {
    // rand(a, b, c) / reshape(n, m): one extent per positional argument.
    const int n = argc(call);
    Shape s;
    s.rank = qint8(std::clamp(n - from, 0, 64));
    for (int i = from; i < n; ++i)
        s.setAxis(i - from, extent(arg(call, i), depth + 1));
    return s;
}

Shape ShapeEngine::Impl::shapeFromSpec(TSNode spec, int depth) {
    // A shape argument: an integer, a tuple/list of extents, `x.shape`, a name bound to one.
    spec = unparen(spec);
    if (ts_node_is_null(spec))
        return Shape::unknown();
    if (is(spec, Sym::tuple) || is(spec, Sym::list)) {
        const auto it = items(spec);
        Shape s;
        s.rank = qint8(std::min<qsizetype>(it.size(), 64));
        for (qsizetype i = 0; i < it.size(); ++i) {
            if (is(it[i], Sym::list_splat)) {
                // (*a.shape, 3): the rank is not known, the size class is.
                SizeClass c = extent(field(it[i], F().value), depth + 1).size;
                for (qsizetype j = 0; j < it.size(); ++j)
                    if (j != i)
                        c = joinClass(c, extent(it[j], depth + 1).size);
                const Shape inner = shape(ts_node_named_child(it[i], 0), depth + 1);
                return Shape::unknown(
                    joinClass(inner.known() ? inner.sizeClass() : SizeClass::Unknown, c));
            }
            s.setAxis(int(i), extent(it[i], depth + 1));
        }
        return s;
    }
    if (is(spec, Sym::attribute) && text(field(spec, F().attribute)) == "shape") {
        Shape s = shape(field(spec, F().object), depth + 1);
        s.element = ElementKind::Unknown;
        return s;
    }
    if (is(spec, Sym::identifier)) {
        // A name bound to a tuple (`shape = (n, 3)`) or to an integer.
        std::array<SemanticModel::NameBinding, 4> bs;
        const int n = m.nameBindings(text(spec), spec, false, bs.data(), int(bs.size()));
        if (n == 1 && bs[0].kind == SemanticModel::NameBinding::Kind::Assign &&
            bs[0].position == -1) {
            const TSNode v = unparen(bs[0].value);
            if (is(v, Sym::tuple) || is(v, Sym::list) ||
                (is(v, Sym::attribute) && text(field(v, F().attribute)) == "shape"))
                return shapeFromSpec(v, depth + 1);
        }
        if (n >= 1 && bs[0].kind == SemanticModel::NameBinding::Kind::Param &&
            text(spec).find("shape") != std::string_view::npos) {
            // A shape parameter: its rank is not known, its size is the caller's.
            return Shape::unknown(SizeClass::Data);
        }
    }
    const Extent e = extent(spec, depth + 1);
    if (e.kind != Extent::Kind::Unknown || e.size != SizeClass::Unknown)
        return Shape::vector(e);
    return Shape::unknown();
}

Shape ShapeEngine::Impl::reduce(const Shape& s, TSNode call, bool method, const QString& leaf,
                                int depth) {
    TSNode axis = kw(call, "axis");
    if (ts_node_is_null(axis) && leaf != QLatin1String("linalg.norm") &&
        leaf != QLatin1String("percentile") && leaf != QLatin1String("quantile") &&
        leaf != QLatin1String("allclose") && leaf != QLatin1String("array_equal"))
        axis = arg(call, method ? 0 : 1);
    const TSNode keep = kw(call, "keepdims");
    const bool keepdims = !ts_node_is_null(keep) && text(keep) == "True";
    const bool cumulative =
        leaf.startsWith(QLatin1String("cum")) || leaf.startsWith(QLatin1String("nancum"));
    if (ts_node_is_null(axis) || text(axis) == "None") {
        if (cumulative)
            return s.known() ? Shape::vector(s.size()) : Shape::unknown(s.sizeClass());
        if (keepdims && s.known()) {
            Shape k = s;
            for (int i = 0; i < s.rank; ++i)
                k.setAxis(i, Extent::literal(1));
            return k;
        }
        return Shape::scalar();
    }
    if (cumulative)
        return s;
    if (!s.known())
        return Shape::unknown(s.sizeClass() == SizeClass::Small ? SizeClass::Small
                                                                : SizeClass::Unknown);
    QVarLengthArray<int, 4> ax;
    const TSNode a = unparen(axis);
    const auto addAxis = [&](TSNode x) {
        const Extent e = extent(x, depth + 1);
        if (!e.isLiteral() && !(is(unparen(x), Sym::unary_operator)))
            return false;
        qint64 v = e.value;
        if (!e.isLiteral()) {
            const auto lit = integerLiteralValue(text(field(unparen(x), F().argument)));
            if (!lit)
                return false;
            v = -*lit;
        }
        if (v < 0)
            v += s.rank;
        if (v < 0 || v >= s.rank)
            return false;
        ax.push_back(int(v));
        return true;
    };
    bool ok = true;
    if (is(a, Sym::tuple) || is(a, Sym::list)) {
        for (const TSNode x : items(a))
            ok = ok && addAxis(x);
    } else {
        ok = addAxis(a);
    }
    if (!ok) {
        Shape u = Shape::unknown(s.sizeClass() == SizeClass::Small ? SizeClass::Small
                                                                   : SizeClass::Unknown);
        return u;
    }
    Shape out = s;
    if (keepdims) {
        for (const int k : ax)
            out.setAxis(k, Extent::literal(1));
        return out;
    }
    std::sort(ax.begin(), ax.end(), std::greater<int>());
    for (const int k : ax)
        out = out.dropAxis(k);
    return out;
}

Shape ShapeEngine::Impl::numpyShape(TSNode call, const QString& leaf, bool method, TSNode receiver,
                                    int depth) {
    const auto L = [&](const char* s) { return leaf == QLatin1String(s); };
    // The array argument: the receiver of a method, else the first positional.
    const TSNode a0 = method ? receiver : arg(call, 0);
    const int p = method ? 0 : 1; // index of the first argument after the array
    const auto withDtype = [&](Shape s) {
        const TSNode dt = kw(call, "dtype");
        if (!ts_node_is_null(dt)) {
            const ElementKind k = dtypeKind(text(dt));
            if (k != ElementKind::Unknown)
                s.element = k;
        }
        return s;
    };
    if (!method) {
        if (L("zeros") || L("ones") || L("empty") || L("full")) {
            TSNode spec = arg(call, 0);
            if (ts_node_is_null(spec))
                spec = kw(call, "shape");
            Shape s = shapeFromSpec(spec, depth);
            if (L("full") && s.element == ElementKind::Unknown && isStringLiteral(arg(call, 1)))
                s.element = ElementKind::String;
            return withDtype(s);
        }
        if (L("zeros_like") || L("ones_like") || L("empty_like") || L("full_like")) {
            const TSNode spec = kw(call, "shape");
            Shape s = ts_node_is_null(spec) ? shape(a0, depth + 1) : shapeFromSpec(spec, depth);
            return withDtype(s);
        }
        if (L("eye") || L("identity")) {
            TSNode nArg = arg(call, 0);
            if (ts_node_is_null(nArg))
                nArg = kw(call, "N");
            TSNode mArg = L("eye") ? arg(call, 1) : TSNode{};
            if (ts_node_is_null(mArg) && L("eye"))
                mArg = kw(call, "M");
            Shape s;
            s.rank = 2;
            const Extent n = extent(nArg, depth + 1);
            s.setAxis(0, n);
            s.setAxis(1,
                      ts_node_is_null(mArg) || text(mArg) == "None" ? n : extent(mArg, depth + 1));
            return withDtype(s);
        }
        if (L("arange")) {
            const int n = argc(call);
            if (n == 1)
                return withDtype(Shape::vector(extent(arg(call, 0), depth + 1)));
            if (n >= 2) {
                const Extent lo = extent(arg(call, 0), depth + 1);
                const Extent hi = extent(arg(call, 1), depth + 1);
                const Extent st = n >= 3 ? extent(arg(call, 2), depth + 1) : Extent::literal(1);
                if (lo.isLiteral() && hi.isLiteral() && st.isLiteral() && st.value > 0)
                    return withDtype(Shape::vector(Extent::literal(
                        std::max<qint64>(0, (hi.value - lo.value + st.value - 1) / st.value))));
                // arange(0, n, 2): about n/step values; the class is the bound's.
                SizeClass c = joinClass(
                    lo.size == SizeClass::Unknown && lo.isLiteral() ? SizeClass::Small : lo.size,
                    hi.size);
                if (hi.size == SizeClass::Data)
                    c = SizeClass::Data;
                if (lo.isLiteral() && hi.size == SizeClass::Small)
                    c = SizeClass::Small;
                return withDtype(Shape::vector(Extent::unknown(c)));
            }
            return Shape::unknown();
        }
        if (L("linspace") || L("logspace") || L("geomspace")) {
            TSNode num = arg(call, 2);
            if (ts_node_is_null(num))
                num = kw(call, "num");
            const Extent e = ts_node_is_null(num) ? Extent::literal(50) : extent(num, depth + 1);
            const Shape lo = shape(arg(call, 0), depth + 1);
            // Array endpoints add their axes after the samples.
            if (lo.known() && lo.rank > 0) {
                Shape s;
                s.rank = qint8(lo.rank + 1);
                s.setAxis(0, e);
                for (int k = 0; k < lo.rank; ++k)
                    s.setAxis(k + 1, lo.axis(k));
                return s;
            }
            return Shape::vector(e);
        }
        if (L("array") || L("asarray") || L("asanyarray") || L("ascontiguousarray") ||
            L("asfortranarray") || L("copy") || L("require") || L("asarray_chkfinite") ||
            L("atleast_1d") || L("atleast_2d") || L("atleast_3d")) {
            const TSNode lit = unparen(a0);
            if ((is(lit, Sym::list) || is(lit, Sym::tuple)) &&
                dtypeKind(text(kw(call, "dtype"))) == ElementKind::Object) {
                // np.array([a, b, c], dtype=object): one object per item, whatever they are.
                Shape o = Shape::vector(Extent::literal(items(lit).size()));
                o.element = ElementKind::Object;
                return o;
            }
            Shape s = shape(a0, depth + 1);
            if (!s.known() && s.sizeClass() == SizeClass::Unknown && isParameter(a0))
                s = Shape::unknown(SizeClass::Data); // np.asarray(x) of a caller's value
            const int minRank = L("atleast_1d") ? 1 : L("atleast_2d") ? 2 : L("atleast_3d") ? 3 : 0;
            if (s.known() && s.rank < minRank) {
                Shape up;
                up.rank = qint8(minRank);
                up.element = s.element;
                const int pad = minRank - s.rank;
                for (int k = 0; k < minRank; ++k)
                    up.setAxis(k, k < pad ? Extent::literal(1) : s.axis(k - pad));
                s = up;
            }
            return withDtype(s);
        }
        if (L("meshgrid") || L("broadcast_arrays")) {
            const int n = argc(call);
            if (L("broadcast_arrays")) {
                Shape s = Shape::scalar();
                for (int i = 0; i < n; ++i)
                    s = Shape::broadcast(s, shape(arg(call, i), depth + 1));
                return s;
            }
            const TSNode ix = kw(call, "indexing");
            const bool ij = !ts_node_is_null(ix) && text(ix).find("ij") != std::string_view::npos;
            Shape s;
            s.rank = qint8(std::clamp(n, 0, 64));
            for (int i = 0; i < n; ++i) {
                const Shape v = shape(arg(call, i), depth + 1);
                const Extent e = v.known() ? v.size() : Extent::unknown(v.sizeClass());
                int k = i;
                if (!ij && n >= 2 && i < 2)
                    k = 1 - i;
                s.setAxis(k, e);
            }
            return s;
        }
        if (L("stack") || L("vstack") || L("hstack") || L("column_stack") || L("concatenate") ||
            L("row_stack") || L("dstack")) {
            const TSNode seq = unparen(a0);
            const Shape seqShape = shape(seq, depth + 1); // (k, ...) for a literal list
            const bool literal = is(seq, Sym::list) || is(seq, Sym::tuple);
            if (!seqShape.known() || seqShape.rank < 1)
                return Shape::unknown(seqShape.sizeClass() == SizeClass::Data ? SizeClass::Data
                                                                              : SizeClass::Unknown);
            const Extent count = seqShape.axis(0);
            Shape item = seqShape.dropAxis(0);
            if (L("stack")) {
                const TSNode axArg =
                    !ts_node_is_null(kw(call, "axis")) ? kw(call, "axis") : arg(call, 1);
                qint64 ax = 0;
                if (!ts_node_is_null(axArg)) {
                    const Extent e = extent(axArg, depth + 1);
                    if (!e.isLiteral())
                        return Shape::unknown(joinClass(count.size, item.sizeClass()));
                    ax = e.value;
                }
                if (ax < 0)
                    ax += item.rank + 1;
                if (ax < 0 || ax > item.rank)
                    return Shape::unknown();
                Shape s;
                s.rank = qint8(item.rank + 1);
                for (int k = 0, j = 0; k < s.rank; ++k)
                    s.setAxis(k, k == ax ? count : item.axis(j++));
                return s;
            }
            if (L("column_stack")) {
                Shape s;
                s.rank = 2;
                s.setAxis(0, item.axis(0));
                s.setAxis(1, item.rank >= 2 ? Extent::product(count, item.axis(1)) : count);
                return s;
            }
            // Concatenation: the joined axis adds up the items' extents.
            int ax = L("hstack") ? (item.rank >= 2 ? 1 : 0) : L("dstack") ? 2 : 0;
            if (L("vstack") || L("row_stack")) {
                if (item.rank == 1) {
                    Shape s;
                    s.rank = 2;
                    s.setAxis(0, count);
                    s.setAxis(1, item.axis(0));
                    return s;
                }
            }
            if (L("concatenate")) {
                const TSNode axArg =
                    !ts_node_is_null(kw(call, "axis")) ? kw(call, "axis") : arg(call, 1);
                if (!ts_node_is_null(axArg)) {
                    const Extent e = extent(axArg, depth + 1);
                    if (!e.isLiteral())
                        return Shape::unknown(item.sizeClass());
                    ax = int(e.value < 0 ? e.value + item.rank : e.value);
                }
            }
            if (ax < 0 || ax >= std::max<int>(item.rank, 1))
                return Shape::unknown(item.sizeClass());
            Shape s = item;
            if (literal) {
                Extent total = Extent::literal(0);
                for (const TSNode c : items(seq))
                    total = Extent::sum(total, shape(c, depth + 1).axis(ax));
                s.setAxis(ax, total);
            } else {
                s.setAxis(ax, Extent::product(count, item.axis(ax)));
            }
            return s;
        }
        if (L("dot") || L("matmul"))
            return matmul(shape(arg(call, 0), depth + 1), shape(arg(call, 1), depth + 1));
        if (L("outer")) {
            const Shape x = shape(arg(call, 0), depth + 1), y = shape(arg(call, 1), depth + 1);
            Shape s;
            s.rank = 2;
            s.setAxis(0, x.known() ? x.size() : Extent::unknown(x.sizeClass()));
            s.setAxis(1, y.known() ? y.size() : Extent::unknown(y.sizeClass()));
            return s;
        }
        if (L("where") && argc(call) == 3) {
            Shape s = shape(arg(call, 0), depth + 1);
            s = Shape::broadcast(s, shape(arg(call, 1), depth + 1));
            s = Shape::broadcast(s, shape(arg(call, 2), depth + 1));
            s.element = ElementKind::Unknown;
            return s;
        }
        if (L("transpose"))
            return shape(a0, depth + 1).transposed();
        if (L("diag")) {
            const Shape v = shape(a0, depth + 1);
            if (v.rank == 1) {
                Shape s;
                s.rank = 2;
                s.setAxis(0, v.axis(0));
                s.setAxis(1, v.axis(0));
                return s;
            }
            if (v.rank == 2)
                return Shape::vector(
                    Extent::unknown(joinClass(v.axis(0).size, v.axis(1).size) == SizeClass::Small
                                        ? SizeClass::Small
                                        : SizeClass::Unknown));
            return Shape::unknown();
        }
        if (L("flip") || L("fliplr") || L("flipud") || L("roll") || L("sort") || L("argsort") ||
            L("clip") || L("nan_to_num") || L("round") || L("around") || L("interp") ||
            L("gradient") || L("unwrap") || L("real") || L("imag") || L("conj") || L("conjugate") ||
            L("angle") || L("linalg.inv") || L("linalg.pinv") || L("fft.fft") || L("fft.ifft") ||
            L("fft.fft2") || L("fft.ifft2") || L("fft.fftn") || L("fft.ifftn") ||
            L("fft.fftshift") || L("fft.ifftshift")) {
            if ((L("sort") || L("argsort")) && text(kw(call, "axis")) == "None") {
                const Shape s = shape(a0, depth + 1);
                return s.known() ? Shape::vector(s.size()) : Shape::unknown(s.sizeClass());
            }
            return shape(a0, depth + 1);
        }
        // `np.cross([0, 0, 1], pts)`: one vector against a stack of them broadcasts to the
        // stack (the last axis, 2 or 3, is the vectors' own on both sides).
        if (L("cross"))
            return Shape::broadcast(shape(a0, depth + 1), shape(arg(call, 1), depth + 1));
        if (L("linalg.solve"))
            return shape(arg(call, 1), depth + 1);
        if (L("linalg.eigvals") || L("linalg.eigvalsh"))
            return spectrumShape();
        if (L("diff")) {
            Shape s = shape(a0, depth + 1);
            if (s.known() && s.rank >= 1) {
                const Extent e = s.axis(-1);
                s.setAxis(s.rank - 1, e.isLiteral() && e.value > 0 ? Extent::literal(e.value - 1)
                                                                   : Extent::unknown(e.size));
            }
            return s;
        }
        if (L("ravel")) {
            const Shape s = shape(a0, depth + 1);
            return s.known() ? Shape::vector(s.size()) : Shape::unknown(s.sizeClass());
        }
        if (L("reshape")) {
            TSNode spec = arg(call, 1);
            if (ts_node_is_null(spec))
                spec = kw(call, "newshape");
            if (ts_node_is_null(spec))
                spec = kw(call, "shape");
            Shape s = shapeFromSpec(spec, depth);
            const Shape src = shape(a0, depth + 1);
            for (int k = 0; k < s.rank; ++k)
                if (s.axis(k).isLiteral(-1))
                    s.setAxis(k, Extent::unknown(src.sizeClass()));
            s.element = src.element;
            return s;
        }
        if (L("expand_dims")) {
            Shape s = shape(a0, depth + 1);
            const Extent e = extent(arg(call, 1), depth + 1);
            if (!s.known() || !e.isLiteral())
                return Shape::unknown(s.sizeClass());
            qint64 ax = e.value < 0 ? e.value + s.rank + 1 : e.value;
            if (ax < 0 || ax > s.rank)
                return Shape::unknown(s.sizeClass());
            Shape out;
            out.rank = qint8(s.rank + 1);
            out.element = s.element;
            for (int k = 0, j = 0; k < out.rank; ++k)
                out.setAxis(k, k == ax ? Extent::literal(1) : s.axis(j++));
            return out;
        }
        if (L("unique") || L("nonzero") || L("flatnonzero") || L("argwhere") || L("extract") ||
            L("compress") || L("trim_zeros") || L("tile") || L("repeat") || L("pad") ||
            L("append") || L("insert") || L("delete") || L("squeeze") || L("einsum") ||
            L("tensordot") || L("kron") || L("convolve") || L("correlate")) {
            // Not tracked exactly: the result is small when every input is.
            SizeClass c = SizeClass::Small;
            const int n = argc(call);
            for (int i = 0; i < n; ++i) {
                const TSNode x = arg(call, i);
                if (isStringLiteral(x))
                    continue;
                c = joinClass(c, shape(x, depth + 1).sizeClass());
            }
            return Shape::unknown(c);
        }
        if (leaf.startsWith(QLatin1String("random."))) {
            const QString r = leaf.mid(7);
            if (r == QLatin1String("rand") || r == QLatin1String("randn"))
                return shapeFromDims(call, 0, depth);
            if (r == QLatin1String("permutation")) {
                const Shape s = shape(a0, depth + 1);
                if (s.known() && s.rank == 0)
                    return Shape::vector(extent(a0, depth + 1));
                return s;
            }
            TSNode size = kw(call, "size");
            if (ts_node_is_null(size)) {
                const int pos = randomDrawSizePosition(r);
                if (pos >= 0)
                    size = arg(call, pos);
            }
            if (ts_node_is_null(size) || text(size) == "None")
                return randomDrawSizePosition(r) >= 0 ? Shape::scalar() : Shape::unknown();
            return shapeFromSpec(size, depth);
        }
        if (isReductionLeaf(leaf) || L("linalg.norm"))
            return reduce(shape(a0, depth + 1), call, false, leaf, depth);
        if (numpy::isElementwise(leaf)) {
            Shape s = Shape::scalar();
            const int n = argc(call);
            for (int i = 0; i < std::min(n, 3); ++i)
                s = Shape::broadcast(s, shape(arg(call, i), depth + 1));
            if (leaf.startsWith(QLatin1String("is")) || leaf.startsWith(QLatin1String("logical")))
                s.element = ElementKind::Bool;
            return s;
        }
        return Shape::unknown();
    }
    // ndarray methods.
    const Shape self = shape(receiver, depth + 1);
    if (L("reshape")) {
        const int n = argc(call);
        Shape s = n == 1 ? shapeFromSpec(arg(call, 0), depth) : shapeFromDims(call, 0, depth);
        if (n == 0) {
            TSNode spec = kw(call, "shape");
            s = shapeFromSpec(spec, depth);
        }
        for (int k = 0; k < s.rank; ++k)
            if (s.axis(k).isLiteral(-1))
                s.setAxis(k, Extent::unknown(self.sizeClass()));
        s.element = self.element;
        return s;
    }
    if (L("ravel") || L("flatten"))
        return self.known() ? Shape::vector(self.size()) : Shape::unknown(self.sizeClass());
    if (L("transpose") && argc(call) == 0)
        return self.transposed();
    if (L("copy") || L("astype") || L("view") || L("conj") || L("conjugate") || L("round") ||
        L("clip") || L("cumsum") || L("cumprod") || L("sort") || L("argsort") || L("__abs__")) {
        if ((L("cumsum") || L("cumprod")) && argc(call) == 0 && ts_node_is_null(kw(call, "axis")))
            return self.known() ? Shape::vector(self.size()) : Shape::unknown(self.sizeClass());
        Shape s = self;
        if (L("astype")) {
            const ElementKind k = dtypeKind(text(arg(call, 0)));
            if (k != ElementKind::Unknown)
                s.element = k;
        }
        return s;
    }
    if (L("dot"))
        return matmul(self, shape(arg(call, 0), depth + 1));
    if (L("item"))
        return Shape::scalar();
    if (L("squeeze") && self.known()) {
        Shape s;
        s.rank = 0;
        s.element = self.element;
        for (int k = 0; k < self.rank; ++k)
            if (!self.axis(k).isLiteral(1))
                s.setAxis(s.rank++, self.axis(k));
        bool allLiteralOrKnown = true;
        for (int k = 0; k < self.rank; ++k)
            allLiteralOrKnown = allLiteralOrKnown && self.axis(k).kind != Extent::Kind::Unknown;
        return allLiteralOrKnown ? s : Shape::unknown(self.sizeClass());
    }
    if (numpy::isReductionMethod(leaf) || L("cumsum") || L("nonzero"))
        return reduce(self, call, true, leaf, depth);
    Q_UNUSED(p);
    Q_UNUSED(a0);
    return Shape::unknown();
}

Shape ShapeEngine::Impl::returnShape(int fn, int depth) {
    const auto& fns = m.functions();
    if (fn < 0 || size_t(fn) >= fns.size())
        return Shape::unknown();
    const FunctionRegion& f = fns[size_t(fn)];
    for (const void* a : active)
        if (a == f.node.id)
            return ++partialReads, Shape::unknown();
    active.push_back(f.node.id);
    bool have = false;
    Shape acc = Shape::unknown();
    for (const TSNode r : SemanticModel::within(m.returns(), f.body)) {
        const FunctionRegion* owner = m.enclosingFunctionRegion(r);
        if (!owner || owner->index != fn)
            continue;
        const TSNode v = ts_node_named_child_count(r) ? ts_node_named_child(r, 0) : TSNode{};
        if (ts_node_is_null(v) || is(v, Sym::none))
            continue;
        const Shape s = shape(v, depth + 1);
        acc = have ? Shape::merge(acc, s) : s;
        have = true;
    }
    active.pop_back();
    return have ? acc : Shape::unknown();
}

Shape ShapeEngine::Impl::callShape(TSNode call, int depth) {
    const TSNode fn = unparen(field(call, F().function));
    const QString cn = m.callName(call);
    if (cn.startsWith(QLatin1String("numpy.ndarray."))) {
        return numpyShape(call, cn.mid(14), true, field(fn, F().object), depth);
    }
    if (cn.startsWith(QLatin1String("numpy."))) {
        // Generators and RandomState: numpy.random.Generator.normal → random.normal.
        QString leaf = cn.mid(6);
        const qsizetype g = leaf.indexOf(QLatin1String("random.Generator."));
        if (g == 0)
            leaf = QStringLiteral("random.") + leaf.mid(17);
        else if (leaf.startsWith(QLatin1String("random.RandomState.")))
            leaf = QStringLiteral("random.") + leaf.mid(19);
        return numpyShape(call, leaf, false, TSNode{}, depth);
    }
    if (cn.contains(QLatin1String(".random.Generator.")) ||
        cn.contains(QLatin1String(".random.RandomState.")))
        return numpyShape(call,
                          QStringLiteral("random.") + cn.mid(cn.lastIndexOf(QLatin1Char('.')) + 1),
                          false, TSNode{}, depth);
    // The builtin `abs(x)` is `np.abs(x)` on an array: elementwise, the shape of `x`.
    if (is(fn, Sym::identifier) && text(fn) == "abs" && !m.isNameBound(m.tree().qtext(fn), fn))
        return shape(SemanticModel::argument(call, 0), depth + 1);
    if (is(fn, Sym::attribute)) {
        // A method of a value whose shape the model knows, although its kind did not resolve
        // (`x.reshape(n, 3)` on a parameter passed arrays by this file's calls).
        const TSNode obj = field(fn, F().object);
        const std::string_view meth = text(field(fn, F().attribute));
        if (!(is(obj, Sym::identifier) && text(obj) == "self")) {
            const QString mq = QString::fromUtf8(meth.data(), qsizetype(meth.size()));
            if (numpy::isArrayMethodReturningArray(mq) || numpy::isReductionMethod(mq)) {
                const Shape s = shape(obj, depth + 1);
                if (s.known())
                    return numpyShape(call, mq, true, obj, depth);
            }
        }
    }
    if (is(fn, Sym::identifier)) {
        const std::string_view f = text(fn);
        if ((f == "list" || f == "tuple" || f == "sorted") &&
            !m.isNameBound(m.tree().qtext(fn), fn))
            return shape(arg(call, 0), depth + 1);
    }
    const int target = m.calledFunction(call);
    if (target >= 0)
        return returnShape(target, depth);
    // A project function of another module (ProjectFacts.h): its summary's shape, with the
    // parameter references read from this call's arguments.
    if (const QString* r = cn.isEmpty() ? nullptr : m.projectReturn(cn)) {
        if (r->startsWith(QLatin1Char('=')))
            return shape(arg(call, r->mid(1).toInt()), depth + 1);
        Shape s = Shape::fromSummary(*r);
        for (int k = 0; k < s.rank && k < Shape::kMaxAxes; ++k) {
            const Extent e = s.axes[size_t(k)];
            if (e.parameter < 0)
                continue;
            const TSNode a = arg(call, e.parameter);
            s.axes[size_t(k)] = ts_node_is_null(a)     ? Extent::unknown(e.size)
                                : e.parameterAxis >= 0 ? shape(a, depth + 1).axis(e.parameterAxis)
                                                       : extent(a, depth + 1);
        }
        return s;
    }
    return Shape::unknown();
}

bool ShapeEngine::Impl::numberDefault(TSNode param) const {
    const TSNode p = ts_node_parent(param);
    if (!is(p, Sym::default_parameter) && !is(p, Sym::typed_default_parameter))
        return false;
    TSNode v = unparen(field(p, F().value));
    if (is(v, Sym::unary_operator))
        v = unparen(field(v, F().argument));
    if (!is(v, Sym::integer) && !is(v, Sym::float_))
        return false;
    // `alpha=0` documented as "scalar or array" and read as `alpha[j]`: the body indexes it,
    // so callers pass arrays too.
    const FunctionRegion* fn = m.enclosingFunctionRegion(param);
    if (!fn)
        return true;
    const std::string_view name = text(param);
    for (const TSNode sub : SemanticModel::within(m.subscripts(), fn->startByte, fn->endByte)) {
        const TSNode base = unparen(field(sub, F().value));
        if (is(base, Sym::identifier) && text(base) == name)
            return false;
    }
    return true;
}

bool ShapeEngine::Impl::selfUpdate(TSNode op) const {
    // `total = total + X[k]` in a loop: an accumulator keeps its shape from pass to pass (a
    // broadcast that grew it would grow it on every pass), so what is added cannot widen it.
    const TSNode a = ts_node_parent(op);
    if (!is(a, Sym::assignment) || !ts_node_eq(field(a, F().right), op))
        return false;
    const TSNode target = field(a, F().left), left = unparen(field(op, F().left));
    return is(target, Sym::identifier) && is(left, Sym::identifier) && text(target) == text(left) &&
           m.inLoop(op);
}

qint64 ShapeEngine::Impl::sliceWidth(TSNode lo, TSNode hi, TSNode step) const {
    // `a[i : i + 3]`, `a[3 * r : 3 * r + 3]`: the stop is the start plus a literal.
    if (ts_node_is_null(lo) || !ts_node_is_null(step) || !is(hi, Sym::binary_operator) ||
        text(field(hi, F().op)) != "+")
        return -1;
    const TSNode l = unparen(field(hi, F().left)), r = unparen(field(hi, F().right));
    const std::string_view start = text(unparen(lo));
    const auto literal = [&](TSNode x) -> qint64 {
        if (!is(x, Sym::integer))
            return -1;
        const std::optional<qint64> v = integerLiteralValue(text(x));
        return v && *v >= 0 ? *v : -1;
    };
    if (text(l) == start)
        return literal(r);
    if (text(r) == start)
        return literal(l);
    return -1;
}

std::array<TSNode, 3> ShapeEngine::Impl::sliceParts(TSNode slice) const {
    std::array<TSNode, 3> parts{};
    int pi = 0;
    for (uint32_t i = 0; i < ts_node_child_count(slice) && pi < 3; ++i) {
        const TSNode c = ts_node_child(slice, i);
        if (!ts_node_is_named(c)) {
            if (is(c, Sym::colon))
                ++pi;
            continue;
        }
        if (!is(c, Sym::comment))
            parts[size_t(pi)] = c;
    }
    return parts;
}

qint64 ShapeEngine::Impl::sliceWidthOf(TSNode slice) const {
    const std::array<TSNode, 3> parts = sliceParts(slice);
    return sliceWidth(parts[0], parts[1], parts[2]);
}

Shape ShapeEngine::Impl::subscriptShape(TSNode sub, int depth) {
    const TSNode base = field(sub, F().value);
    const Shape s = shape(base, depth + 1);
    // The index items.
    QVarLengthArray<TSNode, 4> idx;
    {
        const uint32_t k = ts_node_named_child_count(sub);
        for (uint32_t i = 0; i < k; ++i) {
            const TSNode c = ts_node_named_child(sub, i);
            if (ts_node_eq(c, base) || is(c, Sym::comment))
                continue;
            if (is(c, Sym::tuple) || is(c, Sym::expression_list)) {
                for (const TSNode x : items(c))
                    idx.push_back(x);
            } else {
                idx.push_back(c);
            }
        }
    }
    if (!s.known()) {
        // `X[3 * r : 3 * r + 3, 3 * c : 3 * c + 3]`: a block of fixed widths, one per axis
        // the index names (an explicit block takes every axis it means to keep).
        if (idx.size() >= 2) {
            Shape block;
            block.rank = qint8(idx.size());
            block.element = s.element;
            bool widths = true;
            for (qsizetype k = 0; k < idx.size() && widths; ++k) {
                const qint64 w = is(idx[k], Sym::slice) ? sliceWidthOf(idx[k]) : -1;
                widths = w >= 0;
                block.setAxis(int(k), Extent::literal(w));
            }
            if (widths)
                return block;
        }
        // `M[:3, 3]`, `R[0:3, 0:3]`: literal bounds on two or more axes pick a small block of
        // a small matrix (a 4x4 transform), whatever its rank.
        if (idx.size() >= 2) {
            bool literalBlock = true, anySlice = false;
            for (const TSNode x : idx) {
                if (is(x, Sym::integer))
                    continue;
                if (!is(x, Sym::slice)) {
                    literalBlock = false;
                    break;
                }
                const std::array<TSNode, 3> parts = sliceParts(x);
                const auto small = [&](TSNode b) {
                    if (ts_node_is_null(b))
                        return true;
                    const std::optional<qint64> v =
                        is(b, Sym::integer) ? integerLiteralValue(text(b)) : std::nullopt;
                    return v && *v >= 0 && *v <= kSmallLiteral;
                };
                anySlice = true;
                literalBlock = !ts_node_is_null(parts[1]) && small(parts[0]) && small(parts[1]) &&
                               ts_node_is_null(parts[2]);
                if (!literalBlock)
                    break;
            }
            if (literalBlock && anySlice)
                return Shape::unknown(SizeClass::Small);
        }
        // Unknown rank: a slice keeps the size class, an element read is a scalar only for
        // a 1-D array, which nobody knows here.
        bool allSlices = !idx.isEmpty();
        for (const TSNode x : idx)
            allSlices = allSlices && is(x, Sym::slice);
        if (allSlices)
            return Shape::unknown(s.sizeClass());
        if (s.sizeClass() == SizeClass::Small)
            return Shape::unknown(SizeClass::Small);
        return Shape::unknown();
    }
    Shape out;
    out.rank = 0;
    out.element = s.element;
    int axis = 0;
    bool advancedDone = false;
    const auto push = [&](const Extent& e) {
        if (out.rank < 64) {
            out.setAxis(out.rank, e);
            ++out.rank;
        }
    };
    int consumed = 0; // axes the items use (for the ellipsis)
    for (const TSNode x : idx)
        if (!is(x, Sym::ellipsis) && !is(x, Sym::none))
            ++consumed;
    for (const TSNode x : idx) {
        if (is(x, Sym::none)) {
            push(Extent::literal(1));
            continue;
        }
        if (is(x, Sym::ellipsis)) {
            const int skip = std::max(0, s.rank - consumed);
            for (int k = 0; k < skip; ++k)
                push(s.axis(axis++));
            continue;
        }
        if (axis >= s.rank)
            return Shape::unknown(); // more indices than axes: not an array we model
        const Extent e = s.axis(axis);
        if (is(x, Sym::slice)) {
            const std::array<TSNode, 3> parts = sliceParts(x);
            const TSNode lo = parts[0], hi = parts[1], st = parts[2];
            Extent r = e;
            if (const qint64 w = sliceWidth(lo, hi, st); w >= 0) {
                r = Extent::literal(e.isLiteral() ? std::min(e.value, w) : w);
            } else if (!ts_node_is_null(st) && !extent(st, depth + 1).isLiteral(1)) {
                // A stepped or reversed slice: the count depends on the step.
                const Extent stp = extent(st, depth + 1);
                r = stp.isLiteral() && stp.value > 1 && e.size == SizeClass::Small
                        ? Extent::unknown(SizeClass::Small)
                        : Extent::unknown(e.size == SizeClass::Small ? SizeClass::Small
                                                                     : SizeClass::Unknown);
                if (e.size == SizeClass::Data)
                    r = Extent::unknown(SizeClass::Data);
            } else if (ts_node_is_null(lo) && !ts_node_is_null(hi)) {
                const Extent h = extent(hi, depth + 1);
                if (h.isLiteral() && h.value >= 0)
                    r = Extent::literal(e.isLiteral() ? std::min(e.value, h.value) : h.value);
                else if (h.size == SizeClass::Small)
                    r = Extent::unknown(SizeClass::Small);
                else if (!h.isLiteral())
                    r = Extent::unknown(e.size == SizeClass::Small ? SizeClass::Small
                                                                   : joinClass(e.size, h.size));
                else
                    r = Extent::unknown(e.size); // a[:-1]
            } else if (!ts_node_is_null(lo) || !ts_node_is_null(hi) || !ts_node_is_null(st)) {
                const Extent l = extent(lo, depth + 1), h = extent(hi, depth + 1);
                if (e.isLiteral() && (ts_node_is_null(hi) || h.isLiteral()) &&
                    (ts_node_is_null(lo) || l.isLiteral()) && ts_node_is_null(st)) {
                    qint64 a = ts_node_is_null(lo) ? 0 : l.value,
                           b = ts_node_is_null(hi) ? e.value : h.value;
                    if (a < 0)
                        a += e.value;
                    if (b < 0)
                        b += e.value;
                    r = Extent::literal(
                        std::max<qint64>(0, std::min(b, e.value) - std::max<qint64>(a, 0)));
                } else if (l.isLiteral() && h.isLiteral() && l.value >= 0 && h.value >= l.value &&
                           ts_node_is_null(st)) {
                    r = Extent::literal(h.value - l.value);
                } else {
                    r = Extent::unknown(e.size);
                }
            }
            push(r);
            ++axis;
            continue;
        }
        const Shape xs = shape(x, depth + 1);
        const ValueKind xk = m.valueKind(x);
        if ((xs.known() && xs.rank >= 1) || xk == ValueKind::Array) {
            // Advanced indexing: a boolean mask covers its rank of axes with one axis of the
            // selected count; an integer array puts its own shape in.
            if (xs.element == ElementKind::Bool) {
                const int cover = xs.known() ? std::max<int>(1, xs.rank) : 1;
                SizeClass c = SizeClass::Small;
                for (int k = 0; k < cover && axis < s.rank; ++k)
                    c = joinClass(c, s.axis(axis++).size);
                if (!advancedDone)
                    push(Extent::unknown(c));
                advancedDone = true;
                continue;
            }
            if (!advancedDone) {
                if (xs.known())
                    for (int k = 0; k < xs.rank; ++k)
                        push(xs.axis(k));
                else
                    return Shape::unknown(xs.sizeClass());
            }
            advancedDone = true;
            ++axis;
            continue;
        }
        ++axis; // an integer index drops the axis
    }
    for (; axis < s.rank; ++axis)
        push(s.axis(axis));
    return out;
}

// ---- Extents ------------------------------------------------------------------------------

Extent ShapeEngine::Impl::extent(TSNode n, int depth) {
    if (ts_node_is_null(n) || depth > kMaxDepth)
        return Extent::unknown();
    return memoized(extents, n, [&] { return extentUncached(n, depth); });
}

Extent ShapeEngine::Impl::runtimeAxis(TSNode array, int axis, TSNode whole, int depth) {
    // `len(x)` / `x.shape[k]`: the axis of x's shape; when that is not tracked, a runtime
    // value whose class is the array's (a data array's axis is data-sized).
    const Shape s = shape(array, depth + 1);
    Extent e = s.axis(axis);
    if (e.kind != Extent::Kind::Unknown) {
        if (e.kind == Extent::Kind::Literal)
            return e;
        Extent r = e;
        return r;
    }
    SizeClass c = e.size;
    if (c == SizeClass::Unknown)
        c = s.sizeClass();
    if (c == SizeClass::Unknown) {
        const ValueKind k = m.valueKind(array);
        if (k == ValueKind::Array)
            c = SizeClass::Data;
    }
    Extent r = Extent::symbolic(text(whole), c);
    r.parameter = s.known() ? qint8(-1) : s.axes[0].parameter;
    if (r.parameter >= 0)
        r.parameterAxis = qint8(std::clamp(axis, 0, 127));
    return r;
}

Extent ShapeEngine::Impl::extentUncached(TSNode n, int depth) {
    Sym t;
    n = unparen(n, t);
    if (t == Sym::integer) {
        const auto v = integerLiteralValue(text(n));
        return v ? Extent::literal(*v) : Extent::unknown();
    }
    if (t == Sym::unary_operator) {
        const Extent a = extent(field(n, F().argument), depth + 1);
        const std::string_view op = text(field(n, F().op));
        if (a.isLiteral() && op == "-")
            return Extent::literal(-a.value);
        if (a.isLiteral() && op == "+")
            return a;
        Extent e = a;
        e.symbol = text(n);
        return e;
    }
    if (t == Sym::binary_operator) {
        const Extent l = extent(field(n, F().left), depth + 1);
        const Extent r = extent(field(n, F().right), depth + 1);
        const std::string_view op = text(field(n, F().op));
        if (l.isLiteral() && r.isLiteral()) {
            const qint64 a = l.value, b = r.value;
            const qint64 lim = kLiteralLimit;
            if (op == "+" && std::abs(a) < lim && std::abs(b) < lim)
                return Extent::literal(a + b);
            if (op == "-" && std::abs(a) < lim && std::abs(b) < lim)
                return Extent::literal(a - b);
            if (op == "*" && std::abs(a) < (qint64(1) << 20) && std::abs(b) < (qint64(1) << 20))
                return Extent::literal(a * b);
            if (op == "//" && b != 0)
                return Extent::literal(a / b);
            if (op == "%" && b != 0)
                return Extent::literal(a % b);
            if (op == "**" && b >= 0 && b < 40) {
                qint64 v = 1;
                for (qint64 i = 0; i < b && std::abs(v) < lim; ++i)
                    v *= a;
                if (std::abs(v) < lim)
                    return Extent::literal(v);
            }
            if (op == "<<" && b >= 0 && b < 40)
                return Extent::literal(a << b);
            return Extent::unknown();
        }
        Extent e;
        e.kind = (l.kind == Extent::Kind::Unknown || r.kind == Extent::Kind::Unknown)
                     ? Extent::Kind::Unknown
                     : Extent::Kind::Product;
        e.symbol = text(n);
        e.value = 1;
        // n + 1, n - 1, 2 * n, n // 2: data when n is; a small literal offset keeps the other
        // side's class. `n % 3` is at most 3.
        if (op == "%" && r.isLiteral())
            e.size = literalClass(r.value);
        else if ((op == "+" || op == "-" || op == "//" || op == "*" || op == ">>") &&
                 (r.isLiteral() || l.isLiteral())) {
            const Extent& sym = r.isLiteral() ? l : r;
            const Extent& lit = r.isLiteral() ? r : l;
            e.size = sym.size;
            if (op == "*" && sym.size == SizeClass::Small && lit.size == SizeClass::Data)
                e.size = SizeClass::Data;
        } else
            e.size = joinClass(l.size, r.size);
        e.parameter = l.parameter >= 0 ? l.parameter : r.parameter;
        return e;
    }
    if (t == Sym::identifier) {
        if (text(n) == "True" || text(n) == "False")
            return Extent::unknown();
        return nameExtent(n, false, depth);
    }
    if (t == Sym::attribute) {
        const TSNode obj = field(n, F().object);
        const std::string_view a = text(field(n, F().attribute));
        if (a == "ndim")
            return Extent::symbolic(text(n), SizeClass::Small);
        if (a == "size") {
            const Shape s = shape(obj, depth + 1);
            if (s.known()) {
                Extent e = s.size();
                if (e.kind != Extent::Kind::Literal)
                    e.symbol = text(n);
                return e;
            }
            return runtimeAxis(obj, 0, n, depth);
        }
        if (is(obj, Sym::identifier) && text(obj) == "self")
            return nameExtent(n, true, depth);
        // `model.k_endog`, `res.neqs`: a count of few things whoever holds it.
        if (smallCountName(a))
            return Extent::symbolic(text(n), SizeClass::Small);
        return Extent::unknown();
    }
    if (t == Sym::subscript) {
        // x.shape[k]
        const TSNode base = unparen(field(n, F().value));
        if (is(base, Sym::attribute) && text(field(base, F().attribute)) == "shape") {
            const TSNode k = field(n, F().subscript);
            const Extent ke = extent(k, depth + 1);
            if (ke.isLiteral())
                return runtimeAxis(field(base, F().object), int(ke.value), n, depth);
            const Shape s = shape(field(base, F().object), depth + 1);
            return Extent::symbolic(text(n), s.sizeClass() == SizeClass::Unknown ? SizeClass::Data
                                                                                 : s.sizeClass());
        }
        return Extent::unknown();
    }
    if (t == Sym::call) {
        const TSNode fn = unparen(field(n, F().function));
        const std::string_view f = text(fn);
        if (f == "len") {
            const TSNode x = unparen(arg(n, 0));
            if (is(x, Sym::tuple) || is(x, Sym::list) || is(x, Sym::string))
                return shape(x, depth + 1).known() && !is(x, Sym::string)
                           ? Extent::literal(items(x).size())
                           : Extent::symbolic(text(n), SizeClass::Small);
            Extent e = runtimeAxis(x, 0, n, depth);
            if (e.size == SizeClass::Unknown && is(x, Sym::identifier)) {
                // len(param) of a parameter whose kind is unknown: a runtime value.
                std::array<SemanticModel::NameBinding, 2> bs;
                const int nb = m.nameBindings(text(x), x, false, bs.data(), 2);
                if (nb >= 1 && bs[0].kind == SemanticModel::NameBinding::Kind::Param)
                    e.size = smallArrayName(text(x)) ? SizeClass::Small : SizeClass::Data;
            }
            return e;
        }
        if (f == "int" || f == "round" || f == "abs" || f == "math.ceil" || f == "math.floor" ||
            f == "np.int64" || f == "int64") {
            Extent e = extent(arg(n, 0), depth + 1);
            if (!e.isLiteral())
                e.symbol = text(n);
            return e;
        }
        if (f == "max" || f == "min") {
            const int c = argc(n);
            if (c >= 2) {
                Extent acc = extent(arg(n, 0), depth + 1);
                for (int i = 1; i < c; ++i) {
                    const Extent e = extent(arg(n, i), depth + 1);
                    if (acc.isLiteral() && e.isLiteral())
                        acc = Extent::literal(f == "max" ? std::max(acc.value, e.value)
                                                         : std::min(acc.value, e.value));
                    else if (f == "min" &&
                             (acc.size == SizeClass::Small || e.size == SizeClass::Small))
                        acc = Extent::symbolic(text(n), SizeClass::Small);
                    else
                        acc = Extent::symbolic(text(n), joinClass(acc.size, e.size));
                }
                return acc;
            }
        }
        const QString cn = m.callName(n);
        if (cn == QLatin1String("numpy.prod") || cn == QLatin1String("math.prod") ||
            cn == QLatin1String("numpy.product")) {
            // np.prod(x.shape): the size of x.
            const TSNode a = unparen(arg(n, 0));
            if (is(a, Sym::attribute) && text(field(a, F().attribute)) == "shape") {
                const Shape s = shape(field(a, F().object), depth + 1);
                if (s.known()) {
                    Extent e = s.size();
                    if (!e.isLiteral())
                        e.symbol = text(n);
                    return e;
                }
                return runtimeAxis(field(a, F().object), 0, n, depth);
            }
            const Shape s = shape(a, depth + 1);
            if (s.known() && s.rank == 1)
                return Extent::symbolic(text(n), s.axis(0).size);
        }
        // A project function or method returning literals (`self.ncoords()`).
        const int target = m.calledFunction(n);
        if (target >= 0) {
            const FunctionRegion& fr = m.functions()[size_t(target)];
            for (const void* a : active)
                if (a == fr.node.id)
                    return ++partialReads, Extent::unknown();
            active.push_back(fr.node.id);
            bool have = false;
            Extent acc = Extent::unknown();
            for (const TSNode r : SemanticModel::within(m.returns(), fr.body)) {
                const FunctionRegion* owner = m.enclosingFunctionRegion(r);
                if (!owner || owner->index != target)
                    continue;
                const TSNode v =
                    ts_node_named_child_count(r) ? ts_node_named_child(r, 0) : TSNode{};
                const Extent e = extent(v, depth + 1);
                if (!have)
                    acc = e;
                else if (!(acc.isLiteral() && e.isLiteral() && acc.value == e.value))
                    acc = Extent::symbolic(text(n), joinClass(acc.size, e.size));
                have = true;
            }
            active.pop_back();
            if (have) {
                if (!acc.isLiteral())
                    acc.symbol = text(n);
                return acc;
            }
        }
        return Extent::unknown();
    }
    return Extent::unknown();
}

Extent ShapeEngine::Impl::nameExtent(TSNode id, bool selfAttr, int depth) {
    const std::string_view name = selfAttr ? text(field(id, F().attribute)) : text(id);
    std::array<SemanticModel::NameBinding, 8> bs;
    const int n = m.nameBindings(name, id, selfAttr, bs.data(), int(bs.size()));
    if (n <= 0 || n > int(bs.size()))
        // Unbound here (a property, a name from elsewhere) or bound too often to follow: only
        // its name can tell (see the end of this function).
        return smallCountName(name) ? Extent::symbolic(text(id), SizeClass::Small)
               : n <= 0             ? Extent::unknown()
                                    : Extent::symbolic(text(id), SizeClass::Unknown);
    if (std::find(pendingExtents.begin(), pendingExtents.end(), bs[0].index) !=
        pendingExtents.end())
        return ++partialReads, Extent::unknown();
    pendingExtents.push_back(bs[0].index);
    using K = SemanticModel::NameBinding::Kind;
    bool have = false;
    Extent acc;
    bool moduleLevel = !selfAttr;
    for (int i = 0; i < n; ++i) {
        const auto& b = bs[size_t(i)];
        Extent e;
        switch (b.kind) {
        case K::Assign:
        case K::Walrus: {
            moduleLevel = moduleLevel && !m.enclosingFunctionRegion(b.target);
            const TSNode v = unparen(b.value);
            if (b.position == -1) {
                e = extent(v, depth + 1);
            } else if (b.position >= 0) {
                if (is(v, Sym::attribute) && text(field(v, F().attribute)) == "shape")
                    e = runtimeAxis(field(v, F().object), b.position, id, depth);
                else if (is(v, Sym::tuple) || is(v, Sym::expression_list)) {
                    const auto it = items(v);
                    e = b.position < it.size() ? extent(it[b.position], depth + 1)
                                               : Extent::unknown();
                } else
                    e = Extent::unknown();
            }
            break;
        }
        case K::Augment:
            continue; // `n += 1` keeps the class
        case K::ForTarget: {
            moduleLevel = false;
            const TSNode v = unparen(b.value);
            if (is(v, Sym::call) && text(field(v, F().function)) == "range") {
                const Extent hi = extent(arg(v, argc(v) > 1 ? 1 : 0), depth + 1);
                e = hi.isLiteral() ? Extent::symbolic(text(id), hi.size)
                                   : Extent::symbolic(text(id), hi.size);
            } else
                e = Extent::unknown();
            break;
        }
        case K::Param: {
            moduleLevel = false;
            if (const std::vector<TSNode>* args = m.bindingArguments(b.index);
                args && !args->empty()) {
                Extent a = extent((*args)[0], depth + 1);
                for (size_t j = 1; j < args->size(); ++j) {
                    const Extent o = extent((*args)[j], depth + 1);
                    if (!(a.isLiteral() && o.isLiteral() && a.value == o.value))
                        a = Extent::symbolic(text(id), joinClass(a.size, o.size));
                }
                if (a.size != SizeClass::Unknown) {
                    if (!a.isLiteral())
                        a.symbol = text(id);
                    e = a;
                    break;
                }
            }
            // A count parameter with a small literal default (`nlags=10`, `bins=16`) is
            // small by its author's own account, unless it is named as a size (`n=100` is a
            // demo value of a data size). 0 and 1 mean "off" and "one", not a size.
            const std::optional<qint64> byDefault =
                b.value.id ? integerLiteralValue(text(unparen(b.value))) : std::nullopt;
            const bool smallDefault =
                byDefault && *byDefault >= 2 && *byDefault <= kSmallLiteral && !sizeName(name);
            const SizeClass c =
                smallCountName(name) || smallDefault ? SizeClass::Small : SizeClass::Data;
            e = Extent::symbolic(text(id), c);
            e.parameter = qint8(std::clamp(b.argIndex, -1, 127));
            break;
        }
        case K::WithAs:
        case K::Import:
        case K::Def:
            e = Extent::unknown();
            break;
        }
        if (!have)
            acc = e;
        else if (!(acc.isLiteral() && e.isLiteral() && acc.value == e.value))
            acc = Extent::symbolic(text(id), joinClass(acc.size, e.size));
        have = true;
    }
    pendingExtents.pop_back();
    if (!have)
        return Extent::unknown();
    // A module constant named as a size (`N = 64`, `GRID_SIZE = 128`) sizes data, whatever
    // its demo value.
    if (moduleLevel && acc.isLiteral() && acc.size == SizeClass::Small && sizeName(name)) {
        Extent e = Extent::symbolic(text(id), SizeClass::Data);
        e.value = acc.value;
        return e;
    }
    // A name that counts few things by its domain (`order = nlags`, `neqs = y.shape[1]`) is
    // small whatever runtime value (or unknown value: a property, a call) it takes; only a
    // literal says otherwise.
    if (!acc.isLiteral() && smallCountName(name))
        acc.size = SizeClass::Small;
    if (acc.kind == Extent::Kind::Unknown && acc.symbol.empty())
        acc.symbol = text(id);
    return acc;
}

// ---- Element kinds ----------------------------------------------------------------------------

ElementKind ShapeEngine::Impl::comparedWithStrings(TSNode id) {
    // `name == "x"`, `name[i] in ("a", "b")` in the function around `id` (or the module).
    const std::string_view name = text(id);
    const FunctionRegion* f = m.enclosingFunctionRegion(id);
    const auto list = f ? SemanticModel::within(m.comparisons(), f->node)
                        : std::span<const TSNode>(m.comparisons());
    for (const TSNode c : list) {
        const auto it = items(c);
        bool mentions = false, strings = false;
        for (const TSNode x : it) {
            TSNode u = unparen(x);
            if (is(u, Sym::subscript))
                u = unparen(field(u, F().value));
            if (is(u, Sym::identifier) && text(u) == name)
                mentions = true;
            else if (isStringConstant(x))
                strings = true;
        }
        if (mentions && strings)
            return ElementKind::String;
    }
    return ElementKind::Unknown;
}

ElementKind ShapeEngine::Impl::element(TSNode n, int depth) {
    if (ts_node_is_null(n) || depth > 8)
        return ElementKind::Unknown;
    return memoized(elements, n, [&] { return elementUncached(n, depth); });
}

ElementKind ShapeEngine::Impl::elementUncached(TSNode n, int depth) {
    n = unparen(n);
    ElementKind k = shape(n, depth).element;
    if (k == ElementKind::Unknown) {
        TSNode base = n;
        // np.asarray(x), np.atleast_1d(np.asarray(x)), x[i], x.copy(): the elements of x.
        for (int guard = 0; guard < 8; ++guard) {
            if (is(base, Sym::subscript)) {
                base = unparen(field(base, F().value));
                continue;
            }
            if (is(base, Sym::call)) {
                const QString cn = m.callName(base);
                if (cn == QLatin1String("numpy.asarray") || cn == QLatin1String("numpy.array") ||
                    cn == QLatin1String("numpy.atleast_1d") ||
                    cn == QLatin1String("numpy.asanyarray") ||
                    cn == QLatin1String("numpy.unique") || cn == QLatin1String("numpy.sort") ||
                    cn == QLatin1String("numpy.ravel")) {
                    base = unparen(arg(base, 0));
                    continue;
                }
            }
            break;
        }
        if (is(base, Sym::identifier)) {
            k = comparedWithStrings(base);
            if (k == ElementKind::Unknown) {
                // Every assignment must agree (`out = p.astype(int)` then
                // `out = np.empty_like(p, dtype=object)` is neither); a parameter adds
                // nothing unless it is named like strings.
                std::array<SemanticModel::NameBinding, 8> bs;
                const int nb = m.nameBindings(text(base), base, false, bs.data(), int(bs.size()));
                bool first = true;
                for (int i = 0; i < std::min<int>(nb, int(bs.size())); ++i) {
                    const auto& b = bs[size_t(i)];
                    ElementKind bk = ElementKind::Unknown;
                    if (b.kind == SemanticModel::NameBinding::Kind::Param) {
                        if (!stringArrayName(text(base)))
                            continue;
                        bk = ElementKind::String;
                    } else if (b.kind == SemanticModel::NameBinding::Kind::Augment) {
                        continue;
                    } else if (b.kind == SemanticModel::NameBinding::Kind::Assign &&
                               b.position == -1 && !ts_node_is_null(b.value) &&
                               !ts_node_eq(b.value, n)) {
                        bk = element(b.value, depth + 1);
                    }
                    k = first || bk == k ? bk : ElementKind::Unknown;
                    first = false;
                    if (k == ElementKind::Unknown)
                        break;
                }
                if (nb > int(bs.size()))
                    k = ElementKind::Unknown;
            }
        } else if (!ts_node_eq(base, n)) {
            k = element(base, depth + 1);
        }
    }
    return k;
}

} // namespace cnready

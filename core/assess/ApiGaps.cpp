// The API-gap list (RULES.md, "API lookups"; PRODUCT.md, verdict rule 9): every NumPy call the
// manifest marks ✗, 🟡 or single-GPU, with its locations, whether it sits on the compute path,
// and a supported rewrite when the manifest allows one.
#include "assess/AssessInternals.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <tuple>

namespace cnready::assessment {

namespace {

struct Rewrite {
    const char* api;
    const char* text;
    QList<const char*> needs; ///< every name must be ✓✓ in the manifest
};

// Known supported rewrites; each is offered only when the manifest lists every API it needs as
// multi-GPU (✓✓), so a newer manifest that drops one silently withdraws the suggestion.
const QList<Rewrite>& rewrites() {
    static const QList<Rewrite> r = {
        {"numpy.std", "np.sqrt(np.var(x, axis=...))", {"numpy.sqrt", "numpy.var"}},
        {"numpy.ndarray.std", "np.sqrt(x.var(axis=...))", {"numpy.sqrt", "numpy.ndarray.var"}},
        {"numpy.around", "np.rint(x * 10**d) / 10**d", {"numpy.rint"}},
        {"numpy.ptp", "np.max(x, axis=...) - np.min(x, axis=...)", {"numpy.max", "numpy.min"}},
        {"numpy.atan2", "np.arctan2(y, x)", {"numpy.arctan2"}},
        {"numpy.pow", "np.power(x, y)", {"numpy.power"}},
        {"numpy.ascontiguousarray", "np.asarray(x)", {"numpy.asarray"}},
        {"numpy.asanyarray", "np.asarray(x)", {"numpy.asarray"}},
        {"numpy.fix", "np.trunc(x)", {"numpy.trunc"}},
        {"numpy.heaviside", "np.where(x > 0, 1.0, np.where(x == 0, h, 0.0))", {"numpy.where"}},
        {"numpy.ediff1d", "np.diff(np.ravel(x))", {"numpy.diff", "numpy.ravel"}},
        {"numpy.cumulative_sum", "np.cumsum(x, axis=...)", {"numpy.cumsum"}},
        {"numpy.cumulative_prod", "np.cumprod(x, axis=...)", {"numpy.cumprod"}},
        {"numpy.linalg.outer", "np.outer(a, b)", {"numpy.outer"}},
        {"numpy.linalg.tensordot", "np.tensordot(a, b, axes=...)", {"numpy.tensordot"}},
        {"numpy.linalg.trace", "np.trace(x)", {"numpy.trace"}},
        {"numpy.linalg.vector_norm", "np.linalg.norm(x, axis=...)", {"numpy.linalg.norm"}},
        {"numpy.vecdot", "np.einsum('...i,...i->...', a, b)", {"numpy.einsum"}},
        {"numpy.linalg.vecdot", "np.einsum('...i,...i->...', a, b)", {"numpy.einsum"}},
        {"numpy.matrix_transpose", "np.swapaxes(x, -1, -2)", {"numpy.swapaxes"}},
        {"numpy.linalg.matrix_transpose", "np.swapaxes(x, -1, -2)", {"numpy.swapaxes"}},
        {"numpy.random.standard_normal",
         "np.random.default_rng(seed).standard_normal(size)",
         {"numpy.random.default_rng"}},
    };
    return r;
}

QString verifiedRewrite(const QString& api, const Manifest& manifest) {
    for (const Rewrite& r : rewrites()) {
        if (api != QLatin1String(r.api))
            continue;
        for (const char* need : r.needs)
            if (manifest.lookup(QLatin1String(need)) != Support::Multi)
                return {};
        return QLatin1String(r.text);
    }
    return {};
}

// Rule 9 demotes for a ✗ API on the compute path because that work stops the port wherever it
// runs (since cuPyNumeric 26.06 an unimplemented function raises AttributeError). Some ✗ names do
// no array work at all: they answer a question about dtypes, name a dtype, or set interpreter-wide
// state, and their cost does not grow with the array. They stay in the API-gap list but do not
// demote. The list is closed on purpose: names here must never touch array elements, whatever
// cuPyNumeric does with them.
QString nonComputeKind(const QString& api) {
    static const QHash<QString, const char*> kinds = [] {
        QHash<QString, const char*> h;
        auto add = [&h](std::initializer_list<const char*> names, const char* kind) {
            for (const char* n : names)
                h.insert(QStringLiteral("numpy.") + QLatin1String(n), kind);
        };
        // Type promotion and dtype questions: they read dtypes, never elements.
        add({"can_cast", "common_type", "datetime_data", "isdtype", "issubdtype", "min_scalar_type",
             "mintypecode", "promote_types", "result_type", "typename"},
            "a dtype query");
        // Floating-point error handling, print options, ufunc buffer size: process settings.
        add({"errstate", "geterr", "geterrcall", "seterr", "seterrcall", "get_printoptions",
             "printoptions", "set_printoptions", "getbufsize", "setbufsize"},
            "an interpreter setting");
        // Build and environment information.
        add({"get_include", "info", "show_config", "show_runtime"}, "environment information");
        // Names of fixed-width bool/integer/float/complex types (dtype=np.intc, issubdtype(t,
        // np.number)): cuPyNumeric arrays hold these types; only the alias is missing. Extended
        // precision (longdouble, float128), datetime, string, object and record types are real
        // gaps and are not listed.
        add({"bool",      "byte",    "ubyte",   "short",  "ushort",   "intc",
             "uintc",     "int_",    "uint",    "long",   "ulong",    "longlong",
             "ulonglong", "intp",    "uintp",   "half",   "single",   "double",
             "csingle",   "cdouble", "generic", "number", "flexible", "character"},
            "a dtype name");
        return h;
    }();
    const char* kind = kinds.value(api, nullptr);
    return kind ? QLatin1String(kind) : QString();
}

QString normalizeApi(QString name) {
    if (name.startsWith(QLatin1String("cupynumeric.")))
        name = QStringLiteral("numpy.") + name.mid(12);
    return name;
}

} // namespace

QList<ApiGap> apiGaps(const ProjectResult& project, const Manifest& manifest, int nodes) {
    QSet<QString> testFiles;
    for (const FileResult& f : project.files)
        if (f.isTest)
            testFiles.insert(f.path);
    QMap<QString, ApiGap> byName;
    // Per API: the locations already listed (a name used 20,000 times made `contains` on the
    // list quadratic).
    QHash<QString, QSet<SourceRange>> listed;
    for (const ApiUse& u : project.apiUses) {
        if (testFiles.contains(u.range.path))
            continue; // tests keep NumPy as their reference
        const QString name = normalizeApi(u.name);
        const ManifestEntry* e = manifest.entry(name);
        if (!e || e->support == Support::Multi || e->support == Support::Absent)
            continue;
        ApiGap& g = byName[name];
        g.name = name;
        g.support = e->support;
        g.note = e->note;
        QSet<SourceRange>& seen = listed[name];
        if (!seen.contains(u.range)) {
            seen.insert(u.range);
            g.locations << u.range;
        }
        // Hot is compute-path code run once per pass; an unimplemented API on the compute
        // path stops the port wherever it runs (cuPyNumeric 26.06+ raises AttributeError).
        const bool compute = u.pathRole == PathRole::Compute;
        g.onComputePath = g.onComputePath || compute;
        g.onHotPath = g.onHotPath || (u.hot && compute);
    }
    QList<ApiGap> gaps;
    for (ApiGap g : byName) {
        std::sort(
            g.locations.begin(), g.locations.end(), [](const SourceRange& a, const SourceRange& b) {
                return std::tie(a.path, a.line, a.column) < std::tie(b.path, b.line, b.column);
            });
        g.nonCompute = nonComputeKind(g.name);
        g.material =
            g.nonCompute.isEmpty() && ((g.support == Support::Missing && g.onComputePath) ||
                                       (g.support == Support::Single && g.onHotPath && nodes >= 2));
        g.rewrite = verifiedRewrite(g.name, manifest);
        gaps << g;
    }
    auto rank = [](Support s) { return s == Support::Missing ? 0 : s == Support::Partial ? 1 : 2; };
    std::stable_sort(gaps.begin(), gaps.end(), [&](const ApiGap& a, const ApiGap& b) {
        return std::make_tuple(rank(a.support), a.name) < std::make_tuple(rank(b.support), b.name);
    });
    return gaps;
}

} // namespace cnready::assessment

#include "assess/evidence/Collector.h"

#include "semantic/NumpyNames.h"

namespace cnready::evidence {

// Array constructors and their size argument (NumPy signatures).
const QHash<QString, DrawSpec>& constructorSpecs() {
    static const QHash<QString, DrawSpec> specs = {
        {QStringLiteral("numpy.zeros"), {0, "shape"}},
        {QStringLiteral("numpy.ones"), {0, "shape"}},
        {QStringLiteral("numpy.empty"), {0, "shape"}},
        {QStringLiteral("numpy.full"), {0, "shape"}},
        {QStringLiteral("numpy.ndarray"), {0, "shape"}},
        {QStringLiteral("numpy.random.rand"), {-1, ""}},
        {QStringLiteral("numpy.random.randn"), {-1, ""}},
        {QStringLiteral("numpy.random.random"), {0, "size"}},
        {QStringLiteral("numpy.random.random_sample"), {0, "size"}},
        {QStringLiteral("numpy.random.standard_normal"), {0, "size"}},
        {QStringLiteral("numpy.random.uniform"), {2, "size"}},
        {QStringLiteral("numpy.random.normal"), {2, "size"}},
        {QStringLiteral("numpy.random.randint"), {2, "size"}},
        {QStringLiteral("numpy.random.exponential"), {1, "size"}},
        {QStringLiteral("numpy.random.poisson"), {1, "size"}},
        {QStringLiteral("numpy.random.binomial"), {2, "size"}},
    };
    return specs;
}

// Draw methods of a numpy.random.Generator / RandomState object.
const QHash<QString, DrawSpec>& generatorSpecs() {
    static const QHash<QString, DrawSpec> specs = {
        {QStringLiteral("random"), {0, "size"}},
        {QStringLiteral("standard_normal"), {0, "size"}},
        {QStringLiteral("normal"), {2, "size"}},
        {QStringLiteral("uniform"), {2, "size"}},
        {QStringLiteral("integers"), {2, "size"}},
        {QStringLiteral("randint"), {2, "size"}},
        {QStringLiteral("exponential"), {1, "size"}},
        {QStringLiteral("poisson"), {1, "size"}},
        {QStringLiteral("binomial"), {2, "size"}},
        {QStringLiteral("rand"), {-1, ""}},
        {QStringLiteral("randn"), {-1, ""}},
    };
    return specs;
}

// Whether a dotted name is `module` itself or lies below it ("scipy.sparse.linalg" is under
// "scipy.sparse"; "scipyx" is not under "scipy"). No allocation: this runs for every call.
bool isUnderModule(const QString& name, QLatin1String module) {
    return name.startsWith(module) &&
           (name.size() == module.size() || name.at(module.size()) == QLatin1Char('.'));
}

// NumPy calls that hint at a compute pattern.
QString numpyPattern(const QString& canonical) {
    static const QSet<QString> gemm = {QStringLiteral("matmul"),
                                       QStringLiteral("dot"),
                                       QStringLiteral("einsum"),
                                       QStringLiteral("tensordot"),
                                       QStringLiteral("inner"),
                                       QStringLiteral("outer"),
                                       QStringLiteral("vdot"),
                                       QStringLiteral("kron"),
                                       QStringLiteral("linalg.solve"),
                                       QStringLiteral("linalg.inv"),
                                       QStringLiteral("linalg.cholesky"),
                                       QStringLiteral("linalg.qr"),
                                       QStringLiteral("linalg.svd"),
                                       QStringLiteral("linalg.eig"),
                                       QStringLiteral("linalg.eigh"),
                                       QStringLiteral("linalg.lstsq"),
                                       QStringLiteral("linalg.pinv"),
                                       QStringLiteral("linalg.matrix_power"),
                                       QStringLiteral("linalg.multi_dot")};
    static const QSet<QString> reduction = {
        QStringLiteral("sum"),       QStringLiteral("mean"),    QStringLiteral("max"),
        QStringLiteral("min"),       QStringLiteral("prod"),    QStringLiteral("var"),
        QStringLiteral("std"),       QStringLiteral("amax"),    QStringLiteral("amin"),
        QStringLiteral("average"),   QStringLiteral("nansum"),  QStringLiteral("nanmean"),
        QStringLiteral("nanmax"),    QStringLiteral("nanmin"),  QStringLiteral("count_nonzero"),
        QStringLiteral("argmax"),    QStringLiteral("argmin"),  QStringLiteral("linalg.norm"),
        QStringLiteral("histogram"), QStringLiteral("bincount")};
    static const QSet<QString> elementwise = {
        QStringLiteral("sqrt"),    QStringLiteral("exp"),      QStringLiteral("log"),
        QStringLiteral("log1p"),   QStringLiteral("expm1"),    QStringLiteral("sin"),
        QStringLiteral("cos"),     QStringLiteral("tan"),      QStringLiteral("tanh"),
        QStringLiteral("sinh"),    QStringLiteral("cosh"),     QStringLiteral("arctan"),
        QStringLiteral("arctan2"), QStringLiteral("abs"),      QStringLiteral("absolute"),
        QStringLiteral("where"),   QStringLiteral("clip"),     QStringLiteral("maximum"),
        QStringLiteral("minimum"), QStringLiteral("power"),    QStringLiteral("multiply"),
        QStringLiteral("add"),     QStringLiteral("subtract"), QStringLiteral("divide"),
        QStringLiteral("hypot"),   QStringLiteral("floor"),    QStringLiteral("ceil"),
        QStringLiteral("square"),  QStringLiteral("sign"),     QStringLiteral("rint"),
        QStringLiteral("log10"),   QStringLiteral("log2"),     QStringLiteral("select")};
    static const QSet<QString> draws = {
        QStringLiteral("rand"),          QStringLiteral("randn"),
        QStringLiteral("random"),        QStringLiteral("normal"),
        QStringLiteral("uniform"),       QStringLiteral("standard_normal"),
        QStringLiteral("exponential"),   QStringLiteral("poisson"),
        QStringLiteral("binomial"),      QStringLiteral("randint"),
        QStringLiteral("random_sample"), QStringLiteral("choice"),
        QStringLiteral("gamma"),         QStringLiteral("lognormal")};
    if (!canonical.startsWith(QLatin1String("numpy.")))
        return {};
    const QString tail = canonical.mid(6);
    if (tail.startsWith(QLatin1String("fft.")))
        return QStringLiteral("fft");
    if (tail.startsWith(QLatin1String("random.")))
        return draws.contains(tail.mid(7)) ? QStringLiteral("monte-carlo") : QString();
    if (tail == QLatin1String("roll"))
        return QStringLiteral("stencil");
    if (gemm.contains(tail))
        return QStringLiteral("gemm");
    if (reduction.contains(tail))
        return QStringLiteral("reduction");
    if (elementwise.contains(tail))
        return QStringLiteral("elementwise");
    return {};
}

// Imported modules (or "module.name" of a from-import) that hint at a pattern. Returns the
// pattern and whether it is a module whose calls should also count.
QString modulePattern(const QString& full) {
    auto under = [&](const char* prefix) { return isUnderModule(full, QLatin1String(prefix)); };
    if (under("scipy.sparse"))
        return QStringLiteral("sparse");
    if (under("scipy.fft") || under("scipy.fftpack"))
        return QStringLiteral("fft");
    if (under("scipy"))
        return QStringLiteral("scipy-mixed");
    if (under("networkx") || under("igraph") || under("graph_tool"))
        return QStringLiteral("graph");
    if (under("torch") || under("tensorflow") || under("jax") || under("keras") || under("flax") ||
        under("optax"))
        return QStringLiteral("ml");
    if (under("nltk") || under("spacy") || under("transformers") || under("tokenizers") ||
        under("gensim") || under("sentencepiece") || under("sklearn.feature_extraction.text"))
        return QStringLiteral("string");
    if (under("sklearn")) {
        static const QStringList estimators = {QStringLiteral("linear_model"),
                                               QStringLiteral("ensemble"),
                                               QStringLiteral("svm"),
                                               QStringLiteral("neighbors"),
                                               QStringLiteral("tree"),
                                               QStringLiteral("neural_network"),
                                               QStringLiteral("naive_bayes"),
                                               QStringLiteral("cluster"),
                                               QStringLiteral("gaussian_process"),
                                               QStringLiteral("discriminant_analysis"),
                                               QStringLiteral("kernel_ridge"),
                                               QStringLiteral("mixture"),
                                               QStringLiteral("semi_supervised")};
        const QString sub = full.section(QLatin1Char('.'), 1, 1);
        return estimators.contains(sub) ? QStringLiteral("ml") : QStringLiteral("scipy-mixed");
    }
    return {};
}

// Host touchpoint kind of a canonical call (Gate 5), or "".
QString touchpointKind(const QString& c) {
    auto under = [&](const char* prefix) { return isUnderModule(c, QLatin1String(prefix)); };
    if (under("pandas"))
        return QStringLiteral("pandas");
    if (under("h5py"))
        return QStringLiteral("h5py");
    if (under("netCDF4") || under("xarray") || under("zarr") || under("pyarrow") ||
        under("pickle") || under("json") || under("csv"))
        return QStringLiteral("io");
    static const QSet<QString> numpyIo = {
        QStringLiteral("numpy.load"),       QStringLiteral("numpy.save"),
        QStringLiteral("numpy.savez"),      QStringLiteral("numpy.savez_compressed"),
        QStringLiteral("numpy.loadtxt"),    QStringLiteral("numpy.savetxt"),
        QStringLiteral("numpy.genfromtxt"), QStringLiteral("numpy.fromfile"),
        QStringLiteral("numpy.memmap")};
    if (numpyIo.contains(c))
        return QStringLiteral("io");
    if (under("scipy"))
        return QStringLiteral("scipy");
    if (under("sklearn"))
        return QStringLiteral("sklearn");
    if (under("matplotlib") || under("seaborn") || under("plotly"))
        return QStringLiteral("plotting");
    if (under("cv2") || under("PIL") || under("skimage"))
        return QStringLiteral("external");
    return {};
}

// Draw methods of a generator object (generatorSpecs()) by the method's UTF-8 name; null if
// none. Looked up without building a QString for every method call.
const DrawSpec* generatorSpec(std::string_view method) {
    if (method.empty() || method.size() > 20)
        return nullptr;
    const auto it =
        generatorSpecs().constFind(QString::fromLatin1(method.data(), qsizetype(method.size())));
    return it == generatorSpecs().cend() ? nullptr : &*it;
}

CanonInfo classify(const QString& canonical) {
    CanonInfo c;
    if (numpy::throughModuleMetadata(canonical))
        return c;
    c.numpy = canonical.startsWith(QLatin1String("numpy."));
    if (c.numpy) {
        const QString tail = canonical.mid(6);
        if (tail == QLatin1String("linspace"))
            c.size = CanonInfo::Linspace;
        else if (tail == QLatin1String("arange"))
            c.size = CanonInfo::Arange;
        else if (tail == QLatin1String("eye"))
            c.size = CanonInfo::Eye;
        else if (tail == QLatin1String("identity"))
            c.size = CanonInfo::Identity;
        else if (const auto it = constructorSpecs().constFind(canonical);
                 it != constructorSpecs().cend()) {
            c.size = CanonInfo::Spec;
            c.spec = &*it;
        }
    }
    c.pattern = numpyPattern(canonical);
    if (c.pattern.isEmpty() && !canonical.isEmpty() && !c.numpy)
        c.pattern = modulePattern(canonical);
    c.re = canonical.startsWith(QLatin1String("re."));
    c.heappop = canonical == QLatin1String("heapq.heappop");
    c.touchpoint = touchpointKind(canonical);
    c.logging = canonical.startsWith(QLatin1String("logging."));
    c.goldenTest = canonical.startsWith(QLatin1String("numpy.testing.")) ||
                   canonical == QLatin1String("numpy.allclose") ||
                   canonical == QLatin1String("numpy.isclose") ||
                   canonical == QLatin1String("numpy.array_equal") ||
                   canonical == QLatin1String("pytest.approx");
    c.benchmark = canonical == QLatin1String("time.perf_counter") ||
                  canonical.startsWith(QLatin1String("timeit.")) ||
                  canonical == QLatin1String("legate.timing.time");
    return c;
}

// classify() memoised per thread: a project calls the same few hundred names everywhere. The
// answer depends on the name only, so sharing it across files cannot change any result; the
// table is dropped when it grows large (a corpus of generated names). The answer is returned by
// value: a later call may insert (rehash) or clear the table, so no reference into it may outlive
// the call (a dangling `info` here was a heap-use-after-free under ASan).
CanonInfo canonInfo(const QString& canonical) {
    thread_local QHash<QString, CanonInfo> memo;
    if (const auto it = memo.constFind(canonical); it != memo.cend())
        return *it;
    if (memo.size() >= 8192)
        memo.clear();
    return *memo.insert(canonical, classify(canonical));
}
} // namespace cnready::evidence

#include "assess/Assessment.h"

#include "assess/GpuCatalog.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace cnready {

std::optional<qint64> parseElementCount(const QString& text, bool* tooLarge) {
    if (tooLarge)
        *tooLarge = false;
    QString s = text.trimmed().remove(QLatin1Char('_')).remove(QLatin1Char(','));
    s.remove(QLatin1Char(' '));
    double mult = 1;
    if (s.endsWith(QLatin1Char('K'), Qt::CaseInsensitive))
        mult = 1e3;
    else if (s.endsWith(QLatin1Char('M'), Qt::CaseInsensitive))
        mult = 1e6;
    else if (s.endsWith(QLatin1Char('G'), Qt::CaseInsensitive) ||
             s.endsWith(QLatin1Char('B'), Qt::CaseInsensitive))
        mult = 1e9;
    if (mult != 1)
        s.chop(1);
    bool ok = false;
    const double v = s.toDouble(&ok) * mult;
    if (ok && v > double(kMaxElementCount)) {
        if (tooLarge)
            *tooLarge = true;
        return std::nullopt;
    }
    if (!ok || !(v >= 1))    // also NaN
        return std::nullopt; // an array of zero elements is not a workload
    if (std::abs(v - std::round(v)) > 1e-9 * v)
        return std::nullopt; // "1.5" or "1.0005K": not a whole number of elements
    return qint64(std::llround(v));
}

QString verdictLabel(Verdict v) {
    switch (v) {
    case Verdict::Ready:
        return QStringLiteral("READY");
    case Verdict::LightRefactor:
        return QStringLiteral("LIGHT REFACTOR");
    case Verdict::SignificantRefactor:
        return QStringLiteral("SIGNIFICANT REFACTOR");
    case Verdict::NotRecommended:
        return QStringLiteral("NOT RECOMMENDED");
    }
    return {};
}

QString verdictKey(Verdict v) {
    switch (v) {
    case Verdict::Ready:
        return QStringLiteral("ready");
    case Verdict::LightRefactor:
        return QStringLiteral("light");
    case Verdict::SignificantRefactor:
        return QStringLiteral("significant");
    case Verdict::NotRecommended:
        return QStringLiteral("not-recommended");
    }
    return {};
}

QString gateStatusLabel(GateStatus s) {
    switch (s) {
    case GateStatus::Pass:
        return QStringLiteral("pass");
    case GateStatus::Fail:
        return QStringLiteral("fail");
    case GateStatus::Uncertain:
        return QStringLiteral("uncertain");
    case GateStatus::NotApplicable:
        return QStringLiteral("n/a");
    }
    return {};
}

QString provenanceLabel(Provenance p) {
    switch (p) {
    case Provenance::Given:
        return QStringLiteral("given");
    case Provenance::Inferred:
        return QStringLiteral("inferred");
    case Provenance::Default:
        return QStringLiteral("default");
    }
    return {};
}

QString formatCount(qint64 n) {
    QString digits = QString::number(n < 0 ? -n : n);
    for (qsizetype i = digits.size() - 3; i > 0; i -= 3)
        digits.insert(i, QLatin1Char(','));
    return n < 0 ? QLatin1Char('-') + digits : digits;
}

QString formatShortCount(qint64 n) {
    auto fmt = [](double v, const char* unit) {
        QString s = QString::number(v, 'f', v < 10 ? 1 : 0);
        if (s.endsWith(QLatin1String(".0")))
            s.chop(2);
        return s + QLatin1Char(' ') + QLatin1String(unit);
    };
    if (n >= 1'000'000'000)
        return fmt(double(n) / 1e9, "B");
    if (n >= 1'000'000)
        return fmt(double(n) / 1e6, "M");
    return formatCount(n);
}

namespace {

const QStringList& passingPatterns() {
    static const QStringList p = {QStringLiteral("stencil"),     QStringLiteral("gemm"),
                                  QStringLiteral("reduction"),   QStringLiteral("elementwise"),
                                  QStringLiteral("monte-carlo"), QStringLiteral("fft")};
    return p;
}
const QStringList& failingPatterns() {
    static const QStringList p = {QStringLiteral("sparse"), QStringLiteral("graph"),
                                  QStringLiteral("ml"), QStringLiteral("string"),
                                  QStringLiteral("sequential")};
    return p;
}

QString patternLabel(const QString& p) {
    static const QHash<QString, QString> labels = {
        {QStringLiteral("stencil"), QStringLiteral("stencil on a regular grid")},
        {QStringLiteral("gemm"), QStringLiteral("dense linear algebra (GEMM)")},
        {QStringLiteral("reduction"), QStringLiteral("reductions over large arrays")},
        {QStringLiteral("elementwise"), QStringLiteral("vectorized elementwise pipeline")},
        {QStringLiteral("monte-carlo"), QStringLiteral("Monte Carlo sampling")},
        {QStringLiteral("fft"), QStringLiteral("FFT")},
        {QStringLiteral("sparse"), QStringLiteral("sparse matrices")},
        {QStringLiteral("graph"), QStringLiteral("graph algorithm")},
        {QStringLiteral("ml"), QStringLiteral("ML training / inference")},
        {QStringLiteral("string"), QStringLiteral("string processing / NLP")},
        {QStringLiteral("sequential"), QStringLiteral("sequential recurrence")},
        {QStringLiteral("scipy-mixed"),
         QStringLiteral("mixed: array math plus heavy SciPy/sklearn")},
    };
    return labels.value(p, p);
}

bool isHotFunction(const ProjectResult& project, const QString& module, const QString& function) {
    if (function.isEmpty())
        return false;
    return project.hotFunctions.contains(module + QLatin1Char('.') + function);
}

QString loc(const SourceRange& r) {
    return QStringLiteral("`%1`").arg(r.toString());
}

} // namespace

bool findingOnHotPath(const Finding& f) {
    return f.hot || f.code == QLatin1String("R101") || f.code == QLatin1String("R102") ||
           f.code == QLatin1String("R103");
}

QString hotPathLabel(const Finding& f) {
    if (f.hot)
        return QStringLiteral("yes");
    return findingOnHotPath(f) ? QStringLiteral("yes (per element)") : QStringLiteral("no");
}

namespace {

QStringList distinctCodes(const QList<Finding>& fs) {
    QStringList codes;
    for (const Finding& f : fs)
        codes << f.code;
    codes.removeDuplicates();
    codes.sort();
    return codes;
}

Verdict demote(Verdict v) {
    switch (v) {
    case Verdict::Ready:
        return Verdict::LightRefactor;
    case Verdict::LightRefactor:
        return Verdict::SignificantRefactor;
    default:
        return v; // never to NOT RECOMMENDED
    }
}

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

// Rule 9 demotes for a ✗ API on a hot path because that work will not scale (it runs on the
// host or stops the program). Some ✗ names do no array work at all: they answer a question
// about dtypes, name a dtype, or set interpreter-wide state, and their cost does not grow with
// the array. They stay in the API-gap list but do not demote. The list is closed on purpose:
// names here must never touch array elements, whatever cuPyNumeric does with them.
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

// ---- gates --------------------------------------------------------------------------------

Gate hardwareGate(const Context& c) {
    Gate g{1, QStringLiteral("Hardware"), GateStatus::Uncertain, {}, {}};
    QStringList fails, unknown, ok;
    if (c.computeCapability > 0) {
        const QString what =
            c.gpuModel.isEmpty()
                ? QStringLiteral("compute capability %1").arg(c.computeCapability, 0, 'f', 1)
                : QStringLiteral("%1 (compute capability %2)")
                      .arg(c.gpuModel)
                      .arg(c.computeCapability, 0, 'f', 1);
        if (c.computeCapability < 7.0)
            fails << QStringLiteral("%1 is below 7.0; cuPyNumeric needs Volta or newer").arg(what);
        else
            ok << QStringLiteral("%1 >= 7.0").arg(what);
    } else {
        unknown << (c.gpuModel.isEmpty()
                        ? QStringLiteral("GPU not given (needs compute capability >= 7.0)")
                        : QStringLiteral("GPU '%1' not in the catalog (needs compute "
                                         "capability >= 7.0)")
                              .arg(c.gpuModel));
    }
    if (!c.cuda.isEmpty()) {
        const int major = c.cuda.section(QLatin1Char('.'), 0, 0).toInt();
        if (major == 12 || major == 13)
            ok << QStringLiteral("CUDA %1").arg(c.cuda);
        else
            fails << QStringLiteral("CUDA %1 is not 12.x or 13.x; fix the toolchain first")
                         .arg(c.cuda);
    } else {
        unknown << QStringLiteral("CUDA not given (needs 12.x or 13.x)");
    }
    if (!c.os.isEmpty()) {
        if (c.os == QLatin1String("linux") || c.os == QLatin1String("wsl2") ||
            c.os == QLatin1String("wsl"))
            ok << (c.os == QLatin1String("linux") ? QStringLiteral("Linux")
                                                  : QStringLiteral("WSL2"));
        else if (c.os == QLatin1String("macos") || c.os == QLatin1String("darwin"))
            fails << QStringLiteral("macOS is not supported (Linux or WSL2 needed)");
        else if (c.os == QLatin1String("windows"))
            fails << QStringLiteral("native Windows is not supported (use WSL2)");
        else
            unknown << QStringLiteral("OS '%1' unknown (Linux or WSL2 needed)").arg(c.os);
    } else {
        unknown << QStringLiteral("OS not given (needs Linux or WSL2)");
    }
    if (!fails.isEmpty()) {
        g.status = GateStatus::Fail;
        g.reason = fails.join(QStringLiteral("; "));
    } else if (unknown.isEmpty()) {
        // All three requirements of the gate are confirmed; a supported GPU alone leaves the
        // toolchain and the OS open, which is uncertain, not a pass.
        g.status = GateStatus::Pass;
        g.reason = (ok + unknown).join(QStringLiteral("; "));
    } else {
        g.status = GateStatus::Uncertain;
        g.reason = (ok + unknown).join(QStringLiteral("; "));
    }
    return g;
}

Gate sizeGate(const Context& c) {
    Gate g{2, QStringLiteral("Problem size"), GateStatus::Uncertain, {}, {}};
    const qint64 n = c.perGpuElements;
    const QString per = QStringLiteral("%1 elements per GPU").arg(formatCount(n));
    const QString over =
        c.gpus > 1
            ? QStringLiteral(" (%1 over %2 GPUs)").arg(formatCount(c.totalElements)).arg(c.gpus)
            : QString();
    if (c.sizeProvenance == Provenance::Default) {
        g.status = GateStatus::Uncertain;
        g.reason = c.gpus == 1
                       ? QStringLiteral("no size given or found in the code; working with the "
                                        "default 30–50 M (40 M) on 1 GPU, which would pass — "
                                        "confirm with --elements")
                       : QStringLiteral("no size given or found in the code; the default 40 M "
                                        "over %1 GPUs is %2 — confirm with --elements")
                             .arg(c.gpus)
                             .arg(per);
        return g;
    }
    if (!c.sizeEvidence.isEmpty())
        g.evidence << c.sizeEvidence;
    // A weak hint (a size-named constant that sizes no array in its file) is reported, never
    // trusted to fail: `N = 4096` in `h2 = 1 / (N * N)` is a grid edge, not 4,096 elements.
    const bool weak = c.sizeProvenance == Provenance::Inferred && !c.sizeFeedsArray;
    if (n < kSizeFloor && weak) {
        g.reason =
            QStringLiteral("no array is built from a constant size; the largest size-named "
                           "constant, %1, sizes no array in its file (it may be a side length, "
                           "a step count or a scale): %2 elements is a weak hint and cannot "
                           "fail the gate; give --elements")
                .arg(c.sizeEvidence.isEmpty() ? QStringLiteral("a constant") : c.sizeEvidence,
                     formatCount(n));
    } else if (n < kSizeFloor && c.sizeProvenance == Provenance::Inferred && !c.sizeNamed) {
        g.reason = QStringLiteral("the largest array the code builds from a constant holds %1 "
                                  "elements, below the 65,536 floor, but no size-named constant "
                                  "states the data size (it likely comes from callers); give "
                                  "--elements")
                       .arg(formatCount(n));
    } else if (n < kSizeFloor) {
        g.status = GateStatus::Fail;
        g.reason = QStringLiteral("%1%2 is below the 65,536-element floor: cuPyNumeric would run "
                                  "it serially")
                       .arg(per, over);
    } else if (n < 1'000'000) {
        g.reason =
            QStringLiteral("%1%2: between 65K and 1M, likely slower than NumPy").arg(per, over);
    } else if (n < 10'000'000) {
        g.reason =
            QStringLiteral("%1%2: 1M–10M is break-even, it depends on the op mix").arg(per, over);
    } else if (n < 100'000'000) {
        g.status = GateStatus::Pass;
        g.reason = QStringLiteral("%1%2: 10M–100M beats NumPy on a single GPU").arg(per, over);
    } else if (n < 1'000'000'000) {
        g.status = GateStatus::Pass;
        g.reason = QStringLiteral("%1%2: 100M+ beats NumPy clearly; more GPUs help").arg(per, over);
    } else {
        g.status = GateStatus::Pass;
        g.reason = QStringLiteral("%1%2: 1B+ strongly indicates multi-GPU; multi-node may be "
                                  "needed")
                       .arg(per, over);
    }
    if (weak && n >= kSizeFloor)
        g.reason += QStringLiteral(" (read from a size-named constant that sizes no array in its "
                                   "file; confirm with --elements)");
    // Memory fit, when the catalogue knows the card: one float64 array of the per-GPU size must
    // fit the device. Too big is not a reason against the port (more GPUs fix it), so the gate
    // turns uncertain with the numbers instead of failing into rule 3's small-size verdict.
    if (c.gpuMemoryGiB > 0 && n >= kSizeFloor) {
        const double gib = double(1 << 30);
        const double need = double(n) * double(kAssumedBytesPerElement);
        const double have = double(c.gpuMemoryGiB) * gib;
        if (need > have) {
            const double total = double(c.totalElements) * double(kAssumedBytesPerElement);
            const auto minGpus = qint64(std::ceil(total / have));
            g.status = GateStatus::Uncertain;
            g.reason += QStringLiteral("; but at %1 bytes per element (float64 assumed) one array "
                                       "of %2 elements needs %3 GiB per GPU, more than the %4's "
                                       "%5 GiB: it does not fit — spread the data over at least "
                                       "%6 GPUs of this model or use a smaller dtype")
                            .arg(kAssumedBytesPerElement)
                            .arg(formatCount(n))
                            .arg(need / gib, 0, 'f', 1)
                            .arg(c.gpuModel)
                            .arg(c.gpuMemoryGiB)
                            .arg(formatCount(minGpus));
        }
    }
    return g;
}

Gate patternGate(const Context& c) {
    Gate g{4, QStringLiteral("Compute pattern"), GateStatus::Uncertain, {}, {}};
    for (const PatternEvidence& e : c.patternEvidence)
        g.evidence << QStringLiteral("%1 %2").arg(loc(e.range), e.note);
    if (c.pattern.isEmpty()) {
        g.reason = QStringLiteral("no compute pattern recognised in the code; give --pattern");
        return g;
    }
    const QString how = c.patternProvenance == Provenance::Given ? QStringLiteral("given")
                                                                 : QStringLiteral("inferred");
    QString scores;
    if (c.patternProvenance == Provenance::Inferred && !c.patternScores.isEmpty()) {
        QStringList parts;
        for (const PatternScore& s : c.patternScores)
            parts << QStringLiteral("%1 %2").arg(s.pattern).arg(s.score);
        scores = QStringLiteral(" (scores: %1)").arg(parts.join(QStringLiteral(", ")));
    }
    if (c.patternProvenance == Provenance::Inferred && !c.patternSetAside.isEmpty())
        scores += QStringLiteral("; ") + c.patternSetAside;
    if (passingPatterns().contains(c.pattern)) {
        g.status = GateStatus::Pass;
        g.reason = QStringLiteral("%1 (%2) scales well on cuPyNumeric%3")
                       .arg(patternLabel(c.pattern), how, scores);
        if (c.pattern == QLatin1String("fft"))
            g.reason += QStringLiteral("; batch the transforms, a single one stays on one GPU");
    } else if (failingPatterns().contains(c.pattern)) {
        g.status = GateStatus::Fail;
        g.reason = QStringLiteral("%1 (%2) is the wrong shape for cuPyNumeric%3")
                       .arg(patternLabel(c.pattern), how, scores);
    } else {
        g.status = GateStatus::Uncertain;
        g.reason = QStringLiteral("%1 (%2): port the array math, keep the SciPy/sklearn calls at "
                                  "a boundary%3")
                       .arg(patternLabel(c.pattern), how, scores);
    }
    return g;
}

QString touchpointLabel(const QString& kind) {
    static const QHash<QString, QString> labels = {
        {QStringLiteral("pandas"), QStringLiteral("pandas")},
        {QStringLiteral("h5py"), QStringLiteral("h5py")},
        {QStringLiteral("io"), QStringLiteral("file I/O")},
        {QStringLiteral("scipy"), QStringLiteral("SciPy")},
        {QStringLiteral("sklearn"), QStringLiteral("scikit-learn")},
        {QStringLiteral("plotting"), QStringLiteral("plotting")},
        {QStringLiteral("logging"), QStringLiteral("logging/print in a loop")},
        {QStringLiteral("external"), QStringLiteral("external library")},
    };
    return labels.value(kind, kind);
}

Gate boundaryGate(const QList<ResolvedTouchpoint>& tps) {
    Gate g{5, QStringLiteral("Boundary cost"), GateStatus::Uncertain, {}, {}};
    if (tps.isEmpty()) {
        g.status = GateStatus::Pass;
        g.reason = QStringLiteral("no host touchpoints found (pandas, h5py, file I/O, SciPy, "
                                  "sklearn, plotting, logging in loops)");
        return g;
    }
    QMap<QString, int> byKind;
    int hot = 0;
    for (const ResolvedTouchpoint& t : tps) {
        ++byKind[touchpointLabel(t.touchpoint.kind)];
        hot += t.hot;
        g.evidence << QStringLiteral("%1 %2%3").arg(loc(t.touchpoint.range), t.touchpoint.note,
                                                    t.hot ? QStringLiteral(" (hot path)")
                                                          : QString());
    }
    QStringList parts;
    for (auto it = byKind.cbegin(); it != byKind.cend(); ++it)
        parts << QStringLiteral("%1 %2").arg(it.key()).arg(it.value());
    g.reason = QStringLiteral("%1 host touchpoint%2 (%3), %4 on a hot path; the share of time "
                              "inside array code is unknown")
                   .arg(tps.size())
                   .arg(tps.size() == 1 ? QString() : QStringLiteral("s"))
                   .arg(parts.join(QStringLiteral(", ")))
                   .arg(hot);
    return g;
}

Gate readinessGate(const QList<ReadinessHint>& hints, const Context& c,
                   const QString& entryScript) {
    Gate g{6, QStringLiteral("Operational readiness"), GateStatus::Uncertain, {}, {}};
    QSet<QString> kinds;
    QSet<QString> goldenFiles;
    for (const ReadinessHint& h : hints) {
        kinds.insert(h.kind);
        if (h.kind == QLatin1String("golden-test"))
            goldenFiles.insert(h.range.path);
        g.evidence << QStringLiteral("%1 %2: %3").arg(loc(h.range), h.kind, h.note);
    }
    const bool golden = kinds.contains(QStringLiteral("golden-test"));
    const bool bench = kinds.contains(QStringLiteral("benchmark"));
    const bool launch =
        kinds.contains(QStringLiteral("launch-script")) || kinds.contains(QStringLiteral("legate"));
    const bool mpi = kinds.contains(QStringLiteral("mpi-launcher"));
    QStringList have, missing;
    (golden ? have : missing) << (golden
                                      ? QStringLiteral("tests with a NumPy reference (%1 file%2)")
                                            .arg(goldenFiles.size())
                                            .arg(goldenFiles.size() == 1 ? QString()
                                                                         : QStringLiteral("s"))
                                      : QStringLiteral("a test with a NumPy golden reference"));
    (bench ? have : missing) << QStringLiteral("a benchmark");
    (launch ? have : missing) << QStringLiteral("a launch script");
    if (c.nodes >= 2)
        (mpi ? have : missing) << QStringLiteral("an MPI launcher (mpirun/srun)");
    if (!entryScript.isEmpty())
        have << QStringLiteral("entry script `%1`").arg(entryScript);
    const bool pass = golden && bench && (c.nodes < 2 || mpi);
    g.status = pass ? GateStatus::Pass : GateStatus::Uncertain;
    QStringList parts;
    if (!have.isEmpty())
        parts << QStringLiteral("found %1").arg(have.join(QStringLiteral(", ")));
    if (!missing.isEmpty())
        parts << QStringLiteral("missing %1").arg(missing.join(QStringLiteral(", ")));
    g.reason = parts.join(QStringLiteral("; "));
    return g;
}

struct CodeVerdict {
    Verdict base = Verdict::Ready;
    Verdict final = Verdict::Ready;
    int rule = 8;
    QString reason;
    QStringList demotions;
};

QString sitesText(const QList<Finding>& fs, int max = 3) {
    QStringList parts;
    for (qsizetype i = 0; i < fs.size() && i < max; ++i)
        parts << loc(fs[i].range);
    if (fs.size() > max)
        parts << QStringLiteral("and %1 more").arg(fs.size() - max);
    return parts.join(QStringLiteral(", "));
}

// Findings in test modules are listed but do not decide the verdict: tests keep host NumPy as
// their golden reference and are not the workload being ported.
CodeVerdict codeVerdict(const QList<Finding>& findings, const QList<ApiGap>& gaps,
                        const QSet<QString>& testPaths) {
    CodeVerdict v;
    QList<Finding> mpi, blocks, hotBlocks, refactor;
    for (const Finding& f : findings) {
        if (testPaths.contains(f.range.path))
            continue;
        if (f.code == QLatin1String("R108"))
            mpi << f;
        if (f.category == Category::Blocks) {
            blocks << f;
            if (findingOnHotPath(f))
                hotBlocks << f;
        }
        if (f.category == Category::Refactor)
            refactor << f;
    }
    if (!mpi.isEmpty()) {
        v.base = Verdict::SignificantRefactor;
        v.rule = 4;
        v.reason = QStringLiteral("mpi4py moves or reduces array data (R108 at %1): the "
                                  "parallel layer must be rewritten for Legate")
                       .arg(sitesText(mpi));
    } else if (hotBlocks.size() >= 3) {
        v.base = Verdict::SignificantRefactor;
        v.rule = 5;
        v.reason = QStringLiteral("%1 BLOCKS findings on hot paths (%2) need real vectorization "
                                  "work")
                       .arg(hotBlocks.size())
                       .arg(distinctCodes(hotBlocks).join(QStringLiteral(", ")));
    } else if (!blocks.isEmpty()) {
        v.base = Verdict::LightRefactor;
        v.rule = 6;
        const int atBoundary = int(blocks.size() - hotBlocks.size());
        v.reason =
            QStringLiteral("%1 BLOCKS finding%2 on hot paths%3 (%4), each removed by a "
                           "recipe")
                .arg(hotBlocks.size())
                .arg(hotBlocks.size() == 1 ? QString() : QStringLiteral("s"))
                .arg(atBoundary > 0 ? QStringLiteral(" and %1 at the boundary").arg(atBoundary)
                                    : QString())
                .arg(distinctCodes(blocks).join(QStringLiteral(", ")));
    } else if (!refactor.isEmpty()) {
        v.base = Verdict::LightRefactor;
        v.rule = 7;
        v.reason = QStringLiteral("only REFACTOR findings (%1: %2), all mechanical recipes")
                       .arg(refactor.size())
                       .arg(distinctCodes(refactor).join(QStringLiteral(", ")));
    } else {
        v.base = Verdict::Ready;
        v.rule = 8;
        v.reason = QStringLiteral("no BLOCKS or REFACTOR findings");
    }
    v.final = v.base;
    QStringList material;
    for (const ApiGap& g : gaps)
        if (g.material)
            material << QStringLiteral("%1 (%2) at %3")
                            .arg(g.name, supportGlyph(g.support), loc(g.locations.value(0)));
    if (!material.isEmpty()) {
        const Verdict demoted = demote(v.base);
        if (demoted != v.base)
            v.demotions << QStringLiteral("Rule 9: demoted one tier, %1 → %2, for API%3 on a hot "
                                          "path without multi-GPU support: %4")
                               .arg(verdictLabel(v.base), verdictLabel(demoted))
                               .arg(material.size() == 1 ? QString() : QStringLiteral("s"))
                               .arg(material.join(QStringLiteral("; ")));
        else
            v.demotions << QStringLiteral("Rule 9: API%1 on a hot path without multi-GPU support "
                                          "(%2); the verdict is already %3 and is never demoted "
                                          "further")
                               .arg(material.size() == 1 ? QString() : QStringLiteral("s"))
                               .arg(material.join(QStringLiteral("; ")))
                               .arg(verdictLabel(v.base));
        v.final = demoted;
    }
    return v;
}

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
        g.onHotPath = g.onHotPath || u.hot;
    }
    QList<ApiGap> gaps;
    for (ApiGap g : byName) {
        std::sort(
            g.locations.begin(), g.locations.end(), [](const SourceRange& a, const SourceRange& b) {
                return std::tie(a.path, a.line, a.column) < std::tie(b.path, b.line, b.column);
            });
        g.nonCompute = nonComputeKind(g.name);
        g.material =
            g.onHotPath && g.nonCompute.isEmpty() &&
            (g.support == Support::Missing || (g.support == Support::Single && nodes >= 2));
        g.rewrite = verifiedRewrite(g.name, manifest);
        gaps << g;
    }
    auto rank = [](Support s) { return s == Support::Missing ? 0 : s == Support::Partial ? 1 : 2; };
    std::stable_sort(gaps.begin(), gaps.end(), [&](const ApiGap& a, const ApiGap& b) {
        return std::make_tuple(rank(a.support), a.name) < std::make_tuple(rank(b.support), b.name);
    });
    return gaps;
}

QString chooseEntryScript(const ProjectResult& project) {
    static const QStringList preferred = {QStringLiteral("main.py"), QStringLiteral("__main__.py"),
                                          QStringLiteral("run.py"), QStringLiteral("cli.py"),
                                          QStringLiteral("app.py")};
    QString best;
    int bestRank = 1000;
    for (const FileResult& f : project.files) {
        if (!f.isEntryScript || f.isTest)
            continue;
        const QString name = f.path.section(QLatin1Char('/'), -1);
        int rank = int(preferred.indexOf(name));
        if (rank < 0)
            rank = name.startsWith(QLatin1String("run")) ? 10 : 20;
        rank = rank * 10 + int(f.path.count(QLatin1Char('/'))); // shallower first
        if (rank < bestRank) {
            bestRank = rank;
            best = f.path;
        }
    }
    return best;
}

void choosePilot(const ProjectResult& project, const QList<Finding>& findings, Assessment& a) {
    QMap<QString, QPair<int, int>> counts; // path → (scales, blocks)
    QSet<QString> tests;
    for (const FileResult& f : project.files)
        if (f.isTest)
            tests.insert(f.path);
    for (const Finding& f : findings) {
        if (tests.contains(f.range.path))
            continue;
        if (f.category == Category::Scales)
            ++counts[f.range.path].first;
        else if (f.category == Category::Blocks)
            ++counts[f.range.path].second;
    }
    QString best;
    QPair<int, int> bestCount{0, 0};
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        const auto [scales, blocks] = it.value();
        if (scales == 0)
            continue;
        // Fewest BLOCKS first, then most SCALES, then path order (QMap is sorted).
        if (best.isEmpty() || blocks < bestCount.second ||
            (blocks == bestCount.second && scales > bestCount.first)) {
            best = it.key();
            bestCount = it.value();
        }
    }
    a.pilotModule = best;
    if (!best.isEmpty())
        a.pilotReason =
            QStringLiteral("%1 SCALES finding%2, %3")
                .arg(bestCount.first)
                .arg(bestCount.first == 1 ? QString() : QStringLiteral("s"))
                .arg(bestCount.second == 0
                         ? QStringLiteral("no BLOCKS")
                         : QStringLiteral("%1 BLOCKS finding%2")
                               .arg(bestCount.second)
                               .arg(bestCount.second == 1 ? QString() : QStringLiteral("s")));
}

} // namespace

// ---- pattern inference ---------------------------------------------------------------------

QString inferPattern(const ProjectResult& project, QList<PatternScore>* scoresOut,
                     QString* setAside) {
    // One candidate per evidence line, by reference: a big tree has ~200k of them and only
    // three per pattern are kept.
    struct Candidate {
        int weight;
        bool hot;
        const PatternEvidence* evidence;
    };
    QMap<QString, PatternScore> scores;
    QHash<QString, std::vector<Candidate>> weighted;
    // Regex text handling in a file that never imports NumPy (a config or command-line
    // parser next to the array code) is off the array path: it is not what a port would
    // run on GPUs, and a loop there is not a hot path of array work, so it is not doubled.
    // It still names the workload when the project has little array work besides (a
    // tokenizer feeding a few small NumPy steps): see offArrayAside below.
    QHash<QString, int> offScore, offSites; // per failing pattern
    int offTotal = 0;
    const PatternEvidence* offFirst = nullptr;
    for (const FileResult& f : project.files) {
        if (f.isTest)
            continue;
        const bool arrayFile =
            std::any_of(f.imports.cbegin(), f.imports.cend(), [](const QString& i) {
                return i == QLatin1String("numpy") || i == QLatin1String("cupynumeric");
            });
        for (const PatternEvidence& e : f.patternEvidence) {
            const bool off = !arrayFile && e.pattern == QLatin1String("string") &&
                             e.note.startsWith(QLatin1String("re."));
            const bool hot = !off && (e.hot || isHotFunction(project, f.moduleName, e.function));
            const int w = std::max(1, e.weight) * (hot ? 2 : 1);
            PatternScore& s = scores[e.pattern];
            s.pattern = e.pattern;
            s.score += w;
            ++s.sites;
            weighted[e.pattern].push_back({w, hot, &e});
            if (off) {
                offScore[e.pattern] += w;
                ++offSites[e.pattern];
                offTotal += w;
                if (!offFirst)
                    offFirst = &e;
            }
        }
    }
    // Heaviest first, then by location; the earliest candidate wins a tie.
    const auto before = [](const Candidate& a, const Candidate& b) {
        if (a.weight != b.weight)
            return a.weight > b.weight;
        if (const int c = QString::compare(a.evidence->range.path, b.evidence->range.path))
            return c < 0;
        return a.evidence->range.line < b.evidence->range.line;
    };
    QList<PatternScore> list;
    for (auto it = scores.begin(); it != scores.end(); ++it) {
        const std::vector<Candidate>& ev = weighted[it.key()];
        // The three best candidates on distinct source lines (one line per source line).
        std::vector<const Candidate*> taken;
        while (it->top.size() < 3) {
            const Candidate* best = nullptr;
            for (const Candidate& c : ev) {
                const bool seen = std::any_of(taken.begin(), taken.end(), [&](const Candidate* t) {
                    return t->evidence->range.line == c.evidence->range.line &&
                           t->evidence->range.path == c.evidence->range.path;
                });
                if (!seen && (!best || before(c, *best)))
                    best = &c;
            }
            if (!best)
                break;
            taken.push_back(best);
            PatternEvidence copy = *best->evidence;
            copy.hot = best->hot;
            it->top << copy;
        }
        list << *it;
    }
    std::stable_sort(list.begin(), list.end(), [](const PatternScore& a, const PatternScore& b) {
        return std::make_tuple(-a.score, a.pattern) < std::make_tuple(-b.score, b.pattern);
    });
    if (scoresOut)
        *scoresOut = list;

    // A failing pattern decides only with enough evidence behind it: at least two lines, or
    // one whole-algorithm shape (a recurrence or a frontier loop, weight >= 4). One incidental
    // call (a `re.match` parsing /proc/cpuinfo in a loop) says nothing about where the work
    // is; it stays in the scores but is set aside for the decision.
    // Off-array evidence is set aside when the text handling is confined to files without
    // arrays (the NumPy files do none themselves) and the array work (passing and SciPy-mixed
    // scores) weighs at least as much: it is then plumbing around the array program. Text work
    // in the NumPy files too (pythran's spec.py) makes the rest of it part of the same workload.
    int arrayWork = 0;
    for (const PatternScore& s : list)
        if (!failingPatterns().contains(s.pattern))
            arrayWork += s.score;
    bool textInArrayFiles = false;
    for (const PatternScore& s : list)
        textInArrayFiles = textInArrayFiles ||
                           (offScore.contains(s.pattern) && s.score > offScore.value(s.pattern));
    const bool offArrayAside = offTotal > 0 && !textInArrayFiles && arrayWork >= offTotal;
    auto thin = [&](const PatternScore& s) {
        if (s.sites >= 2)
            return false;
        return std::none_of(weighted[s.pattern].begin(), weighted[s.pattern].end(),
                            [](const Candidate& c) { return c.evidence->weight >= 4; });
    };
    auto decide = [&](bool setAsideThin) -> QString {
        int passing = 0, failing = 0, mixed = 0;
        QString bestPassing, bestFailing;
        // Failing patterns in order of the score they keep after setting aside.
        std::vector<std::pair<int, QString>> failingKept;
        for (const PatternScore& s : list) { // best first
            if (passingPatterns().contains(s.pattern)) {
                passing += s.score;
                if (bestPassing.isEmpty())
                    bestPassing = s.pattern;
            } else if (failingPatterns().contains(s.pattern)) {
                PatternScore kept = s;
                if (setAsideThin && offArrayAside) {
                    kept.score -= offScore.value(s.pattern);
                    kept.sites -= offSites.value(s.pattern);
                }
                if (kept.score <= 0 || (setAsideThin && thin(kept)))
                    continue;
                failing += kept.score;
                failingKept.emplace_back(-kept.score, s.pattern);
            } else {
                mixed += s.score;
            }
        }
        if (!failingKept.empty())
            bestFailing = std::min_element(failingKept.begin(), failingKept.end())->second;
        if (passing + failing + mixed == 0)
            return {};
        if (failing > 0 && failing >= passing)
            return bestFailing;
        if (failing + mixed > 0 && 2 * (failing + mixed) >= passing)
            return QStringLiteral("scipy-mixed");
        return bestPassing;
    };
    const QString chosen = decide(true);
    if (setAside) {
        setAside->clear();
        // Explain the thin evidence only where it would have changed the answer.
        if (const QString naive = decide(false); naive != chosen) {
            int allSites = 0;
            for (const PatternScore& s : list)
                allSites += s.sites;
            QStringList parts;
            if (offArrayAside)
                parts << QStringLiteral("%1 comes only from files that never import NumPy "
                                        "(`%2` %3; score %4 against array work %5): text "
                                        "handling beside the array code is not the workload, so "
                                        "it is set aside")
                             .arg(patternLabel(offFirst->pattern), offFirst->range.toString(),
                                  offFirst->note)
                             .arg(offTotal)
                             .arg(arrayWork);
            QStringList thinParts;
            for (const PatternScore& s : list) {
                PatternScore kept = s;
                if (offArrayAside)
                    kept.sites -= offSites.value(s.pattern); // those are explained above
                if (!failingPatterns().contains(s.pattern) || kept.sites <= 0 || !thin(kept))
                    continue;
                const PatternEvidence& e = s.top.value(0);
                thinParts << QStringLiteral("%1 rests on one line of %2 (`%3` %4%5)")
                                 .arg(patternLabel(s.pattern))
                                 .arg(allSites)
                                 .arg(e.range.toString(), e.note,
                                      e.hot ? QStringLiteral(", in a loop") : QString());
            }
            if (!thinParts.isEmpty())
                parts << thinParts.join(QStringLiteral("; ")) +
                             QStringLiteral(": one incidental line does not name the workload, "
                                            "so it is set aside");
            *setAside = parts.join(QStringLiteral("; "));
        }
    }
    return chosen;
}

// ---- context -------------------------------------------------------------------------------

Context resolveContext(const ProjectResult& project, const ContextInput& given) {
    Context c;
    c.gpusGiven = given.gpus.has_value();
    c.gpus = std::max(1, given.gpus.value_or(1));
    c.nodes = std::max(1, given.nodes.value_or(1));

    // Size.
    ContextValue sizeRow{QStringLiteral("elements"),
                         QStringLiteral("Hot-path array size (total)"),
                         {},
                         Provenance::Default,
                         {}};
    if (given.elementsPerGpu) {
        c.perGpuElements = *given.elementsPerGpu;
        c.totalElements = c.perGpuElements * c.gpus;
        c.sizeProvenance = Provenance::Given;
        sizeRow.evidence = QStringLiteral("--elements-per-gpu %1 × %2 GPU%3")
                               .arg(formatCount(c.perGpuElements))
                               .arg(c.gpus)
                               .arg(c.gpus == 1 ? QString() : QStringLiteral("s"));
    } else if (given.elements) {
        c.totalElements = *given.elements;
        c.sizeProvenance = Provenance::Given;
        sizeRow.evidence = QStringLiteral("--elements %1").arg(formatCount(c.totalElements));
    } else {
        // The largest array the (non-test) code builds from a constant size; failing that, the
        // largest size-named module constant. Literal-only sizes below the floor are ignored.
        const SizeHint* best = nullptr;
        const SizeHint* bestConst = nullptr;
        for (const FileResult& f : project.files) {
            if (f.isTest)
                continue;
            for (const SizeHint& h : f.sizeHints) {
                if (h.literal && h.elements < kSizeFloor)
                    continue; // np.zeros(3): a scratch array, not the hot path
                const SizeHint*& slot = h.feedsArray ? best : bestConst;
                if (!slot || h.elements > slot->elements)
                    slot = &h;
            }
        }
        const SizeHint* pick = best ? best : bestConst;
        if (pick) {
            c.totalElements = pick->elements;
            c.sizeNamed = pick->sizeNamed;
            c.sizeFeedsArray = pick->feedsArray;
            c.sizeProvenance = Provenance::Inferred;
            c.sizeEvidence = QStringLiteral("`%1:%2` %3")
                                 .arg(pick->range.path)
                                 .arg(pick->range.line)
                                 .arg(pick->expression);
            sizeRow.evidence = pick->feedsArray
                                   ? QStringLiteral("largest array built from a constant size: %1")
                                         .arg(c.sizeEvidence)
                                   : QStringLiteral("size-named constant (not seen feeding an "
                                                    "array in its file): %1")
                                         .arg(c.sizeEvidence);
        } else {
            c.totalElements = kDefaultElements;
            c.sizeProvenance = Provenance::Default;
            sizeRow.evidence = QStringLiteral("no size given or found in the code; the assessor's "
                                              "default range, worked with as 40 M");
        }
    }
    if (!given.elementsPerGpu)
        c.perGpuElements = c.totalElements / c.gpus;
    sizeRow.provenance = c.sizeProvenance;
    sizeRow.value = c.sizeProvenance == Provenance::Default
                        ? QStringLiteral("30–50 M (default)")
                        : QStringLiteral("%1 elements").arg(formatCount(c.totalElements));

    ContextValue gpusRow{QStringLiteral("gpus"),
                         QStringLiteral("GPUs"),
                         QString::number(c.gpus),
                         c.gpusGiven ? Provenance::Given : Provenance::Default,
                         {}};
    gpusRow.evidence = c.gpusGiven ? QStringLiteral("--gpus %1").arg(c.gpus)
                                   : QStringLiteral("1–4 GPUs on one node assumed; the per-GPU "
                                                    "floor is checked for 1 GPU");
    if (!c.gpusGiven)
        gpusRow.value = QStringLiteral("1–4 on one node (default)");

    ContextValue perRow{QStringLiteral("perGpu"),
                        QStringLiteral("Array size per GPU"),
                        c.sizeProvenance == Provenance::Default && c.gpus == 1
                            ? QStringLiteral("40 M (default, 1 GPU)")
                            : QStringLiteral("%1 elements").arg(formatCount(c.perGpuElements)),
                        c.sizeProvenance,
                        {}};
    perRow.evidence = given.elementsPerGpu
                          ? QStringLiteral("--elements-per-gpu")
                          : QStringLiteral("total / %1 GPU%2")
                                .arg(c.gpus)
                                .arg(c.gpus == 1 ? QString() : QStringLiteral("s"));

    ContextValue nodesRow{QStringLiteral("nodes"), QStringLiteral("Nodes"),
                          QString::number(c.nodes),
                          given.nodes ? Provenance::Given : Provenance::Default,
                          given.nodes ? QStringLiteral("--nodes %1").arg(c.nodes)
                                      : QStringLiteral("one node; multi-node is never assumed")};

    // Hardware.
    ContextValue gpuRow{QStringLiteral("gpu"), QStringLiteral("GPU model"),
                        QStringLiteral("not given"), Provenance::Default,
                        QStringLiteral("compute capability unknown")};
    ContextValue ccRow{QStringLiteral("cc"), QStringLiteral("Compute capability"),
                       QStringLiteral("unknown"), Provenance::Default,
                       QStringLiteral("7.0 or newer (Volta+) needed")};
    if (given.gpuModel && !given.gpuModel->trimmed().isEmpty()) {
        gpuRow.provenance = Provenance::Given;
        if (const GpuModel* g = findGpu(*given.gpuModel)) {
            c.gpuModel = g->name;
            c.computeCapability = g->computeCapability;
            c.gpuMemoryGiB = g->memoryGiB;
            gpuRow.value =
                QStringLiteral("%1 (%2, %3 GiB)").arg(g->name, g->architecture).arg(g->memoryGiB);
            gpuRow.evidence = QStringLiteral("--gpu %1").arg(*given.gpuModel);
            ccRow.value = QString::number(g->computeCapability, 'f', 1);
            ccRow.provenance = Provenance::Inferred;
            ccRow.evidence = QStringLiteral("from the GPU catalog entry for %1").arg(g->name);
        } else {
            c.gpuModel = given.gpuModel->trimmed();
            gpuRow.value = c.gpuModel;
            gpuRow.evidence = QStringLiteral("--gpu %1 (not in the catalog)").arg(c.gpuModel);
        }
    }
    if (given.computeCapability) {
        c.computeCapability = *given.computeCapability;
        ccRow.value = QString::number(c.computeCapability, 'f', 1);
        ccRow.provenance = Provenance::Given;
        ccRow.evidence = QStringLiteral("--compute-capability %1").arg(ccRow.value);
    }
    ContextValue cudaRow{QStringLiteral("cuda"), QStringLiteral("CUDA"), QStringLiteral("unknown"),
                         Provenance::Default, QStringLiteral("12.x or 13.x needed")};
    if (given.cuda && !given.cuda->isEmpty()) {
        c.cuda = *given.cuda;
        cudaRow = {cudaRow.key, cudaRow.label, c.cuda, Provenance::Given,
                   QStringLiteral("--cuda %1").arg(c.cuda)};
    }
    ContextValue osRow{QStringLiteral("os"), QStringLiteral("Operating system"),
                       QStringLiteral("unknown"), Provenance::Default,
                       QStringLiteral("Linux or WSL2 needed")};
    if (given.os && !given.os->isEmpty()) {
        c.os = given.os->toLower();
        osRow = {osRow.key, osRow.label, c.os, Provenance::Given,
                 QStringLiteral("--os %1").arg(c.os)};
    }

    // Pattern.
    ContextValue patRow{QStringLiteral("pattern"), QStringLiteral("Dominant compute pattern"),
                        QStringLiteral("unknown"), Provenance::Default,
                        QStringLiteral("no pattern evidence in the code")};
    const QString inferred = inferPattern(project, &c.patternScores, &c.patternSetAside);
    if (given.pattern && !given.pattern->isEmpty()) {
        c.pattern = *given.pattern;
        c.patternProvenance = Provenance::Given;
        patRow = {patRow.key, patRow.label, patternLabel(c.pattern), Provenance::Given,
                  QStringLiteral("--pattern %1").arg(c.pattern)};
    } else if (!inferred.isEmpty()) {
        c.pattern = inferred;
        c.patternProvenance = Provenance::Inferred;
        // Evidence: the dominant pattern's strongest lines; for "mixed", the best lines of the
        // non-passing patterns.
        for (const PatternScore& s : c.patternScores) {
            const bool relevant =
                s.pattern == inferred || (inferred == QLatin1String("scipy-mixed") &&
                                          !passingPatterns().contains(s.pattern));
            if (relevant)
                c.patternEvidence += s.top;
        }
        while (c.patternEvidence.size() > 3)
            c.patternEvidence.removeLast();
        QStringList ev;
        for (const PatternEvidence& e : c.patternEvidence)
            ev << QStringLiteral("%1 %2").arg(loc(e.range), e.note);
        patRow = {patRow.key, patRow.label, patternLabel(c.pattern), Provenance::Inferred,
                  ev.join(QStringLiteral("; "))};
    }

    c.rows = {sizeRow, gpusRow, perRow, nodesRow, gpuRow, ccRow, cudaRow, osRow, patRow};
    return c;
}

// ---- launch scripts ------------------------------------------------------------------------

QList<ReadinessHint> scanLaunchScripts(const QString& root) {
    QList<ReadinessHint> hints;
    const QDir base(root);
    if (root.isEmpty() || !base.exists())
        return hints;
    static const QStringList suffixes = {QStringLiteral("sh"),    QStringLiteral("bash"),
                                         QStringLiteral("slurm"), QStringLiteral("sbatch"),
                                         QStringLiteral("pbs"),   QStringLiteral("lsf"),
                                         QStringLiteral("job"),   QStringLiteral("zsh")};
    static const QRegularExpression legate(QStringLiteral("\\blegate\\b"));
    static const QRegularExpression mpi(QStringLiteral("\\b(mpirun|mpiexec|srun|jsrun)\\b"));
    static const QRegularExpression python(QStringLiteral("\\bpython[0-9.]*\\b|\\.py\\b"));
    QStringList files;
    // Breadth-limited walk: root and up to 3 levels of non-hidden folders.
    QList<QPair<QString, int>> dirs{{base.absolutePath(), 0}};
    while (!dirs.isEmpty()) {
        const auto [dir, depth] = dirs.takeFirst();
        const QDir d(dir);
        const QFileInfoList entries =
            d.entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        for (const QFileInfo& fi : entries) {
            if (fi.fileName().startsWith(QLatin1Char('.')))
                continue;
            if (fi.isDir()) {
                static const QStringList skip = {
                    QStringLiteral("venv"),         QStringLiteral("env"),
                    QStringLiteral("build"),        QStringLiteral("dist"),
                    QStringLiteral("node_modules"), QStringLiteral("__pycache__"),
                    QStringLiteral("site-packages")};
                if (!fi.isSymLink() && depth < 3 && !skip.contains(fi.fileName()))
                    dirs.append({fi.absoluteFilePath(), depth + 1});
                continue;
            }
            if (suffixes.contains(fi.suffix().toLower()) ||
                fi.fileName() == QLatin1String("Makefile") ||
                fi.fileName() == QLatin1String("Justfile"))
                files << base.relativeFilePath(fi.absoluteFilePath());
        }
    }
    files.sort();
    for (const QString& rel : files) {
        QFile f(base.absoluteFilePath(rel));
        if (f.size() > 256 * 1024 || !f.open(QIODevice::ReadOnly))
            continue;
        const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
        bool launches = false;
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const QString line = lines[i].trimmed();
            if (line.startsWith(QLatin1Char('#')) && !line.startsWith(QLatin1String("#SBATCH")))
                continue;
            const SourceRange r{rel, int(i) + 1, 1, int(i) + 1, 1};
            QString shown = line;
            if (shown.size() > 100)
                shown = shown.left(97) + QStringLiteral("...");
            if (legate.match(line).hasMatch())
                hints << ReadinessHint{QStringLiteral("legate"), r, shown};
            if (mpi.match(line).hasMatch())
                hints << ReadinessHint{QStringLiteral("mpi-launcher"), r, shown};
            if (!launches && python.match(line).hasMatch()) {
                hints << ReadinessHint{QStringLiteral("launch-script"), r, shown};
                launches = true;
            }
        }
    }
    return hints;
}

// ---- the assessment ------------------------------------------------------------------------

Assessment assess(const ProjectResult& project, const ContextInput& given,
                  const Manifest& manifest) {
    return assess(project, given, manifest, scanLaunchScripts(project.root));
}

Assessment assess(const ProjectResult& project, const ContextInput& given, const Manifest& manifest,
                  const QList<ReadinessHint>& launchScripts) {
    Assessment a;
    a.context = resolveContext(project, given);
    const Context& c = a.context;

    // Findings that count: R304 only for a multi-GPU or multi-node target.
    const bool multi = c.gpus >= 2 || c.nodes >= 2;
    a.findings.reserve(project.findings.size()); // no growth slack on a list of ~200k
    for (const Finding& f : project.findings) {
        if (f.code == QLatin1String("R304") && !multi) {
            ++a.droppedRngFindings;
            continue;
        }
        a.findings << f;
    }
    // The merged list is usually in order already (files by path, each file's findings
    // sorted): checking costs one comparison per finding, sorting ~20.
    if (!std::is_sorted(a.findings.begin(), a.findings.end(), findingLess))
        std::sort(a.findings.begin(), a.findings.end(), findingLess);

    a.apiGaps = apiGaps(project, manifest, c.nodes);

    // Gate 5 / 6 inventories.
    for (const FileResult& f : project.files) {
        for (const HostTouchpoint& t : f.touchpoints)
            a.touchpoints << ResolvedTouchpoint{
                t, t.hot || isHotFunction(project, f.moduleName, t.function)};
        a.readiness << f.readiness;
    }
    a.readiness << launchScripts;
    std::stable_sort(a.touchpoints.begin(), a.touchpoints.end(),
                     [](const ResolvedTouchpoint& x, const ResolvedTouchpoint& y) {
                         return std::tie(x.touchpoint.kind, x.touchpoint.range.path,
                                         x.touchpoint.range.line, x.touchpoint.range.column) <
                                std::tie(y.touchpoint.kind, y.touchpoint.range.path,
                                         y.touchpoint.range.line, y.touchpoint.range.column);
                     });
    std::stable_sort(a.readiness.begin(), a.readiness.end(),
                     [](const ReadinessHint& x, const ReadinessHint& y) {
                         return std::tie(x.kind, x.range.path, x.range.line) <
                                std::tie(y.kind, y.range.path, y.range.line);
                     });
    a.entryScript = chooseEntryScript(project);
    choosePilot(project, a.findings, a);

    // Gates.
    const Gate g1 = hardwareGate(c);
    const Gate g2 = sizeGate(c);
    const Gate g4 = patternGate(c);
    QSet<QString> testPaths;
    for (const FileResult& f : project.files)
        if (f.isTest)
            testPaths.insert(f.path);
    const CodeVerdict cv = codeVerdict(a.findings, a.apiGaps, testPaths);
    a.codeVerdict = cv.final;
    Gate g3{3,
            QStringLiteral("Workload shape"),
            cv.final == Verdict::SignificantRefactor ? GateStatus::Uncertain : GateStatus::Pass,
            QStringLiteral("code-level verdict %1: %2").arg(verdictLabel(cv.final), cv.reason),
            {}};
    const Gate g5 = boundaryGate(a.touchpoints);
    const Gate g6 = readinessGate(a.readiness, c, a.entryScript);
    a.gates = {g1, g2, g3, g4, g5, g6};

    // The ordered verdict list: first match wins.
    auto afterHardware = [&]() -> Verdict {
        if (g4.status == GateStatus::Fail || g2.status == GateStatus::Fail)
            return Verdict::NotRecommended;
        return cv.final;
    };
    if (g1.status == GateStatus::Fail) {
        a.verdict = a.verdictBeforeDemotion = Verdict::NotRecommended;
        a.decidingRule = 1;
        a.decidingReason = QStringLiteral("Gate 1 (hardware) fails: %1").arg(g1.reason);
        a.verdictOnVolta = afterHardware();
        a.rationale = QStringLiteral("The target hardware cannot run cuPyNumeric (%1); on a "
                                     "supported GPU (Volta or newer, CUDA 12.x/13.x, Linux or "
                                     "WSL2) this code would get %2.")
                          .arg(g1.reason, verdictLabel(*a.verdictOnVolta));
    } else if (g4.status == GateStatus::Fail) {
        a.verdict = a.verdictBeforeDemotion = Verdict::NotRecommended;
        a.decidingRule = 2;
        a.decidingReason = QStringLiteral("Gate 4 (compute pattern) fails: %1").arg(g4.reason);
        a.rationale = QStringLiteral("The dominant compute pattern is %1, which cuPyNumeric does "
                                     "not accelerate; porting would not pay off.")
                          .arg(patternLabel(c.pattern));
    } else if (g2.status == GateStatus::Fail) {
        a.verdict = a.verdictBeforeDemotion = Verdict::NotRecommended;
        a.decidingRule = 3;
        a.decidingReason = QStringLiteral("Gate 2 (problem size) fails: %1").arg(g2.reason);
        const qint64 per = std::max<qint64>(1, c.perGpuElements);
        const qint64 batch = (1'048'576 + per - 1) / per;
        a.rationale =
            QStringLiteral("Hot arrays hold about %1 elements per GPU, below cuPyNumeric's "
                           "65,536-element floor; batch them first, e.g. %2 arrays of %1 "
                           "stacked into one (%2, %4) buffer of about %3 elements.")
                .arg(formatCount(per))
                .arg(batch)
                .arg(formatCount(batch * per))
                .arg(per);
    } else {
        a.verdict = cv.final;
        a.verdictBeforeDemotion = cv.base;
        a.decidingRule = cv.rule;
        a.decidingReason = cv.reason;
        a.demotions = cv.demotions;
        QString sentence;
        switch (cv.rule) {
        case 4:
            sentence = QStringLiteral("the code hands array data to mpi4py, so its parallel "
                                      "layer needs a rewrite around one global cuPyNumeric "
                                      "array");
            break;
        case 5:
            sentence = QStringLiteral("several BLOCKS findings sit on hot paths and need real "
                                      "vectorization work before the port");
            break;
        case 6:
            sentence = QStringLiteral("the BLOCKS findings are few and each has a mechanical "
                                      "recipe");
            break;
        case 7:
            sentence = QStringLiteral("only mechanical REFACTOR recipes stand between this code "
                                      "and a clean port");
            break;
        default:
            sentence = QStringLiteral("nothing blocks the port: swap the import and benchmark");
            break;
        }
        if (cv.final != cv.base)
            sentence += QStringLiteral(", and an API without multi-GPU support on a hot path "
                                       "costs one tier");
        a.rationale = sentence.left(1).toUpper() + sentence.mid(1) + QLatin1Char('.');
    }
    return a;
}

} // namespace cnready

#pragma once
// Turns a project's findings and a context into the six gates and one verdict.
// assess() is a pure function of (ProjectResult, ContextInput, Manifest): the GUI re-runs only
// this step when the context form changes.

#include "manifest/Manifest.h"
#include "model/ProjectResult.h"

#include <optional>

namespace cnready {

enum class Verdict { Ready, LightRefactor, SignificantRefactor, NotRecommended };
/// "READY", "LIGHT REFACTOR", "SIGNIFICANT REFACTOR", "NOT RECOMMENDED".
QString verdictLabel(Verdict v);
/// "ready", "light", "significant", "not-recommended" (CLI --fail-on, JSON).
QString verdictKey(Verdict v);

enum class GateStatus { Pass, Fail, Uncertain, NotApplicable };
QString gateStatusLabel(GateStatus s); ///< "pass", "fail", "uncertain", "n/a"

/// Where a context value came from.
enum class Provenance { Given, Inferred, Default };
QString provenanceLabel(Provenance p); ///< "given", "inferred", "default"

/// What the user stated (CLI flags, GUI form). Unset values are inferred or defaulted.
struct ContextInput {
    std::optional<qint64> elements;       ///< hot-path array size, total elements
    std::optional<qint64> elementsPerGpu; ///< or per GPU
    std::optional<int> gpus;
    std::optional<int> nodes;
    std::optional<QString> gpuModel;      ///< "A100", "P100", ...
    std::optional<double> computeCapability;
    std::optional<QString> cuda;          ///< "12.4"
    std::optional<QString> os;            ///< "linux", "wsl2", "macos", "windows"
    std::optional<QString> pattern;       ///< see PatternEvidence::pattern
};

/// One row of the report's context table.
struct ContextValue {
    QString key;      ///< "elements", "gpus", ...
    QString label;    ///< "Hot-path array size"
    QString value;    ///< display value, e.g. "16,000,000 elements"
    Provenance provenance = Provenance::Default;
    QString evidence; ///< "--gpus 4", "src/sim.py:12 N = 16_000_000", or the default's source
};

/// The resolved context every gate reads.
struct Context {
    qint64 totalElements = 0;  ///< hot-path array size (elements); 0 when unknown
    qint64 perGpuElements = 0; ///< totalElements / gpus
    int gpus = 1;
    int nodes = 1;
    QString gpuModel;          ///< empty when not given
    double computeCapability = 0; ///< 0 when unknown
    QString cuda;
    QString os;
    QString pattern;           ///< dominant compute pattern
    QList<SourceRange> patternEvidence;
    QList<ContextValue> rows;  ///< in report order
};

struct Gate {
    int number = 0;   ///< 1..6
    QString name;     ///< "Hardware", "Problem size", ...
    GateStatus status = GateStatus::Uncertain;
    QString reason;   ///< one line
    QStringList evidence; ///< "path:line what" items, e.g. Gate 5's host touchpoints
};

/// An API the code calls that the manifest marks ✗, 🟡 or ✓ (single-GPU only).
struct ApiGap {
    QString name; ///< canonical
    Support support = Support::Absent;
    QString note;
    QList<SourceRange> locations;
    bool onHotPath = false;
    QString rewrite; ///< a known supported rewrite, e.g. "np.sqrt(np.var(x))", or ""
};

struct Assessment {
    Context context;
    QList<Gate> gates; ///< six, in order
    Verdict verdict = Verdict::Ready;
    Verdict verdictBeforeDemotion = Verdict::Ready;
    int decidingRule = 8;   ///< 1..8 from PRODUCT.md's ordered list
    QString decidingReason; ///< e.g. "3 BLOCKS findings across hot paths (R101, R104)"
    QStringList demotions;  ///< one line per applied demotion (rule 9)
    std::optional<Verdict> verdictOnVolta; ///< for a hardware stop: the verdict on CC ≥ 7.0
    QList<ApiGap> apiGaps;
    QString rationale; ///< the one-sentence verdict line
};

/// Resolves the context: given values first, then values inferred from the code (size hints,
/// pattern evidence), then the assessor's defaults (30–50 M elements, 1–4 GPUs on one node).
Context resolveContext(const ProjectResult& project, const ContextInput& given);

/// Walks the gates and the verdict list. Deterministic; never throws.
Assessment assess(const ProjectResult& project, const ContextInput& given,
                  const Manifest& manifest);

} // namespace cnready

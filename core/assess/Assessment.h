#pragma once
// Turns a project's findings and a context into the six gates and one verdict.
// assess() is a pure function of (ProjectResult, ContextInput, Manifest) plus the launch
// scripts under the project root (read once per call, see scanLaunchScripts): the GUI re-runs
// only this step when the context form changes.
//
// Thresholds (decision-framework facts): compute capability >= 7.0 (Volta); CUDA 12.x/13.x;
// Linux or WSL2; per-GPU size tiers 65,536 (cuPyNumeric's minimum useful chunk: below it the
// runtime runs serially) / 1M / 10M / 100M / 1B elements.

#include "manifest/Manifest.h"
#include "model/FindingSelection.h"
#include "model/ProjectResult.h"

#include <QHash>

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
    std::optional<qint64> elementsPerGpu; ///< or per GPU (wins over `elements` when both set)
    std::optional<int> gpus;
    std::optional<int> nodes;
    std::optional<QString> gpuModel;         ///< "A100", "P100", ... (see GpuCatalog)
    std::optional<double> computeCapability; ///< wins over the model's catalog value
    std::optional<QString> cuda;             ///< "12.4"
    std::optional<QString> os;               ///< "linux", "wsl2", "macos", "windows"
    std::optional<QString> pattern;          ///< see PatternEvidence::pattern
    /// Host NumPy bandwidth for the cost model, GB/s (`--host-bandwidth`); unset: 20 GB/s.
    std::optional<double> hostBandwidthGBps;
    /// The project's entry script (relative path) for the Doctor hand-off and Gate 6; when
    /// unset the assessment picks one (chooseEntryScript).
    std::optional<QString> entry;
    /// Option name ("gpus", "elements-per-gpu", "gpu", ...) → the configuration file a given
    /// value came from ("pyproject.toml"). Absent: the command line or the studio's form. The
    /// context table's evidence names the file.
    QHash<QString, QString> origins;
};

/// How the context table states a given value: "--gpus 4" when it came from the command
/// line, "gpus = 4 (from pyproject.toml)" when ContextInput::origins names a file for `option`.
QString givenEvidence(const ContextInput& given, const QString& option, const QString& value);

/// Parses an element count as users type it: "16000000", "16_000_000", "16,000,000",
/// "16 M", "1.5e9", "64K", "2G"/"2B" (K = 10^3, M = 10^6, G/B = 10^9). Returns nullopt for
/// text that is not a count, for counts below 1 element or above 9e18, and for counts that
/// are not a whole number of elements ("1.5", "1.0005K"). `tooLarge`, when given, is set to
/// whether the text is a number above kMaxElementCount (so a caller can name the limit).
std::optional<qint64> parseElementCount(const QString& text, bool* tooLarge = nullptr);

/// The largest element count parseElementCount() accepts: 9e18, near the qint64 limit.
inline constexpr qint64 kMaxElementCount = 9'000'000'000'000'000'000LL;

/// One row of the report's context table.
struct ContextValue {
    QString key;   ///< "elements", "perGpu", "gpus", "nodes", "gpu", "cc", "cuda", "os", "pattern"
    QString label; ///< "Hot-path array size"
    QString value; ///< display value, e.g. "16,000,000 elements"
    Provenance provenance = Provenance::Default;
    QString evidence; ///< "--gpus 4", "`src/sim.py:12` N = 16_000_000", or the default's source
};

/// Score of one compute pattern over the project (Gate 4 inference).
struct PatternScore {
    QString pattern;
    int score = 0;              ///< sum of evidence weights, doubled on hot paths
    int sites = 0;              ///< evidence lines
    QList<PatternEvidence> top; ///< up to 3 strongest evidence lines
};

/// The resolved context every gate reads.
struct Context {
    qint64 totalElements = 0;  ///< hot-path array size (elements)
    qint64 perGpuElements = 0; ///< totalElements / gpus
    Provenance sizeProvenance = Provenance::Default;
    QString sizeEvidence; ///< "`path:line` expression" for an inferred size
    /// An inferred size came from a size-named constant (FRAME_SIZE, N_SAMPLES, ...) or from a
    /// script's entry code (SizeHint::entryStated). Only then can an inferred size below the
    /// floor fail Gate 2; otherwise (a default bin count in a library, say) the gate stays
    /// uncertain and asks for --elements.
    bool sizeNamed = false;
    /// An inferred size is the size of an array the code allocates (a SizeHint with
    /// `feedsArray`). A size-named constant that sizes no array in its file (`N = 4096` used
    /// only in `h = 1 / (N * N)`) is a weak hint: it may be a side length, a step count or a
    /// scale, so it can inform the context but never fail Gate 2.
    bool sizeFeedsArray = false;
    int gpus = 1;
    bool gpusGiven = false;
    int nodes = 1;
    QString gpuModel;             ///< canonical catalog name, or as given when unknown; "" if none
    double computeCapability = 0; ///< 0 when unknown
    int gpuMemoryGiB = 0;         ///< device memory of the catalogued model, GiB; 0 when unknown
    QString cuda;                 ///< "" when unknown
    QString os;                   ///< lower case; "" when unknown
    QString pattern;              ///< dominant compute pattern; "" when unknown
    Provenance patternProvenance = Provenance::Default;
    QList<PatternEvidence> patternEvidence; ///< evidence lines of the dominant pattern
    QList<PatternScore> patternScores;      ///< all patterns with evidence, best first
    /// Why thin failing evidence was set aside when it would have changed the inferred pattern
    /// (see inferPattern); "" otherwise.
    QString patternSetAside;
    /// Host NumPy bandwidth the cost model assumes, GB/s (cost/CostModel.h).
    double hostBandwidthGBps = 20.0;
    /// Per non-test file (relative path): its own size evidence, chosen as the project's
    /// inferred size is (the largest array built from a constant size, else the largest
    /// size-named constant; literal sizes below the floor left out). The cost model sizes a
    /// site whose extents are symbolic by its file's evidence, never by another file's.
    QHash<QString, SizeHint> fileSizes;
    QList<ContextValue> rows; ///< in report order
};

/// What Gate 1 assumes beside a known Volta+ GPU when the toolchain and the OS are not given
/// (PRODUCT.md, Gate 1): the platform cuPyNumeric is built for.
inline constexpr const char* kAssumedCuda = "12.x";
inline constexpr const char* kAssumedOs = "Linux";

/// Default hot-path size when neither given nor inferred: the assessor's 30–50 M elements,
/// worked with as 40 M.
inline constexpr qint64 kDefaultElements = 40'000'000;
/// Below this many elements per GPU cuPyNumeric runs serially (its minimum chunk).
inline constexpr qint64 kSizeFloor = 65'536;
/// Bytes per element assumed when checking that the per-GPU array fits the GPU's memory:
/// float64, NumPy's default dtype. The check is stated with this assumption.
inline constexpr qint64 kAssumedBytesPerElement = 8;

struct Gate {
    int number = 0; ///< 1..6
    QString name;   ///< "Hardware", "Problem size", ...
    GateStatus status = GateStatus::Uncertain;
    QString reason;       ///< one line
    QStringList evidence; ///< "`path:line` what" items, e.g. Gate 5's host touchpoints
};

/// An API the code calls that the manifest marks ✗, 🟡 or ✓ (single-GPU only).
struct ApiGap {
    QString name; ///< canonical ("numpy.std", "numpy.ndarray.std")
    Support support = Support::Absent;
    QString note;
    QList<SourceRange> locations;
    bool onHotPath = false; ///< some call is on the compute path and runs once per pass
    /// Some call is on the compute path (ApiUse::pathRole), in a loop or not.
    bool onComputePath = false;
    /// Counts for the verdict: ✗ on the compute path (wherever it sits: cuPyNumeric 26.06+
    /// raises AttributeError for it, there is no NumPy fallback), or ✓ (single-GPU) on a hot
    /// path with a multi-node target. Such a gap demotes the verdict one tier (rule 9).
    bool material = false;
    /// Why this API never demotes, for names that do no array work: "a dtype query", "an
    /// interpreter setting", "environment information", "a dtype name"; "" for the others.
    QString nonCompute;
    QString rewrite; ///< a supported rewrite verified against the manifest, or ""
};

/// A host touchpoint with the project-wide hot flag resolved (Gate 5).
struct ResolvedTouchpoint {
    HostTouchpoint touchpoint;
    bool hot = false;
};

struct Assessment {
    Context context;
    QList<Gate> gates; ///< six, in order
    Verdict verdict = Verdict::Ready;
    /// The verdict of rules 4–8 before the rule-9 demotion (the code-level verdict before
    /// API gaps). For rules 1–3 the same as `verdict`.
    Verdict verdictBeforeDemotion = Verdict::Ready;
    /// Rules 4–9 alone: what the code gets if the gates 1, 2 and 4 pass (Gate 3's value).
    Verdict codeVerdict = Verdict::Ready;
    int decidingRule = 8;                  ///< 1..8 from PRODUCT.md's ordered list
    QString decidingReason;                ///< e.g. "3 BLOCKS findings on hot paths (R101, R104)"
    QStringList demotions;                 ///< one line per applied demotion (rule 9)
    std::optional<Verdict> verdictOnVolta; ///< for a hardware stop: the verdict on CC ≥ 7.0
    QList<ApiGap> apiGaps;                 ///< sorted: ✗ first, then 🟡, then ✓; by name
    QString rationale;                     ///< the one-sentence verdict line
    /// The findings the assessment counts, in report order: the project's findings minus the
    /// R304 RNG notes when the target is one GPU on one node (they matter only for --gpus >= 2
    /// or --nodes >= 2). Shares the project's list (no second copy of ~240k findings).
    FindingSelection findings;
    int droppedRngFindings = 0;
    QList<ResolvedTouchpoint> touchpoints; ///< Gate 5, sorted by kind then location
    QList<ReadinessHint> readiness;        ///< Gate 6, sorted by kind then location
    QString entryScript; ///< the project's entry script (relative path), "" when none found
    QString pilotModule; ///< the file to port first, "" when none qualifies
    QString pilotReason; ///< "5 SCALES findings, no BLOCKS"

    // What the verdict rests on (PRODUCT.md, "Honesty of the verdict").
    /// Every BLOCKS site outside test modules, hot or not (findingSite; JSON `blockerSites`).
    int blockerSites = 0;
    /// The part of blockerSites on hot paths: what rule 5 weighs and the Markdown verdict
    /// quotes (JSON `hotBlockerSites`).
    int hotBlockerSites = 0;
    QStringList blockerKinds; ///< distinct BLOCKS codes outside test modules
    int refactorSites = 0;    ///< REFACTOR sites outside test modules
    /// Code that was not read: missing PATHs, unreadable, binary or over-size files, files
    /// skipped unparsed, and syntax errors outside test modules (Python rejects such a file,
    /// and the parser's recovery may have swallowed statements). An empty file is valid Python
    /// and is not here. Non-empty makes the verdict provisional.
    QList<FileDiagnostic> unreadCode;
    /// The size is assumed (neither given nor seen in the code) and below the 65,536-element
    /// floor per GPU the verdict would differ: that verdict; nullopt otherwise.
    std::optional<Verdict> verdictBelowFloor;
    /// Findings that count exist only in test modules: the verdict rests on no workload code.
    bool onlyTestFindings = false;
    QString wouldChange; ///< what would change the outcome for the deciding rule (VerdictList.h)

    /// The verdict is provisional: some code was not read (see unreadCode).
    bool provisional() const { return !unreadCode.isEmpty(); }
    /// The distinct paths of unreadCode, in its order: the one count the report's opening
    /// line and the provisional sentence both state.
    QStringList unreadPaths() const;
};

/// Resolves the context: given values first, then values inferred from the code (the largest
/// array built from a constant size — literal-only sizes below 65,536 such as `np.zeros(3)`
/// are ignored — else the largest size-named module constant; pattern evidence; test files
/// are ignored), then the assessor's defaults (30–50 M elements
/// worked as 40 M; 1 GPU for the floor check; one node). Per-GPU size = total / GPUs.
Context resolveContext(const ProjectResult& project, const ContextInput& given);

/// Rule 9's line for the verdict `base` (rules 4-8) and the API gaps: the demotion to the next
/// tier, or the note that `base` is already at its floor, listing each material gap as
/// "name (glyph) at `path:line`"; "" when no gap is material. With `maxNames` >= 0 at most
/// that many whole names, then "and N more" (the summary's short form); -1 lists all of them.
QString ruleNineDemotion(Verdict base, const QList<ApiGap>& gaps, int maxNames = -1);

/// Infers the dominant pattern from the evidence. Scores: each evidence weight, doubled on a
/// hot path; tests excluded. A failing pattern (sparse, graph, ml, string, sequential) counts
/// only with at least two evidence lines or one whole-algorithm shape (weight >= 4); a single
/// incidental line is set aside. Counted failing patterns dominate when their summed score is
/// at least the summed score of the passing ones; SciPy/sklearn utilities plus failing
/// evidence of at least half the passing score make it "scipy-mixed"; otherwise the best
/// passing pattern wins. Empty pattern when there is no evidence. Regex text handling (`re.*`
/// in a loop) in a file that never imports NumPy is off the array path: never doubled, and set
/// aside when no NumPy file does text work itself and the passing plus SciPy-mixed score is at
/// least its score (a config parser beside a solver); otherwise it counts (a tokenizer feeding a
/// few small NumPy steps). `setAside`, when given, receives a one-line explanation if setting
/// thin or off-array evidence aside changed the answer, else "".
QString inferPattern(const ProjectResult& project, QList<PatternScore>* scores = nullptr,
                     QString* setAside = nullptr);

/// Launch scripts and other operational hints outside Python files under `root` (shell,
/// Slurm/PBS batch files, Makefiles, up to 3 folder levels, hidden folders skipped, files up
/// to 256 KiB): "launch-script", "legate", "mpi-launcher" (mpirun/mpiexec/srun). Sorted.
QList<ReadinessHint> scanLaunchScripts(const QString& root);

/// Walks the gates and the verdict list. Deterministic; never throws. Reads the launch scripts
/// under project.root when it is a folder.
Assessment assess(const ProjectResult& project, const ContextInput& given,
                  const Manifest& manifest);
/// The same with the launch scripts supplied (for tests and for callers that cache them).
Assessment assess(const ProjectResult& project, const ContextInput& given, const Manifest& manifest,
                  const QList<ReadinessHint>& launchScripts);

/// Whether a finding counts as on a hot path for the verdict: its own hot flag, or an element
/// loop / per-element call (R101, R102, R103), which is a hot path by nature wherever it sits.
bool findingOnHotPath(const Finding& f);

/// The blocker site of a finding (RULES.md, the workload model item 7): the lines of the
/// outermost loop of its function around it, else its own line (Finding::siteLine); columns 1.
/// Findings with the same site are one site for the verdict's count.
SourceRange findingSite(const Finding& f);

/// The "Hot path" cell of a finding in a report: "yes" when the finding's line runs in a loop
/// or a hot function, "yes (per element)" when it is hot only by nature (an element loop or a
/// per-element call such as np.vectorize, even at module level), else "no". The API-gap table's
/// hot path is the call site's own (ApiUse::hot), which decides rule 9: the two differ for a
/// module-level `np.vectorize(f)`, and the label says why.
QString hotPathLabel(const Finding& f);

/// "16,000,000" (C locale grouping), for reports.
QString formatCount(qint64 n);
/// "40 M", "8,192", "1.2 B": short human size.
QString formatShortCount(qint64 n);

} // namespace cnready

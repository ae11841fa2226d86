#pragma once
// The cost model (issue 20): for each hot site, a bound on what one step would cost after the
// port, from the workload model's facts (model/SiteWork.h) and the context. Pure functions;
// every figure names its source:
//  - GPU memory bandwidth per model: the GPU catalogue (assess/GpuCatalog.h, NVIDIA datasheets);
//    H100 SXM (~3.35 TB/s) stands in when the model is not given or not catalogued.
//  - Host round trips: the card's PCIe link (Gen5 ~64 GB/s, Gen4 ~32 GB/s,
//    ../shared/upstream/references/gpu-stack.md "Host-device transfers"); the upper bound of a
//    transfer uses pageable host memory, ~12 GB/s (same section).
//  - At least 10 µs per runtime task: CUDA's launch alone is 5-10 µs and Legate schedules on
//    top (gpu-stack.md "Kernel launch overhead", "The 1-millisecond task-granularity rule").
//  - The host NumPy baseline is memory-bound at ~20 GB/s single-threaded (issue 20; changed
//    with --host-bandwidth).
//  - Bytes per element: 8 (float64, NumPy's default) unless the site's array holds flags.
//  - Work divides over the GPUs only when it is distributed: a whole-array task over its
//    tiles, never below 65,536 elements per GPU (CUPYNUMERIC_MIN_GPU_CHUNK, gpu-stack.md "The
//    65,536-element floor"); an element loop's tasks run one after another on one GPU (one
//    task per element access, gpu-stack.md "Why tiny tasks are worse than no tasks").
//  - A site's size: the shapes of the arrays the site itself touches when every extent is a
//    literal or a constant (the shapes follow values through this file's calls); else the
//    given hot-path size (--elements); else "size unknown". No other array's size stands in:
//    not the size evidence of its file (a 10,000-bin lookup table elsewhere in the file says
//    nothing of the image a filter loops over), not another file's. A loop's trip count: its
//    literal count, or what the shapes give; else the bound is per pass of that loop, named
//    in the assumption. A loop that ends by `break` (a convergence loop) is costed for one
//    pass: when no other step loop of its function is around it, a pass is a step and the
//    row says that the number of steps is not known ("per step, until it converges"); inside
//    another step loop the bound is per pass of it ("per pass until it converges"). A site that
//    runs only every k-th step (`if (step + 1) % k == 0:`) costs a k-th of a call per step when k
//    is known (the text gives the figures per call and per step, GPU and NumPy alike), else its
//    bound is per call ("every k-th step, k not known").
//  - Rebinding names (`a, b = b, a`) moves no data and runs no task: no cost, no row.
//  - A loop over the rows of an array (`for row in grid`) takes one row per pass: its tasks
//    are the pass's whole-row operations (`row.max()`: one), plus one element access per
//    element of the row for each builtin that walks it (`max(row)`, R110's pattern).
//  - The host NumPy baseline is also never below the Python interpreter's floor: at least
//    0.1 µs per Python-level operation, counted as one per runtime task the port would
//    launch (an element access `a[i]`, a scalar read, a NumPy call). Our assumption, not a
//    published figure: CPython's bytecode dispatch plus a NumPy scalar index or call costs
//    about 0.1-1 µs per operation on a current CPU; the low end keeps it a lower bound.
//  - Ranking sites (the table's order, the next steps' order): by the bound, except that a
//    bound per pass of an element loop over a data extent whose trip count is not known ranks as
//    65,536 passes (kMinGpuChunk: data smaller than that is not worth a GPU, Gate 2), so an
//    element loop is never placed under a one-call 80 µs row; formatBound() shows that figure
//    beside the per-pass one. A loop over rows (channels, windows, `for row in grid`) is not
//    an element loop: its passes are few, it ranks by its per-pass bound.
//  - A SciPy call on a hot path (R301) copies its arrays to the host and back on every call
//    (gpu-stack.md "Zero-copy and pinned transfers": "a SciPy call ... moves over PCIe").
//  - A Python object per element when an array becomes a list (`.tolist()`, `list(a)`): at
//    least 32 bytes written on the host (CPython's 24-byte float plus the list's 8-byte slot,
//    `sys.getsizeof(1.0)`), at the host bandwidth.
//  - No fusion (gpu-stack.md "L2 cache": mainline cuPyNumeric runs each operator as its own
//    precompiled task): a whole-array statement is one task per array operator it applies
//    (`c = a*x + b*y`: three) and one pass over the data per array each of them reads or writes
//    (operands and temporaries: six reads and three writes), every pass taken at the size of the
//    largest array the statement touches (SiteWork::statementOps, statementPasses).
//  - A loop pass runs its array operations whatever their size (SiteWork::passOps), at least one
//    task each (10 µs): whole-array work of unknown size in a loop, and a host sync in a loop
//    (the pass's work drains before the value is read), are bounded by those tasks,
//    "size unknown" for the data part (SiteCost::dataUnknown), rather than left without a figure.
//  - A loop whose pass picks rows (`p[i]` of a 2-D `p`, SiteWork::rowPicks) is a row loop: one
//    task per row access and per call handing a picked item to other code (a project or
//    library function, SiteWork::passCalls; whatever the callee does; such a call also makes
//    it a row loop), not one per element; the rows' length not
//    known, its data part is "size unknown". A bound per pass of a nested loop names the inner
//    loop it is of and the outer loop whose passes multiply it.
//  - A site's size comes from shapes only: an array's constructor arguments, `.shape`, `len()` of
//    a data array. A shape tuple (`p.shape`) is not an array of the site, and a slice bounded by a
//    number that is not read from a shape (`w[1:p]` of a counter `p = 2`, an order, a tolerance)
//    sizes nothing (SiteWorkProbe's sizesAnArray).
//  - Units: a bound is per step (one pass of the time / iteration loop around the site), per pass
//    (of a loop whose trip count is not known), per call (of a site run every k-th step, k not
//    known) or per run (once: outside any step loop). The assumption's figures say their unit,
//    and its NumPy figure is always of the same unit as the GPU figure beside it. A site
//    with statements in a step loop and others outside it leaves the latter (set-up) out of its
//    per-step figures and names them (SiteCost::perRunParts).
// Every figure is a lower bound (an upper one only where a published figure gives it) resting
// on the assumption it names; nothing here is a measured speedup.

#include "model/Finding.h"
#include "model/FindingSelection.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>

#include <functional>
#include <optional>

namespace cnready {

struct Context;

namespace cost {

/// At least this many seconds per runtime task (gpu-stack.md: CUDA launch 5-10 µs, plus Legate).
inline constexpr double kTaskOverheadSeconds = 10e-6;
/// Host NumPy, memory-bound, single-threaded, bytes per second (issue 20's default).
inline constexpr double kDefaultHostBandwidthGBps = 20.0;
/// Pageable host memory over PCIe, GB/s (gpu-stack.md): the slow end of a host round trip.
inline constexpr double kPageablePcieGBps = 12.0;
/// Stand-in GPU when none is given or it has no bandwidth in the catalogue: H100 SXM.
inline constexpr double kAssumedGpuBandwidthGBps = 3350.0;
inline constexpr double kAssumedPcieGBps = 64.0;
/// Host bytes written per element turned into a Python object (`.tolist()`): a 24-byte
/// CPython float plus the list's 8-byte pointer.
inline constexpr double kPythonObjectBytes = 32.0;
/// Smallest per-GPU partition: an array below this many elements per GPU is not split further
/// (CUPYNUMERIC_MIN_GPU_CHUNK, gpu-stack.md).
inline constexpr double kMinGpuChunk = 65'536;
/// The host interpreter's floor per Python-level operation, seconds: our assumption (about
/// 0.1-1 µs per bytecode-dispatched NumPy scalar index or call on a current CPU; the low
/// end), not a published figure.
inline constexpr double kPythonOpSeconds = 0.1e-6;

/// Where the hot-path size of the inputs came from (Context::sizeProvenance).
enum class SizeSource {
    Given,    ///< --elements / --elements-per-gpu: stands for every symbolic data extent
    Inferred, ///< the project's size evidence: sizes no site (sites use their own shapes)
    Default,  ///< nothing said: no site is sized by it
};

/// The figures a cost rests on, resolved from the context.
struct Inputs {
    qint64 elements = 0; ///< hot-path array size, total elements (Context::totalElements)
    /// How `elements` was found; Given (the default here) sizes every symbolic data extent.
    SizeSource sizeSource = SizeSource::Given;
    int gpus = 1;    ///< GPUs sharing the data (bandwidth and host links add up)
    QString gpuName; ///< catalogue name, or "H100 (assumed)"
    double gpuBandwidthGBps = kAssumedGpuBandwidthGBps; ///< per GPU
    double pcieGBps = kAssumedPcieGBps;                 ///< per GPU, per direction
    bool gpuAssumed = true; ///< the GPU model was not given or has no catalogued bandwidth
    double hostBandwidthGBps = kDefaultHostBandwidthGBps;
    double taskSeconds = kTaskOverheadSeconds;
};

/// The inputs for `context` (its size, GPUs and GPU model looked up in the catalogue) with
/// the host NumPy bandwidth `hostGBps` (values <= 0 mean the default).
Inputs inputsFor(const Context& context, double hostGBps = 0);

/// What dominates a site's bound.
enum class Dominant { Tasks, Bandwidth, HostLink, HostObjects };

/// The estimated cost of one site (or one finding) per step.
struct SiteCost {
    SourceRange site; ///< findingSite(): the outermost loop, else the line
    QString code;     ///< the finding that sets the bound
    Category category = Category::Info;
    QString kind; ///< "element loop", "host sync", "growing stack", "whole-array", "host call"
    bool sizeKnown = false;  ///< false: "size unknown", no figure below is meaningful
    QString unknownWhy;      ///< with !sizeKnown: what is unknown ("array size", "step count")
    double bytesPerPass = 0; ///< data touched per pass, bytes
    double passesPerStep = 1;
    /// The figures are for one pass of a loop whose trip count is not known from shapes, or
    /// of a loop that runs until it converges (`break`): a lower bound on the step, which
    /// `passNote` explains ("per pass of `for w in range(n_windows)`").
    bool perPass = false;
    QString passNote;
    /// The steps are the passes of a loop that ends by `break` (SiteWork::untilConverged): the
    /// bound is per step, and the number of steps is not known; `stepNote` says so and names
    /// the loop ("`while True` ends by `break` ..."). formatBound() says "per step (until it
    /// converges)".
    bool untilConverged = false;
    QString stepNote;
    /// The bound is per call of a site that runs every k-th step, k not known
    /// (SiteWork::everyKth): formatBound() says "per call (every k-th step, k not known)".
    bool perCall = false;
    /// The per-pass bound is of an element loop over a data extent of unknown trip count: it
    /// ranks as kMinGpuChunk passes (see rankSeconds), and formatBound() shows that figure too.
    /// Never set for a loop over rows (channels, windows: few passes, "row loop").
    bool perDataPass = false;
    /// The site runs inside a step loop (a time / iteration loop, SiteWork::stepLoops, or one
    /// that runs until it converges), or its function is called inside one in its file
    /// (SiteWork::calledInStep): a figure not per pass is per step, one pass of that loop.
    /// False: the site runs outside any step loop and its figure is per run (once per call of
    /// its function), a set-up cost that no per-step figure adds in (see estimateSites()).
    bool perStep = false;
    /// The figures count the site's runtime tasks only: the size of the arrays it touches is
    /// not known ("size unknown" for the data part), so no memory traffic is counted. Set for
    /// whole-array work of unknown size in a loop (at least one task per array operation per
    /// pass) and for row loops whose rows' length is not known.
    bool dataUnknown = false;
    /// What the site is ranked by (the table, the chart, the next steps): gpuSeconds, times
    /// kMinGpuChunk with perDataPass.
    double rankSeconds = 0;
    QString sizeFrom; ///< where the site's size came from ("its own shape", "the given size")
    /// Runtime tasks one pass creates, as the bound counts them: the larger of the statement's
    /// own tasks and passFloorTasks. estimateSites(): the site's, per unit of its bound
    /// (passesPerStep 1 for a site of several statements).
    double tasksPerPass = 1;
    /// At least this many tasks per pass of the innermost loop around the site, whatever the
    /// statement: the array operations that pass runs for sure (SiteWork::passOps, no fusion).
    /// estimateSites() bounds a site's task latency by the largest of its statements' floors.
    double passFloorTasks = 0;
    double hostBytesPerStep = 0;          ///< bytes crossing the host link per step (host syncs)
    double gpuSeconds = 0;                ///< lower bound on the target per step
    std::optional<double> gpuSecondsHigh; ///< upper bound where a published figure gives one
    double numpySeconds = 0; ///< host NumPy baseline per step (memory-bound; a lower bound)
    Dominant dominant = Dominant::Tasks;
    /// The dominating assumption in words: first the figures (the site's bound and the NumPy
    /// baseline, both in the same unit, said with each: per pass, per call, per step, per run),
    /// then `premise`.
    QString assumption;
    /// What the figures assume about the code, without figures of their own ("assumes 8 tasks
    /// ...; the bound is per pass of ..."): the tail of `assumption`. A site of several
    /// statements quotes its largest statement's premise after the site's totals.
    QString premise;
    /// The GPUs the work divides over (whole-array work, never below kMinGpuChunk elements each;
    /// element loops and scalar syncs: 1).
    double gpusUsed = 1;
    /// The parts of gpuSeconds, seconds per step: task latency (of tasksPerPass, the pass floor
    /// included), device memory traffic, host link transfers and Python objects built on the
    /// host. gpuSeconds is max(taskSeconds, memorySeconds) + linkSeconds + hostObjectSeconds
    /// (the tasks' latency and the device traffic overlap at best; a round trip and the object
    /// build wait).
    double taskSeconds = 0;
    /// The statement's own tasks' latency per step (its operators or accesses, without the pass
    /// floor): what a site of several statements adds up (their floors are one pass's and are
    /// not added, the largest stands).
    double ownTaskSeconds = 0;
    double memorySeconds = 0;
    double linkSeconds = 0;
    double hostObjectSeconds = 0;
    /// passFloorTasks' latency per step: taskSeconds is the larger of it and ownTaskSeconds;
    /// estimateSites() takes the larger of the sum of its statements' ownTaskSeconds and the
    /// largest of their floors.
    double passFloorSeconds = 0;
    /// estimateSites(): the findings whose work the site's bound adds up (one per statement),
    /// as "R001 line 35"; the first sets `code` and `assumption`. Empty from estimate().
    QStringList parts;
    /// estimateSites(): the site's statements of unknown size, left out of the bound, as
    /// "R001 line 35" (the assumption names them): the bound covers only the known part.
    QStringList unknownParts;
    /// estimateSites(): a site with statements in a step loop and others outside it (set-up,
    /// once per run), as "R201 line 12 (≥ 80 µs per run)": left out of the per-step figures.
    QStringList perRunParts;
};

/// The cost of one finding's site per step: element loops (R101, R103) create one task per
/// element access and iteration, over the elements of the array the nest walks when its size
/// is known (its own shape, the given size, its file's size evidence), else per iteration of
/// the loop of unknown trip count; per-element calls (R102, R110) one task per element of the
/// array they walk, once per pass of the loops around; host syncs (R104, R105) a round trip
/// per pass, of one number, or of the whole array plus a Python object per element for
/// `.tolist()` / `list(a)`, after the pass's array operations (SiteWork::passOps, one task
/// each, their data not counted: SiteCost::dataUnknown when they are more than the sync's); a
/// growing stack (R203) copies the pieces it holds on every pass, a piece being what the appended
/// value's shape says; a hot SciPy call (R301) copies its array to the host and back; everything
/// else is whole-array work: one task per array operator of the statement (one when none was
/// counted) and one pass over the array per operand and temporary (at least two: one read, one
/// write), per pass; of unknown size in a loop, its tasks only (at least the pass's array
/// operations, SiteCost::dataUnknown). A loop whose pass picks rows is a row loop (kind "row
/// loop"): its row accesses and project calls, one task each. Only whole-array work divides over
/// the GPUs (never below 65,536 elements each). A loop of unknown trip count, or one that ends by
/// `break`, makes the figures per pass (SiteCost::perPass). Findings without workload facts, or
/// whose size the model could not read, come back with sizeKnown false.
SiteCost estimate(const Finding& f, const Inputs& in);

/// One cost per site of the hot compute findings (findingOnHotPath, any category but INFO
/// except hot SciPy calls (R301), test modules left out by the caller). A site's bound adds the
/// work of every statement of its loop nest once: findings on one statement (the same first line,
/// or inside the span of an element-loop finding, whose element accesses include its body's) count
/// as the largest of them (by its own work, SiteCost::ownTaskSeconds, memory, link and objects,
/// the pass floor left out); the statements' task latencies, device traffic, link transfers and
/// object builds are summed and combined as in SiteCost. The largest statement names the site's
/// code and kind; a site of several statements leads its assumption with its totals (tasks,
/// bytes, bound and NumPy baseline per unit of the bound), then the largest statement's
/// premise, and its figures (tasksPerPass, bytesPerPass, taskSeconds ...) are those totals. A site
/// with any known part is known; its statements of unknown size are left out of the figures (still
/// a lower bound) and named (unknownParts, the assumption). Sites whose statements only rebind
/// names are left out. The task part is never below the largest pass floor of the site's statements
/// (SiteCost::passFloorSeconds). A site with statements in a step loop counts only those: the ones
/// outside any step loop (set-up, once per run) are left out of its figures and named
/// (SiteCost::perRunParts). Sorted by rankSeconds descending, sites with unknown size last, then by
/// location. With `limit` >= 0 only the first `limit` sites are returned (their text is the only
/// text built); `total`, when given, receives the number of sites.
QList<SiteCost> estimateSites(const FindingSelection& findings, const Inputs& in,
                              const QSet<QString>& skipPaths = {}, qsizetype limit = -1,
                              qsizetype* total = nullptr);

/// A site's lower bound per step without its text: what ordering sites needs.
struct SiteBound {
    SourceRange site;
    bool sizeKnown = false;
    double gpuSeconds = 0;  ///< SiteCost::gpuSeconds of the same site
    double rankSeconds = 0; ///< SiteCost::rankSeconds of the same site
    /// False when the site's top statement is bounded per run of a site that runs every k-th
    /// step, k unknown (SiteCost::perCall): its figure says nothing of the step.
    bool ranked = true;
};
/// estimateSites()' sites and bounds in its order, built from the figures alone (no
/// assumption text per site): for callers that only rank or weigh sites.
QList<SiteBound> estimateSiteBounds(const FindingSelection& findings, const Inputs& in,
                                    const QSet<QString>& skipPaths = {});

/// estimateSites()' sites in its order, one at a time: `wanted` is asked of each site's bound
/// and only the wanted sites get their SiteCost built, handed to `visit` and dropped before the
/// next (a report holding every site's text at once held ~100 MB on a 1M-line project).
/// Returns the number of sites.
qsizetype forEachSite(const FindingSelection& findings, const Inputs& in,
                      const QSet<QString>& skipPaths,
                      const std::function<bool(const SiteBound&)>& wanted,
                      const std::function<void(const SiteCost&)>& visit);

/// "≥ 400 s per step", "≥ 89 µs per pass (≥ 5.8 s if it runs 65,536 passes, assumed: ranked by
/// it)", "0.1–0.5 ms per run": a site's bound for reports, SI-prefixed, with its unit (per step,
/// per pass, per call, per run) and its qualifiers; the figure the site is ranked by when it is
/// not the bound (SiteCost::rankSeconds); "size unknown" without a size.
QString formatBound(const SiteCost& c);
/// formatBound() abridged for a chart label or a table cell: "≥ 841 µs/step", "≥ 40 µs/pass,
/// 2.6 s ×65,536" (the figure a bound per pass of an element loop over data is ranked by),
/// "≥ 80 µs conv. tasks" ("/step", "/pass", "/call", "/run"; "conv.": per step of a loop that
/// ends by `break`; "tasks": the tasks alone, the data size unknown; "+?": statements of unknown
/// size left out); "size unknown" without a size.
QString formatBoundShort(const SiteCost& c);
/// "1.2 ms", "400 s", "89 µs", "3.4 h": a duration for reports.
QString formatSeconds(double s);
/// "machine-readable" key of a Dominant: "tasks", "bandwidth", "host-link", "host-objects".
QString dominantKey(Dominant d);

} // namespace cost
} // namespace cnready

#include "assess/VerdictList.h"

namespace cnready {

const QList<VerdictRule>& verdictRules() {
    static const QList<VerdictRule> rules = {
        {1, QStringLiteral("Gate 1 (hardware) fails"), QStringLiteral("NOT RECOMMENDED"),
         QStringLiteral("cuPyNumeric needs a GPU of compute capability 7.0 or newer with CUDA "
                        "12.x or 13.x on Linux or WSL2; the report still says what the code "
                        "would get on such a machine.")},
        {2, QStringLiteral("Gate 4 (compute pattern) fails"), QStringLiteral("NOT RECOMMENDED"),
         QStringLiteral("sparse algebra, graph searches, model training, text processing and "
                        "scalar recurrences do not gain from a distributed dense array.")},
        {3, QStringLiteral("Gate 2 (problem size) fails"), QStringLiteral("NOT RECOMMENDED"),
         QStringLiteral("below 65,536 elements per GPU the runtime works serially; batching "
                        "many small arrays into one large one is the way out.")},
        {4, QStringLiteral("mpi4py moves or reduces array data (R108)"),
         QStringLiteral("SIGNIFICANT REFACTOR"),
         QStringLiteral("the hand-written parallel layer has to give way to one global array "
                        "that Legate distributes.")},
        {5,
         QStringLiteral("BLOCKS at three or more sites on hot paths, or of three or more kinds "
                        "(kinds on hot paths, and an object dtype wherever it is allocated)"),
         QStringLiteral("SIGNIFICANT REFACTOR"),
         QStringLiteral("a site is one loop nest or one statement, however many calls it "
                        "holds; several sites or kinds mean real vectorization work, while a "
                        "strided slice or an order= keyword at the boundary is a one-line "
                        "edit.")},
        {6, QStringLiteral("BLOCKS at one or two sites (and fewer than three kinds)"),
         QStringLiteral("LIGHT REFACTOR"),
         QStringLiteral("each site is removed by a recipe of its own.")},
        {7, QStringLiteral("only REFACTOR findings"), QStringLiteral("LIGHT REFACTOR"),
         QStringLiteral("mechanical rewrites (hoisting, in-place updates, one stack after the "
                        "loop) stand between the code and the port.")},
        {8, QStringLiteral("no BLOCKS or REFACTOR findings"), QStringLiteral("READY"),
         QStringLiteral("swap the import, check the results against NumPy and benchmark.")},
        {9,
         QStringLiteral("then: the code calls an API the manifest marks not implemented (✗) "
                        "where it computes on its data, or a single-GPU API (✓) on a hot path "
                        "of a multi-node target"),
         QStringLiteral("demote one tier (READY → LIGHT → SIGNIFICANT; never to NOT "
                        "RECOMMENDED)"),
         QStringLiteral("such a call stops or serializes the port wherever it runs.")},
    };
    return rules;
}

QString verdictListText() {
    QString s = QStringLiteral(
        "The verdict list: rules 1 to 8 are tried in order and the first that matches decides; "
        "rule 9 then adjusts the outcome. Findings in test modules, and sites off the compute "
        "path, do not count.\n\n");
    for (const VerdictRule& r : verdictRules())
        s += QStringLiteral("%1. %2 → %3.\n   %4\n").arg(r.number).arg(r.when, r.then, r.why);
    s += QStringLiteral("\nThe verdict is provisional when files could not be read or a syntax "
                        "error hid code; it then names them, and any --fail-on exits 1.\n");
    return s;
}

namespace {

QString plural(int n, const char* one, const char* many) {
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
}

} // namespace

QString whatWouldChange(const Assessment& a) {
    QString s;
    switch (a.decidingRule) {
    case 1:
        s = QStringLiteral("A GPU of compute capability 7.0 or newer (V100, A100, H100, RTX 20xx "
                           "and later) with CUDA 12.x or 13.x on Linux or WSL2: there the code "
                           "would get %1.")
                .arg(verdictLabel(a.verdictOnVolta.value_or(a.codeVerdict)));
        break;
    case 2:
        s = QStringLiteral("Only a different dominant pattern: if the evidence behind '%1' is "
                           "incidental, state the pattern with --pattern; the code-level verdict "
                           "would then be %2.")
                .arg(a.context.pattern, verdictLabel(a.codeVerdict));
        break;
    case 3:
        s = QStringLiteral("Hot arrays of at least 65,536 elements per GPU (batch small arrays "
                           "into one, or use fewer GPUs), confirmed with --elements: the "
                           "code-level verdict would then be %1.")
                .arg(verdictLabel(a.codeVerdict));
        break;
    case 4:
        s = QStringLiteral("Removing mpi4py from the array path (one global cuPyNumeric array "
                           "instead of scattered pieces); the BLOCKS and REFACTOR findings would "
                           "then decide by rules 5 to 8.");
        break;
    case 5:
        s = QStringLiteral("Fewer blocker sites: %1 on hot paths and %2 now; with at most two "
                           "sites on hot paths and fewer than three kinds, rule 6 would decide "
                           "(LIGHT REFACTOR).")
                .arg(plural(a.hotBlockerSites, "site", "sites"),
                     plural(int(a.blockerKinds.size()), "kind", "kinds"));
        break;
    case 6:
        s = QStringLiteral("Removing the %1 with the recipes gives %2 (rule %3); a third site "
                           "on a hot path, or a third kind, would make it SIGNIFICANT REFACTOR "
                           "(rule 5).")
                .arg(plural(a.blockerSites, "BLOCKS site", "BLOCKS sites"),
                     a.refactorSites > 0 ? QStringLiteral("LIGHT REFACTOR")
                                         : QStringLiteral("READY"),
                     a.refactorSites > 0 ? QStringLiteral("7") : QStringLiteral("8"));
        break;
    case 7:
        s = QStringLiteral("Applying the recipes at the %1 gives READY (rule 8); any BLOCKS "
                           "finding would decide by rule 6 or 5 instead.")
                .arg(plural(a.refactorSites, "REFACTOR site", "REFACTOR sites"));
        break;
    default:
        s = QStringLiteral("Any BLOCKS or REFACTOR finding on the compute path would lower it to "
                           "LIGHT REFACTOR or below (rules 5 to 7).");
        break;
    }
    if (a.verdict != a.verdictBeforeDemotion)
        s += QStringLiteral(" Without the rule-9 API gap the verdict would be %1.")
                 .arg(verdictLabel(a.verdictBeforeDemotion));
    if (a.provisional())
        s += QStringLiteral(" The verdict stays provisional until the files not read fully can "
                            "be assessed.");
    return s;
}

} // namespace cnready

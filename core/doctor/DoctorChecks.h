#pragma once
// Which Doctor check an entry comes from, and our closest rule code for it.

#include <QString>
#include <QStringList>

namespace cnready {

/// One of Doctor's run-time checks, in our terms.
struct DoctorCheck {
    QString key;   ///< "scalar-access", "repeated-slice", "host-gather", "stacking", "nonzero",
                   ///< "advanced-indexing", "builtin-reduction", "array-iteration", "mpi4py",
                   ///< or "unknown"
    QString label; ///< short phrase for tables ("repeated scalar access")
    QString code;  ///< closest rule code ("R104"); "" for an unknown check
    /// Codes of static findings this check confirms on the same statement (`code` first).
    QStringList confirms;
    bool fileLevel = false; ///< the check concerns the whole file (mpi4py), not its line
};

/// Classifies a Doctor entry by its description (Doctor has no check id). The description is
/// matched case-insensitively on the words each check uses (mpi4py; nonzero / argwhere;
/// hstack / vstack / stack / concatenate; `__iter__` / iterat; builtin / built-in; advanced /
/// fancy indexing; slice; item / scalar; gather / host / transfer), in that order. `source`
/// (the line's text) settles a repeated slice: R106 when the slice has a step (`::`), else
/// R101 (a window moved by a loop). The mapping, decided for cnready:
///   repeated scalar item access → R104 (also confirms R101 element loops and R105 branches
///   on an element), repeated slice → R106 / R101, whole-array gather to the host → R104
///   (also R110, R103: builtins and iteration pull the array too), repeated hstack/vstack →
///   R203, nonzero-style call → R204, unoptimised advanced indexing → R204 (index arrays come
///   from nonzero / where / argwhere; the recipe is a boolean mask or `where`), builtin
///   reduction → R110, `__iter__` on an array → R103 (also R110: `list(a)`, `sorted(a)`),
///   mpi4py imported → R108 (file level). Anything else: key "unknown", no code.
DoctorCheck classifyDoctorCheck(const QString& description, const QString& source = {});

} // namespace cnready

#include "rules/R108_mpi4py.h"

#include "parse/SyntaxTree.h"
#include "rules/BlocksSupport.h"
#include "semantic/SemanticModel.h"

#include <QSet>

namespace cnready {

const RuleInfo& R108Mpi4py::info() const {
    static const RuleInfo i{
        QStringLiteral("R108"),
        Category::Blocks,
        QStringLiteral("mpi4py-array-traffic"),
        QStringLiteral("mpi4py moving array data beside the array runtime"),
        QStringLiteral("RR-mpi"),
        QStringLiteral("Finds mpi4py communicator calls that move or reduce array data "
                       "(`Scatter`, `Gather`, `Allreduce`, `Bcast`, `Send` / `Recv`, "
                       "`sendrecv`, `allgather`, ...) with a NumPy / cuPyNumeric array among "
                       "their arguments, in files that import mpi4py. A bare import, a "
                       "launcher or a script that only exchanges Python values is not "
                       "reported."),
        QStringLiteral("Legate already runs its own communication layer across ranks and "
                       "nodes. Hand-written MPI traffic next to it sets up a second, "
                       "incompatible view of who owns which piece of the data; cuPyNumeric "
                       "refuses to run beside mpi4py. The global array replaces the explicit "
                       "scatter/reduce."),
        QStringLiteral("local = np.empty(n // size)\n"
                       "comm.Scatter(full, local, root=0)\n"
                       "comm.Allreduce(np.sum(local), total, op=MPI.SUM)"),
        QStringLiteral("total = np.sum(full)   # one global array\n"
                       "# launch: legate --nodes 2 --ranks-per-node 1 --gpus 4 "
                       "--launcher mpirun main.py"),
        false};
    return i;
}

namespace {
const QSet<QString>& dataMethods() {
    static const QSet<QString> s = {QStringLiteral("Scatter"),
                                    QStringLiteral("Scatterv"),
                                    QStringLiteral("Gather"),
                                    QStringLiteral("Gatherv"),
                                    QStringLiteral("Allgather"),
                                    QStringLiteral("Allgatherv"),
                                    QStringLiteral("Allreduce"),
                                    QStringLiteral("Reduce"),
                                    QStringLiteral("Bcast"),
                                    QStringLiteral("Send"),
                                    QStringLiteral("Recv"),
                                    QStringLiteral("Isend"),
                                    QStringLiteral("Irecv"),
                                    QStringLiteral("Ssend"),
                                    QStringLiteral("Sendrecv"),
                                    QStringLiteral("Sendrecv_replace"),
                                    QStringLiteral("Alltoall"),
                                    QStringLiteral("Alltoallv"),
                                    QStringLiteral("Reduce_scatter"),
                                    QStringLiteral("Reduce_scatter_block"),
                                    QStringLiteral("Scan"),
                                    QStringLiteral("Exscan"),
                                    QStringLiteral("Iallreduce"),
                                    QStringLiteral("Ibcast"),
                                    QStringLiteral("Put"),
                                    QStringLiteral("Get"),
                                    QStringLiteral("Accumulate"),
                                    QStringLiteral("bcast"),
                                    QStringLiteral("scatter"),
                                    QStringLiteral("gather"),
                                    QStringLiteral("allgather"),
                                    QStringLiteral("allreduce"),
                                    QStringLiteral("reduce"),
                                    QStringLiteral("send"),
                                    QStringLiteral("recv"),
                                    QStringLiteral("isend"),
                                    QStringLiteral("irecv"),
                                    QStringLiteral("sendrecv"),
                                    QStringLiteral("alltoall"),
                                    QStringLiteral("scan"),
                                    QStringLiteral("exscan")};
    return s;
}

// An argument carries array data: an array value, or a buffer spec `[buf, MPI.DOUBLE]`.
bool carriesArray(const SemanticModel& m, TSNode a) {
    if (m.isDeviceValue(a))
        return true;
    if (SyntaxTree::is(a, "list") || SyntaxTree::is(a, "tuple")) {
        const uint32_t k = ts_node_named_child_count(a);
        for (uint32_t j = 0; j < k; ++j)
            if (m.isDeviceValue(ts_node_named_child(a, j)))
                return true;
    }
    return false;
}
} // namespace

void R108Mpi4py::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    if (!m.importsModule(QStringLiteral("mpi4py")))
        return;
    for (const TSNode c : m.calls()) {
        const TSNode fn = SyntaxTree::field(c, "function");
        if (!SyntaxTree::is(fn, "attribute"))
            continue;
        const std::string_view meth = m.text(SyntaxTree::field(fn, "attribute"));
        const QString method = QString::fromUtf8(meth.data(), qsizetype(meth.size()));
        if (!dataMethods().contains(method))
            continue;
        // The receiver is an mpi4py communicator: resolved through the import, or a name
        // that says so (a `comm` parameter).
        const TSNode recv = SyntaxTree::field(fn, "object");
        const QString cn = m.callName(c);
        const std::string_view rt = m.text(recv);
        const bool comm = cn.startsWith(QLatin1String("mpi4py.")) ||
                          QString::fromUtf8(rt.data(), qsizetype(rt.size()))
                              .contains(QLatin1String("comm"), Qt::CaseInsensitive);
        if (!comm)
            continue;
        const TSNode args = SyntaxTree::field(c, "arguments");
        const uint32_t k = ts_node_named_child_count(args);
        bool arrays = false;
        for (uint32_t j = 0; j < k && !arrays; ++j) {
            TSNode a = ts_node_named_child(args, j);
            if (SyntaxTree::is(a, "keyword_argument"))
                a = SyntaxTree::field(a, "value");
            arrays = carriesArray(m, a);
        }
        if (!arrays)
            continue;
        out.report(c, QStringLiteral("%1.%2 moves array data through mpi4py next to the "
                                     "Legate runtime")
                          .arg(QString::fromUtf8(rt.data(), qsizetype(rt.size())), method));
    }
}

} // namespace cnready

#include "rules/Recipes.h"

#include <algorithm>

namespace cnready {

namespace {

QList<Recipe> buildRecipes() {
    QList<Recipe> r;

    r.append(Recipe{
        QStringLiteral("RR-mpi"),
        QStringLiteral("Let Legate distribute instead of mpi4py"),
        QStringLiteral("Drop the rank arithmetic and the explicit messages. Allocate one global "
                       "array of the full size, write the computation as if it ran on one "
                       "machine, and start the program with the legate launcher and the number "
                       "of nodes and GPUs you want."),
        QStringLiteral("from mpi4py import MPI\n"
                       "comm = MPI.COMM_WORLD\n"
                       "mine = np.random.rand(N // comm.size)\n"
                       "total = comm.allreduce(mine.sum(), op=MPI.SUM)"),
        QStringLiteral(
            "import cupynumeric as np\n"
            "data = np.random.rand(N)\n"
            "total = data.sum()\n"
            "# run: legate --nodes 2 --ranks-per-node 1 --gpus 4 --launcher mpirun prog.py"),
        10,
        {QStringLiteral("R108")},
        QStringLiteral("Legate already splits a global array across ranks and performs the "
                       "collectives a reduction needs; hand-written MPI on top of it fights the "
                       "runtime for the same data.")});

    r.append(Recipe{
        QStringLiteral("RR-loop"),
        QStringLiteral("Replace the element loop by whole-array operations"),
        QStringLiteral("Write the body once for all indices: the loop variable becomes a slice "
                       "or disappears, `if` on an element becomes `np.where`, and a running "
                       "total becomes `np.sum` or `np.dot`."),
        QStringLiteral("for k in range(len(temps)):\n"
                       "    temps[k] = (temps[k] - 32.0) * 5.0 / 9.0\n"
                       "acc = 0.0\n"
                       "for k in range(len(w)):\n"
                       "    acc += w[k] * temps[k]"),
        QStringLiteral("temps[:] = (temps - 32.0) * 5.0 / 9.0\n"
                       "acc = np.dot(w, temps)"),
        20,
        {QStringLiteral("R101"), QStringLiteral("R103"), QStringLiteral("R110")},
        QStringLiteral("One array expression is one task per GPU over that GPU's whole share of "
                       "the data; a Python loop issues one tiny task per element and the "
                       "scheduling cost swamps the arithmetic.")});

    // Not an upstream anchor: a conversion to Python values (`tuple(a)`, `[int(v) for v in
    // a]`, `[slice(off[d], off[d + 1]) for d in ...]`) has nothing to vectorise, so the advice of
    // RR-loop does not fit it.
    r.append(Recipe{
        QStringLiteral("RR-tolist"),
        QStringLiteral("Convert to Python values in one transfer"),
        QStringLiteral("When the code needs Python values (a tuple for a shape, labels as "
                       "strings, dictionary keys), there is no array work to vectorise: ask the "
                       "array for all of them at once with `.tolist()` and build the Python "
                       "object from that list. If the consumer accepts an array, pass the array "
                       "itself."),
        QStringLiteral("corner = tuple(lower)\n"
                       "names = [str(v) for v in ids]"),
        QStringLiteral("corner = tuple(lower.tolist())\n"
                       "names = [str(v) for v in ids.tolist()]"),
        23,
        {QStringLiteral("R101"), QStringLiteral("R103"), QStringLiteral("R110")},
        QStringLiteral("Walking an array hands out one element at a time, each a separate read "
                       "that waits for the device; `.tolist()` copies the whole array to the "
                       "host once.")});

    r.append(Recipe{
        QStringLiteral("RR-broadcast"),
        QStringLiteral("Let broadcasting do the per-row loop"),
        QStringLiteral("When each iteration scales or shifts one row or column by a value taken "
                       "from a vector, give the vector a length-1 axis (`v[:, None]`) and apply "
                       "the operation to the whole array at once."),
        QStringLiteral("for r in range(grid.shape[0]):\n"
                       "    scaled[r, :] = grid[r, :] / row_norms[r]"),
        QStringLiteral("scaled[:] = grid / row_norms[:, None]"),
        21,
        {QStringLiteral("R101")},
        QStringLiteral("Broadcasting turns the loop into one elementwise operation, which every "
                       "GPU runs on its own block without talking to the others.")});

    r.append(Recipe{
        QStringLiteral("RR-batch"),
        QStringLiteral("Stack independent problems and solve them in one call"),
        QStringLiteral("If a loop runs the same factorization, solve or transform on many small "
                       "independent inputs, stack the inputs along a new leading axis and call "
                       "the routine once on the stack."),
        QStringLiteral("coeffs = []\n"
                       "for A, b in zip(systems, rhs):\n"
                       "    coeffs.append(np.linalg.solve(A, b))"),
        QStringLiteral("A_all = np.stack(systems)            # (k, m, m)\n"
                       "b_all = np.stack(rhs)[..., None]     # (k, m, 1)\n"
                       "coeffs = np.linalg.solve(A_all, b_all)[..., 0]"),
        22,
        {QStringLiteral("R101"), QStringLiteral("R302"), QStringLiteral("R303")},
        QStringLiteral("A single small solve, QR, SVD or FFT runs on one device; a batch of them "
                       "is split along the batch axis, so every GPU gets its own share of the "
                       "problems.")});

    r.append(Recipe{
        QStringLiteral("RR-where"),
        QStringLiteral("Turn the vectorized Python function into array code"),
        QStringLiteral("Rewrite the scalar function with array operations: a conditional "
                       "becomes `np.where(cond, a, b)`; when one branch is costly, compute it "
                       "only on the masked elements instead."),
        QStringLiteral("leaky = np.vectorize(lambda v: v if v > 0.0 else 0.01 * v)\n"
                       "act = leaky(z)"),
        QStringLiteral("act = np.where(z > 0.0, z, 0.01 * z)\n"
                       "# costly branch: act = z.copy(); neg = z < 0; act[neg] = slow(z[neg])"),
        30,
        {QStringLiteral("R102")},
        QStringLiteral("np.vectorize calls the Python function once per element on the host; "
                       "np.where is one parallel kernel per GPU.")});

    r.append(Recipe{
        QStringLiteral("RR-sync"),
        QStringLiteral("Bring values to the host less often"),
        QStringLiteral("Every `float()`, `.item()`, print or f-string of an array value waits "
                       "for all queued work to finish. Keep such reads out of the loop, or do "
                       "them only every N iterations."),
        QStringLiteral("for it in range(iters):\n"
                       "    field = relax(field)\n"
                       "    resid = float(np.abs(field - prev).max())\n"
                       "    print(f\"iteration {it}: residual {resid:.3e}\")"),
        QStringLiteral("REPORT = 100\n"
                       "for it in range(iters):\n"
                       "    field = relax(field)\n"
                       "    if it % REPORT == 0:\n"
                       "        resid = float(np.abs(field - prev).max())\n"
                       "        print(f\"iteration {it}: residual {resid:.3e}\")"),
        40,
        {QStringLiteral("R104"), QStringLiteral("R105")},
        QStringLiteral("Between two host reads the runtime can queue many iterations ahead and "
                       "overlap them; each read drains that queue, so reading 100x less often "
                       "removes almost all of the stall.")});

    r.append(Recipe{
        QStringLiteral("RR-converge"),
        QStringLiteral("Test convergence on a Python flag, checked every N steps"),
        QStringLiteral("Do not let a `while` condition reduce an array. Loop on a Python bool "
                       "and an iteration cap, and update the bool from the residual only every "
                       "N iterations."),
        QStringLiteral("while np.linalg.norm(x_new - x) > eps:\n"
                       "    x, x_new = x_new, update(x_new)"),
        QStringLiteral("done, k = False, 0\n"
                       "while not done and k < max_steps:\n"
                       "    x, x_new = x_new, update(x_new)\n"
                       "    k += 1\n"
                       "    if k % 25 == 0:\n"
                       "        done = float(np.linalg.norm(x_new - x)) <= eps"),
        41,
        {QStringLiteral("R105")},
        QStringLiteral("The loop test no longer waits on the GPU, so the runtime can pipeline N "
                       "iterations; the price is stopping up to N-1 iterations late.")});

    // Not an upstream anchor: RR-converge fits a loop that stops on a residual; a branch that
    // picks what to do with the data (a mask test, an element used as a key) needs other advice.
    r.append(Recipe{
        QStringLiteral("RR-branch"),
        QStringLiteral("Take data-dependent branches out of the loop's control flow"),
        QStringLiteral("When the branch chooses what to compute rather than when to stop, "
                       "compute both outcomes and let a mask choose (`np.where(cond, a, b)`, or "
                       "`out[m] = f(x[m])` when one side is costly), or make the decision once "
                       "before the loop for all passes (test `mask.any()` per column in one "
                       "call, bring lookup keys to the host with one `.tolist()`). If the loop "
                       "only runs a handful of passes, the wait may simply be acceptable."),
        QStringLiteral("for k in range(n_blocks):\n"
                       "    if lo[k].any():\n"
                       "        y[k] = np.minimum(y[k], floor)\n"
                       "for i in range(n):\n"
                       "    if labels[i] in groups:\n"
                       "        groups[labels[i]].append(i)"),
        QStringLiteral("y[:] = np.where(lo.any(axis=1)[:, None], np.minimum(y, floor), y)\n"
                       "keys = labels.tolist()            # one transfer\n"
                       "for i in range(n):\n"
                       "    if keys[i] in groups:\n"
                       "        groups[keys[i]].append(i)"),
        42,
        {QStringLiteral("R105")},
        QStringLiteral("A mask keeps the choice inside one array operation that every GPU "
                       "evaluates on its own share, and a decision made once costs one wait "
                       "instead of one per pass. Python never needs the value, so the runtime "
                       "keeps queueing work.")});

    r.append(Recipe{
        QStringLiteral("RR-stack"),
        QStringLiteral("Preallocate the result instead of growing it"),
        QStringLiteral("Allocate the final array once with its full size and fill row `t` in "
                       "iteration `t`. When the size is not known up front, collect the pieces "
                       "in a Python list and call `np.stack` / `np.concatenate` once after the "
                       "loop."),
        QStringLiteral("history = np.empty((0, n))\n"
                       "for t in range(steps):\n"
                       "    state = advance(state)\n"
                       "    history = np.vstack([history, state])"),
        QStringLiteral("history = np.empty((steps, n))\n"
                       "for t in range(steps):\n"
                       "    state = advance(state)\n"
                       "    history[t] = state"),
        50,
        {QStringLiteral("R203")},
        QStringLiteral("Growing by stacking copies everything gathered so far on every "
                       "iteration, which is quadratic in the number of iterations; filling a "
                       "preallocated array writes each row exactly once.")});

    r.append(Recipe{
        QStringLiteral("RR-alloc"),
        QStringLiteral("Allocate once, before the loop"),
        QStringLiteral("Move allocations whose shape does not change out of the loop and reuse "
                       "the buffer (`buf.fill(0)` if it must start from zero). Combine with "
                       "`out=` and a buffer swap to avoid the temporaries of the arithmetic "
                       "too."),
        QStringLiteral("for t in range(steps):\n"
                       "    scratch = np.zeros((ny, nx))\n"
                       "    scratch[1:-1, :] = rho[2:, :] - rho[:-2, :]\n"
                       "    rho -= dt * scratch"),
        QStringLiteral("scratch = np.zeros((ny, nx))\n"
                       "for t in range(steps):\n"
                       "    scratch[1:-1, :] = rho[2:, :] - rho[:-2, :]\n"
                       "    rho -= dt * scratch"),
        60,
        {QStringLiteral("R201")},
        QStringLiteral("A buffer of the same size allocated and dropped every iteration costs "
                       "an allocator round trip and churns GPU memory; one buffer that lives "
                       "across the loop costs nothing per step.")});

    r.append(Recipe{
        QStringLiteral("RR-inplace"),
        QStringLiteral("Update arrays in place"),
        QStringLiteral("Replace `x = x + y` in a loop by `x += y` or by the ufunc with "
                       "`out=x`; for longer expressions, keep one preallocated scratch array "
                       "and chain ufuncs through `out=`. When `x` is a parameter, it is the "
                       "caller's array: in place would change it for the caller too, so take "
                       "`x = x.copy()` once before the loop first."),
        QStringLiteral("for t in range(steps):\n"
                       "    pos = pos + dt * vel"),
        QStringLiteral("tmp = np.empty_like(vel)\n"
                       "for t in range(steps):\n"
                       "    np.multiply(vel, dt, out=tmp)\n"
                       "    np.add(pos, tmp, out=pos)   # or simply: pos += dt * vel"),
        61,
        {QStringLiteral("R202")},
        QStringLiteral("Rebinding allocates a fresh result each time while the old array is "
                       "still referenced by queued tasks, so memory use climbs; writing into "
                       "the existing storage allocates nothing.")});

    r.append(Recipe{
        QStringLiteral("RR-mask"),
        QStringLiteral("Index with the boolean mask itself"),
        QStringLiteral("Use the condition directly as the index (`a[cond]`, `a[cond] = v`) or "
                       "`np.putmask`, instead of turning it into integer positions with "
                       "`nonzero` / `where` / `argwhere` first. Strided selections can often be "
                       "expressed as a mask too."),
        QStringLiteral("bad = np.nonzero(depth < 0.0)\n"
                       "depth[bad] = 0.0\n"
                       "wet = level[np.nonzero(depth > 0.0)]"),
        QStringLiteral("depth[depth < 0.0] = 0.0      # or np.putmask(depth, depth < 0.0, 0.0)\n"
                       "wet = level[depth > 0.0]"),
        70,
        {QStringLiteral("R204"), QStringLiteral("R106")},
        QStringLiteral("A mask has the shape of the array and is split the same way, so each "
                       "GPU applies its part locally; an index array has to be built first and "
                       "may send elements between GPUs.")});

    r.append(Recipe{
        QStringLiteral("RR-reshape"),
        QStringLiteral("Reshape once, outside the loop"),
        QStringLiteral("Hoist a reshape whose arguments do not change in the loop and keep "
                       "working on the reshaped array. If the loop only reshapes to line up "
                       "axes for arithmetic, broadcasting usually does the same without a "
                       "reshape."),
        QStringLiteral("for epoch in range(epochs):\n"
                       "    tiles = image.reshape(ty, th, tx, tw)\n"
                       "    update(tiles)"),
        QStringLiteral("tiles = image.reshape(ty, th, tx, tw)\n"
                       "for epoch in range(epochs):\n"
                       "    update(tiles)"),
        80,
        {QStringLiteral("R206")},
        QStringLiteral("On cuPyNumeric a reshape may copy and repartition the data; done once it "
                       "is cheap, done every iteration it is pure overhead.")});

    // Not an upstream anchor: a reversal is the one strided slice with a supported
    // whole-array equivalent, so the mask advice of RR-mask does not fit it.
    r.append(Recipe{
        QStringLiteral("RR-flip"),
        QStringLiteral("Reverse with np.flip instead of a negative step"),
        QStringLiteral("A slice with step -1 only reverses an axis: write `np.flip(a, axis=k)` "
                       "(a tuple of axes for several). When the slice also has bounds, cut the "
                       "range first with a unit-step slice (`a[5:0:-1]` is `np.flip(a[1:6])`). "
                       "To store in reverse order, flip the value instead: `a[:] = np.flip(v)`."),
        QStringLiteral("tail = signal[::-1]\n"
                       "mirrored = image[:, ::-1]\n"
                       "buf[::-1] = ramp"),
        QStringLiteral("tail = np.flip(signal)\n"
                       "mirrored = np.flip(image, axis=1)\n"
                       "buf[:] = np.flip(ramp)"),
        81,
        {QStringLiteral("R106")},
        QStringLiteral("cuPyNumeric implements np.flip, so the reversal stays an array "
                       "operation instead of leaving the distributed path. The API manifest "
                       "marks it single-GPU: for a multi-node target it is listed among the API "
                       "gaps, like any other single-GPU call.")});

    // Not one of the upstream anchors: our own recipe for R205, so that every REFACTOR code
    // has one.
    r.append(Recipe{
        QStringLiteral("RR-write-through"),
        QStringLiteral("Write into the original array, not into a would-be view"),
        QStringLiteral("Where code writes through `ravel()`, `.flat`, `flip` or a diagonal to "
                       "change the array it came from, index that array itself: a reshaped "
                       "view for flat positions, reversed slices for flips, paired index "
                       "ranges for a diagonal."),
        QStringLiteral("cells = grid.ravel()\n"
                       "cells[border_ids] = 0.0\n"
                       "d = np.diagonal(K)\n"
                       "d.setflags(write=True)\n"
                       "d += shift"),
        QStringLiteral("grid[np.unravel_index(border_ids, grid.shape)] = 0.0\n"
                       "k = np.arange(K.shape[0])\n"
                       "K[k, k] += shift"),
        85,
        {QStringLiteral("R205")},
        QStringLiteral("On cuPyNumeric these calls return copies, so a write through them is "
                       "lost without an error; writing to the original array behaves the "
                       "same in both libraries.")});

    // Not upstream anchors either: R107 and R109 are BLOCKS with a mechanical fix, and every
    // BLOCKS finding in the report names a recipe.
    r.append(Recipe{
        QStringLiteral("RR-dtype"),
        QStringLiteral("Give every array a numeric dtype"),
        QStringLiteral("Keep Python objects (strings, dicts, ragged lists) in Python containers "
                       "and keep only numbers in arrays. Ragged rows become one flat numeric "
                       "array plus an offsets array; records become one numeric array per "
                       "field."),
        QStringLiteral("tracks = np.empty(n, dtype=object)\n"
                       "for k in range(n):\n"
                       "    tracks[k] = np.asarray(read_track(k))"),
        QStringLiteral("pieces = [read_track(k) for k in range(n)]   # Python list, host side\n"
                       "offsets = np.cumsum([0] + [len(p) for p in pieces])\n"
                       "values = np.concatenate(pieces)             # one numeric array"),
        86,
        {QStringLiteral("R107")},
        QStringLiteral("Only numeric dtypes are partitioned across GPUs; an object array is a "
                       "host array of pointers whatever library holds it.")});

    r.append(Recipe{
        QStringLiteral("RR-layout"),
        QStringLiteral("State the axis order, not the memory order"),
        QStringLiteral("Drop `order=` and say what the code means in terms of axes: "
                       "`order=\"F\"` on a reshape or ravel is the same as transposing, "
                       "reshaping in C order and transposing back. Memory layout is the "
                       "runtime's business on a distributed array."),
        QStringLiteral("flat = field.ravel(order=\"F\")\n"
                       "grid = flat.reshape((nx, ny), order=\"F\")"),
        QStringLiteral("flat = field.T.ravel()\n"
                       "grid = flat.reshape((ny, nx)).T"),
        87,
        {QStringLiteral("R109")},
        QStringLiteral("cuPyNumeric chooses the layout of each partition itself; a requested "
                       "memory order is ignored or refused, so results may differ silently.")});

    r.append(Recipe{
        QStringLiteral("RR-host-fallback"),
        QStringLiteral("Move host-only library work to one boundary"),
        QStringLiteral("Libraries such as SciPy need host NumPy arrays. Convert once to a host "
                       "array, run every host-only step on it, and convert back once, rather "
                       "than crossing the device/host boundary inside the loop."),
        QStringLiteral("for k in range(steps):\n"
                       "    img = scipy.ndimage.gaussian_filter(img, sigma=1.0)"),
        QStringLiteral("import numpy as host_np\n"
                       "img_h = host_np.asarray(img)       # one copy to the host\n"
                       "for k in range(steps):\n"
                       "    img_h = scipy.ndimage.gaussian_filter(img_h, sigma=1.0)\n"
                       "img = np.asarray(img_h)            # one copy back"),
        90,
        {QStringLiteral("R301")},
        QStringLiteral("Each host call forces the distributed array to be gathered and copied; "
                       "one round trip instead of one per iteration. Prefer a cuPyNumeric "
                       "equivalent when one exists.")});

    std::stable_sort(r.begin(), r.end(), [](const Recipe& a, const Recipe& b) {
        return a.priority != b.priority ? a.priority < b.priority : a.anchor < b.anchor;
    });
    return r;
}

} // namespace

const QList<Recipe>& allRecipes() {
    static const QList<Recipe> recipes = buildRecipes();
    return recipes;
}

QString siteRecipe(const QString& code, int variant) {
    if (variant == 1 && code == QLatin1String("R106"))
        return QStringLiteral("RR-flip");
    if (variant == 1 && code == QLatin1String("R105"))
        return QStringLiteral("RR-branch");
    if (variant == 1 && (code == QLatin1String("R110") || code == QLatin1String("R103") ||
                         code == QLatin1String("R101")))
        return QStringLiteral("RR-tolist");
    return {};
}

QStringList siteRecipes(const QString& code) {
    QStringList out;
    for (int v = 1; v <= 1; ++v)
        if (QString a = siteRecipe(code, v); !a.isEmpty())
            out << a;
    return out;
}

const Recipe* findRecipe(const QString& anchor) {
    for (const Recipe& r : allRecipes())
        if (r.anchor == anchor)
            return &r;
    return nullptr;
}

int fixOrder(const QString& code) {
    static const char* const order[][3] = {
        {"R108", nullptr, nullptr}, {"R101", "R103", "R110"},   {"R102", nullptr, nullptr},
        {"R104", "R105", nullptr},  {"R203", nullptr, nullptr}, {"R201", "R202", nullptr},
        {"R204", nullptr, nullptr}, {"R206", nullptr, nullptr}, {"R106", nullptr, nullptr},
        {"R107", nullptr, nullptr},
    };
    for (int rank = 0; rank < int(std::size(order)); ++rank)
        for (const char* c : order[rank])
            if (c && code.compare(QLatin1String(c), Qt::CaseInsensitive) == 0)
                return rank + 1;
    return 0;
}

} // namespace cnready

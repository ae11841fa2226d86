#pragma once
// NVIDIA data-centre GPU models and their compute capability, for Gate 1 (hardware).
// cuPyNumeric needs compute capability 7.0 (Volta) or newer.

#include <QList>
#include <QString>

namespace cnready {

/// One GPU model as the context form and `--gpu` name it.
struct GpuModel {
    QString name;                 ///< canonical display name, e.g. "A100"
    double computeCapability = 0; ///< CUDA compute capability, e.g. 8.0
    int memoryGiB = 0;            ///< device memory of the common (largest) variant, GiB
    QString architecture;         ///< "Pascal", "Volta", "Turing", "Ampere", "Ada", "Hopper", ...
};

/// All known models, sorted by architecture generation, then name. Static data; thread-safe.
/// Compute capabilities from NVIDIA's CUDA GPU table (P100 6.0, V100 7.0, T4 7.5, A100 8.0,
/// A10/A30/A40 8.6, L4/L40/L40S 8.9, H100/H200/GH200 9.0, B200/GB200 10.0).
const QList<GpuModel>& gpuCatalog();

/// Looks a model up by name, case-insensitively, tolerating vendor prefixes and variant
/// suffixes: "a100", "NVIDIA A100-80GB", "h100 sxm", "Tesla V100-SXM2-32GB" all resolve.
/// Returns nullptr when nothing matches (the caller then treats the hardware as unknown).
const GpuModel* findGpu(const QString& name);

} // namespace cnready

#pragma once
// NVIDIA GPU models (data-centre, workstation and desktop) and their compute capability, for
// Gate 1 (hardware). cuPyNumeric needs compute capability 7.0 (Volta) or newer; older cards are
// listed so that the gate can name them as too old instead of "unknown".

#include <QList>
#include <QString>

namespace cnready {

/// One GPU model as the context form and `--gpu` name it.
struct GpuModel {
    QString name;                 ///< canonical display name, e.g. "A100"
    double computeCapability = 0; ///< CUDA compute capability, e.g. 8.0
    int memoryGiB = 0;            ///< device memory of the common (largest) variant, GiB
    QString architecture;         ///< "Pascal", "Volta", "Turing", "Ampere", "Ada", "Hopper", ...
    /// Peak device-memory bandwidth of that variant, GB/s (10^9 bytes per second); 0 when not
    /// catalogued. From NVIDIA's product datasheets (see gpuCatalog()).
    double memoryBandwidthGBps = 0;
    /// Host link of the card, GB/s per direction as gpu-stack.md counts it: PCIe Gen5 ~64,
    /// Gen4 ~32, Gen3 ~16; 0 when not catalogued.
    double pcieGBps = 0;
};

/// All known models, sorted by architecture generation, then name. Static data; thread-safe.
/// Compute capabilities from NVIDIA's CUDA GPU table (K40 3.5, K80 3.7, M40 5.2, P100 6.0,
/// P4/P40/GTX 1080 6.1, V100/TITAN V 7.0, T4/GTX 16xx/RTX 20xx/RTX 6000/8000 7.5, A100/A30 8.0,
/// A10/A40/RTX 30xx/RTX A4000-A6000 8.6, L4/L40/L40S/RTX 40xx/RTX 6000 Ada 8.9,
/// H100/H200/GH200 9.0, B200/GB200 10.0, RTX 5090 12.0). Memory is per GPU of the largest common
/// variant, in GiB.
/// Memory bandwidth (GB/s) from NVIDIA's datasheets of the variant named: V100 SXM2 900,
/// T4 320, A100 80 GB SXM 2,039, A30 933, A10 600, A40 696, L4 300, L40 / L40S 864, H100 SXM
/// 3,350, H200 4,800, GH200 (96 GB HBM3) 4,000, B200 8,000, GB200 8,000 per GPU, P100 732,
/// RTX 3090 936, RTX 4090 1,008, RTX 5090 1,792, RTX A6000 768, RTX 6000 Ada 960; the H100 figure
/// agrees with ../shared/upstream/references/gpu-stack.md (FBMEM ~3 TB/s). Host link from the
/// same datasheets: PCIe Gen3 for Pascal, Volta and Turing, Gen4 for Ampere and Ada, Gen5 for
/// Hopper and Blackwell (~16 / ~32 / ~64 GB/s; gpu-stack.md gives the Gen5 figure).
const QList<GpuModel>& gpuCatalog();

/// Looks a model up by name, case-insensitively, tolerating vendor prefixes and variant
/// suffixes: "a100", "NVIDIA A100-80GB", "h100 sxm", "Tesla V100-SXM2-32GB", "NVIDIA GeForce
/// RTX 4090", "rtx4090", "RTX 4080 SUPER" (the base card's entry) all resolve.
/// Words after the model name must be variant words (Ti, SUPER, Laptop GPU, SXM4, PCIe, 80GB,
/// Ada Generation, ...): "GTX 1080 Tiger" or "A100 banana" do not resolve.
/// Returns nullptr when nothing matches (the caller then treats the hardware as unknown).
const GpuModel* findGpu(const QString& name);

} // namespace cnready

// The GPU catalog: names, compute capabilities, tolerant lookup.
#include "assess/GpuCatalog.h"

#include <QtTest>

using namespace cnready;

class TestGpuCatalog : public QObject {
    Q_OBJECT
private slots:
    void requiredModels_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("cc");
        QTest::newRow("P100") << "P100" << 6.0;
        QTest::newRow("V100") << "V100" << 7.0;
        QTest::newRow("T4") << "T4" << 7.5;
        QTest::newRow("A100") << "A100" << 8.0;
        QTest::newRow("A10") << "A10" << 8.6;
        QTest::newRow("L4") << "L4" << 8.9;
        QTest::newRow("L40S") << "L40S" << 8.9;
        QTest::newRow("H100") << "H100" << 9.0;
        QTest::newRow("H200") << "H200" << 9.0;
        QTest::newRow("B200") << "B200" << 10.0;
        QTest::newRow("GH200") << "GH200" << 9.0;
        QTest::newRow("K80") << "K80" << 3.7;
        QTest::newRow("GTX 1080") << "GTX 1080" << 6.1;
        QTest::newRow("RTX 2080 Ti") << "RTX 2080 Ti" << 7.5;
        QTest::newRow("RTX 3090") << "RTX 3090" << 8.6;
        QTest::newRow("RTX 4090") << "RTX 4090" << 8.9;
        QTest::newRow("RTX 5090") << "RTX 5090" << 12.0;
    }
    void requiredModels() {
        QFETCH(QString, name);
        QFETCH(double, cc);
        const GpuModel* g = findGpu(name);
        QVERIFY(g);
        QCOMPARE(g->name, name);
        QCOMPARE(g->computeCapability, cc);
        QVERIFY(g->memoryGiB > 0);
        QVERIFY(!g->architecture.isEmpty());
    }
    void tolerantLookup_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("expected");
        QTest::newRow("lower") << "a100"
                               << "A100";
        QTest::newRow("suffix") << "a100-80gb"
                                << "A100";
        QTest::newRow("vendor") << "NVIDIA H100 SXM"
                                << "H100";
        QTest::newRow("tesla") << "Tesla V100-SXM2-32GB"
                               << "V100";
        QTest::newRow("l40s-not-l40") << "l40s"
                                      << "L40S";
        QTest::newRow("a10-not-a100") << "A10"
                                      << "A10";
        QTest::newRow("a10g") << "A10G"
                              << "A10";
        QTest::newRow("gh200-not-h200") << "gh200"
                                        << "GH200";
        QTest::newRow("spaces") << "  p100 "
                                << "P100";
        QTest::newRow("unknown") << "Radeon VII"
                                 << "";
        QTest::newRow("geforce") << "NVIDIA GeForce RTX 4090"
                                 << "RTX 4090";
        QTest::newRow("no space") << "rtx4090"
                                  << "RTX 4090";
        QTest::newRow("super falls back") << "GeForce RTX 4080 SUPER"
                                          << "RTX 4080";
        QTest::newRow("ti listed") << "GeForce GTX 1080 Ti"
                                   << "GTX 1080 Ti";
        QTest::newRow("1080-not-1080ti") << "gtx 1080"
                                         << "GTX 1080";
        QTest::newRow("quadro turing") << "Quadro RTX 6000"
                                       << "RTX 6000";
        QTest::newRow("ada generation") << "NVIDIA RTX 6000 Ada Generation"
                                        << "RTX 6000 Ada";
        QTest::newRow("ampere workstation") << "NVIDIA RTX A6000"
                                            << "RTX A6000";
        QTest::newRow("titan") << "Titan V"
                               << "TITAN V";
        QTest::newRow("tesla kepler") << "Tesla K80"
                                      << "K80";
        QTest::newRow("rtx-40900-unknown") << "RTX 40900"
                                           << "";
        QTest::newRow("laptop") << "NVIDIA GeForce RTX 3060 Laptop GPU"
                                << "RTX 3060";
        QTest::newRow("gtx 16 ti") << "GeForce GTX 1660 Ti"
                                   << "GTX 1660";
        QTest::newRow("quadro 8000") << "Quadro RTX 8000"
                                     << "RTX 8000";
        QTest::newRow("2080-not-2080ti") << "RTX 2080"
                                         << "RTX 2080";
        QTest::newRow("rtx 2070 unlisted") << "RTX 2070"
                                           << "";
        QTest::newRow("empty") << ""
                               << "";
        QTest::newRow("a1000-not-a100") << "A1000"
                                        << "";
        // Unknown trailing words are a different (or mistyped) name, not a variant.
        QTest::newRow("tiger-not-ti") << "GTX 1080 Tiger"
                                      << "";
        QTest::newRow("a100 banana") << "A100 banana"
                                     << "";
        QTest::newRow("rtx 4090 foo") << "RTX 4090 foo"
                                      << "";
        // Variant words still resolve.
        QTest::newRow("ti super") << "RTX 4070 Ti SUPER"
                                  << "RTX 4070";
        QTest::newRow("memory with space") << "NVIDIA A100 80 GB PCIe"
                                           << "A100";
        QTest::newRow("sxm hbm") << "NVIDIA H100 SXM5 80GB HBM3"
                                 << "H100";
        QTest::newRow("tensor core") << "NVIDIA A100 Tensor Core GPU"
                                     << "A100";
        QTest::newRow("nvl") << "H100 NVL"
                             << "H100";
        QTest::newRow("v100s") << "Tesla V100S-PCIE-32GB"
                               << "V100";
    }
    void tolerantLookup() {
        QFETCH(QString, input);
        QFETCH(QString, expected);
        const GpuModel* g = findGpu(input);
        QCOMPARE(g ? g->name : QString(), expected);
    }
    void namesUnique() {
        QSet<QString> seen;
        for (const GpuModel& g : gpuCatalog()) {
            QVERIFY2(!seen.contains(g.name), qPrintable(g.name));
            seen.insert(g.name);
        }
    }
};

QTEST_GUILESS_MAIN(TestGpuCatalog)
#include "tst_gpu_catalog.moc"

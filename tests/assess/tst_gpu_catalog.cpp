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
        QTest::newRow("unknown") << "RTX 4090"
                                 << "";
        QTest::newRow("empty") << ""
                               << "";
        QTest::newRow("a1000-not-a100") << "A1000"
                                        << "";
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

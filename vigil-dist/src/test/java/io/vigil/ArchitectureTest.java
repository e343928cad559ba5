package io.vigil;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.library.Architectures;
import io.vigil.cli.VigilCli;
import io.vigil.ldg.LayeringViolationFixture;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package structure, enforced: dependencies point down the layers cli/demo/report/research/dashboard/flink.cli →
 * api/watch (the embedding API and the per-key watch runtime built on it, which flink may use) / flink → stream/kafka → evaluate → early → model/select → ldg/reduce/baseline/classify/reliability/gauss →
 * data/util; the algorithm packages know nothing of Flink, Kafka, picocli or Jackson (model files are read and
 * written in {@code io.vigil.model.json}, the only model package that may use Jackson); the core module's packages
 * know nothing of Flink, Kafka, Scala, picocli, plotting, benchmarks or terminals; no product package depends on the
 * research packages (experiments, comparison reducers, baselines, benchmarks); no package cycles; every package
 * belongs to a layer. The rules themselves are tested against a fixture class that breaks them.
 */
class ArchitectureTest {
    private static final String[] ALGORITHMS = {
        "io.vigil.data..",
        "io.vigil.util..",
        "io.vigil.ldg..",
        "io.vigil.reduce..",
        "io.vigil.baseline..",
        "io.vigil.classify..",
        "io.vigil.reliability..",
        "io.vigil.gauss..",
        "io.vigil.select..",
        "io.vigil.model",
        "io.vigil.early.."
    };

    private static final String[] INTEGRATIONS = {
        "org.apache.flink..", "org.apache.kafka..", "picocli..", "com.fasterxml.jackson.."
    };

    /** The packages of vigil-core: the method and its embedding API. */
    private static final String[] CORE = {
        "io.vigil.data..",
        "io.vigil.util..",
        "io.vigil.gauss..",
        "io.vigil.reliability..",
        "io.vigil.classify..",
        "io.vigil.ldg..",
        "io.vigil.model..",
        "io.vigil.select..",
        "io.vigil.early..",
        "io.vigil.stream..",
        "io.vigil.evaluate..",
        "io.vigil.api..",
        "io.vigil.watch.."
    };

    /** What vigil-core may not use: the integrations and the CLI's and research's own libraries. */
    private static final String[] NOT_IN_CORE = {
        "org.apache.flink..",
        "org.apache.kafka..",
        "kafka..",
        "scala..",
        "picocli..",
        "org.knowm.xchart..",
        "org.openjdk.jmh..",
        "me.tongfei..",
        "libsvm.."
    };

    /** The packages of vigil-research. */
    private static final String[] RESEARCH = {
        "io.vigil.research..", "io.vigil.experiment..", "io.vigil.reduce..", "io.vigil.baseline..", "io.vigil.bench.."
    };

    /** Layers, top to bottom, with the packages that make them up. */
    private static final Architectures.LayeredArchitecture LAYERS = Architectures.layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .withOptionalLayers(true)
            .layer("Entry points")
            .definedBy(
                    "io.vigil.cli..",
                    "io.vigil.flink.cli..",
                    "io.vigil.research..",
                    "io.vigil.bench..",
                    "io.vigil.demo..",
                    "io.vigil.report..",
                    "io.vigil.experiment..",
                    "io.vigil.dashboard..")
            .layer("Embedding API")
            .definedBy("io.vigil.api..", "io.vigil.watch..")
            .layer("Flink adapter")
            .definedBy("io.vigil.flink")
            .layer("Stream")
            .definedBy("io.vigil.stream..", "io.vigil.kafka..")
            .layer("Evaluation")
            .definedBy("io.vigil.evaluate..")
            .layer("Early decisions")
            .definedBy("io.vigil.early..")
            .layer("Models")
            .definedBy("io.vigil.model..", "io.vigil.select..")
            .layer("Algorithms")
            .definedBy(
                    "io.vigil.ldg..",
                    "io.vigil.reduce..",
                    "io.vigil.baseline..",
                    "io.vigil.classify..",
                    "io.vigil.reliability..",
                    "io.vigil.gauss..")
            .layer("Base")
            .definedBy("io.vigil.data..", "io.vigil.util..")
            .whereLayer("Entry points")
            .mayNotBeAccessedByAnyLayer()
            .whereLayer("Embedding API")
            .mayOnlyBeAccessedByLayers("Entry points", "Flink adapter")
            .whereLayer("Flink adapter")
            .mayOnlyBeAccessedByLayers("Entry points")
            .whereLayer("Stream")
            .mayOnlyBeAccessedByLayers("Entry points", "Flink adapter")
            .whereLayer("Evaluation")
            .mayOnlyBeAccessedByLayers("Entry points", "Embedding API", "Algorithms")
            .whereLayer("Early decisions")
            .mayOnlyBeAccessedByLayers("Entry points", "Embedding API", "Flink adapter", "Stream", "Evaluation")
            .whereLayer("Models")
            .mayOnlyBeAccessedByLayers(
                    "Entry points", "Embedding API", "Flink adapter", "Stream", "Evaluation", "Early decisions")
            .whereLayer("Algorithms")
            .mayOnlyBeAccessedByLayers(
                    "Entry points",
                    "Embedding API",
                    "Flink adapter",
                    "Stream",
                    "Evaluation",
                    "Early decisions",
                    "Models");

    private static final ArchRule ALGORITHMS_KNOW_NO_INTEGRATIONS = noClasses()
            .that()
            .resideInAnyPackage(ALGORITHMS)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(INTEGRATIONS)
            .because("algorithms are plain Java + EJML; the stream, CLI and file layers adapt them");

    private static final ArchRule STREAM_KNOWS_NO_FLINK_OR_KAFKA = noClasses()
            .that()
            .resideInAPackage("io.vigil.stream..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("org.apache.flink..", "org.apache.kafka..", "io.vigil.kafka..")
            .because("the per-series rules are tested without Flink; io.vigil.flink adapts them");

    private static final ArchRule CORE_STAYS_PLAIN = noClasses()
            .that()
            .resideInAnyPackage(CORE)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(NOT_IN_CORE)
            .because("vigil-core is embeddable: EJML, Jackson, Hipparchus and LIBLINEAR only");

    private static final ArchRule PRODUCT_KNOWS_NO_RESEARCH = noClasses()
            .that()
            .resideOutsideOfPackages(RESEARCH)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(RESEARCH)
            .because("experiments, comparison methods and benchmarks plug into the product (ServiceLoader), never "
                    + "the other way round");

    private static final ArchRule NO_CYCLES =
            slices().matching("io.vigil.(**)").should().beFreeOfCycles();

    private static final ArchRule EVERY_PACKAGE_HAS_A_LAYER = classes()
            .should()
            .resideInAnyPackage(
                    "io.vigil.cli..",
                    "io.vigil.research..",
                    "io.vigil.bench..",
                    "io.vigil.demo..",
                    "io.vigil.report..",
                    "io.vigil.experiment..",
                    "io.vigil.dashboard..",
                    "io.vigil.api..",
                    "io.vigil.watch..",
                    "io.vigil.flink..",
                    "io.vigil.stream..",
                    "io.vigil.kafka..",
                    "io.vigil.evaluate..",
                    "io.vigil.early..",
                    "io.vigil.model..",
                    "io.vigil.select..",
                    "io.vigil.ldg..",
                    "io.vigil.reduce..",
                    "io.vigil.baseline..",
                    "io.vigil.classify..",
                    "io.vigil.reliability..",
                    "io.vigil.gauss..",
                    "io.vigil.data..",
                    "io.vigil.util..")
            .because("a new package must be placed in the layering (ArchitectureTest.LAYERS)");

    private static JavaClasses production;

    @BeforeAll
    static void importProductionClasses() {
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar")) // the modules' shared test helpers
                .importPackages("io.vigil");
    }

    @Test
    void dependenciesPointDownTheLayers() {
        LAYERS.check(production);
    }

    @Test
    void algorithmsImportNoFlinkKafkaPicocliOrJackson() {
        ALGORITHMS_KNOW_NO_INTEGRATIONS.check(production);
        STREAM_KNOWS_NO_FLINK_OR_KAFKA.check(production);
    }

    @Test
    void coreUsesNoFlinkKafkaScalaPicocliOrPlots() {
        CORE_STAYS_PLAIN.check(production);
    }

    @Test
    void productDependsOnNoResearch() {
        PRODUCT_KNOWS_NO_RESEARCH.check(production);
    }

    @Test
    void packagesAreFreeOfCycles() {
        NO_CYCLES.check(production);
    }

    @Test
    void everyPackageBelongsToALayer() {
        EVERY_PACKAGE_HAS_A_LAYER.check(production);
    }

    /** The rules are not vacuous: a class in io.vigil.ldg that reaches up to the CLI and into picocli breaks them. */
    @Test
    void theRulesReportAClassThatBreaksThem() {
        JavaClasses bad = new ClassFileImporter().importClasses(LayeringViolationFixture.class, VigilCli.class);
        for (ArchRule rule : List.of(LAYERS, ALGORITHMS_KNOW_NO_INTEGRATIONS, CORE_STAYS_PLAIN)) {
            EvaluationResult result = rule.evaluate(bad);
            assertTrue(result.hasViolation(), rule.getDescription() + " missed the fixture");
            assertTrue(
                    result.getFailureReport().toString().contains(LayeringViolationFixture.class.getName()),
                    result.getFailureReport().toString());
        }
    }
}

package io.vigil.data;

import java.util.Locale;
import java.util.Optional;

/**
 * The file formats in which the UCR/UEA time-series archives are distributed. Readers accept each of them
 * plain or gzipped; {@link DatasetWriter} writes each of them so data can be exchanged with other tools
 * (sktime/aeon read {@code .ts}, Weka reads ARFF, the UCR archive itself uses {@code .tsv} since 2018).
 */
public enum DataFormat {
    /** UCR archive 2018: one series per line, label first, tab separated ({@code Name/Name_TRAIN.tsv}). */
    TSV(".tsv"),
    /** UCR archive 2015: label first, comma or whitespace separated ({@code Name_TRAIN} or {@code .txt}). */
    UCR2015(".txt"),
    /** sktime/aeon {@code .ts}: header tags, then {@code v1,v2,...,vd:label} per line (univariate only). */
    TS(".ts"),
    /** Weka ARFF: numeric attributes plus one nominal class attribute. */
    ARFF(".arff");

    private final String extension;

    DataFormat(String extension) {
        this.extension = extension;
    }

    /** The file extension written for this format, with the leading dot (without {@code .gz}). */
    public String extension() {
        return extension;
    }

    /** The lower-case name used on the command line ({@code tsv}, {@code ucr2015}, {@code ts}, {@code arff}). */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The format a file name's extension names unambiguously ({@code .tsv}, {@code .ts}, {@code .arff}, each
     * optionally followed by {@code .gz}); empty for {@code .txt}, no extension or anything else, whose
     * format is then decided by content.
     */
    public static Optional<DataFormat> fromFileName(String fileName) {
        String lower = fileName.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".gz")) {
            lower = lower.substring(0, lower.length() - 3);
        }
        if (lower.endsWith(".tsv")) {
            return Optional.of(TSV);
        }
        if (lower.endsWith(".ts")) {
            return Optional.of(TS);
        }
        if (lower.endsWith(".arff")) {
            return Optional.of(ARFF);
        }
        return Optional.empty();
    }
}

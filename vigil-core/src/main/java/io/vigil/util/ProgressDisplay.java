package io.vigil.util;

/**
 * A terminal progress bar for {@link Progress} on a console, provided by the application through
 * {@link java.util.ServiceLoader} ({@code META-INF/services/io.vigil.util.ProgressDisplay}), so that the algorithms
 * and the library carry no terminal dependency.
 */
public interface ProgressDisplay {
    /** Opens a bar titled {@code task} with {@code total} steps. */
    Bar open(String task, long total);

    /** One open bar; calls may come from several threads. */
    interface Bar extends AutoCloseable {
        /** Advances by {@code n} steps. */
        void stepBy(long n);

        /** Adds {@code n} steps to the expected total. */
        void extendBy(long n);

        @Override
        void close();
    }
}

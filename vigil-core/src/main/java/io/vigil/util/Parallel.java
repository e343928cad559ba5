package io.vigil.util;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * Runs independent pieces of work (cross-validation or cross-fitting folds) on a fixed number of threads and returns
 * their results in input order, so a result never depends on scheduling. A failure of any piece is rethrown as is
 * (runtime exceptions and errors) after the others are cancelled.
 */
public final class Parallel {
    private Parallel() {}

    /**
     * {@code work} applied to every item, on at most {@code threads} threads (the calling thread alone when 1).
     *
     * @param what what the pieces are, for the message of an interruption or a checked failure
     * @throws IllegalArgumentException when threads &lt; 1
     */
    public static <T, R> List<R> map(List<T> items, int threads, String what, Function<? super T, ? extends R> work) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        List<R> out = new ArrayList<>(items.size());
        if (threads == 1 || items.size() <= 1) {
            for (T item : items) {
                out.add(work.apply(item));
            }
            return out;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(threads, items.size()));
        try {
            List<Future<? extends R>> futures = new ArrayList<>(items.size());
            for (T item : items) {
                futures.add(pool.submit(() -> work.apply(item)));
            }
            for (Future<? extends R> f : futures) {
                out.add(f.get());
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + " interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(what + " failed: " + cause, cause);
        } finally {
            pool.shutdownNow();
        }
    }
}

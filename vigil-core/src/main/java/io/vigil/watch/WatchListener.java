package io.vigil.watch;

/**
 * Receives what a {@link KeyWatcher} produces, in order, on the watcher's thread: every window decision (background
 * ones included) and every alarm, right after the decision that raised it.
 */
public interface WatchListener {
    /** A window was decided. */
    default void window(WindowDecision decision) {}

    /** A window decision raised an alarm. */
    default void alarm(AlarmEvent alarm) {}
}

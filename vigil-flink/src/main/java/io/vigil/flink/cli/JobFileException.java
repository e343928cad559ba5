package io.vigil.flink.cli;

/**
 * A job file that cannot be used: missing, unreadable, not YAML, or naming an unknown key or a value of the wrong
 * shape. The message is one line that names the file (and the line and key when there is one), so the command can
 * print it as a usage error.
 */
public final class JobFileException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception with its one-line message. */
    public JobFileException(String message) {
        super(message);
    }

    /** Creates the exception with its one-line message and the underlying failure. */
    public JobFileException(String message, Throwable cause) {
        super(message, cause);
    }
}

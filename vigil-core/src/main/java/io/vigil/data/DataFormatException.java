package io.vigil.data;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Input data that cannot be used as it stands; names the file, the 1-based line (0 when the problem is
 * not tied to one line) and the reason, so a user can find and fix the record.
 */
public final class DataFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final long line;
    private final String reason;

    public DataFormatException(Path file, long line, String reason) {
        super(format(file, line, reason));
        this.file = file;
        this.line = line;
        this.reason = reason;
    }

    private static String format(Path file, long line, String reason) {
        String where = file == null ? "<input>" : file.toString();
        return line > 0 ? where + ":" + line + ": " + reason : where + ": " + reason;
    }

    public Path file() {
        return file;
    }

    /** 1-based line number, or 0 when the problem concerns the whole file. */
    public long line() {
        return line;
    }

    public String reason() {
        return reason;
    }
}

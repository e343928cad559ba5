package io.vigil.util;

import java.io.EOFException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Turns an exception into the one line a user reads: the path and the reason in plain words for file-system
 * errors (the JDK's {@link NoSuchFileException} carries only the path), and the root cause appended when a
 * library wraps it in a message that hides it ("Failed to construct kafka producer" says nothing about the
 * malformed JAAS line that caused it).
 */
public final class Failures {
    private Failures() {}

    /**
     * Marks an exception whose message already says everything a user needs, root cause included: {@link
     * #describe} then shows it alone (the cause stays attached for {@code VIGIL_DEBUG} stack traces).
     */
    public interface Complete {}

    /** One line, no line breaks: what went wrong and, where known, the file and the root cause. */
    public static String describe(Throwable e) {
        String own = ownMessage(e);
        if (e instanceof Complete) {
            return own.replace('\n', ' ').replace('\r', ' ');
        }
        Throwable root = rootCause(e);
        if (root != e) {
            String cause = ownMessage(root);
            // A file-system cause already put in words by the wrapper ("cannot write model M: permission denied")
            // adds only a path — often of a temporary file — so it is left out.
            boolean said = root instanceof FileSystemException fs && own.contains(plainReason(fs));
            if (!own.contains(cause) && !said) {
                own = own + ": " + cause;
            }
        }
        return own.replace('\n', ' ').replace('\r', ' ');
    }

    /** The message of the innermost cause alone, in plain words (see {@link #describe}). */
    public static String ownMessageOfRoot(Throwable e) {
        return ownMessage(rootCause(e)).replace('\n', ' ').replace('\r', ' ');
    }

    /** The innermost cause (cycles are cut). */
    public static Throwable rootCause(Throwable e) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        Throwable t = e;
        while (t.getCause() != null && seen.put(t, Boolean.TRUE) == null) {
            t = t.getCause();
        }
        return t;
    }

    /**
     * The message of {@code e} alone, in plain words for the file-system exceptions whose text is only a path
     * (a reason the thrower gave wins over the generic one).
     */
    static String ownMessage(Throwable e) {
        if (e instanceof FileSystemException fs) {
            return fileSystem(fs);
        }
        if (e instanceof EOFException && e.getMessage() == null) {
            return "unexpected end of file";
        }
        String m = e.getMessage();
        if (m == null || m.isBlank()) {
            return e instanceof IOException ? "I/O error (" + e.getClass().getSimpleName() + ")" : e.toString();
        }
        return m.strip();
    }

    private static String plainReason(FileSystemException e) {
        String s = fileSystem(e);
        int colon = s.lastIndexOf(": ");
        return colon < 0 ? s : s.substring(colon + 2);
    }

    private static String fileSystem(FileSystemException e) {
        String file = e.getFile();
        String reason = e.getReason();
        String plain;
        if (e instanceof NoSuchFileException) {
            plain = "no such file or directory";
        } else if (e instanceof AccessDeniedException) {
            plain = "permission denied";
        } else if (e instanceof FileAlreadyExistsException) {
            plain = "already exists";
        } else if (e instanceof NotDirectoryException) {
            plain = "not a directory";
        } else if (e instanceof DirectoryNotEmptyException) {
            plain = "directory not empty";
        } else {
            plain = "file system error";
        }
        if (reason != null && !reason.isBlank()) {
            plain = reason.strip();
        }
        String other = e.getOtherFile();
        if (file == null) {
            return plain;
        }
        return other == null ? file + ": " + plain : file + " → " + other + ": " + plain;
    }
}

package io.vigil.util;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Deletes the temp directory trees Vigil creates (the loopback broker's storage, the embedded Flink cluster's
 * temp directory) on every exit path, including from shutdown hooks while other threads may still be writing.
 */
public final class FileTrees {
    /** Walks a tree again when a file appeared meanwhile. */
    private static final int ATTEMPTS = 3;

    private FileTrees() {}

    /**
     * Deletes {@code root} and everything below it; files that vanish meanwhile are fine, a tree that gains files
     * while being walked is walked again.
     *
     * @return true when {@code root} no longer exists
     */
    public static boolean delete(Path root) {
        for (int attempt = 0; attempt < ATTEMPTS && Files.exists(root); attempt++) {
            try {
                Files.walkFileTree(root, new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                        Files.deleteIfExists(file);
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(Path file, IOException e) {
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                        Files.deleteIfExists(dir);
                        return FileVisitResult.CONTINUE;
                    }
                });
            } catch (NoSuchFileException gone) {
                return true;
            } catch (IOException retry) {
                // e.g. a directory not empty because a file appeared while walking: walk again
            }
        }
        return !Files.exists(root);
    }
}

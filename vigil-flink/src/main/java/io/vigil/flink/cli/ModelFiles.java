package io.vigil.flink.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Reads a model file's bytes for the commands that ship a model to a job ({@code run}, {@code publish-model}). */
public final class ModelFiles {
    private ModelFiles() {}

    /**
     * The file's bytes.
     *
     * @throws IOException naming the file, and how to get one when it does not exist
     */
    public static byte[] read(Path file) throws IOException {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new IOException("model file " + file + " does not exist (train one with `vigil train`)", e);
        }
    }
}

package io.vigil.examples;

import io.vigil.api.EarlyDecision;
import io.vigil.api.Vigil;
import io.vigil.api.VigilSession;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.Scanner;

/** Reads a model and decides the series of values on standard input, one per line. */
public final class EmbeddingExample {
    public static void main(String[] args) throws IOException {
        Vigil vigil = Vigil.load(Path.of(args[0])); // a model file from vigil train; thread-safe, share it
        VigilSession series = vigil.newSession(); // one per series, used by one thread at a time
        Scanner in = new Scanner(System.in).useLocale(Locale.ROOT);
        while (in.hasNextDouble()) {
            Optional<EarlyDecision> d = series.observe(in.nextDouble());
            if (d.isPresent()) {
                System.out.println(
                        d.get().label() + " at t=" + d.get().t() + (d.get().certified() ? ", certified" : ""));
                return;
            }
        }
        series.end().ifPresent(d -> System.out.println(d.label() + " when the series ended at t=" + d.t()));
    }
}

package io.vigil.cli;

import picocli.CommandLine;

/** Reports the Vigil version from the jar manifest ("dev" when run from classes). */
public final class VigilVersion implements CommandLine.IVersionProvider {
    /** The version string recorded in model files and {@code --version}. */
    public static String current() {
        String v = VigilVersion.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    @Override
    public String[] getVersion() {
        return new String[] {"vigil " + current()};
    }
}

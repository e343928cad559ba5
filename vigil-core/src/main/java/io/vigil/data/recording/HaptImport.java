package io.vigil.data.recording;

import io.vigil.data.DataFormatException;
import java.io.BufferedReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Converts the raw layout of UCI HAPT (Smartphone-Based Recognition of Human Activities and Postural Transitions,
 * v2.1: {@code RawData/acc_expXX_userYY.txt}, {@code gyro_expXX_userYY.txt}, {@code labels.txt} and {@code
 * activity_labels.txt}, each optionally gzipped) into the recording layout: one recording {@code expXX_userYY} per
 * experiment with channels {@code acc_x, acc_y, acc_z, gyro_x, gyro_y, gyro_z} and a {@code time} column at 50 Hz,
 * every labelled interval an event named by its activity, and the official subject split (test users 2, 4, 9, 10,
 * 12, 13, 18, 20, 24, as in the distribution's {@code Test/subject_id_test.txt}; the others train).
 */
public final class HaptImport {
    /** The sampling rate of HAPT's accelerometer and gyroscope. */
    public static final double SAMPLING_RATE_HZ = 50;

    /** The users of the official test split. */
    public static final Set<Integer> TEST_USERS = Set.of(2, 4, 9, 10, 12, 13, 18, 20, 24);

    /** Channel names of the converted recordings. */
    public static final List<String> CHANNELS = List.of("acc_x", "acc_y", "acc_z", "gyro_x", "gyro_y", "gyro_z");

    private static final Pattern ACC = Pattern.compile("acc_exp(\\d+)_user(\\d+)\\.txt(\\.gz)?");
    private static final int AXES = 3;
    private static final int LABEL_COLUMNS = 5;
    private static final Pattern SPACES = Pattern.compile("\\s+");

    private HaptImport() {}

    /**
     * What was converted.
     *
     * @param recordings experiments written
     * @param trainRecordings of them in the training split
     * @param events labelled intervals written
     * @param samples samples over all recordings
     * @param files the files written, recordings then {@code events.tsv}
     */
    public record Summary(int recordings, int trainRecordings, int events, long samples, List<Path> files) {
        public Summary {
            files = List.copyOf(files);
        }
    }

    private record Experiment(int exp, int user, Path acc, Path gyro) {
        String name() {
            return String.format("exp%02d_user%02d", exp, user);
        }
    }

    /**
     * Converts the HAPT copy under {@code from} (the directory holding {@code RawData/}, or {@code RawData} itself)
     * into {@code out}.
     */
    public static Summary convert(Path from, Path out) throws IOException {
        Path raw = Files.isDirectory(from.resolve("RawData")) ? from.resolve("RawData") : from;
        Path labelsFile = either(raw, "labels.txt");
        Path activityFile = Files.exists(from.resolve("activity_labels.txt"))
                        || Files.exists(from.resolve("activity_labels.txt.gz"))
                ? either(from, "activity_labels.txt")
                : either(raw, "activity_labels.txt");
        Map<Integer, String> activities = activities(activityFile);
        Map<Integer, Experiment> experiments = experiments(raw);
        List<String> names = new ArrayList<>();
        Map<String, Integer> samples = new LinkedHashMap<>();
        Map<String, String> splits = new LinkedHashMap<>();
        List<Path> files = new ArrayList<>();
        long total = 0;
        int train = 0;
        Files.createDirectories(out);
        for (Experiment e : experiments.values()) {
            double[][] acc = axes(e.acc());
            double[][] gyro = axes(e.gyro());
            if (acc[0].length != gyro[0].length) {
                throw new DataFormatException(
                        e.gyro(),
                        0,
                        gyro[0].length + " samples but " + e.acc().getFileName() + " has " + acc[0].length
                                + " (the two sensors are sample-aligned)");
            }
            int n = acc[0].length;
            double[] times = new double[n];
            for (int i = 0; i < n; i++) {
                times[i] = i * 1000.0 / SAMPLING_RATE_HZ;
            }
            double[][] values = {acc[0], acc[1], acc[2], gyro[0], gyro[1], gyro[2]};
            Recording r = new Recording(e.name(), CHANNELS, values, times, SAMPLING_RATE_HZ);
            Path f = out.resolve(e.name() + ".tsv.gz");
            RecordingWriter.write(r, f);
            files.add(f);
            names.add(e.name());
            samples.put(e.name(), n);
            boolean test = TEST_USERS.contains(e.user());
            splits.put(e.name(), test ? "test" : "train");
            train += test ? 0 : 1;
            total += n;
        }
        List<RecordingEvent> events = labels(labelsFile, experiments, activities, samples);
        Path eventsFile = out.resolve("events.tsv");
        RecordingWriter.writeEvents(eventsFile, names, events, splits);
        files.add(eventsFile);
        return new Summary(names.size(), train, events.size(), total, files);
    }

    /** {@code dir/name} or {@code dir/name.gz}, whichever exists. */
    private static Path either(Path dir, String name) throws FileNotFoundException {
        for (Path p : List.of(dir.resolve(name), dir.resolve(name + ".gz"))) {
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        throw new FileNotFoundException("HAPT layout: " + dir.resolve(name) + "[.gz] not found");
    }

    private static Map<Integer, String> activities(Path file) throws IOException {
        Map<Integer, String> out = new HashMap<>();
        try (BufferedReader in = RecordingReader.open(file)) {
            String line;
            long no = 0;
            while ((line = in.readLine()) != null) {
                no++;
                if (line.isBlank()) {
                    continue;
                }
                String[] parts = SPACES.split(line.trim());
                try {
                    if (parts.length != 2 || out.put(Integer.parseInt(parts[0]), parts[1]) != null) {
                        throw new DataFormatException(file, no, "expected 'ID NAME' with a new ID");
                    }
                } catch (NumberFormatException ex) {
                    throw new DataFormatException(file, no, "activity ID '" + parts[0] + "' is not a number");
                }
            }
        }
        return out;
    }

    private static Map<Integer, Experiment> experiments(Path raw) throws IOException {
        Map<Integer, Experiment> out = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> s = Files.list(raw)) {
            files = s.sorted().toList();
        }
        for (Path acc : files) {
            Matcher m = ACC.matcher(acc.getFileName().toString());
            if (!m.matches()) {
                continue;
            }
            int exp = Integer.parseInt(m.group(1));
            Path gyro = either(raw, "gyro_exp" + m.group(1) + "_user" + m.group(2) + ".txt");
            if (out.put(exp, new Experiment(exp, Integer.parseInt(m.group(2)), acc, gyro)) != null) {
                throw new DataFormatException(acc, 0, "experiment " + exp + " appears twice");
            }
        }
        if (out.isEmpty()) {
            throw new FileNotFoundException("HAPT layout: no acc_expXX_userYY.txt[.gz] files in " + raw);
        }
        return out;
    }

    /** The three whitespace-separated columns of a raw sensor file, as {@code [axis][sample]}. */
    private static double[][] axes(Path file) throws IOException {
        double[][] v = new double[AXES][1 << 14];
        int n = 0;
        try (BufferedReader in = RecordingReader.open(file)) {
            String line;
            long no = 0;
            while ((line = in.readLine()) != null) {
                no++;
                if (line.isBlank()) {
                    continue;
                }
                String[] parts = SPACES.split(line.trim());
                if (parts.length != AXES) {
                    throw new DataFormatException(file, no, "expected 3 values (x y z), found " + parts.length);
                }
                if (n == v[0].length) {
                    for (int a = 0; a < AXES; a++) {
                        v[a] = Arrays.copyOf(v[a], 2 * n);
                    }
                }
                for (int a = 0; a < AXES; a++) {
                    try {
                        v[a][n] = Double.parseDouble(parts[a]);
                    } catch (NumberFormatException ex) {
                        throw new DataFormatException(file, no, "'" + parts[a] + "' is not a number");
                    }
                }
                n++;
            }
        }
        if (n == 0) {
            throw new DataFormatException(file, 0, "no samples");
        }
        for (int a = 0; a < AXES; a++) {
            v[a] = Arrays.copyOf(v[a], n);
        }
        return v;
    }

    private static List<RecordingEvent> labels(
            Path file, Map<Integer, Experiment> experiments, Map<Integer, String> activities, Map<String, Integer> n)
            throws IOException {
        List<RecordingEvent> out = new ArrayList<>();
        try (BufferedReader in = RecordingReader.open(file)) {
            String line;
            long no = 0;
            while ((line = in.readLine()) != null) {
                no++;
                if (line.isBlank()) {
                    continue;
                }
                String[] parts = SPACES.split(line.trim());
                if (parts.length != LABEL_COLUMNS) {
                    throw new DataFormatException(
                            file, no, "expected 5 numbers (experiment user activity start end), found " + parts.length);
                }
                int[] v = new int[LABEL_COLUMNS];
                for (int k = 0; k < LABEL_COLUMNS; k++) {
                    try {
                        v[k] = Integer.parseInt(parts[k]);
                    } catch (NumberFormatException ex) {
                        throw new DataFormatException(file, no, "'" + parts[k] + "' is not a whole number");
                    }
                }
                Experiment e = experiments.get(v[0]);
                if (e == null) {
                    throw new DataFormatException(file, no, "experiment " + v[0] + " has no acc/gyro files");
                }
                if (e.user() != v[1]) {
                    throw new DataFormatException(
                            file,
                            no,
                            "user " + v[1] + " but the files of experiment " + v[0] + " are of user " + e.user());
                }
                String activity = activities.get(v[2]);
                if (activity == null) {
                    throw new DataFormatException(file, no, "activity " + v[2] + " is not in activity_labels.txt");
                }
                if (v[3] < 1 || v[4] < v[3] || v[4] > n.get(e.name())) {
                    throw new DataFormatException(
                            file,
                            no,
                            "interval " + v[3] + ".." + v[4] + " is not within 1.." + n.get(e.name()) + " of "
                                    + e.name());
                }
                out.add(new RecordingEvent(e.name(), v[3], v[4], activity));
            }
        }
        return out;
    }
}

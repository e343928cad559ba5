package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.early.EarlyClassifier;
import io.vigil.stream.SampleEvent;
import io.vigil.stream.SeriesSession;
import io.vigil.stream.SeriesTracker;
import io.vigil.stream.SessionSettings;
import io.vigil.stream.StreamFixtures;
import java.util.List;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/** The state serializer: round trips through Flink's memory views, copies, and its snapshot on restore. */
class SeriesSessionSerializerTest {
    private static SeriesSession session(int samples) {
        EarlyClassifier c = StreamFixtures.classifier();
        SeriesTracker tracker = new SeriesTracker(c, SessionSettings.defaults(), "m", 1L);
        SeriesTracker.Output ignore = new SeriesTracker.Output() {
            @Override
            public void decision(io.vigil.stream.DecisionRecord record) {}

            @Override
            public void deadLetter(io.vigil.stream.DeadLetter letter) {}
        };
        SeriesTracker.Workspace ws = tracker.newWorkspace();
        List<SampleEvent> events = StreamFixtures.events(3, 0);
        SeriesSession s = null;
        for (int t = 0; t < samples; t++) {
            s = tracker.onSample(s, events.get(t), 0L, ignore, ws);
        }
        return tracker.onSample(s, events.get(samples + 3), 0L, ignore, ws); // plus one buffered sample
    }

    @Test
    void roundTripAndCopyThroughFlinkViews() throws Exception {
        for (int samples : new int[] {1, 5, 40, 120}) {
            SeriesSession s = session(samples);
            DataOutputSerializer out = new DataOutputSerializer(64);
            SeriesSessionSerializer.INSTANCE.serialize(s, out);
            assertTrue(out.length() == s.serializedSizeBytes(), "size at " + samples);
            SeriesSession back =
                    SeriesSessionSerializer.INSTANCE.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
            assertTrue(back.contentEquals(s), "round trip at " + samples);
            assertTrue(SeriesSessionSerializer.INSTANCE.copy(s).contentEquals(s));
            DataOutputSerializer copied = new DataOutputSerializer(64);
            SeriesSessionSerializer.INSTANCE.copy(new DataInputDeserializer(out.getCopyOfBuffer()), copied);
            assertTrue(java.util.Arrays.equals(out.getCopyOfBuffer(), copied.getCopyOfBuffer()));
        }
    }

    @Test
    void snapshotRestoresACompatibleSerializer() throws Exception {
        TypeSerializerSnapshot<SeriesSession> snap = SeriesSessionSerializer.INSTANCE.snapshotConfiguration();
        DataOutputSerializer out = new DataOutputSerializer(64);
        TypeSerializerSnapshot.writeVersionedSnapshot(out, snap);
        TypeSerializerSnapshot<SeriesSession> read = TypeSerializerSnapshot.readVersionedSnapshot(
                new DataInputDeserializer(out.getCopyOfBuffer()), getClass().getClassLoader());
        assertTrue(read.restoreSerializer() == SeriesSessionSerializer.INSTANCE);
        TypeSerializerSchemaCompatibility<SeriesSession> compat =
                SeriesSessionSerializer.INSTANCE.snapshotConfiguration().resolveSchemaCompatibility(read);
        assertTrue(compat.isCompatibleAsIs(), compat.toString());
    }
}

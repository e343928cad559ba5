package io.vigil.flink;

import io.vigil.stream.SeriesSession;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Flink serializer of the per-series {@link SeriesSession}: a custom {@code TypeSerializer} rather than a POJO
 * because the session already has a compact, versioned binary form ({@link SeriesSession#writeTo}: only the t
 * innovations seen so far, not the d-sized arrays), which a POJO or Kryo serializer would neither keep compact
 * nor version. The session's own format version is checked on every read; the serializer itself has no
 * configuration, so its snapshot is a {@link SimpleTypeSerializerSnapshot}.
 */
public final class SeriesSessionSerializer extends TypeSerializerSingleton<SeriesSession> {
    private static final long serialVersionUID = 1L;

    /** The instance. */
    public static final SeriesSessionSerializer INSTANCE = new SeriesSessionSerializer();

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public SeriesSession createInstance() {
        return null;
    }

    @Override
    public SeriesSession copy(SeriesSession from) {
        return from == null ? null : from.copy();
    }

    @Override
    public SeriesSession copy(SeriesSession from, SeriesSession reuse) {
        return copy(from);
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(SeriesSession record, DataOutputView target) throws IOException {
        record.writeTo(target);
    }

    @Override
    public SeriesSession deserialize(DataInputView source) throws IOException {
        return SeriesSession.read(source);
    }

    @Override
    public SeriesSession deserialize(SeriesSession reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        serialize(deserialize(source), target);
    }

    @Override
    public TypeSerializerSnapshot<SeriesSession> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Snapshot: no configuration; the session format carries its own version. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<SeriesSession> {
        /** For Flink (reflective instantiation on restore). */
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}

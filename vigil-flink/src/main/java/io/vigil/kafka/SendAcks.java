package io.vigil.kafka;

import io.vigil.util.Progress;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * The send callback of the replays ({@link Replay}, {@link RecordingReplay}): counts acknowledgements, advancing the
 * progress bar by one per record, and keeps the first failure; one instance per topic, shared by all its sends.
 */
final class SendAcks implements Callback {
    final AtomicLong acked = new AtomicLong();
    final AtomicReference<Exception> failure = new AtomicReference<>();
    private final Progress progress;

    SendAcks(Progress progress) {
        this.progress = progress;
    }

    @Override
    public void onCompletion(RecordMetadata metadata, Exception exception) {
        if (exception != null) {
            failure.compareAndSet(null, exception);
        } else {
            acked.incrementAndGet();
            progress.step();
        }
    }
}

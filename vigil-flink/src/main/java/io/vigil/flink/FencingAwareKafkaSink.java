package io.vigil.flink;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaWriterState;
import org.apache.flink.connector.kafka.sink.TwoPhaseCommittingStatefulSink;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPostCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.lineage.LineageVertex;
import org.apache.flink.streaming.api.lineage.LineageVertexProvider;

/**
 * Flink's {@link KafkaSink} with its committer watched for fencing. A producer fenced while it sends is seen by
 * {@link FencingInterceptor}; one fenced between the pre-commit and the commit of its transaction fails only the
 * commit, which Flink's committer logs and drops (the job keeps running, the transaction's records are lost). This
 * sink hands the failed commits of this attempt's own transactions to {@link ProducerFencing}, so that a job
 * watching its prefix learns of that too. A transaction recovered from a checkpoint (its committable carries no
 * producer: the writer of the failed attempt is gone) is not reported: its commit is retried on every restore, and a
 * fenced one there is, as Flink's committer logs, expected after the previous attempt aborted or already finished it.
 * Everything else (writer, state, serializers, post-commit topology) is the wrapped sink's, so checkpoints of the
 * job are unchanged.
 */
final class FencingAwareKafkaSink<T>
        implements TwoPhaseCommittingStatefulSink<T, KafkaWriterState, KafkaCommittable>,
                SupportsPostCommitTopology<KafkaCommittable>,
                LineageVertexProvider {
    private static final long serialVersionUID = 1L;

    private final KafkaSink<T> sink;

    FencingAwareKafkaSink(KafkaSink<T> sink) {
        this.sink = sink;
    }

    @Override
    public PrecommittingStatefulSinkWriter<T, KafkaWriterState, KafkaCommittable> createWriter(
            WriterInitContext context) throws IOException {
        return sink.createWriter(context);
    }

    @Override
    public PrecommittingStatefulSinkWriter<T, KafkaWriterState, KafkaCommittable> restoreWriter(
            WriterInitContext context, Collection<KafkaWriterState> recoveredState) throws IOException {
        return sink.restoreWriter(context, recoveredState);
    }

    @Override
    public SimpleVersionedSerializer<KafkaWriterState> getWriterStateSerializer() {
        return sink.getWriterStateSerializer();
    }

    @Override
    public Committer<KafkaCommittable> createCommitter(CommitterInitContext context) throws IOException {
        return new WatchedCommitter(sink.createCommitter(context));
    }

    @Override
    public SimpleVersionedSerializer<KafkaCommittable> getCommittableSerializer() {
        return sink.getCommittableSerializer();
    }

    @Override
    public void addPostCommitTopology(DataStream<CommittableMessage<KafkaCommittable>> committables) {
        sink.addPostCommitTopology(committables);
    }

    @Override
    public LineageVertex getLineageVertex() {
        return sink.getLineageVertex();
    }

    /** A committer whose failed commit requests are shown to {@link ProducerFencing} first. */
    static final class WatchedCommitter implements Committer<KafkaCommittable> {
        private final Committer<KafkaCommittable> committer;

        WatchedCommitter(Committer<KafkaCommittable> committer) {
            this.committer = committer;
        }

        @Override
        public void commit(Collection<Committer.CommitRequest<KafkaCommittable>> requests)
                throws IOException, InterruptedException {
            List<Committer.CommitRequest<KafkaCommittable>> watched = requests.stream()
                    .<CommitRequest<KafkaCommittable>>map(WatchedRequest::new)
                    .toList();
            committer.commit(watched);
        }

        @Override
        public void close() throws Exception {
            committer.close();
        }
    }

    /** A commit request that reports its failure to {@link ProducerFencing} before passing it on. */
    private record WatchedRequest(Committer.CommitRequest<KafkaCommittable> request)
            implements Committer.CommitRequest<KafkaCommittable> {
        @Override
        public KafkaCommittable getCommittable() {
            return request.getCommittable();
        }

        @Override
        public int getNumberOfRetries() {
            return request.getNumberOfRetries();
        }

        @Override
        public void signalFailedWithKnownReason(Throwable t) {
            report(t);
            request.signalFailedWithKnownReason(t);
        }

        @Override
        public void signalFailedWithUnknownReason(Throwable t) {
            report(t);
            request.signalFailedWithUnknownReason(t);
        }

        /** Reports a failure of a transaction this attempt's writer opened (see the class comment). */
        private void report(Throwable t) {
            KafkaCommittable c = request.getCommittable();
            if (c.getProducer().isPresent()) {
                ProducerFencing.observed(c.getTransactionalId(), t);
            }
        }

        @Override
        public void retryLater() {
            request.retryLater();
        }

        @Override
        public void updateAndRetryLater(KafkaCommittable committable) {
            request.updateAndRetryLater(committable);
        }

        @Override
        public void signalAlreadyCommitted() {
            request.signalAlreadyCommitted();
        }
    }
}

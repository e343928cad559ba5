package io.vigil.flink;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.flink.api.dag.Pipeline;
import org.apache.flink.client.ClientUtils;
import org.apache.flink.client.deployment.executors.PipelineExecutorUtils;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.PipelineExecutor;
import org.apache.flink.core.execution.PipelineExecutorFactory;
import org.apache.flink.core.execution.PipelineExecutorServiceLoader;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.minicluster.MiniClusterJobClient;
import org.apache.flink.runtime.minicluster.RpcServiceSharing;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.util.function.FunctionUtils;

/**
 * A MiniCluster started before its job exists, and the executor that submits jobs to it. Flink's local environment
 * starts a MiniCluster when a job is submitted; the demo starts this one while its model trains, so that the job is
 * only deployed, not also waited for, once the model is there. Jobs submitted here leave the cluster running (the
 * cluster ends with {@link #close}), exactly as Flink's local executor submits them otherwise (the same stream
 * graph translation and job-initialisation wait).
 */
final class EmbeddedCluster implements PipelineExecutorServiceLoader, PipelineExecutorFactory, PipelineExecutor {
    /** The execution target name under which environments of this cluster find it. */
    static final String TARGET = "vigil-embedded";

    private final MiniCluster cluster;

    private EmbeddedCluster(MiniCluster cluster) {
        this.cluster = cluster;
    }

    /** Starts a MiniCluster of one TaskManager with {@code slots} slots on {@code configuration}. */
    static EmbeddedCluster start(Configuration configuration, int slots) throws Exception {
        MiniCluster c = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(new Configuration(configuration))
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(slots)
                .setRpcServiceSharing(RpcServiceSharing.SHARED)
                .build());
        try {
            c.start();
        } catch (Exception e) {
            c.closeAsync();
            throw e;
        }
        return new EmbeddedCluster(c);
    }

    /** {@code configuration} with this cluster as the execution target (attached, as for a local environment). */
    static Configuration target(Configuration configuration) {
        Configuration c = new Configuration(configuration);
        c.set(DeploymentOptions.TARGET, TARGET);
        c.set(DeploymentOptions.ATTACHED, true);
        return c;
    }

    @Override
    public PipelineExecutorFactory getExecutorFactory(Configuration configuration) {
        return this;
    }

    @Override
    public Stream<String> getExecutorNames() {
        return Stream.of(TARGET);
    }

    @Override
    public String getName() {
        return TARGET;
    }

    @Override
    public boolean isCompatibleWith(Configuration configuration) {
        return TARGET.equals(configuration.get(DeploymentOptions.TARGET));
    }

    @Override
    public PipelineExecutor getExecutor(Configuration configuration) {
        return this;
    }

    @Override
    public CompletableFuture<JobClient> execute(Pipeline pipeline, Configuration configuration, ClassLoader classLoader)
            throws Exception {
        StreamGraph graph = PipelineExecutorUtils.getStreamGraph(pipeline, configuration);
        graph.serializeUserDefinedInstances();
        return cluster.submitJob(graph).thenApplyAsync(FunctionUtils.uncheckedFunction(submitted -> {
            ClientUtils.waitUntilJobInitializationFinished(
                    () -> cluster.getJobStatus(submitted.getJobID()).get(),
                    () -> cluster.requestJobResult(submitted.getJobID()).get(),
                    classLoader);
            return new MiniClusterJobClient(
                    submitted.getJobID(), cluster, classLoader, MiniClusterJobClient.JobFinalizationBehavior.NOTHING);
        }));
    }

    /** Stops the cluster (and any job still on it), waiting at most {@code timeout}. */
    void close(Duration timeout) throws Exception {
        try {
            cluster.closeAsync().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the embedded Flink cluster did not stop within " + timeout, e);
        }
    }
}

package io.vigil.kafka;

import java.nio.file.Path;
import kafka.server.KafkaRaftServer;

/**
 * The temp storage of a broker that created it, with the JVM shutdown hook that deletes it. The hook first stops
 * the server and waits for it (deleting the directory under a running Kafka made it log pages of ERROR and WARN
 * traces), and a hook that comes while Kafka starts waits until it has started: the start holds this object's
 * monitor. {@link #release} runs once, from the hook or {@link LoopbackKafka#close}, whichever comes first.
 */
final class LoopbackStorage extends Thread {
    private final Path dir;
    private KafkaRaftServer server;
    private boolean released;

    private LoopbackStorage(Path dir) {
        super("vigil-kafka-temp-cleanup");
        this.dir = dir;
    }

    static LoopbackStorage register(Path dir) {
        LoopbackStorage t = new LoopbackStorage(dir);
        try {
            Runtime.getRuntime().addShutdownHook(t);
        } catch (IllegalStateException shuttingDown) {
            LoopbackKafka.deleteQuietly(dir);
            throw new IllegalStateException("the JVM is shutting down; Kafka was not started", shuttingDown);
        }
        return t;
    }

    synchronized void serving(KafkaRaftServer s) {
        server = s;
    }

    synchronized boolean released() {
        return released;
    }

    @Override
    public void run() {
        release();
    }

    /** Stops the server (if one was started) and waits for it, then deletes the directory; once. */
    synchronized void release() {
        if (released) {
            return;
        }
        released = true;
        if (server != null) {
            LoopbackKafka.stopQuietly(server);
            server = null;
        }
        LoopbackKafka.deleteQuietly(dir);
    }

    void unregister() {
        try {
            Runtime.getRuntime().removeShutdownHook(this);
        } catch (IllegalStateException shuttingDown) {
            // The JVM is already exiting: the hook runs and finds the directory released.
        }
    }
}

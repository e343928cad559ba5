package io.vigil.flink;

import io.vigil.util.EnumNames;
import java.util.Locale;
import org.apache.flink.connector.base.DeliveryGuarantee;

/**
 * The delivery guarantee of the job's Kafka outputs. {@code exactly-once} writes through Kafka transactions
 * committed with each checkpoint (read_committed consumers see every decision once, after the checkpoint);
 * {@code at-least-once} flushes on checkpoints without transactions (lower latency; after a failure a decision
 * may be written twice, never lost).
 */
public enum Delivery {
    /** Kafka transactions, committed per checkpoint. */
    EXACTLY_ONCE(DeliveryGuarantee.EXACTLY_ONCE),
    /** Flush on checkpoint, no transactions. */
    AT_LEAST_ONCE(DeliveryGuarantee.AT_LEAST_ONCE);

    private final DeliveryGuarantee guarantee;

    Delivery(DeliveryGuarantee guarantee) {
        this.guarantee = guarantee;
    }

    /** The command-line name, e.g. {@code exactly-once}. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The connector's guarantee. */
    public DeliveryGuarantee guarantee() {
        return guarantee;
    }

    /**
     * Parses a command-line name.
     *
     * @throws IllegalArgumentException naming the valid values
     */
    public static Delivery fromCliName(String name) {
        return EnumNames.parse(Delivery.class, name, Delivery::cliName, "delivery");
    }
}

package io.vigil.flink;

import java.util.Map;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.metrics.groups.InternalOperatorMetricGroup;
import org.apache.flink.runtime.metrics.groups.UnregisteredMetricGroups;
import org.apache.flink.runtime.metrics.util.InterceptingOperatorMetricGroup;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.runtime.operators.testutils.MockEnvironmentBuilder;

/** Task metrics whose operator group keeps what is registered, so a harness test reads a keyed stage's metrics. */
final class OperatorMetrics extends UnregisteredMetricGroups.UnregisteredTaskMetricGroup {
    private final InterceptingOperatorMetricGroup operator = new InterceptingOperatorMetricGroup();

    @Override
    public InternalOperatorMetricGroup getOrAddOperator(OperatorID id, String name, Map<String, String> info) {
        return operator;
    }

    @Override
    public InternalOperatorMetricGroup getOrAddOperator(String name) {
        return operator;
    }

    /** A counter's count or a numeric gauge's value. */
    long value(String name) {
        Metric m = operator.get(name);
        if (m instanceof Counter c) {
            return c.getCount();
        }
        return ((Number) ((Gauge<?>) m).getValue()).longValue();
    }

    /** A mock task environment reporting to these metrics. */
    MockEnvironment environment() {
        return new MockEnvironmentBuilder().setMetricGroup(this).build();
    }
}

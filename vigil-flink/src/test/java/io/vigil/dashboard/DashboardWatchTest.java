package io.vigil.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vigil.data.recording.RecordingEvent;
import io.vigil.flink.JobMetrics;
import io.vigil.flink.WatchAlarm;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.kafka.TopicTail;
import io.vigil.watch.AlarmEvent;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A watch job's dashboard on the loopback broker, without a browser: alarm records written to the alarms topic (as
 * the watch job's sink writes them) reach the page's event stream as alarm rows, newest first, each judged against the
 * known events, beside the watch counters of the job's metrics; records that are not alarms are ignored.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class DashboardWatchTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void alarmsWrittenToTheTopicAreListedNewestFirstAndJudged() throws Exception {
        try (LoopbackKafka kafka = LoopbackKafka.start()) {
            kafka.createTopic("values", 1);
            kafka.createTopic("alarms", 1);
            Map<String, List<RecordingEvent>> events =
                    Map.of("rec-1", List.of(new RecordingEvent("rec-1", 100, 180, "bell")));
            JobMetrics.Snapshot metrics = new JobMetrics.Snapshot(
                    Map.of(JobMetrics.SAMPLES_IN, 900L, JobMetrics.WATCH_KEYS, 1L, JobMetrics.WATCH_ALARMS, 2L));
            try (Dashboard board = Dashboard.start(Dashboard.Settings.of(
                                    0, "watch", kafka.clientProperties(), "values", "alarms", () -> metrics)
                            .from(TopicTail.Start.BEGINNING)
                            .watching(true)
                            .withEvents(events));
                    Socket socket = new Socket(
                            InetAddress.getByName(DashboardServer.LOOPBACK),
                            URI.create(board.url()).getPort())) {
                socket.setSoTimeout(60_000);
                OutputStream out = socket.getOutputStream();
                out.write(("GET /events HTTP/1.1\r\nHost: "
                                + URI.create(board.url()).getAuthority() + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                produce(
                        kafka,
                        List.of(
                                alarm("rec-1", "bell", 98, 130).toJson(),
                                "{\"series\":\"not an alarm\"}".getBytes(StandardCharsets.UTF_8),
                                alarm("rec-1", "funnel", 400, 431).toJson()));
                BufferedReader in =
                        new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
                JsonNode frame = null;
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    int at = line.indexOf("data: ");
                    if (at < 0) {
                        continue;
                    }
                    frame = JSON.readTree(line.substring(at + "data: ".length()));
                    if (frame.get("alarms").size() == 2) {
                        break;
                    }
                }
                assertTrue(frame != null, "an event frame");
                assertEquals("watch", frame.get("mode").asText());
                JsonNode newest = frame.get("alarms").get(0);
                assertEquals("funnel", newest.get("label").asText());
                assertEquals(431, newest.get("trigger").asLong());
                assertEquals("false", newest.get("verdict").asText(), "in background");
                assertEquals("true", frame.get("alarms").get(1).get("verdict").asText(), "inside the bell event");
                assertEquals(1, frame.get("watch").get("keys").asLong());
                assertEquals(2, frame.get("watch").get("alarms_received").asLong(), "the other record is ignored");
                assertEquals(1, frame.get("watch").get("verdicts").get("true").asLong());
            }
        }
    }

    private static WatchAlarm alarm(String key, String label, long start, long trigger) {
        return WatchAlarm.of(
                new AlarmEvent(
                        key, label, start, trigger, trigger - start, Double.NaN, start, 96, false, "none", 0.9, 0.5),
                "model-1",
                System.currentTimeMillis(),
                System.currentTimeMillis());
    }

    private static void produce(LoopbackKafka kafka, List<byte[]> values) {
        Map<String, Object> p = new HashMap<>(kafka.clientProperties());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (byte[] v : values) {
                producer.send(new ProducerRecord<>("alarms", v));
            }
        }
    }
}

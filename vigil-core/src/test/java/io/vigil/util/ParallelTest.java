package io.vigil.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ParallelTest {
    @Test
    void resultsComeBackInInputOrderWhateverFinishesFirst() {
        List<Integer> items = IntStream.range(0, 12).boxed().toList();
        for (int threads : new int[] {1, 2, 5}) {
            List<Integer> out = Parallel.map(items, threads, "test", i -> {
                try {
                    Thread.sleep((12 - i) * 2L); // later items finish first
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return i * i;
            });
            assertEquals(items.stream().map(i -> i * i).toList(), out, threads + " threads");
        }
    }

    @Test
    void runsOnSeveralThreadsWhenAsked() {
        ConcurrentHashMap<String, Boolean> names = new ConcurrentHashMap<>();
        Parallel.map(IntStream.range(0, 8).boxed().toList(), 2, "test", i -> {
            names.put(Thread.currentThread().getName(), true);
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return i;
        });
        assertEquals(2, names.size(), "threads used: " + names.keySet());
    }

    @Test
    void aFailingPieceRethrowsItsOwnException() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> Parallel.map(List.of(1, 2, 3), 2, "test", i -> {
                    if (i == 2) {
                        throw new IllegalArgumentException("piece " + i + " is bad");
                    }
                    return i;
                }));
        assertEquals("piece 2 is bad", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Parallel.map(List.of(1), 0, "test", i -> i));
    }
}

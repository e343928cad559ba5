package io.vigil.classify.qda;

import java.util.Arrays;

/**
 * Exact k-nearest selection primitives shared by local QDA's searches: value quickselect, selection and heap
 * order by (distance, index), and neighbour sets as bit masks over a class's point indices. Ties in distance
 * always go to the lower index, so every search that uses these yields the same set.
 */
final class KNearest {
    private KNearest() {}

    /**
     * The m-th smallest of {@code v[0..n)} (1 ≤ m ≤ n), rearranging {@code v} so that {@code v[0..m)} holds the m
     * smallest values: Hoare-partition quickselect on the values themselves (median-of-three pivot), which is
     * cheaper than selecting indices by (distance, index) and, with {@link #collect}, yields the same set.
     */
    static double kthSmallest(double[] v, int n, int m) {
        int lo = 0;
        int hi = n - 1;
        int target = m - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            double a = v[lo];
            double b = v[mid];
            double c = v[hi];
            double pivot = a < b ? (b < c ? b : Math.max(a, c)) : (a < c ? a : Math.max(b, c));
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (v[i] < pivot) {
                    i++;
                }
                while (v[j] > pivot) {
                    j--;
                }
                if (i <= j) {
                    double tmp = v[i];
                    v[i] = v[j];
                    v[j] = tmp;
                    i++;
                    j--;
                }
            }
            if (target <= j) {
                hi = j;
            } else if (target >= i) {
                lo = i;
            } else {
                return v[target];
            }
        }
        return v[target];
    }

    /**
     * The indices of the m points of {@code dist[0..n)} smallest by (distance, index), given the m-th smallest
     * distance {@code cut}, into {@code out} in increasing index order (points at distance {@code cut} fill the
     * remaining places by increasing index). Returns m.
     */
    static int collect(double[] dist, int n, double cut, int m, int[] out) {
        int ties = m - countBelow(dist, n, cut);
        int c = 0;
        for (int i = 0; i < n; i++) {
            double d = dist[i];
            if (d < cut || (d == cut && ties-- > 0)) {
                out[c++] = i;
            }
        }
        return c;
    }

    /** As {@link #collect}, into a bit mask over the class's point indices. */
    static void maskOfSmallest(double[] dist, int n, double cut, int m, long[] mask) {
        Arrays.fill(mask, 0L);
        int ties = m - countBelow(dist, n, cut);
        for (int i = 0; i < n; i++) {
            double d = dist[i];
            if (d < cut || (d == cut && ties-- > 0)) {
                mask[i >>> 6] |= 1L << i;
            }
        }
    }

    private static int countBelow(double[] dist, int n, double cut) {
        int less = 0;
        for (int i = 0; i < n; i++) {
            if (dist[i] < cut) {
                less++;
            }
        }
        return less;
    }

    /**
     * Adds to {@code mask} the {@code need} band points with the smallest exact distances; the band is in
     * increasing index order, so distance ties at the cut go to the lower indices (as in the full search). When
     * {@code in} is given, also marks {@code in[slot[idx]]} for each chosen point.
     */
    static void selectBand(
            double[] dist, int[] band, int b, int need, double[] vals, long[] mask, boolean[] in, int[] slot) {
        double cut = Double.POSITIVE_INFINITY;
        if (need == 1 && b > 1) {
            cut = smallest(dist, band, b, vals);
        } else if (need < b) {
            for (int j = 0; j < b; j++) {
                vals[j] = dist[band[j]];
            }
            cut = kthSmallest(vals, b, need);
        }
        int less = 0;
        for (int j = 0; j < b; j++) {
            if (dist[band[j]] < cut) {
                less++;
            }
        }
        int ties = need - less;
        for (int j = 0; j < b; j++) {
            int idx = band[j];
            double d = dist[idx];
            if (d < cut || (d == cut && ties-- > 0)) {
                mask[idx >>> 6] |= 1L << idx;
                if (in != null) {
                    in[slot[idx]] = true;
                }
            }
        }
    }

    /**
     * The smallest of {@code dist[band[0..b)]} by one scan: what {@link #kthSmallest} returns for m = 1 on values
     * without NaN (to which it falls back otherwise, so the cut is always its).
     */
    private static double smallest(double[] dist, int[] band, int b, double[] vals) {
        double min = Double.POSITIVE_INFINITY;
        for (int j = 0; j < b; j++) {
            double d = dist[band[j]];
            if (Double.isNaN(d)) {
                for (int i = 0; i < b; i++) {
                    vals[i] = dist[band[i]];
                }
                return kthSmallest(vals, b, 1);
            }
            min = Math.min(min, d);
        }
        return min;
    }

    /**
     * Rearranges {@code order[0..n)} so that its first m entries are the m smallest by (distance, index)
     * (Hoare-partition quickselect with a median-of-three pivot; deterministic).
     */
    static void select(int[] order, int n, int m, double[] dist) {
        int lo = 0;
        int hi = n - 1;
        int target = m - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (farther(order[lo], order[mid], dist)) {
                swap(order, lo, mid);
            }
            if (farther(order[mid], order[hi], dist)) {
                swap(order, mid, hi);
                if (farther(order[lo], order[mid], dist)) {
                    swap(order, lo, mid);
                }
            }
            int pivot = order[mid];
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (farther(pivot, order[i], dist)) {
                    i++;
                }
                while (farther(order[j], pivot, dist)) {
                    j--;
                }
                if (i <= j) {
                    swap(order, i, j);
                    i++;
                    j--;
                }
            }
            if (target <= j) {
                hi = j;
            } else if (target >= i) {
                lo = i;
            } else {
                return;
            }
        }
    }

    /**
     * The m points of {@code dist[0..n)} nearest by (distance, index) into {@code heap[0..m)}, sorted in that
     * order: a bounded max-heap, O(n log m), then heap sort in place. Returns m.
     */
    static int nearestSorted(double[] dist, int n, int m, int[] heap) {
        int heapSize = 0;
        for (int i = 0; i < n; i++) {
            if (heapSize < m) {
                heap[heapSize] = i;
                siftUp(heap, heapSize, dist);
                heapSize++;
            } else if (farther(heap[0], i, dist)) {
                heap[0] = i;
                siftDown(heap, 0, heapSize, dist);
            }
        }
        for (int end = heapSize - 1; end > 0; end--) {
            int top = heap[0];
            heap[0] = heap[end];
            heap[end] = top;
            siftDown(heap, 0, end, dist);
        }
        return heapSize;
    }

    /** True when point a is farther from the query than point b (ties: larger index is farther). */
    static boolean farther(int a, int b, double[] dist) {
        return dist[a] > dist[b] || (dist[a] == dist[b] && a > b);
    }

    private static void swap(int[] a, int i, int j) {
        int tmp = a[i];
        a[i] = a[j];
        a[j] = tmp;
    }

    private static void siftUp(int[] heap, int pos, double[] dist) {
        int child = pos;
        while (child > 0) {
            int parent = (child - 1) >>> 1;
            if (!farther(heap[child], heap[parent], dist)) {
                return;
            }
            swap(heap, child, parent);
            child = parent;
        }
    }

    private static void siftDown(int[] heap, int pos, int size, double[] dist) {
        int parent = pos;
        while (true) {
            int left = 2 * parent + 1;
            if (left >= size) {
                return;
            }
            int largest = left;
            int right = left + 1;
            if (right < size && farther(heap[right], heap[left], dist)) {
                largest = right;
            }
            if (!farther(heap[largest], heap[parent], dist)) {
                return;
            }
            swap(heap, largest, parent);
            parent = largest;
        }
    }

    /** The mask of the indices {@code order[0..m)}. */
    static void maskOf(int[] order, int m, long[] mask) {
        Arrays.fill(mask, 0L);
        for (int j = 0; j < m; j++) {
            int idx = order[j];
            mask[idx >>> 6] |= 1L << idx;
        }
    }

    /** The mask of indices 0..n−1. */
    static void allOf(int n, long[] mask) {
        Arrays.fill(mask, 0L);
        for (int i = 0; i < n; i++) {
            mask[i >>> 6] |= 1L << i;
        }
    }

    static int bitCount(long[] mask) {
        int c = 0;
        for (long w : mask) {
            c += Long.bitCount(w);
        }
        return c;
    }
}

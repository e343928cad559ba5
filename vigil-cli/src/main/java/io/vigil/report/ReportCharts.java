package io.vigil.report;

import java.io.IOException;
import java.nio.file.Path;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/** The look every report plot shares (size, white background, legend below) and how it is written as a PNG. */
public final class ReportCharts {
    private static final int WIDTH = 800;
    private static final int HEIGHT = 560;

    private ReportCharts() {}

    /** An empty chart with these titles in the reports' style. */
    static XYChart chart(String title, String xAxisTitle, String yAxisTitle) {
        XYChart chart = new XYChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(title)
                .xAxisTitle(xAxisTitle)
                .yAxisTitle(yAxisTitle)
                .build();
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        return chart;
    }

    /**
     * Mean decision time against test {@code what} (reliability or accuracy) on one dataset, the axes of thesis
     * Figures 5.6–5.11.
     */
    public static XYChart decisionTime(String dataset, String what) {
        return chart(dataset + ": mean decision time vs test " + what, "test " + what, "mean decision time t");
    }

    /** An empty chart of two operating characteristics against each other, e.g. false alarms per hour and F1. */
    public static XYChart tradeoff(String title, String xAxisTitle, String yAxisTitle) {
        return chart(title, xAxisTitle, yAxisTitle);
    }

    /** Writes {@code chart} to {@code file} as a PNG. */
    public static void savePng(XYChart chart, Path file) throws IOException {
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}

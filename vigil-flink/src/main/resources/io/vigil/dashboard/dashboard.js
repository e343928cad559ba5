// Vigil's live dashboard: one EventSource (/events) delivers the whole state as JSON a few times a second;
// this script draws it with uPlot. Values from the stream are only ever set as text, never as HTML.
(function () {
  "use strict";

  const COLORS = { blue: "#2563eb", green: "#059669", amber: "#d97706", red: "#dc2626", violet: "#7c3aed", grey: "#9aa5b1" };
  const HEIGHT = 220;
  const fmt = new Intl.NumberFormat("en-US");
  const fmt1 = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });
  const charts = {};
  let lastReceived = 0;
  let state = null;
  let shownMode = "series";

  const $ = (id) => document.getElementById(id);
  const text = (id, v) => { $(id).textContent = v; };
  const widthOf = (el) => Math.max(200, el.clientWidth);

  function make(id, opts, data) {
    const el = $(id);
    const u = new uPlot(Object.assign({ width: widthOf(el), height: HEIGHT, legend: { show: false } }, opts), data, el);
    charts[id] = u;
    return u;
  }

  function bars(color) {
    return { stroke: color, fill: color + "cc", width: 1, paths: uPlot.paths.bars({ size: [0.9, 60] }), points: { show: false } };
  }

  function rateChart(perSecond) {
    return make("chart-rate", {
      scales: { x: { time: true }, s: { auto: true, range: (u, min, max) => [0, Math.max(1, max * 1.1)] },
        d: { auto: true, range: (u, min, max) => [0, Math.max(1, max * 1.1)] } },
      series: [{},
        { label: "samples/s", scale: "s", stroke: COLORS.blue, width: 2, fill: COLORS.blue + "14", points: { show: false }, value: (u, v) => v == null ? "–" : fmt.format(Math.round(v)) },
        { label: perSecond, scale: "d", stroke: COLORS.green, width: 2, points: { show: false }, value: (u, v) => v == null ? "–" : fmt1.format(v) }],
      legend: { show: true },
      axes: [{}, { scale: "s", label: "samples/s", size: 70 }, { scale: "d", side: 1, label: perSecond, grid: { show: false }, size: 60 }],
    }, [[], [], []]);
  }

  function tdChart() {
    return make("chart-td", {
      scales: { x: { time: false, range: [0, 1] }, y: { range: (u, min, max) => [0, Math.max(1, max * 1.1)] } },
      series: [{ label: "t/d", value: (u, v) => v == null ? "–" : v.toFixed(3) },
        Object.assign({ label: "decisions" }, bars(COLORS.green))],
      axes: [{ label: "t/d at decision (1 = complete series)" }, { label: "decisions", size: 60 }],
    }, [[], []]);
  }

  // Each bin is labelled with its lower edge: 0, 1, 2, 5, … ms, 1 s, 2 s, …
  function latencyLabels(edges) {
    const short = (v) => v >= 1000 ? (v / 1000) + "s" : String(v);
    return ["0", ...edges.map(short)];
  }

  function latencyChart(edges) {
    const labels = latencyLabels(edges);
    return make("chart-latency", {
      scales: { x: { time: false, range: [-0.6, labels.length - 0.4] }, y: { range: (u, min, max) => [0, Math.max(1, max * 1.1)] } },
      series: [{ label: "latency", value: (u, v) => v == null ? "–" : labels[v] },
        Object.assign({ label: "decisions" }, bars(COLORS.blue))],
      axes: [{ label: "ms (each bar from its lower edge)", splits: () => labels.map((_, i) => i), values: (u, splits) => splits.map((v) => v % 2 === 0 ? labels[v] : "") },
        { label: shownMode === "watch" ? "alarms" : "decisions", size: 60 }],
    }, [[], []]);
  }

  function seriesChart() {
    return make("chart-series", {
      scales: { x: { time: false, range: (u, min, max) => [1, Math.max(2, state && state.series && state.series.length ? state.series.length : max)] } },
      series: [{ label: "t" }, { label: "value", stroke: COLORS.blue, width: 2, points: { show: false } }],
      axes: [{ label: "t" }, { label: "value", size: 55 }],
      hooks: { draw: [drawDecisionMarker] },
    }, [[], []]);
  }

  function drawDecisionMarker(u) {
    const s = state && state.series;
    if (!s || s.decided_t == null) return;
    const x = u.valToPos(s.decided_t, "x", true);
    const ctx = u.ctx;
    const top = u.bbox.top;
    const bottom = u.bbox.top + u.bbox.height;
    ctx.save();
    ctx.strokeStyle = s.early ? COLORS.green : COLORS.amber;
    ctx.lineWidth = 2 * devicePixelRatio;
    ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
    ctx.beginPath();
    ctx.moveTo(x, top);
    ctx.lineTo(x, bottom);
    ctx.stroke();
    ctx.setLineDash([]);
    const color = ctx.strokeStyle;
    const px = devicePixelRatio;
    ctx.font = "600 " + 12 * px + "px system-ui, sans-serif";
    const label = (s.status === "decided" ? "label " + s.label : s.status) + " at t = " + s.decided_t;
    const w = ctx.measureText(label).width;
    const right = u.bbox.left + u.bbox.width;
    const lx = x + 8 * px + w > right ? x - w - 8 * px : x + 8 * px;
    ctx.fillStyle = "rgba(255,255,255,0.85)";
    ctx.fillRect(lx - 3 * px, top + 2 * px, w + 6 * px, 17 * px);
    ctx.fillStyle = color;
    ctx.fillText(label, lx, top + 15 * px);
    ctx.restore();
  }

  function agreementChart() {
    return make("chart-agreement", {
      scales: { x: { time: true }, y: { range: [0, 1] } },
      series: [{}, { label: "rolling agreement", stroke: COLORS.violet, width: 2, spanGaps: true, value: (u, v) => v == null ? "–" : (100 * v).toFixed(1) + " %" }],
      axes: [{}, { label: "share agreeing", size: 55 }],
    }, [[], []]);
  }

  function reliabilityChart() {
    return make("chart-reliability", {
      scales: { x: { time: false, range: [0, 1] }, y: { range: [0, 1] } },
      series: [{ label: "announced", value: (u, v) => v == null ? "–" : v.toFixed(3) },
        { label: "ideal", stroke: COLORS.grey, width: 1, dash: [4, 4], points: { show: false } },
        { label: "observed", stroke: COLORS.violet, width: 2, points: { show: true, size: 9, fill: COLORS.violet } }],
      legend: { show: true },
      axes: [{ label: "announced reliability" }, { label: "observed agreement", size: 55 }],
    }, [[0, 1], [0, 1], [null, null]]);
  }

  function duration(ms) {
    if (ms == null) return "–";
    return ms < 1000 ? fmt.format(ms) + " ms" : fmt1.format(ms / 1000) + " s";
  }

  function counters(c, lat, ref) {
    text("c-samples", fmt.format(c.samples));
    text("c-rate", fmt.format(Math.round(c.samples_per_s)));
    text("c-early", fmt.format(c.decided_early));
    text("c-complete", fmt.format(c.decided_complete));
    text("c-undecided", fmt.format(c.undecided));
    text("c-abandoned", fmt.format(c.abandoned));
    text("c-inflight", fmt.format(c.in_flight));
    text("c-oor", fmt.format(c.out_of_range));
    text("c-dead", fmt.format(c.dead_letters));
    const decided = c.decided_early + c.decided_complete + c.undecided;
    text("c-early-share", decided ? (100 * c.decided_early / decided).toFixed(1) + " % of decisions" : "\u00a0");
    text("c-p50", duration(lat.p50_ms));
    text("c-p99", duration(lat.p99_ms));
    if (ref) {
      text("c-agreement", ref.rolling == null ? "–" : (100 * ref.rolling).toFixed(1) + " %");
      text("c-agreement-of", "last " + fmt.format(ref.window) + " · all " + fmt.format(ref.agreed) + "/" + fmt.format(ref.compared));
    }
  }

  function deadLetters(byReason) {
    const ul = $("dead-letters");
    const entries = Object.entries(byReason).filter((e) => e[1] > 0);
    const max = Math.max(1, ...entries.map((e) => e[1]));
    ul.replaceChildren();
    if (!entries.length) {
      const li = document.createElement("li");
      li.className = "none";
      li.textContent = "none: every record so far was usable";
      ul.append(li);
    }
    for (const [reason, n] of entries) {
      const li = document.createElement("li");
      const name = document.createElement("span");
      name.textContent = reason;
      const bar = document.createElement("div");
      bar.className = "bar";
      const fill = document.createElement("span");
      fill.style.width = (100 * n / max) + "%";
      bar.append(fill);
      const count = document.createElement("span");
      count.className = "n";
      count.textContent = fmt.format(n);
      li.append(name, bar, count);
      ul.append(li);
    }
  }

  function cell(tr, value, cls) {
    const td = document.createElement("td");
    if (cls) td.className = cls;
    if (value instanceof Node) td.append(value); else td.textContent = value;
    tr.append(td);
  }

  function tag(row) {
    const span = document.createElement("span");
    const kind = row.status !== "decided" ? row.status : row.early ? "early" : "complete";
    span.className = "tag " + kind;
    span.textContent = kind === "complete" ? "at t = d" : kind;
    return span;
  }

  function table(rows, withRef) {
    const body = $("decisions").tBodies[0];
    const fresh = lastReceived;
    body.replaceChildren();
    for (const r of rows) {
      const tr = document.createElement("tr");
      if (r.received_at > fresh && fresh > 0) tr.className = "fresh";
      cell(tr, new Date(r.received_at).toLocaleTimeString("en-GB"));
      cell(tr, r.series, "series");
      cell(tr, tag(r));
      cell(tr, r.label == null ? "–" : r.label);
      cell(tr, r.t + " / " + r.length, "n");
      cell(tr, r.reliability == null ? "–" : r.reliability.toFixed(3), "n");
      cell(tr, r.certificate, "n");
      cell(tr, fmt.format(r.latency_ms) + " ms", "n");
      if (withRef) {
        const span = document.createElement("span");
        span.className = r.agrees == null ? "" : r.agrees ? "yes" : "no";
        span.textContent = r.agrees == null ? "–" : r.agrees ? "yes" : "no";
        cell(tr, span, "ref");
      }
      body.append(tr);
    }
    if (rows.length) lastReceived = Math.max(lastReceived, rows[0].received_at);
  }

  // A watch job's counters (keys, open windows, alarms, flood guard, windows, idle timeouts).
  function watchCounters(w) {
    text("c-keys", fmt.format(w.keys));
    text("c-open", fmt.format(w.open_windows));
    text("c-alarms", fmt.format(w.alarms));
    text("c-suppressed", fmt.format(w.alarms_suppressed));
    text("c-windows", fmt.format(w.windows_decided));
    text("c-timeouts", fmt.format(w.timeouts));
    const v = w.verdicts;
    text("c-verdicts", v ? fmt.format(v["true"]) + " true · " + fmt.format(v["false"]) + " false · " + fmt.format(v.duplicate) + " duplicate" : "\u00a0");
    text("alarms-caption", "(" + fmt.format(w.alarms_received) + " received; the newest " + fmt.format(w.listed) + " listed)");
  }

  function alarmTable(rows, judged) {
    document.querySelectorAll(".verdict").forEach((el) => el.classList.toggle("hidden", !judged));
    const body = $("alarms").tBodies[0];
    const fresh = lastReceived;
    body.replaceChildren();
    for (const r of rows) {
      const tr = document.createElement("tr");
      if (r.received_at > fresh && fresh > 0) tr.className = "fresh";
      cell(tr, new Date(r.received_at).toLocaleTimeString("en-GB"));
      cell(tr, r.key, "series");
      cell(tr, r.label);
      cell(tr, fmt.format(r.event_start), "n");
      cell(tr, fmt.format(r.trigger), "n");
      cell(tr, fmt.format(r.delay_samples) + " samples" + (r.delay_ms == null ? "" : " · " + duration(Math.round(r.delay_ms))), "n");
      cell(tr, r.certificate, "n");
      cell(tr, fmt.format(r.window_start) + " + " + fmt.format(r.window_length), "n");
      cell(tr, r.reliability == null ? "–" : r.reliability.toFixed(3), "n");
      cell(tr, fmt.format(r.latency_ms) + " ms", "n");
      if (judged) {
        const span = document.createElement("span");
        span.className = r.verdict === "true" ? "yes" : r.verdict === "false" ? "no" : "";
        span.textContent = r.verdict;
        cell(tr, span, "verdict");
      }
      body.append(tr);
    }
    if (rows.length) lastReceived = Math.max(lastReceived, rows[0].received_at);
  }

  // Shows the cards, panels and tables of the job's mode (series or watch) once, when the first state arrives.
  function mode(m) {
    if (shownMode === m) return;
    shownMode = m;
    const watch = m === "watch";
    document.querySelectorAll(".series-only").forEach((el) => el.classList.toggle("hidden", watch));
    document.querySelectorAll(".watch-only").forEach((el) => el.classList.toggle("hidden", !watch));
    text("c-latency-name", watch ? "value → alarm" : "sample → decision");
    text("latency-title", watch ? "Triggering value → alarm latency" : "Sample → decision latency");
    charts["chart-rate"].destroy();
    rateChart(watch ? "alarms/s" : "decisions/s");
  }

  function series(s) {
    if (!s) {
      text("series-caption", "waiting for a series to start…");
      charts["chart-series"].setData([[], []]);
      return;
    }
    let caption = s.series + ": ";
    if (s.decided_t == null) caption += "collecting, t = " + (s.t.length ? s.t[s.t.length - 1] : 0) + ", no decision yet";
    else if (s.status === "decided") caption += (s.early ? "decided early" : "decided at t = d") + ": " + s.label + " at t = " + s.decided_t + " of " + s.length;
    else caption += s.status + " at t = " + s.decided_t;
    text("series-caption", caption);
    charts["chart-series"].setData([s.t, s.values]);
  }

  function reference(ref) {
    document.querySelectorAll(".ref").forEach((el) => el.classList.toggle("hidden", !ref));
    if (!ref) return;
    document.querySelectorAll(".ref-name").forEach((el) => { el.textContent = ref.name; });
    if (!charts["chart-agreement"]) { agreementChart(); reliabilityChart(); }
    const h = state.history;
    charts["chart-agreement"].setData([h.at, h.agreement]);
    const bins = ref.reliability.filter((b) => b.n > 0);
    const xs = [0, ...bins.map((b) => b.announced), 1];
    charts["chart-reliability"].setData([xs, xs.slice(), [null, ...bins.map((b) => b.observed), null]]);
  }

  // The dashboard's own lag, shown in the header: how long after it was read from Kafka the newest decision (alarm) is
  // drawn (the time from the job's emission to Kafka's delivery is in the latency chart).
  function lag(rows) {
    if (!rows.length || rows[0].received_at <= lastReceived) return;
    text("lag", "newest " + (shownMode === "watch" ? "alarm" : "decision") + " drawn " + fmt.format(Math.max(0, Date.now() - rows[0].received_at)) + " ms after it arrived");
  }

  function render(s) {
    state = s;
    mode(s.mode);
    text("title", s.title);
    $("certification").classList.toggle("hidden", s.certified !== false);
    if (s.certified === false) text("certification", "Operating point " + s.certification);
    text("job", s.job === "running" ? "job running" : "job starting…");
    lag(s.mode === "watch" ? s.alarms : s.decisions);
    text("uptime", s.uptime_s < 120 ? Math.round(s.uptime_s) + " s" : fmt1.format(s.uptime_s / 60) + " min");
    counters(s.counters, s.latency, s.reference);
    if (s.watch) watchCounters(s.watch);
    if (!charts["chart-latency"]) latencyChart(s.latency.edges_ms);
    charts["chart-rate"].setData([s.history.at, s.history.samples_per_s, s.history.decisions_per_s]);
    const n = s.td.bins;
    charts["chart-td"].setData([s.td.counts.map((_, i) => (i + 0.5) / n), s.td.counts]);
    charts["chart-latency"].setData([s.latency.counts.map((_, i) => i), s.latency.counts]);
    deadLetters(s.dead_letters);
    reference(s.reference);
    if (s.mode === "watch") {
      alarmTable(s.alarms, !!s.watch.verdicts);
      return;
    }
    series(s.series);
    table(s.decisions, !!s.reference);
  }

  function connect() {
    const es = new EventSource("/events");
    es.onopen = () => { $("dot").className = "dot live"; text("connection", "live"); };
    es.onerror = () => { $("dot").className = "dot down"; text("connection", "reconnecting…"); };
    es.onmessage = (e) => render(JSON.parse(e.data));
  }

  function resize() {
    for (const [id, u] of Object.entries(charts)) u.setSize({ width: widthOf($(id)), height: HEIGHT });
  }

  rateChart("decisions/s");
  tdChart();
  seriesChart();
  window.addEventListener("resize", resize);
  connect();
})();

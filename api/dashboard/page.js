// The dashboard's script: reads this origin's API and fills the page. Text only through textContent (never
// HTML from data); charts with uPlot, each with a table of the same numbers. window.agentfeedDashboard tells
// tests and curious readers what was drawn.
(function () {
  "use strict";
  var state = { charts: {}, errors: [] };
  window.agentfeedDashboard = state;

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    if (attrs) for (var k in attrs) node.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  // A link only to an http(s) address (the snapshot contracts allow no other); anything else is shown as text.
  function link(href, text) {
    return /^https?:\/\//i.test(String(href)) ? el("a", { href: href, rel: "noopener noreferrer" }, text) : el("span", null, text);
  }
  function getJson(path) {
    return fetch(path, { headers: { accept: "application/json" } }).then(function (r) {
      return r.json().then(function (body) { return { status: r.status, body: body }; });
    });
  }
  function age(seconds) {
    if (seconds === null || seconds === undefined) return "never";
    if (seconds < 120) return seconds + " s";
    if (seconds < 7200) return Math.round(seconds / 60) + " min";
    if (seconds < 172800) return Math.round(seconds / 3600) + " h";
    return Math.round(seconds / 86400) + " days";
  }
  function badge(kind, text) { return el("span", { class: "badge " + kind }, text); }

  function fillStatus(status, dash) {
    var body = document.querySelector("#status-board tbody");
    var timelines = {};
    (dash.providers || []).forEach(function (p) { timelines[p.provider] = p.days; });
    (status.services || []).forEach(function (s) {
      var tr = el("tr");
      var name = el("td");
      name.appendChild(link(s.statusPageUrl, s.name));
      tr.appendChild(name);
      var now = el("td");
      now.appendChild(badge(s.status, s.status));
      tr.appendChild(now);
      var strip = el("td");
      var days = timelines[s.provider] || [];
      var row = el("div", { class: "strip", role: "img", "aria-label": days.length ? s.name + ": " + days.map(function (d) { return d.date + " " + (d.uptime_pct === null ? "no data" : d.uptime_pct + "% up") + ", " + d.incident_hours + " h of incidents"; }).join("; ") : s.name + ": no history yet" });
      days.forEach(function (d) {
        var level = d.uptime_pct === null ? "" : d.incident_hours === 0 ? "u0" : d.incident_hours < 2 ? "u1" : "u2";
        row.appendChild(el("span", { class: level, title: d.date + ": " + (d.uptime_pct === null ? "no data" : d.uptime_pct + "% up, " + d.incident_hours + " h incidents") }));
      });
      strip.appendChild(row);
      tr.appendChild(strip);
      body.appendChild(tr);
    });
  }

  var PALETTE = ["#0b4f9c", "#a4161a", "#1b6b2e", "#8a5300", "#5b2a86", "#00616f"];
  function chart(id, tableId, data, unit) {
    var target = document.getElementById(id);
    var table = document.getElementById(tableId);
    state.charts[id] = { points: 0, series: data.series.length };
    if (!data.dates.length || !data.series.length) {
      target.appendChild(el("p", null, "The warehouse holds no days for this chart yet."));
      return;
    }
    var xs = data.dates.map(function (d) { return Date.parse(d + "T00:00:00Z") / 1000; });
    var series = [{}].concat(data.series.map(function (s, i) { return { label: s.name, stroke: PALETTE[i % PALETTE.length], width: 2, points: { show: true } }; }));
    var opts = { width: Math.min(target.clientWidth || 800, 1100), height: 300, series: series, axes: [{}, { label: unit }], scales: { x: { time: true } } };
    new window.uPlot(opts, [xs].concat(data.series.map(function (s) { return s.values; })), target);
    state.charts[id].points = data.series.reduce(function (n, s) { return n + s.values.filter(function (v) { return v !== null; }).length; }, 0);
    target.setAttribute("aria-label", target.getAttribute("aria-label") + ": " + data.series.length + " series over " + data.dates.length + " days (" + data.dates[0] + " to " + data.dates[data.dates.length - 1] + "); the table below holds the values");
    var t = el("table");
    var head = el("tr");
    head.appendChild(el("th", { scope: "col" }, "Date"));
    data.series.forEach(function (s) { head.appendChild(el("th", { scope: "col" }, s.name)); });
    t.appendChild(el("thead")).appendChild(head);
    var tb = t.appendChild(el("tbody"));
    data.dates.forEach(function (d, i) {
      var tr = el("tr");
      tr.appendChild(el("th", { scope: "row" }, d));
      data.series.forEach(function (s) { tr.appendChild(el("td", null, s.values[i] === null ? "—" : s.values[i])); });
      tb.appendChild(tr);
    });
    table.appendChild(t);
  }

  function fillNews(news) {
    var list = document.getElementById("news");
    (news.items || []).slice(0, 10).forEach(function (n) {
      var li = el("li");
      li.appendChild(link(n.url, n.title));
      li.appendChild(document.createTextNode(" "));
      li.appendChild(el("small", null, n.source + (n.published ? ", " + n.published.slice(0, 10) : "")));
      list.appendChild(li);
    });
  }

  function fillFreshness(health) {
    var body = document.querySelector("#freshness tbody");
    var feeds = Object.keys(health).map(function (k) { return health[k]; }).filter(function (v) { return v && typeof v === "object" && typeof v.type === "string" && "stale" in v; });
    feeds.sort(function (a, b) { return a.type < b.type ? -1 : 1; });
    state.stale = [];
    feeds.forEach(function (f) {
      var tr = el("tr", { "data-feed": f.type, "data-stale": String(f.stale) });
      tr.appendChild(el("th", { scope: "row" }, f.type));
      tr.appendChild(el("td", null, f.last_success ? f.last_success.replace("T", " ").slice(0, 16) + " UTC" : "never"));
      tr.appendChild(el("td", null, age(f.age_seconds)));
      tr.appendChild(el("td", null, f.sla_seconds === null ? "—" : age(f.sla_seconds)));
      var s = el("td");
      s.appendChild(f.available === false ? badge("missing", "missing") : f.stale ? badge("stale", "stale") : badge("fresh", "fresh"));
      tr.appendChild(s);
      body.appendChild(tr);
      if (f.stale) state.stale.push(f.type);
    });
  }

  function start() {
    document.querySelectorAll(".origin").forEach(function (n) { n.textContent = location.origin; });
    Promise.all(["/api/status", "/api/dashboard.json", "/api/agents/news", "/api/health"].map(getJson)).then(function (r) {
      var status = r[0].body, dash = r[1].body, news = r[2].body, health = r[3].body;
      fillStatus(status.ok ? status : {}, dash.ok ? dash : {});
      if (dash.ok) {
        chart("model-chart", "model-table", dash.model_prices, "USD / 1M tokens");
        chart("gpu-chart", "gpu-table", dash.gpu_prices, "USD / GPU-hour");
      }
      fillNews(news.ok ? news : {});
      fillFreshness(health || {});
      var failed = r.filter(function (x) { return x.status >= 400 && x.status !== 503; }).length;
      document.getElementById("load-state").textContent = failed ? failed + " of 4 data sources did not answer; the rest is shown." : "Live data loaded " + new Date().toISOString().slice(0, 16).replace("T", " ") + " UTC.";
      state.loaded = true;
    }).catch(function (err) {
      document.getElementById("load-state").textContent = "The API did not answer: " + err.message;
      state.errors.push(String(err));
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
